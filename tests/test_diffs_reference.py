"""The reproduction test: our metrics equal the reference scorer's on every real recipe diff.

Each ``stats-*.json`` beside a case's ``pr.diff`` holds ``recomputed_metrics``: the anchor project's
scorer run on that ``pr.diff`` and the recipe diff the stats file names. The recipe diffs are real
OpenRewrite output, with its duplicated sections, binary wrapper-jar sections and recipe names after
``@@``. Stats without a recipe diff (the haiku checkpoint) have nothing to reproduce.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from fixtures.diffs_support import PR_CASES, require_pr_cases

from rewrite_assist.server.diffs import analyze_diff_args


def _cases() -> list[tuple[Path, dict[str, object], Path]]:
    found = []
    for stats_path in sorted(PR_CASES.glob("*/stats-*.json")):
        stats = json.loads(stats_path.read_text(encoding="utf-8"))
        if stats.get("recomputed_metrics") and stats.get("recipe_diff"):
            found.append((stats_path.parent / "pr.diff", stats, stats_path.parent / str(stats["recipe_diff"])))
    return found


CASES = _cases() if PR_CASES.is_dir() else []


def test_all_real_recipe_diffs_are_covered() -> None:
    require_pr_cases()
    assert len(CASES) >= 85, f"expected at least 85 scored recipe diffs, found {len(CASES)}"


@pytest.mark.parametrize(
    ("pr_diff", "stats", "recipe_diff"),
    CASES,
    ids=[f"{pr.parent.name}/{recipe.stem}" for pr, _, recipe in CASES],
)
def test_metrics_equal_reference(pr_diff: Path, stats: dict[str, object], recipe_diff: Path) -> None:
    analysis = analyze_diff_args(str(pr_diff), str(recipe_diff))
    reference = analysis.to_reference_json(extended=False)
    assert reference["metrics"] == stats["recomputed_metrics"]
    assert reference["diff_files"] == {"pr_diff": str(pr_diff), "recipe_diff": str(recipe_diff)}


def test_reference_json_key_order_matches_the_anchor_output() -> None:
    require_pr_cases()
    pr_diff, stats, recipe_diff = CASES[0]
    data = analyze_diff_args(str(pr_diff), str(recipe_diff)).to_reference_json(details=True)
    assert list(data)[:2] == ["diff_files", "metrics"]
    reference_metrics = stats["recomputed_metrics"]
    assert isinstance(reference_metrics, dict)
    assert list(data["metrics"]) == list(reference_metrics)
    assert {"per_file", "summary", "missing", "extra"} <= set(data)
