"""The ``analyze_diffs`` MCP tool, called in process through the official client."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anyio
import pytest
from fixtures.diffs_support import file_diff, lines
from mcp import Client
from mcp.server import MCPServer

from rewrite_assist.server.mcp.registry import register_tools
from rewrite_assist.server.mcp.security import set_allowed_roots
from rewrite_assist.server.mcp.tools.analyze_diffs import TOOL

PR = file_diff("README.md", lines("# App", "Java 17", "end"), lines("# App", "Java 21", "end"))
RECIPE = file_diff("README.md", lines("# App", "Java 17", "end"), lines("# App", "Java 22", "end"))


def call(arguments: dict[str, Any]) -> Any:
    async def run() -> Any:
        server = MCPServer("diffs-test")
        register_tools(server, (TOOL,))
        async with Client(server) as client:
            return await client.call_tool("analyze_diffs", arguments)

    return anyio.run(run)


@pytest.fixture
def no_roots() -> Iterator[None]:
    yield
    set_allowed_roots(None)


def test_tool_is_listed_read_only() -> None:
    async def run() -> Any:
        server = MCPServer("diffs-test")
        register_tools(server, (TOOL,))
        async with Client(server) as client:
            return await client.list_tools()

    (tool,) = anyio.run(run).tools
    assert tool.name == "analyze_diffs"
    assert tool.annotations.read_only_hint is True
    assert tool.annotations.destructive_hint is not True
    assert {"pr_diff", "recipe_diff", "ignore_whitespace", "exclude", "max_unmatched"} <= set(
        tool.input_schema["properties"]
    )


def test_tool_scores_paths_and_returns_structured_output(tmp_path: Path) -> None:
    pr, recipe = tmp_path / "pr.diff", tmp_path / "recipe.diff"
    pr.write_text(PR)
    recipe.write_text(RECIPE)
    result = call({"pr_diff": str(pr), "recipe_diff": str(recipe)})
    assert not result.is_error
    data = result.structured_content
    assert data["diff_files"] == {"pr_diff": str(pr), "recipe_diff": str(recipe)}
    assert data["metrics"]["true_positives"] == 1
    assert data["metrics"]["precision"] == 0.5
    assert data["missing"] == [{"path": "README.md", "change": "add", "line_number": 2, "content": "Java 21"}]
    assert data["extra"][0]["content"] == "Java 22"
    assert data["summary"].startswith("1 of 2 expected changes made, 1 extra")


def test_tool_accepts_diff_text_and_options() -> None:
    spaced = PR.replace("+Java 21", "+Java   21")
    result = call({"pr_diff": PR, "recipe_diff": spaced, "ignore_whitespace": True, "max_unmatched": 0})
    assert result.structured_content["metrics"]["is_perfect_match"] is True
    assert result.structured_content["diff_files"]["pr_diff"] == "<inline diff text>"


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda d: {"pr_diff": str(d / "missing.diff"), "recipe_diff": PR}, "PR diff '.*missing.diff': no such file"),
        (lambda d: {"pr_diff": PR, "recipe_diff": str(d)}, "recipe diff '.*' is a directory"),
        (lambda d: {"pr_diff": PR, "recipe_diff": "not a diff\nat all\n"}, "recipe diff is not a unified diff"),
        (lambda d: {"pr_diff": PR[:-5], "recipe_diff": PR}, "PR diff: cannot parse"),
        (lambda d: {"pr_diff": str(d / "big.diff"), "recipe_diff": PR}, "over the 50 MB limit"),
    ],
)
def test_tool_errors_carry_the_reason(tmp_path: Path, make: Any, message: str) -> None:
    with (tmp_path / "big.diff").open("wb") as handle:
        handle.truncate(51 * 1024 * 1024)
    result = call(make(tmp_path))
    assert result.is_error
    assert re.search(message, result.content[0].text)


def test_tool_refuses_paths_outside_allowed_roots(tmp_path: Path, no_roots: None) -> None:
    inside, outside = tmp_path / "in", tmp_path / "out"
    inside.mkdir()
    outside.mkdir()
    (outside / "pr.diff").write_text(PR)
    (inside / "pr.diff").write_text(PR)
    set_allowed_roots([inside])
    refused = call({"pr_diff": str(outside / "pr.diff"), "recipe_diff": PR})
    assert refused.is_error
    assert "outside the directories this server may access" in refused.content[0].text
    allowed = call({"pr_diff": str(inside / "pr.diff"), "recipe_diff": PR})
    assert allowed.structured_content["metrics"]["is_perfect_match"] is True
