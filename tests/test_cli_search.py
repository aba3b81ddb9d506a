"""``search`` and ``show`` as a newcomer meets them: full text, every filter, unknown filter values named,
messages in the CLI's own words; and the same filter errors through the MCP tool."""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from typing import Any

import pytest
from test_mcp_server import call, text_of

from rewrite_assist.__main__ import build_parser, main
from rewrite_assist.server.catalog.details import RecipeDetails, recipe_details
from rewrite_assist.server.errors import BadInput, for_cli
from rewrite_assist.server.search import defaults, hybrid
from rewrite_assist.server.search.filters import UnknownFilterValue, closest
from rewrite_assist.server.search.models import SearchFilters
from rewrite_assist.server.search.render import INDENT, MAX_LISTED, WIDTH

JUNIT = "org.openrewrite.java.testing.junit5.JUnit4to5Migration"


@pytest.fixture
def cli(catalog, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]):
    """Run ``main()`` in-process against the session catalog: (exit code, stdout, stderr)."""
    monkeypatch.setenv("REWRITE_ASSIST_DATABASE_URL", catalog.db.url)

    def run(*args: str) -> tuple[int, str, str]:
        code = main(list(args))
        out = capsys.readouterr()
        return code, out.out, out.err

    return run


def words(text: str) -> str:
    return " ".join(text.split())


def test_show_prints_everything_json_has(cli: Any, catalog) -> None:
    details = recipe_details(catalog, JUNIT)
    assert len(details.recipe_list) > MAX_LISTED  # 51 sub-recipes: the text must shorten them
    code, text, err = cli("show", JUNIT)
    assert code == 0 and err == ""
    listed = [r.recipe_id for r in details.recipe_list]
    for rid in listed[:MAX_LISTED]:
        assert rid in text
    more = len(listed) - MAX_LISTED
    assert f"… and {more} more recipes — `--json` for all" in text
    assert details.doc_url and details.doc_url in text
    assert details.source_url and details.source_url in text
    assert f"Used by {len(details.used_by)} composite(s):" in text and details.used_by[0] in text
    assert details.examples and "Example 1" in text


def test_show_wraps_option_descriptions_without_cutting_them(cli: Any, catalog) -> None:
    details = recipe_details(catalog, "org.openrewrite.java.ChangeMethodName")
    longest = max(details.options, key=lambda o: len(o.description))
    assert len(longest.description) > 120  # the old view cut here, mid-word
    code, text, _ = cli("show", "org.openrewrite.java.ChangeMethodName")
    assert code == 0 and all(len(line) <= WIDTH for line in text.splitlines() if line.startswith(INDENT))
    flat = words(text)
    for option in details.options:
        assert words(option.description) in flat, option.name
        if option.example:
            assert f"example: {option.example}" in text


def test_show_lists_valid_values_and_trims_long_examples_with_a_marker(cli: Any, catalog) -> None:
    with catalog.db.connection() as conn, conn.cursor() as cur:
        cur.execute(
            "SELECT id FROM recipes WHERE EXISTS (SELECT 1 FROM jsonb_array_elements(data->'options') o "
            "WHERE jsonb_array_length(o->'valid_values') > 0) ORDER BY id LIMIT 1"
        )
        with_values = cur.fetchone()[0]
    details = recipe_details(catalog, with_values)
    text = cli("show", with_values)[1]
    option = next(o for o in details.options if o.valid_values)
    assert words("valid values: " + ", ".join(option.valid_values)) in words(text)
    spring = cli("show", "org.openrewrite.java.spring.boot3.UpgradeSpringBoot_3_0")[1]
    assert "more lines; `--json`" in spring or "more examples on the docs page" in spring


def test_show_json_keys_are_unchanged(cli: Any) -> None:
    data = json.loads(cli("show", "org.openrewrite.java.ChangeMethodName", "--json")[1])
    assert set(data) <= set(RecipeDetails.model_fields) and {"id", "options", "rewrite_yml", "used_by"} <= set(data)


def search_parser() -> argparse.ArgumentParser:
    sub = next(a for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction))
    return sub.choices["search"]


