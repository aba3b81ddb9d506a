"""The prompts against the real MCP server: every tool and parameter they name must exist.

The tool list and input schemas come from ``create_server()`` over an in-process MCP client, exactly what
Claude Code sees, so renaming a tool or a parameter fails here instead of in a user's run.
"""

from __future__ import annotations

import asyncio
import re
from typing import Any

import pytest

from rewrite_assist.agents.prompts import (
    TOOL_PREFIX,
    PromptFile,
    packaged_prompts,
    tool_calls,
    tool_names,
    workflow_tool_names,
)

app = pytest.importorskip("rewrite_assist.server.mcp.app")

# `name=value` written in prose (outside a full call), e.g. "search with `composite=true`".
_INLINE_PARAM = re.compile(r"`([a-z_][a-z0-9_]*)=[^`]*`")


@pytest.fixture(scope="module")
def schemas() -> dict[str, dict[str, Any]]:
    """Tool name → input JSON schema, as listed by the real server."""
    from mcp import Client

    async def listing() -> dict[str, dict[str, Any]]:
        async with Client(app.create_server(warm_up=False)) as client:
            result = await client.list_tools()
            return {tool.name: tool.input_schema for tool in result.tools}

    return asyncio.run(listing())


PROMPTS = packaged_prompts()
IDS = [p.relative_path for p in PROMPTS]


def test_server_lists_the_tools_the_workflow_needs(schemas: dict[str, dict[str, Any]]) -> None:
    used = {name.removeprefix(TOOL_PREFIX) for name in workflow_tool_names()}
    assert used == {
        "test_connection",
        "find_recipes",
        "find_recipes_for_diff",
        "get_recipe",
        "lint_recipe",
        "validate_recipe",
        "analyze_diffs",
    }
    assert used <= set(schemas), f"tools the prompts use but the server lacks: {sorted(used - set(schemas))}"


@pytest.mark.parametrize("prompt", PROMPTS, ids=IDS)
def test_every_tool_named_exists(prompt: PromptFile, schemas: dict[str, dict[str, Any]]) -> None:
    named = tool_names(prompt.text)
    assert named, "each prompt uses at least one rewrite-assist tool"
    assert named <= set(schemas), f"unknown tools: {sorted(named - set(schemas))}"


@pytest.mark.parametrize("prompt", PROMPTS, ids=IDS)
def test_every_parameter_in_a_call_exists(prompt: PromptFile, schemas: dict[str, dict[str, Any]]) -> None:
    calls = tool_calls(prompt.body)
    assert calls, "each prompt shows at least one full tool call"
    for call in calls:
        known = set(schemas[call.tool].get("properties", {}))
        unknown = set(call.params) - known
        assert not unknown, f"{call.tool}: parameters {sorted(unknown)} are not in its schema {sorted(known)}"


@pytest.mark.parametrize("prompt", PROMPTS, ids=IDS)
def test_required_parameters_are_shown(prompt: PromptFile, schemas: dict[str, dict[str, Any]]) -> None:
    """A call written in a prompt teaches the tool's arguments, so it must show the required ones."""
    shown: dict[str, set[str]] = {}
    for call in tool_calls(prompt.body):
        if call.params and "..." not in call.params:
            shown.setdefault(call.tool, set()).update(call.params)
    for tool, params in shown.items():
        required = set(schemas[tool].get("required", []))
        assert required <= params, f"{tool}: required {sorted(required - params)} never shown"


@pytest.mark.parametrize("prompt", PROMPTS, ids=IDS)
def test_inline_parameters_belong_to_a_tool_the_prompt_uses(
    prompt: PromptFile, schemas: dict[str, dict[str, Any]]
) -> None:
    used = tool_names(prompt.body)
    known = {param for tool in used for param in schemas[tool].get("properties", {})}
    inline = set(_INLINE_PARAM.findall(prompt.body))
    assert inline <= known, f"parameters {sorted(inline - known)} belong to no tool this prompt uses"


@pytest.mark.parametrize("prompt", PROMPTS, ids=IDS)
def test_tools_called_in_the_body_are_granted(prompt: PromptFile) -> None:
    granted = set(prompt.allowed_tools())
    called = {TOOL_PREFIX + name for name in tool_names(prompt.body)}
    assert called <= granted, f"called but not in the front matter: {sorted(called - granted)}"
