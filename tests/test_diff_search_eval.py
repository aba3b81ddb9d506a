"""The pr-case evaluation's inputs and its interleaving of the two searches (no catalog needed)."""

from __future__ import annotations

import re

import pytest
from conftest import shared_data_dir

from rewrite_assist.evaluation.diff_search_eval import interleave, load_pr_cases, score
from rewrite_assist.server.errors import BadInput


def test_labelled_cases_load_with_their_diff_and_intent() -> None:
    folder = shared_data_dir() / "pr-cases"
    if not folder.is_dir():
        pytest.skip(f"pr-cases not found at {folder}")
    cases = load_pr_cases(folder)
    assert len(cases) == 27 and len({c.id for c in cases}) == 27
    assert all(c.diff.startswith("diff --git") and c.intent and c.relevant for c in cases)


def test_missing_cases_folder_is_bad_input(tmp_path) -> None:
    with pytest.raises(BadInput, match="pr-cases folder not found"):
        load_pr_cases(tmp_path / "nowhere")


def test_interleave_alternates_and_keeps_each_id_once() -> None:
    assert interleave(["a", "b", "c"], ["x", "a", "y", "z"]) == ["a", "x", "b", "c", "y", "z"]
    assert interleave([], ["x"]) == ["x"]


def test_score_uses_graded_labels() -> None:
    metrics = score(["x", "b", "a"], {"a": 2, "b": 1})
    assert metrics["recall@5"] == 1.0 and metrics["mrr"] == 0.5
    assert 0 < metrics["ndcg@10"] < 1


def test_the_summary_lists_tune_cases_only() -> None:
    """The check half is the guard against tuning: its totals are printed, its cases are not."""
    from rewrite_assist.evaluation.diff_search_eval import render

    part = {"recall@5": 0.5, "recall@10": 0.5, "ndcg@10": 0.5, "mrr": 1.0}
    half = {"cases": 1, "diff": part, "intent": part, "both": part}
    row = {"intent_names_a_label": False, "diff": part, "intent": part}
    doc = {
        "cases": 2,
        "limit": 10,
        "halves": {"tune": half, "check": half},
        "per_case": [row | {"id": "alpha-pr1", "half": "tune"}, row | {"id": "beta-pr1", "half": "check"}],
    }
    text = render(doc)
    assert "alpha-pr1" in text and "beta-pr1" not in text
    assert len(re.findall(r"\bcheck\s+1\s", text)) == 3  # its totals: one line per system
