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
    ndcg = metrics["ndcg@10"]
    assert ndcg is not None and 0 < ndcg < 1


def test_the_summary_lists_tune_cases_only() -> None:
    """The check half is the guard against tuning: its totals are printed, its cases are not."""
    from rewrite_assist.evaluation.diff_search_eval import render

    text = render(summary_doc({"alpha-pr1": "tune", "beta-pr1": "check"}, cases_per_half=1))
    assert "alpha-pr1" in text and "beta-pr1" not in text
    assert len(re.findall(r"\bcheck\s+1\s", text)) == 3  # its totals: one line per system


def test_missing_labels_file_is_bad_input(tmp_path) -> None:
    with pytest.raises(BadInput, match="labels file not found"):
        load_pr_cases(tmp_path, tmp_path / "labels.jsonl")


def test_a_held_out_summary_lists_no_case() -> None:
    """A set nobody tuned on stays blind per case: only its totals are printed."""
    from rewrite_assist.evaluation.diff_search_eval import held_out, render

    text = render(summary_doc({c: held_out(c) for c in ("ph01-alpha", "ph02-beta")}, cases_per_half=2))
    assert "nobody tuned on" in text and "ph01-alpha" not in text and "ph02-beta" not in text
    assert len(re.findall(r"\bheld-out\s+2\s", text)) == 3


def summary_doc(halves: dict[str, str], *, cases_per_half: int) -> dict:
    """An evaluation document with the same metrics everywhere, cases in the given halves (plus "all")."""
    part = {"recall@5": 0.5, "recall@10": 0.5, "ndcg@10": 0.5, "mrr": 1.0}
    half = {"cases": cases_per_half, "diff": part, "intent": part, "both": part}
    row = {"intent_names_a_label": False, "diff": part, "intent": part}
    names = [*dict.fromkeys(halves.values()), "all"]
    return {
        "cases": len(halves),
        "limit": 10,
        "halves": dict.fromkeys(names, half),
        "per_case": [row | {"id": case_id, "half": name} for case_id, name in halves.items()],
    }


def test_the_summary_names_the_embedding_backend() -> None:
    """Near-ties can swap between the ONNX and torch backends, so a report says which one ranked."""
    from rewrite_assist.evaluation.diff_search_eval import held_out, render

    doc = summary_doc({"ph01-alpha": held_out("ph01-alpha")}, cases_per_half=1)
    assert "backend" not in render(doc)
    assert "embedding backend onnx" in render(doc | {"embedding_backend": "onnx"})


def test_every_fresh_set_can_be_chosen_on_the_command_line() -> None:
    """The CLI lists its --set choices literally (it stays light to import); they must name every fresh set."""
    import argparse

    from rewrite_assist.evaluation import cli
    from rewrite_assist.evaluation.pr_sets import HELDOUT_SETS

    parser = argparse.ArgumentParser()
    cli.register(parser.add_subparsers())
    for name in ["pr-cases", *HELDOUT_SETS]:
        assert parser.parse_args(["eval", "diff-search", "--set", name]).case_set == name
    with pytest.raises(SystemExit):
        parser.parse_args(["eval", "diff-search", "--set", "held-out-99"])
