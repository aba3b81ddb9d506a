"""The prompt files on their own: front matter, the contract with check-run, and the prompt parser."""

from __future__ import annotations

import re
from pathlib import Path
from typing import get_args

import pytest

from rewrite_assist.agents import run_layout as layout
from rewrite_assist.agents.decision import TEXT_RECIPE_PREFIX
from rewrite_assist.agents.intents import parse_atomic_intents
from rewrite_assist.agents.prompts import PromptFile, packaged_prompts, tool_calls
from rewrite_assist.server.validation.models import Status

PROMPTS = {p.relative_path: p for p in packaged_prompts()}
COMMAND = PROMPTS["commands/rewrite-assist.md"]
EXPERT = PROMPTS["agents/openrewrite-expert.md"]
VALIDATOR = PROMPTS["agents/openrewrite-recipe-validator.md"]


def fenced_blocks(prompt: PromptFile, language: str) -> list[str]:
    return re.findall(rf"```{language}\n(.*?)```", prompt.body, re.DOTALL)


@pytest.mark.parametrize("prompt", [EXPERT, VALIDATOR], ids=["expert", "validator"])
def test_subagent_front_matter(prompt: PromptFile) -> None:
    meta = prompt.front_matter
    assert meta["name"] == Path(prompt.name).stem  # Claude Code addresses the subagent by this name
    assert len(str(meta["description"])) > 40
    assert meta["model"] in {"opus", "sonnet", "haiku", "inherit"}
    assert "Write" in prompt.allowed_tools()


def test_command_front_matter_and_arguments() -> None:
    meta = COMMAND.front_matter
    assert meta["description"] and meta["argument-hint"]
    assert {"Bash", "Write", "Agent", "Task"} <= set(COMMAND.allowed_tools())
    assert "$ARGUMENTS" in COMMAND.body


def test_command_starts_both_subagents_by_their_names() -> None:
    for agent in (EXPERT, VALIDATOR):
        assert f"`{agent.front_matter['name']}`" in COMMAND.body


def test_validator_is_not_the_cheapest_model() -> None:
    """A cheap model once wrote stats for diffs it never produced; the validator must not run on one."""
    assert VALIDATOR.front_matter["model"] != "haiku"


def test_command_names_every_artifact_check_run_expects() -> None:
    expected = [
        "pr.diff",
        "pr.json",
        "intent-tree.md",
        layout.recipe_yaml("N"),
        layout.creation_analysis("N"),
        layout.RECOMMENDED_YAML,
        layout.RECOMMENDED_DIFF,
        layout.RECOMMENDED_STATS,
        layout.SUMMARY,
    ]
    missing = [name for name in expected if name not in COMMAND.body]
    assert not missing
    for name in (layout.recipe_diff("N"), layout.stats_json("N"), layout.validation_analysis("N")):
        assert name in COMMAND.body and name in VALIDATOR.body
    assert layout.recipe_yaml("N") in EXPERT.body and layout.creation_analysis("N") in EXPERT.body


def test_validator_header_template_is_what_check_run_reads(tmp_path: Path) -> None:
    template = next(block for block in fenced_blocks(VALIDATOR, "markdown") if "Status:" in block)
    placeholder = re.search(r"<status from validate_recipe: ([^>]*)>", template)
    assert placeholder, template
    listed = set(re.split(r",\s*(?:or\s+)?", placeholder.group(1)))
    assert set(get_args(Status)) | {"missing_input"} == listed  # every status the tool can return, and no other
    filled = template.replace("option-N", "option-1").replace(placeholder.group(0), "ok")
    filled = filled.replace("<passed, failed, or not run>", "failed")
    path = tmp_path / "option-1-validation-analysis.md"
    path.write_text(filled)
    assert layout.read_validation_header(path) == layout.ValidationHeader(status="ok", build_check="failed")


def test_summary_first_line_is_what_check_run_reads(tmp_path: Path) -> None:
    assert "first line `Recommended: option-N` (or `Recommended: none`)" in COMMAND.body
    summary = tmp_path / "summary.md"
    summary.write_text("Recommended: option-3\n")
    assert layout.read_recommended_claim(summary) == (True, 3)
    summary.write_text("Recommended: none\n")
    assert layout.read_recommended_claim(summary) == (True, None)


def test_intent_tree_template_parses_as_one_atomic_intent_with_its_file() -> None:
    template = next(block for block in fenced_blocks(COMMAND, "markdown") if "Strategic goal" in block)
    intents = parse_atomic_intents(template)
    assert len(intents) == 1
    assert intents[0].file == "<file path>"


def test_decision_rule_in_the_prompt_matches_the_code() -> None:
    rule = " ".join(COMMAND.body[COMMAND.body.index("## Phase 6") :].split())
    order = [
        "highest `f1_score`",
        "highest `precision`",
        "fewest recipe entries",
        "fewest text-replacement",
        "lowest",
    ]
    positions = [rule.index(step) for step in order]
    assert positions == sorted(positions)
    assert f"ids starting with `{TEXT_RECIPE_PREFIX}`" in rule
    assert "`ok` or `no_changes`" in rule and "build check ran and failed" in rule


def test_expert_guidance_is_present() -> None:
    body = EXPERT.body
    for phrase in (
        "Semantic first",
        "last resort",
        "Do not overfit",
        "Ids only from tool results",
        "indentation",
    ):
        assert phrase in body


def test_tool_call_parser_handles_nested_values() -> None:
    text = (
        'call `mcp__rewrite-assist__find_recipes(intent=["a (b)", "c=d"], limit=8, composite=true)` then '
        "`mcp__rewrite-assist__get_recipe(recipe_id='x, y=z')` and mention mcp__rewrite-assist__lint_recipe."
    )
    calls = tool_calls(text)
    assert [(c.tool, c.params) for c in calls] == [
        ("find_recipes", ("intent", "limit", "composite")),
        ("get_recipe", ("recipe_id",)),
    ]
