"""The diff search's rerank (``by_diff.rerank``) and its training script (``evaluation/diff_rerank_train.py``):
the head kept unless the model is sure, the features read off a real diff's pool, the model fitted and measured
leaving one set out, and the shipped model naming every feature. Real PRs of the spent fresh sets."""

from __future__ import annotations

import json
from dataclasses import replace
from types import SimpleNamespace

import numpy as np
import pytest
from conftest import spent_pr_case

from rewrite_assist.evaluation import diff_rerank_train as train
from rewrite_assist.evaluation.diff_search_eval import half_of
from rewrite_assist.evaluation.pr_sets import HELDOUT_SETS
from rewrite_assist.server.search.by_diff import neighbours, prior, rerank, trees
from rewrite_assist.server.search.by_diff.catalog import example_snapshot
from rewrite_assist.server.search.by_diff.search import diff_pool, find_recipes_for_diff

HEAD = [f"h{n}" for n in range(rerank.HEAD)]
POOL = [*HEAD, "p0", "p1", "p2"]


def odds(**given: float) -> np.ndarray:
    """Log-odds for ``POOL``: 0 unless given."""
    return np.array([given.get(rid, 0.0) for rid in POOL])


def test_the_head_is_kept_and_reordered_when_no_pooled_recipe_is_sure() -> None:
    barely = odds(h3=2.0, h7=1.0, p0=rerank.SWAP_MARGIN)  # p0 beats the weakest (0) by the margin, not more
    ranked = [POOL[n] for n in rerank.order(POOL, HEAD, barely)]
    assert set(ranked[: rerank.HEAD]) == set(HEAD)
    assert ranked[:2] == ["h3", "h7"]  # by the model's odds
    assert ranked[2:5] == ["h0", "h1", "h2"]  # ties keep the pick's order
    assert ranked[rerank.HEAD] == "p0"


def test_a_pooled_recipe_the_model_is_sure_of_replaces_the_weakest_kept_one() -> None:
    sure = odds(p1=rerank.SWAP_MARGIN + 0.5, p2=rerank.SWAP_MARGIN + 0.1, h4=-1.0, h9=0.5)
    ranked = [POOL[n] for n in rerank.order(POOL, HEAD, sure)]
    ten = ranked[: rerank.HEAD]
    assert ten[:2] == ["p1", "p2"]
    # h4 went first (the weakest); then the weakest was a 0 of the head (the last of the ties, h8)
    assert "h4" not in ten and "h8" not in ten and "h9" in ten
    assert ranked[rerank.HEAD :] == ["h8", "p0", "h4"]  # the rest by odds, ties in the pick's order
    assert sorted(ranked) == sorted(POOL)  # nothing lost, nothing twice


def test_a_short_head_is_filled_from_the_pool_by_the_odds() -> None:
    ids = ["a", "b", "c", "d"]
    ranked = [ids[n] for n in rerank.order(ids, ["a"], np.array([0.0, -1.0, 3.0, 1.0]))]
    assert ranked == ["c", "d", "a", "b"]


def test_the_shipped_models_read_every_feature_in_order() -> None:
    models = rerank.models()
    assert set(models) == {rerank.PLAIN, rerank.WITH_INTENT}
    assert models[rerank.PLAIN].features == rerank.FEATURES + rerank.PRIOR_FEATURES + rerank.NEIGHBOUR_FEATURES
    with_intent = rerank.FEATURES + rerank.INTENT_FEATURES + rerank.PRIOR_FEATURES + rerank.NEIGHBOUR_FEATURES
    assert models[rerank.WITH_INTENT].features == with_intent
    assert len(set(rerank.names(True))) == len(rerank.names(True))
    for forest in models.values():
        assert len(forest.trees) == train.TREES
        used = {int(f) for t in forest.trees for f, left in zip(t.feature, t.left, strict=True) if left >= 0}
        # the prior and the neighbours are read, and so are the search's own features
        assert forest.features.index("prior_rate") in used and forest.features.index("neighbour_share") in used
        assert len(used) > len(rerank.LEARNED_FEATURES) + 5
        # each node's children are later nodes: no tree loops
        assert all((t.left[t.left >= 0] > np.flatnonzero(t.left >= 0)).all() for t in forest.trees)


