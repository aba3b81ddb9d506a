"""The diff search's recipe prior (``by_diff.prior``): counted from labelled pools, smoothed toward the base rate,
a set left out of its own training rows, written and read back as the shipped file."""

from __future__ import annotations

import json

import numpy as np
import pytest

from rewrite_assist.evaluation import diff_rerank_train as train
from rewrite_assist.server.search.by_diff import neighbours, prior, rerank
from rewrite_assist.server.search.by_diff.prior import SMOOTHING, RecipePrior, count


def test_counts_are_per_pr_and_the_base_is_the_labelled_share() -> None:
    counted = count([(["a", "b", "a"], {"a"}), (["a", "c"], set()), (["b"], {"b", "z"})])
    assert counted.pooled == {"a": 2, "b": 2, "c": 1}  # a repeated id counts once per PR
    assert counted.labelled == {"a": 1, "b": 1}  # "z" was labelled but never pooled: nothing to learn of it
    assert counted.base == pytest.approx(2 / 5)


def test_the_rate_moves_from_the_base_as_prs_accumulate() -> None:
    few = RecipePrior(0.25, {"x": 1, "y": 40}, {"x": 1, "y": 40})
    assert few.rate("never-seen") == pytest.approx(0.25)
    assert few.rate("x") == pytest.approx((1 + SMOOTHING * 0.25) / (1 + SMOOTHING))
    assert 0.25 < few.rate("x") < few.rate("y") < 1.0  # one PR moves it a little, forty nearly all the way
    assert few.seen_log("y") > few.seen_log("x") > few.seen_log("never-seen") == 0.0


def test_minus_leaves_out_a_set_and_keeps_the_base() -> None:
    both = count([(["a", "b"], {"a"}), (["a"], {"a"}), (["b"], set())])
    one = count([(["a"], {"a"})])
    rest = both.minus(one)
    assert rest.pooled == {"a": 1, "b": 2} and rest.labelled == {"a": 1}
    assert rest.base == both.base


def test_the_json_round_trips_and_reads_as_a_diff(tmp_path) -> None:
    counted = count([(["org.x.A", "org.x.B"], {"org.x.A"}), (["org.x.A"], set())])
    text = counted.to_json()
    assert json.loads(text)["recipes"] == {"org.x.A": [2, 1], "org.x.B": [1, 0]}
    assert len(text.splitlines()) == 4  # a line per recipe
    back = prior.from_json(text)
    assert back.pooled == counted.pooled and back.labelled == counted.labelled
    assert back.smoothing == counted.smoothing == SMOOTHING  # the file says how its rates are smoothed
    assert back.rate("org.x.A") == pytest.approx(counted.rate("org.x.A"), abs=1e-6)


def test_the_shipped_prior_is_the_training_scripts_output() -> None:
    shipped = prior.shipped()
    assert prior.PATH.read_text() == shipped.to_json()  # written by the script, not edited by hand
    assert 0.0 < shipped.base < 1.0
    assert all(0 <= shipped.labelled.get(rid, 0) <= n for rid, n in shipped.pooled.items())
    # what it learned: a generic cleanup the search pools often is rarely what a PR needs
    cleanup = "org.openrewrite.java.RemoveUnusedImports"
    assert shipped.pooled[cleanup] >= 10 and shipped.rate(cleanup) < shipped.base / 2


def _case(name: str, n: int, labelled: bool) -> train.CaseRows:
    ids = ["x", f"{name}{n}-a", f"{name}{n}-b"]
    relevant = {"x": 1} if labelled else {f"{name}{n}-a": 1}
    labels = np.array([1.0 if rid in relevant else 0.0 for rid in ids])
    return train.CaseRows(name, f"{name}{n}", ids, ids, np.zeros((3, 1)), labels, relevant)


def test_a_training_rows_prior_leaves_its_own_set_out() -> None:
    # "x" is labelled in every PR of set a and in none of set b
    cases = [_case("a", n, True) for n in range(4)] + [_case("b", n, False) for n in range(4)]
    full = train.counted(cases)
    assert full.rate("x") == pytest.approx((4 + SMOOTHING * full.base) / (8 + SMOOTHING))
    by_set_a = full.minus(train.counted(cases[:4]))
    nobody = neighbours.of([])
    rows_a = train.with_learned(cases[0], by_set_a, nobody)
    assert rows_a.shape == (3, 1 + len(rerank.LEARNED_FEATURES))
    # in set a's rows, x's prior is set b's: never labelled there
    assert rows_a[0, 1] == pytest.approx(SMOOTHING * full.base / (4 + SMOOTHING))
    model, shipped, _ = train.fit_cases(cases, cases, trees=20, min_leaf=1, rate=0.3)
    assert shipped.pooled == full.pooled  # the shipped counts are every set's
    # x's labels came from one set only: each set's rows see the other set's opposite record, so the fit learns
    # nothing good of x's high prior (counting a row's own labels would make the prior look like a sure sign)
    in_a, in_b = rows_a[0], train.with_learned(cases[4], full.minus(train.counted(cases[4:])), nobody)[0]
    assert in_b[1] > in_a[1]  # set b's rows saw set a's record of x: labelled every time
    assert model.logits(np.array([in_b]))[0] < model.logits(np.array([in_a]))[0]
