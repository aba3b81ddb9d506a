"""Retrieval metrics on tiny rankings whose values are computed by hand in the comments."""

from __future__ import annotations

import math

import pytest

from rewrite_assist.evaluation.metrics import (
    case_metrics,
    dcg,
    hit_at,
    mean_metrics,
    ndcg_at,
    percentile,
    recall_at,
    reciprocal_rank,
)
from rewrite_assist.evaluation.report import paired_randomization_p, recall_ceiling

JUDGED = {"a": 2, "b": 1, "c": 1}


def test_recall_counts_relevant_in_top_k_over_all_relevant():
    ranking = ["x", "a", "y", "c", "z"]
    assert recall_at(ranking, JUDGED, 1) == 0.0
    assert recall_at(ranking, JUDGED, 3) == pytest.approx(1 / 3)  # a
    assert recall_at(ranking, JUDGED, 5) == pytest.approx(2 / 3)  # a, c
    assert recall_at(ranking, JUDGED, 10) == pytest.approx(2 / 3)  # a shorter ranking than k


def test_recall_ignores_grade_zero_judgments_and_repeats():
    judged = {"a": 2, "z": 0}
    assert recall_at(["a"], judged, 1) == 1.0  # z is judged but not relevant: denominator 1
    assert recall_at(["a", "a", "b"], {"a": 1, "b": 1}, 2) == 0.5  # the repeat takes a slot, counts once
    assert recall_at(["a", "a", "b"], {"a": 1, "b": 1}, 3) == 1.0


def test_hit_and_reciprocal_rank():
    assert hit_at(["x", "y", "b"], JUDGED, 3) == 1.0
    assert hit_at(["x", "y", "b"], JUDGED, 2) == 0.0
    assert reciprocal_rank(["x", "y", "b"], JUDGED) == pytest.approx(1 / 3)
    assert reciprocal_rank(["a"], JUDGED) == 1.0
    assert reciprocal_rank(["x", "y"], JUDGED) == 0.0
    assert reciprocal_rank([], JUDGED) == 0.0


def test_graded_ndcg_by_hand():
    # ranking b(1), x(0), a(2): DCG = 1/log2(2) + 0 + 3/log2(4) = 1 + 1.5 = 2.5
    # ideal a(2), b(1), c(1):   IDCG = 3/1 + 1/log2(3) + 1/log2(4) = 3 + 0.63093 + 0.5 = 4.13093
    expected = 2.5 / (3 + 1 / math.log2(3) + 0.5)
    assert ndcg_at(["b", "x", "a"], JUDGED, 10) == pytest.approx(expected)
    assert expected == pytest.approx(0.60519, abs=1e-5)


def test_ndcg_cutoff_applies_to_ideal_too():
    # k = 1: the ideal top-1 is a (gain 3); ranking b first earns 1 → 1/3
    assert ndcg_at(["b", "a"], JUDGED, 1) == pytest.approx(1 / 3)
    assert ndcg_at(["a", "b", "c"], JUDGED, 3) == pytest.approx(1.0)
    assert ndcg_at(["x", "y"], JUDGED, 5) == 0.0


def test_ties_between_equal_grades_do_not_change_any_metric():
    # b and c are both grade 1: swapping them is the same ranking in every metric
    first = case_metrics(["a", "b", "x", "c"], JUDGED)
    swapped = case_metrics(["a", "c", "x", "b"], JUDGED)
    assert first == swapped
    # ties in the ideal ordering: two grade-2 recipes, either order is ideal
    judged = {"p": 2, "q": 2}
    assert ndcg_at(["p", "q"], judged, 2) == ndcg_at(["q", "p"], judged, 2) == pytest.approx(1.0)


def test_repeated_ids_earn_gain_once():
    # a, a: DCG = 3 (the repeat earns 0); ideal a, b: 3 + 3/log2(3)
    assert ndcg_at(["a", "a"], {"a": 2, "b": 2}, 2) == pytest.approx(3 / (3 + 3 / math.log2(3)))
    assert reciprocal_rank(["x", "x", "a"], {"a": 1}) == pytest.approx(1 / 3)


def test_dcg_exponential_gain():
    assert dcg([2, 1]) == pytest.approx(3 + 1 / math.log2(3))
    assert dcg([0, 0]) == 0.0


def test_case_metrics_and_macromean_scores():
    one = case_metrics(["a"], {"a": 2})  # perfect on a single-recipe case
    assert one["recall@1"] == one["ndcg@10"] == one["mrr"] == one["hit@5"] == 1.0
    none = case_metrics(["x"], {"a": 2})
    assert all(v == 0.0 for v in none.values())
    mean = mean_metrics([one, none])
    assert mean["mrr"] == 0.5 and mean["ndcg@5"] == 0.5
    assert set(mean) == set(one)


def test_percentile_interpolates_like_numpy():
    values = [10.0, 20.0, 30.0, 40.0]
    assert percentile(values, 50) == 25.0
    assert percentile(values, 95) == pytest.approx(38.5)  # position 2.85 between 30 and 40
    assert percentile([5.0], 95) == 5.0
    assert percentile([], 50) == 0.0


def test_recall_ceiling_when_cases_judge_more_than_k():
    from rewrite_assist.evaluation.cases import RetrievalCase

    many = RetrievalCase(id="c1", intent="i", relevant={f"r{i}": 1 for i in range(10)})
    few = RetrievalCase(id="c2", intent="i", relevant={"r": 2})
    assert recall_ceiling([many, few], 5) == pytest.approx((0.5 + 1.0) / 2)


def test_paired_randomization_p():
    assert paired_randomization_p([1.0, 1.0], [1.0, 1.0]) == 1.0
    # one system better on all 12 cases by the same amount: only 2 of 4096 sign patterns are as extreme
    p = paired_randomization_p([1.0] * 12, [0.0] * 12)
    assert p < 0.01
    # mixed signs of equal size: no evidence either way
    assert paired_randomization_p([1.0, 0.0] * 6, [0.0, 1.0] * 6) > 0.5


def test_capped_recall_counts_only_what_fits_in_k() -> None:
    from rewrite_assist.evaluation.metrics import capped_recall_at

    judged = {f"r{i}": 1 for i in range(20)}
    ranking = [f"r{i}" for i in range(10)]
    assert recall_at(ranking, judged, 10) == 0.5
    assert capped_recall_at(ranking, judged, 10) == 1.0
    assert capped_recall_at(["x", "r0"], {"r0": 2, "r1": 1}, 10) == 0.5
    assert capped_recall_at(["x"], {}, 10) == 0.0


def test_core_recall_reads_grade_two_labels_only() -> None:
    from rewrite_assist.evaluation.diff_search_eval import mean_scores, score

    both = score(["a", "b"], {"a": 1, "c": 2})
    assert both["recall@10"] == 0.5 and both["core_recall@10"] == 0.0
    no_core = score(["a"], {"a": 1})
    assert no_core["core_recall@10"] is None
    assert mean_scores([both, no_core])["core_recall@10"] == 0.0 and mean_scores([no_core])["core_recall@10"] == 0.0
    assert mean_scores([score(["c"], {"c": 2}), no_core])["core_recall@10"] == 1.0
