"""Hostile arguments for every tool, generated from each tool's own input schema (hypothesis).

Every answer must be a result or a ``ToolError`` with a message: the SDK reports a crash (any exception
that is not a ``ToolError``) as the bare text "Error executing tool <name>", so that text, or a message
with nothing after the prefix, is the failure this test looks for. Tools added later are covered too:
the strategies come from ``list_tools``. Paths are confined to an empty directory (or refused outright,
as an HTTP server without --allow-root does) so validate_recipe can never start a build here.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anyio.from_thread
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from mcp import Client

from rewrite_assist.server.mcp import security
from rewrite_assist.server.mcp.app import create_server
from rewrite_assist.server.mcp.state import AppState

EXAMPLES_PER_TOOL = 120

BILLION_LAUGHS = "a: &a [x,x,x,x,x,x,x,x,x,x]\n" + "".join(
    f"{chr(98 + i)}: &{chr(98 + i)} [" + ",".join(["*" + chr(97 + i)] * 10) + "]\n" for i in range(9)
)
RECIPE = (
    "type: specs.openrewrite.org/v1beta/recipe\nname: com.example.Fuzz\nrecipeList:\n"
    "  - org.openrewrite.java.ChangeType:\n      oldFullyQualifiedTypeName: a.B\n      newFullyQualifiedTypeName: c.D\n"
)
DIFF = "diff --git a/x.txt b/x.txt\n--- a/x.txt\n+++ b/x.txt\n@@ -1 +1 @@\n-old\n+new\n"
HOSTILE = [
    "",
    " ",
    "\x00",
    "\x00 junit",
    "junit\x00",
    "\ud800",
    "a\udfff b",
    "\x1b[31mred",
    "\x07\x08\x0b\x0c",
    "\r\n",
    "\u202e\u200b",
    "x" * 2_001,
    "y" * 200_001,
    "💥" * 3_000,
    "/etc/passwd",
    "../../../../etc/shadow",
    "~",
    ".",
    "/",
    "/dev/zero",
    "/proc/self/environ",
    "'; DROP TABLE recipes; --",
    "%s%s%n",
    "{{7*7}}",
    "org.openrewrite.java.ChangeType",
    "migrate to junit 5",
    "-junit -test -java",
    BILLION_LAUGHS,
    "a: &a [*a]\n",
    "[" * 5_000,
    "\n".join(" " * i + "a:" for i in range(300)),
    RECIPE,
    RECIPE.replace("ChangeType", "NoSuchRecipe\x00"),
    DIFF,
    DIFF.replace("@@ -1 +1 @@", "@@ -1,9 +1 @@"),
    "diff --git a/x b/x\n" + "+" * 100_000,
    "type: specs.openrewrite.org/v1beta/recipe\nname: x\nrecipeList:\n  - " + "a" * 10_000 + "\n",
]
SEEN = {"examples": 0}
# Lone surrogates only ever arrive as string values here: the SDK client cannot even encode one as a
# dictionary key, and over stdio and HTTP the server's JSON parser refuses a lone "\\ud800" escape.


def strings() -> st.SearchStrategy[str]:
    return st.one_of(
        st.sampled_from(HOSTILE),
        st.text(max_size=200),
        st.text(st.characters(min_codepoint=0, max_codepoint=0x10FFFF, exclude_categories=()), max_size=40),
        st.builds(lambda a, b: a + b, st.sampled_from(HOSTILE), st.text(max_size=20)),
    )


def for_schema(schema: dict[str, Any]) -> st.SearchStrategy[Any]:
    """Values of the schema's type, hostile where they can be, and now and then of the wrong type."""
    if "anyOf" in schema:
        return st.one_of([for_schema(s) for s in schema["anyOf"]])
    if "enum" in schema:
        return st.one_of(st.sampled_from(schema["enum"]), strings())
    kind = schema.get("type")
    typed: st.SearchStrategy[Any]
    if kind == "string":
        typed = strings()
    elif kind == "integer":
        typed = st.one_of(st.integers(-10, 3_000), st.sampled_from([-(2**63), 2**63, 10**30]))
    elif kind == "number":
        typed = st.one_of(st.floats(allow_nan=True, allow_infinity=True), st.floats(-2, 2))
    elif kind == "boolean":
        typed = st.booleans()
    elif kind == "array":
        typed = st.lists(for_schema(schema.get("items", {"type": "string"})), max_size=30)
    elif kind == "null":
        typed = st.none()
    else:
        typed = st.one_of(st.none(), strings(), st.integers())
    wrong = st.one_of(
        st.none(),
        st.integers(),
        st.lists(st.integers(), max_size=3),
        st.dictionaries(st.text(max_size=10), st.integers(), max_size=2),
    )
    return st.one_of(typed, typed, typed, wrong)


def arguments(schema: dict[str, Any]) -> st.SearchStrategy[dict[str, Any]]:
    props: dict[str, Any] = schema.get("properties", {})
    required = set(schema.get("required", []))
    must = {name: for_schema(props[name]) for name in props if name in required}
    may = {name: for_schema(props[name]) for name in props if name not in required}
    extra = st.dictionaries(st.sampled_from(["unknown", "__proto__", "ctx"]), st.integers(), max_size=1)
    return st.builds(lambda a, b: {**a, **b}, st.fixed_dictionaries(must, optional=may), extra)


