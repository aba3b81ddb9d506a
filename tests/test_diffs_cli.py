"""``rewrite-assist analyze-diffs`` and ``load_diff``: output shapes, exit codes, one-line errors."""

from __future__ import annotations

import argparse
import io
import json
import sys
from pathlib import Path

import pytest
from fixtures.diffs_support import PR_CASES, file_diff, lines, require_pr_cases

from rewrite_assist.server.diffs import INLINE_LABEL, DiffInputError, DiffMetrics, load_diff
from rewrite_assist.server.diffs.cli import register
from rewrite_assist.server.errors import UserError as CommandError

PR = file_diff("README.md", lines("# App", "Java 17", "end"), lines("# App", "Java 21", "end"))
RECIPE = file_diff("README.md", lines("# App", "Java 17", "end"), lines("# App", "Java 21", "end", "extra"))


def run_cli(argv: list[str]) -> int:
    """Parse with a fresh parser holding only this command, and run it as ``cli.main`` would."""
    parser = argparse.ArgumentParser(prog="rewrite-assist")
    register(parser.add_subparsers(dest="command"))
    args = parser.parse_args(["analyze-diffs", *argv])
    return int(args.func(args))


@pytest.fixture
def diffs(tmp_path: Path) -> tuple[Path, Path]:
    pr, recipe = tmp_path / "pr.diff", tmp_path / "recipe.diff"
    pr.write_text(PR)
    recipe.write_text(RECIPE)
    return pr, recipe


def test_json_output_has_reference_keys_first(diffs: tuple[Path, Path], capsys: pytest.CaptureFixture[str]) -> None:
    pr, recipe = diffs
    assert run_cli([str(pr), str(recipe), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert list(data)[:2] == ["diff_files", "metrics"]
    assert data["diff_files"] == {"pr_diff": str(pr), "recipe_diff": str(recipe)}
    assert list(data["metrics"]) == list(DiffMetrics.model_fields)  # order vs. the anchor: test_diffs_reference
    assert data["metrics"]["false_positives"] == 1
    assert data["per_file"][0]["path"] == "README.md"
    assert "missing" not in data


def test_details_add_the_unmatched_lines(diffs: tuple[Path, Path], capsys: pytest.CaptureFixture[str]) -> None:
    pr, recipe = diffs
    run_cli([str(pr), str(recipe), "--json", "--details"])
    data = json.loads(capsys.readouterr().out)
    assert data["extra"] == [{"path": "README.md", "change": "add", "line_number": 4, "content": "extra"}]
    assert data["missing"] == []


def test_table_output_is_readable(diffs: tuple[Path, Path], capsys: pytest.CaptureFixture[str]) -> None:
    pr, recipe = diffs
    assert run_cli([str(pr), str(recipe), "--details"]) == 0
    out = capsys.readouterr().out
    assert "total" in out and "precision" in out and "README.md" in out
    assert "2 of 2 expected changes made, 1 extra" in out
    assert "README.md:4  +extra" in out


def test_options_reach_the_analysis(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pr = tmp_path / "pr.diff"
    pr.write_text(PR + file_diff("build/out.txt", lines("a"), lines("b")))
    spaced = tmp_path / "spaced.diff"
    spaced.write_text(PR.replace("+Java 21", "+Java  21 "))
    run_cli([str(pr), str(spaced), "--json", "--exclude", "build", "--ignore-whitespace"])
    data = json.loads(capsys.readouterr().out)
    assert data["metrics"]["is_perfect_match"] is True
    assert data["options"] == {"ignore_whitespace": True, "exclude": ["build"]}


def test_standard_input_stands_in_for_one_diff(
    diffs: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    pr, _ = diffs
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(PR.encode())))
    run_cli([str(pr), "-", "--json"])
    data = json.loads(capsys.readouterr().out)
    assert data["diff_files"]["recipe_diff"] == "<stdin>"
    assert data["metrics"]["is_perfect_match"] is True
    with pytest.raises(CommandError, match="only one"):
        run_cli(["-", "-"])


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["{missing}", "{recipe}"], "PR diff '.*nope.diff': no such file"),
        (["{pr}", "{dir}"], "recipe diff '.*' is a directory"),
        (["{pr}", "{notdiff}"], "recipe diff is not a unified diff"),
        (["{pr}", "{truncated}"], "recipe diff: cannot parse the section starting at line 1"),
        (["{pr}", "{pr}", "--exclude", "/"], "would exclude every file"),
    ],
)
def test_bad_input_is_exit_code_2_with_one_line(
    diffs: tuple[Path, Path], tmp_path: Path, args: list[str], message: str
) -> None:
    pr, recipe = diffs
    (tmp_path / "not.txt").write_text("hello\nworld\n")
    (tmp_path / "trunc.diff").write_text(PR[: PR.rindex(" end")])
    paths = {
        "missing": str(tmp_path / "nope.diff"),
        "recipe": str(recipe),
        "pr": str(pr),
        "dir": str(tmp_path),
        "notdiff": str(tmp_path / "not.txt"),
        "truncated": str(tmp_path / "trunc.diff"),
    }
    with pytest.raises(CommandError, match=message) as caught:
        run_cli([a.format(**paths) for a in args])
    assert caught.value.exit_code == 2
    assert "\n" not in str(caught.value)


def test_cli_reproduces_a_reference_stats_file(capsys: pytest.CaptureFixture[str]) -> None:
    case = require_pr_cases() / "ecommerce-catalog-pr2"
    stats = json.loads((case / "stats-2025-11-17-sonnet-option-1.json").read_text())
    run_cli([str(case / "pr.diff"), str(case / stats["recipe_diff"]), "--json"])
    assert json.loads(capsys.readouterr().out)["metrics"] == stats["recomputed_metrics"]
    assert PR_CASES.is_dir()


def test_load_diff_tells_text_from_paths(tmp_path: Path) -> None:
    assert load_diff(PR) == (INLINE_LABEL, PR)
    assert load_diff("") == (INLINE_LABEL, "")
    path = tmp_path / "x.diff"
    path.write_bytes(b"diff --git a/f b/f\n+caf\xe9\n")
    label, text = load_diff(str(path))
    assert label == str(path)
    assert text.endswith("+caf\ufffd\n")
    assert load_diff(f"  {path}\n") == (str(path), text)  # a path pasted with a line break


def test_load_diff_refuses_oversized_files_and_text(tmp_path: Path) -> None:
    big = tmp_path / "big.diff"
    with big.open("wb") as handle:  # sparse: reports 51 MB without writing it
        handle.truncate(51 * 1024 * 1024)
    with pytest.raises(DiffInputError, match=r"51\.0 MB, over the 50 MB limit"):
        load_diff(str(big), what="PR diff")
    with pytest.raises(DiffInputError, match="over the"):
        load_diff(PR * 10, max_bytes=100)


def test_load_diff_shortens_a_long_argument_in_messages() -> None:
    with pytest.raises(DiffInputError) as caught:
        load_diff("x" * 5000)
    assert len(str(caught.value)) < 300