def test_the_models_file_round_trips_and_refuses_a_broken_tree() -> None:
    text = rerank.MODELS_PATH.read_text()
    assert trees.dumps(trees.loads(text)) == text  # written by the training script, not edited by hand
    for break_it in (
        lambda t: t["value"].pop(),  # arrays of different lengths
        lambda t: t["left"].__setitem__(0, 0),  # the root its own child: a walk that never ends
        lambda t: t["feature"].__setitem__(0, 999),  # a column the model does not have
    ):
        doc = json.loads(text)
        break_it(doc[rerank.PLAIN]["trees"][0])
        with pytest.raises(ValueError, match="malformed"):
            trees.loads(json.dumps(doc))


def test_the_training_script_learns_only_from_sets_already_read() -> None:
    assert set(train.TRAIN_SETS) <= set(HELDOUT_SETS) | {"pr-cases"}
    # set 18 reads the shipped models (after round 23)
    assert "held-out-18" not in train.TRAIN_SETS
    # read after rounds 14 to 22
    assert {f"held-out-{n}" for n in range(9, 18)} <= set(train.TRAIN_SETS)


def test_the_fit_splits_on_an_informative_feature_and_never_on_a_constant_one() -> None:
    rng = np.random.default_rng(3)
    signal = rng.normal(size=400)
    rows = np.column_stack([signal, np.ones(400), rng.normal(size=400)])
    labels = (signal + 0.3 * rng.normal(size=400) > 0.5).astype(float)
    fitted = train.fit(rows, labels, trees=30, depth=2, rate=0.2, min_leaf=30)
    splits = [int(f) for t in fitted.trees for f, left in zip(t.feature, t.left, strict=True) if left >= 0]
    assert 1 not in splits
    # each tree's first split, the one that explains most, is on the signal; deeper ones may pick at the noise
    assert [int(t.feature[0]) for t in fitted.trees].count(0) >= 0.8 * len(fitted.trees)
    assert splits.count(0) > splits.count(2)
    # the odds follow the signal, and say more than the share of labels does
    odds = fitted.logits(rows)
    assert np.corrcoef(odds, signal)[0, 1] > 0.8
    assert ((odds > 0) == (labels == 1)).mean() > 0.9


def _case(name: str, n: int, rng: np.random.Generator) -> train.CaseRows:
    """A made-up PR: 15 pooled recipes, the labelled ones those whose first feature is high, the head the
    pick's first ten (which misses two of them)."""
    rows = rng.normal(size=(15, 2))
    ids = [f"{name}-{n}-{k}" for k in range(15)]
    relevant = {ids[k]: 1 for k in range(15) if rows[k, 0] > 0.8}
    return train.CaseRows(
        name, f"{name}-{n}", ids, ids[:10], rows, np.array([1.0 if i in relevant else 0.0 for i in ids]), relevant
    )


def test_each_set_is_measured_with_a_model_fitted_on_the_others() -> None:
    rng = np.random.default_rng(5)
    cases = [_case(name, n, rng) for name in ("a", "b", "c") for n in range(12)]
    cases = [c for c in cases if c.relevant]
    measured = train.cross_validate(cases, trees=30, depth=2, rate=0.3, min_leaf=5)
    assert list(measured) == ["a", "b", "c"]
    for figures in measured.values():
        assert set(figures) == {"cases", "pick", "reranked"}
        # the labels follow the first feature, which the model learns from the other sets: it ranks better
        assert figures["reranked"]["ndcg@10"] > figures["pick"]["ndcg@10"]


def test_the_training_script_says_which_embedding_backend_its_rows_came_from(
    catalog, embedder, monkeypatch: pytest.MonkeyPatch, tmp_path, capsys: pytest.CaptureFixture[str]
) -> None:
    from rewrite_assist.server import services

    rng = np.random.default_rng(11)

    def made_up(width: int) -> list[train.CaseRows]:
        cases = [_case(name, n, rng) for name in ("a", "b", "c") for n in range(8)]
        return [replace(c, rows=np.hstack([c.rows, np.zeros((15, width - 2))])) for c in cases if c.relevant]

    width = len(rerank.FEATURES)
    monkeypatch.setattr(
        train, "collect", lambda store, embedder: (made_up(width), made_up(width + len(rerank.INTENT_FEATURES)))
    )
    monkeypatch.setattr(services, "Services", lambda: SimpleNamespace(store=lambda: catalog, embedder=embedder))
    out = tmp_path / "cv.json"
    assert train.main(["--output", str(out)]) == 0
    doc = json.loads(out.read_text())
    assert doc["embedding_backend"] == embedder.backend_name
    assert set(doc) == {"embedding_backend", rerank.PLAIN, rerank.WITH_INTENT}
    assert capsys.readouterr().out.startswith(f"embedding backend {embedder.backend_name}\n")