@pytest.fixture(scope="module")
def client(app_state: AppState, tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Any, Any, dict]]:
    """One in-process client session shared by every example (an event loop in a portal thread)."""
    root = tmp_path_factory.mktemp("fuzz-root")
    security.set_allowed_roots([root])
    try:
        with anyio.from_thread.start_blocking_portal() as portal:
            connected = portal.wrap_async_context_manager(Client(create_server(app_state, warm_up=False)))
            with connected as session:
                tools = portal.call(session.list_tools).tools
                yield portal, session, {t.name: t.input_schema for t in tools}
    finally:
        security.set_allowed_roots(None)
        security.set_inline_only(False)


def tool_names() -> list[str]:
    from rewrite_assist.server.mcp.tools import TOOLS

    return [t.name for t in TOOLS]


def check_answer(tool: str, args: dict[str, Any], result: Any) -> None:
    if not result.is_error:
        return
    text = " ".join(getattr(block, "text", "") for block in result.content)
    prefix = f"Error executing tool {tool}: "
    assert text.startswith(prefix), f"{tool} crashed on {args!r:.300}: {text!r:.300}"
    assert len(text) > len(prefix) + 10 and not text[len(prefix) :].startswith("Error executing tool"), (
        f"{tool} gave no message for {args!r:.300}: {text!r:.300}"
    )


@pytest.mark.parametrize("tool", tool_names())
def test_every_tool_answers_hostile_arguments_with_a_result_or_a_message(tool: str, client) -> None:
    portal, session, schemas = client

    @settings(
        max_examples=EXAMPLES_PER_TOOL,
        deadline=None,
        database=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    )
    @given(args=arguments(schemas[tool]), inline_only=st.booleans())
    def probe(args: dict[str, Any], inline_only: bool) -> None:
        security.set_inline_only(inline_only)
        result = portal.call(session.call_tool, tool, args)
        SEEN["examples"] += 1
        check_answer(tool, args, result)

    before = SEEN["examples"]
    probe()
    ran = SEEN["examples"] - before
    print(f"{tool}: {ran} hostile examples")
    assert ran >= EXAMPLES_PER_TOOL // 2


@pytest.mark.parametrize(
    ("tool", "args", "expected"),
    [
        ("find_recipes", {"intent": "\x00 junit"}, "NUL character"),
        ("find_recipes", {"intent": ["junit", "x" * 2_001]}, "limit is 2,000"),
        ("find_recipes", {"intent": "junit", "module": "rewrite\x00"}, "module contains a NUL"),
        ("get_recipe", {"recipe_id": "a" * 501}, "limit is 500"),
        ("get_recipe", {"recipe_id": "org.openrewrite\ud800"}, "unpaired surrogate"),
        ("lint_recipe", {"recipe": BILLION_LAUGHS}, "aliases"),
        ("lint_recipe", {"recipe": "a:\n" + "[" * 5_000}, "nested more than 100 levels"),
        ("lint_recipe", {"recipe": RECIPE + "# \x1b[31m\n"}, "(U+001B) on line 7"),
        ("lint_recipe", {"recipe": "[" * 5_000}, "limit is 4,096"),  # one line, not YAML-looking: a path
        ("analyze_diffs", {"pr_diff": DIFF, "recipe_diff": "y\n" * 2_500_001}, "limit is 5,000,000"),
        ("analyze_diffs", {"pr_diff": DIFF, "recipe_diff": DIFF, "exclude": ["*" * 201]}, "limit is 200"),
    ],
)
def test_hostile_arguments_get_a_message_that_says_what_to_change(
    client, tool: str, args: dict[str, Any], expected: str
) -> None:
    portal, session, _ = client
    security.set_inline_only(False)
    result = portal.call(session.call_tool, tool, args)
    text = " ".join(getattr(block, "text", "") for block in result.content)
    assert result.is_error and expected in text, text[:300]


def test_a_file_read_from_a_path_is_never_quoted(client, tmp_path: Path) -> None:
    """A file that is not a diff is named, not echoed (it could be any file the server can read)."""
    portal, session, _ = client
    roots = security.allowed_roots() or []
    secret = roots[0] / "secret.txt"
    secret.write_text("root:x:0:0:TOPSECRET:/root:/bin/bash\nline two\n")
    broken = roots[0] / "broken.diff"
    broken.write_text("diff --git a/x b/x\n--- a/x\n+++ b/x\n@@ -1,5 +1 @@\n-TOPSECRET\n")
    security.set_inline_only(False)
    for path in (secret, broken):
        result = portal.call(session.call_tool, "analyze_diffs", {"pr_diff": str(path), "recipe_diff": DIFF})
        text = " ".join(getattr(block, "text", "") for block in result.content)
        assert result.is_error and "PR diff" in text and "TOPSECRET" not in text and "root:x" not in text, text
