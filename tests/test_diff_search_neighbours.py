"""The rerank's neighbour features (``by_diff.neighbours``): which labelled PRs count as like a new one, what their
labels say of each pooled recipe, the shipped file, and a training row's neighbours leaving its own set out."""

from __future__ import annotations

import numpy as np
import pytest

from rewrite_assist.evaluation import diff_rerank_train as train
from rewrite_assist.server.search.by_diff import neighbours, rerank
from rewrite_assist.server.search.by_diff.neighbours import NEIGHBOURS, SIGNATURE, signature, similarity

SHARE, RATE, COUNT = (neighbours.FEATURES.index(name) for name in neighbours.FEATURES)


def test_a_signature_weighs_the_picks_lead_most_and_stops_at_the_pool() -> None:
    ids = [f"r{n}" for n in range(SIGNATURE + 5)]
    weights = signature([*ids[:3], "r0", *ids[3:]])  # r0 twice: its first place counts
    assert weights["r0"] == 1.0 and weights["r1"] > weights["r2"] > weights[f"r{SIGNATURE - 2}"]
    assert len(weights) == SIGNATURE - 1  # SIGNATURE places, one of them r0's second
    assert f"r{SIGNATURE - 2}" in weights and f"r{SIGNATURE - 1}" not in weights


def test_similarity_is_one_for_the_same_pool_and_a_shared_lead_counts_more() -> None:
    pool = [f"r{n}" for n in range(20)]
    assert similarity(signature(pool), signature(pool)) == pytest.approx(1.0)
    assert similarity(signature(pool), signature(["other"])) == 0.0
    shares_first = ["r0", *[f"x{n}" for n in range(19)]]
    shares_last = ["r19", *[f"x{n}" for n in range(19)]]
    assert similarity(signature(pool), signature(shares_first)) > similarity(signature(pool), signature(shares_last))


def test_the_labels_of_similar_prs_speak_and_dissimilar_ones_do_not() -> None:
    pool = ["a", "b", "c", "d"]
    near = neighbours.of([(pool, {"a"}), (["z", "y"], {"b"})])  # the second shares nothing with the pool
    rows = near.features(pool, ["a", "b", "c"])
    assert rows[0, SHARE] == pytest.approx(1.0) and rows[1, SHARE] == 0.0 and rows[2, SHARE] == 0.0
    assert rows[0, COUNT] == pytest.approx(np.log(2)) and rows[1, COUNT] == 0.0
    # pooled there and never labelled: below the base rate; labelled: above it
    assert rows[2, RATE] < near.base < rows[0, RATE]


def test_only_the_nearest_prs_are_consulted() -> None:
    pool = [f"r{n}" for n in range(10)]
    close = [(pool, {"r1"}) for _ in range(NEIGHBOURS)]  # the same pool, labelling r1
    farther = [([*pool[:3], "q0", "q1"], {"r5"}) for _ in range(5)]  # partly alike, labelling r5
    rows = neighbours.of(close + farther).features(pool, ["r1", "r5"])
    assert rows[0, SHARE] == pytest.approx(1.0) and rows[1, SHARE] == 0.0
    rows = neighbours.of(close[:3] + farther).features(pool, ["r1", "r5"])  # fewer close ones: the farther count
    assert 0 < rows[1, SHARE] < rows[0, SHARE]


def test_the_neighbours_file_round_trips() -> None:
    near = neighbours.of([(["a", "b", "c"], {"a", "q"}), (["c", "d"], {"d"})])
    again = neighbours.from_json(near.to_json())
    assert again.base == pytest.approx(near.base, abs=1e-6)
    assert [(pr.signature, pr.labels) for pr in again.prs] == [(pr.signature, pr.labels) for pr in near.prs]
    assert (again.features(["a", "c"], ["a", "d", "q"]) == near.features(["a", "c"], ["a", "d", "q"])).all()


def test_the_shipped_neighbours_are_the_development_prs() -> None:
    shipped = neighbours.shipped()
    assert len(shipped.prs) >= 250  # the fresh sets read so far and the tune half
    assert all(pr.labels and pr.signature for pr in shipped.prs)
    assert 0.05 < shipped.base < 0.5


def _case(name: str, n: int) -> train.CaseRows:
    ids = ["x", f"{name}{n}-a", f"{name}{n}-b"]
    relevant = {"x": 1} if name == "a" else {f"{name}{n}-a": 1}
    labels = np.array([1.0 if rid in relevant else 0.0 for rid in ids])
    return train.CaseRows(name, f"{name}{n}", ids, ids, np.zeros((3, 1)), labels, relevant)


def test_a_training_rows_neighbours_leave_its_own_set_out(monkeypatch: pytest.MonkeyPatch) -> None:
    # "x" leads every pool; set a's labels name it, set b's never do
    cases = [_case("a", n) for n in range(4)] + [_case("b", n) for n in range(4)]
    seen: list[np.ndarray] = []
    real_fit = train.fit

    def fit(rows: np.ndarray, labels: np.ndarray, **settings: object) -> object:
        seen.append(rows)
        return real_fit(rows, labels, trees=2)

    monkeypatch.setattr(train, "fit", fit)
    _, _, shipped = train.fit_cases(cases, cases)
    (rows,) = seen
    share = rows[:, 1 + len(rerank.PRIOR_FEATURES) + SHARE]
    assert list(share[0:12:3]) == [0.0] * 4  # set a's x rows see set b's PRs only: never labelled there
    assert list(share[12:24:3]) == [1.0] * 4  # set b's x rows see set a's: labelled in each
    # the shipped ones are all eight, equally like a new PR whose pool leads with x
    assert shipped.features(["x", "new-a", "new-b"], ["x"])[0, SHARE] == pytest.approx(0.5)