@pytest.fixture(scope="module")
def real_pool(catalog, embedder):
    """A spent fresh set's PR searched with the rerank off: its pool, its head, the snapshot."""
    diff = spent_pr_case("px14-docker-multistage-build").read_text()
    was = rerank.RERANK
    rerank.RERANK = False
    try:
        pool = find_recipes_for_diff(catalog, embedder, diff, limit=rerank.POOL)
        head = [h.id for h in find_recipes_for_diff(catalog, embedder, diff, limit=rerank.HEAD).hits]
    finally:
        rerank.RERANK = was
    return diff, pool, head, example_snapshot(catalog)


def test_the_features_of_a_real_pool(real_pool) -> None:
    _, pool, head, snap = real_pool
    groups = [[g.id for g in group.recipes] for group in pool.groups]
    rows = rerank.features(rerank.PoolView(pool.hits, head, groups, snap, pool.searched_segments, pool.files))
    assert rows.shape == (len(pool.hits), len(rerank.names(False)))
    col = {name: rows[:, n] for n, name in enumerate(rerank.names(False))}
    shipped = prior.shipped()
    assert list(col["prior_rate"]) == [shipped.rate(h.id) for h in pool.hits]
    near = neighbours.shipped().features([h.id for h in pool.hits], [h.id for h in pool.hits])
    assert (rows[:, -len(rerank.NEIGHBOUR_FEATURES) :] == near).all()
    assert col["rank_log"][0] == 0.0 and col["score_share"][0] == 1.0
    assert list(col["in_head"]).count(1.0) == len(head)
    for n, hit in enumerate(pool.hits):
        assert col["in_head"][n] == (hit.id in head)
        assert col["composite"][n] == hit.is_composite
        assert col["generic"][n] == any(e.generic for e in hit.evidence)
        assert col["suggested"][n] == bool(hit.suggested_options)
        assert col["group_first"][n] == any(g and g[0] == hit.id for g in groups)


def test_the_search_returns_the_reranked_pool(real_pool, catalog, embedder) -> None:
    diff, pool, head, _ = real_pool
    hits = find_recipes_for_diff(catalog, embedder, diff, limit=rerank.HEAD).hits
    ids = [h.id for h in hits]
    assert len(ids) == len(set(ids)) == rerank.HEAD
    assert set(ids) <= {h.id for h in pool.hits}
    # the hits' scores are now the model's probabilities, best first
    probabilities = [h.fusion_score for h in hits]
    assert all(0 < p < 1 for p in probabilities) and probabilities == sorted(probabilities, reverse=True)
    # a recipe outside the pick's head came in only by beating a head recipe it replaced
    assert len(set(ids) - set(head)) == len(set(head) - set(ids))
    # a shorter list is the longer one's start
    five = [h.id for h in find_recipes_for_diff(catalog, embedder, diff, limit=5).hits]
    assert five == ids[:5]


def test_the_training_rows_of_the_pr_cases_come_from_their_tune_half(catalog, embedder) -> None:
    plain, with_intent = train.collect(catalog, embedder, sets=("pr-cases",))
    assert plain and all(half_of(c.id) == "tune" for c in plain)
    assert [c.id for c in with_intent] == [c.id for c in plain]
    for case, told in zip(plain, with_intent, strict=True):
        assert case.rows.shape == (len(case.ids), len(rerank.FEATURES))
        assert told.rows.shape == (len(told.ids), len(rerank.FEATURES) + len(rerank.INTENT_FEATURES))
        # the intent's recipes join after the pick's, which keep their rows
        assert told.ids[: len(case.ids)] == case.ids
        # ... with the same values, but for the counts of their relatives in the pool, which the intent's recipes join
        own = [n for n, name in enumerate(rerank.FEATURES) if "parents_in" not in name and "kids_in" not in name]
        assert np.array_equal(told.rows[: len(case.ids), own], case.rows[:, own])
        assert len(case.head) <= rerank.HEAD and set(case.head) <= set(case.ids)
        assert case.labels.sum() == sum(1 for rid in case.ids if rid in case.relevant)