def test_every_search_option_has_help_and_defaults_are_shown() -> None:
    parser = search_parser()
    for action in parser._actions:
        assert action.help, action.dest
    text = parser.format_help()
    assert f"(default {defaults.DEFAULT_LIMIT})" in text and f"(default {defaults.DEFAULT_MIN_SCORE})" in text
    assert "--composite" in text and "--no-composite" in text
    assert hybrid.DEFAULT_MIN_SCORE == defaults.DEFAULT_MIN_SCORE  # one default for the tool and the CLI


def test_search_composite_filter(cli: Any) -> None:
    code, out, _ = cli("search", "migrate JUnit 4 tests to JUnit 5", "--composite", "--json", "--limit", "5")
    hits = json.loads(out)["hits"]
    assert code == 0 and hits and all(h["is_composite"] for h in hits)
    code, out, _ = cli("search", "migrate JUnit 4 tests to JUnit 5", "--no-composite", "--json", "--limit", "5")
    hits = json.loads(out)["hits"]
    assert code == 0 and hits and not any(h["is_composite"] for h in hits)


@pytest.mark.parametrize(
    ("flag", "value", "expected"),
    [("--module", "spring", "rewrite-spring"), ("--tag", "Junit", "junit"), ("--module", "zzzzqqq", "rewrite-spring")],
)
def test_unknown_filter_value_is_an_error_naming_close_values(cli: Any, flag: str, value: str, expected: str) -> None:
    code, out, err = cli("search", "migrate to JUnit 5", flag, value)
    assert code == 2 and out == "" and err.count("\n") == 1
    assert repr(value) in err and expected in err


def test_unknown_filter_value_is_a_tool_error(app_state) -> None:
    with pytest.raises(UnknownFilterValue, match="rewrite-spring"):
        hybrid.find_recipes(app_state.store(), app_state.embedder, "x", filters=SearchFilters(module="spring"))
    result = call(app_state, "find_recipes", {"intent": "upgrade spring boot", "tag": "sprng"})
    assert result.is_error and "Closest: spring" in text_of(result)


def test_closest_prefers_case_then_containment_then_spelling() -> None:
    known = ["junit", "junit-pioneer", "spring", "security", "rewrite-spring"]
    assert closest("JUnit", known)[0] == "junit"
    assert closest("org.openrewrite.recipe:rewrite-spring", known) == ["spring", "rewrite-spring"]
    assert closest("securty", known) == ["security"]
    assert issubclass(UnknownFilterValue, BadInput)


def test_messages_name_the_surface(cli: Any, app_state) -> None:
    code, _, err = cli("show", "org.openrewrite.java.ChangeMethodNam")
    assert code == 2 and "`rewrite-assist search`" in err and "find_recipes" not in err
    result = call(app_state, "get_recipe", {"recipe_id": "org.openrewrite.java.ChangeMethodNam"})
    assert result.is_error and "find_recipes" in text_of(result) and "rewrite-assist search" not in text_of(result)
    assert for_cli("lower min_score, or check the id with get_recipe") == (
        "lower `--min-score`, or check the id with `rewrite-assist show`"
    )


def test_search_with_no_hit_speaks_cli(cli: Any) -> None:
    code, out, _ = cli("search", "qqqq zzzz xxxx", "--min-score", "0.99")
    assert code == 0 and "--min-score" in out and "min_score" not in out


def test_help_imports_nothing_heavy() -> None:
    """`--help` must stay quick: none of the heavy libraries load for it."""
    for args in (["--help"], ["search", "--help"], ["show", "--help"]):
        result = subprocess.run(
            [sys.executable, "-X", "importtime", "-m", "rewrite_assist", *args],
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert result.returncode == 0, result.stderr
        loaded = {line.split("|")[-1].strip() for line in result.stderr.splitlines() if "|" in line}
        heavy = {
            m for m in loaded if m.split(".")[0] in {"numpy", "pydantic", "mcp", "psycopg2", "onnxruntime", "torch"}
        }
        assert not heavy, (args, sorted(heavy)[:10])