def test_an_intent_adds_what_its_search_finds_with_its_own_evidence(real_pool, catalog, embedder) -> None:
    diff, pool, _, _ = real_pool
    intent = "Build the service image in two stages and pin the CI actions"
    told = diff_pool(catalog, embedder, diff, depth=rerank.POOL, intent=intent)
    assert [h.id for h in told.hits[: told.picked]] == [h.id for h in pool.hits]
    added = told.hits[told.picked :]
    assert told.intent and len(told.intent) <= rerank.INTENT_DEPTH
    assert all(h.id in told.intent and h.id not in {p.id for p in pool.hits} for h in added)
    assert all(len(h.evidence) == 1 and h.evidence[0].intent and h.fusion_score == 0.0 for h in added)
    rows = rerank.features(told.view())
    col = dict(zip(rerank.names(True), rows.T, strict=True))
    for n, hit in enumerate(told.hits):
        assert col["in_intent"][n] == (hit.id in told.intent)
        assert col["intent_only"][n] == (n >= told.picked)
        # the diff's own evidence features ignore the description's match
        assert n < told.picked or (col["example"][n] == 0 and col["file_share"][n] == 0)


def test_without_an_intent_model_the_intent_only_recipes_stay_out(real_pool, catalog, embedder, monkeypatch) -> None:
    diff, _, _, _ = real_pool
    plain_only = {rerank.PLAIN: rerank.models()[rerank.PLAIN]}
    monkeypatch.setattr(rerank, "models", lambda: plain_only)
    told = find_recipes_for_diff(catalog, embedder, diff, limit=rerank.POOL, intent="Pin the CI actions")
    alone = find_recipes_for_diff(catalog, embedder, diff, limit=rerank.POOL)
    assert [h.id for h in told.hits] == [h.id for h in alone.hits]
    assert not any(e.intent for h in told.hits for e in h.evidence)


LEARNED = [  # (module, its path attribute, its cached loader)
    (rerank, "MODELS_PATH", rerank.models),
    (prior, "PATH", prior.shipped),
    (neighbours, "PATH", neighbours.shipped),
]


@pytest.mark.parametrize(("module", "attribute", "loader"), LEARNED, ids=["models", "prior", "neighbours"])
@pytest.mark.parametrize("content", [None, "{not json", '{"recipes": []}'], ids=["missing", "not-json", "incomplete"])
def test_a_learned_file_that_cannot_be_read_says_what_to_do(
    tmp_path, monkeypatch: pytest.MonkeyPatch, module, attribute: str, loader, content: str | None
) -> None:
    from rewrite_assist.server.errors import EnvironmentProblem
    from rewrite_assist.server.search.by_diff.learned_files import REFIT

    broken = tmp_path / getattr(module, attribute).name
    if content is not None:
        broken.write_text(content)
    monkeypatch.setattr(module, attribute, broken)
    loader.cache_clear()
    try:
        with pytest.raises(EnvironmentProblem, match=broken.name) as failed:
            loader()
        assert REFIT in str(failed.value) and "Reinstall" in str(failed.value)
    finally:
        monkeypatch.undo()
        loader.cache_clear()  # the next caller reads the shipped file again
    assert loader() is not None


def test_models_fitted_on_other_features_are_refused_with_what_to_do(monkeypatch: pytest.MonkeyPatch) -> None:
    from rewrite_assist.server.errors import EnvironmentProblem

    monkeypatch.setattr(rerank, "FEATURES", (*rerank.FEATURES, "a_feature_the_fit_never_saw"))
    rerank.models.cache_clear()
    try:
        with pytest.raises(EnvironmentProblem, match=r"fitted on other features.*diff_rerank_train --write"):
            rerank.models()
    finally:
        monkeypatch.undo()
        rerank.models.cache_clear()
    assert set(rerank.models()) == {rerank.PLAIN, rerank.WITH_INTENT}
