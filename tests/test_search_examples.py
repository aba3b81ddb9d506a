"""The examples leg (recipe-page examples as search evidence), the one-phrase rerank features it feeds, and
the pseudo-query machinery their weights are fitted with (evaluation/rerank_train.py), on the real catalog."""

from __future__ import annotations

import dataclasses
import math
import random

import numpy as np
import pytest

from rewrite_assist.evaluation.rerank_train import (
    FITTED,
    PRIORS,
    drawn,
    example_query,
    fit_pairwise,
    option_queries,
    option_query,
    without_example,
    zeroed,
)
from rewrite_assist.server.config import MODEL_KEY
from rewrite_assist.server.search.hybrid import DEFAULT_TUNING, find_recipes, scored_pool
from rewrite_assist.server.search.legs import LEGS, ExamplesLeg, LegContext
from rewrite_assist.server.search.models import SearchFilters
from rewrite_assist.server.search.priors import RecipeFacts
from rewrite_assist.server.search.rerank import FEATURES, code_share, weights
from rewrite_assist.server.search.snapshot import snapshot_for

PROPERTY_VALUE = "org.openrewrite.java.spring.ChangeSpringPropertyValue"
# A query quoting the kind of edit that recipe's page shows (a Spring property's value changed), in words a
# PR author would use, not the page's own text.
QUOTED = "server.port=8080 in application.properties became server.port=9090"


def test_code_share_tells_quoted_code_from_words() -> None:
    assert code_share(QUOTED) > 0.5
    assert code_share("migrate JUnit 4 tests to JUnit 5") < code_share(QUOTED)
    assert code_share("use text blocks.") == 0.0  # a sentence's full stop is not code
    assert code_share("") == 0.0


def test_every_feature_has_a_weight() -> None:
    assert len(weights(DEFAULT_TUNING)) == len(FEATURES)
    fitted = {f.removesuffix("_weight") for f in FITTED[1:]}
    assert fitted == set(FEATURES), "the fit writes one weight per rerank feature"


def test_a_prior_draw_prefers_the_heavy_recipe_and_keeps_every_one() -> None:
    ids = [f"r{n}" for n in range(10)]
    firsts = [drawn(ids, [100.0] + [1.0] * 9, random.Random(seed))[0] for seed in range(200)]
    assert firsts.count("r0") > 150  # 100 / 109 of the draws in expectation
    plain = drawn(ids, [1.0] * 10, random.Random(1))
    assert sorted(plain) == ids and plain != ids  # equal weights: a shuffle


def test_the_priors_read_the_catalog_facts() -> None:
    def facts(rid: str, used_by: int) -> RecipeFacts:
        return RecipeFacts(rid, False, used_by, (), ())

    block, step = (
        facts("org.openrewrite.maven.ChangePropertyValue", 39),
        facts("org.openrewrite.java.spring.boot3.X", 0),
    )
    assert PRIORS["used-by"](block) == 40.0 and PRIORS["used-by"](step) == 1.0
    assert PRIORS["core"](block) == 2.0 and PRIORS["core"](step) == 1.0
    assert PRIORS["log-used-by"](block) == pytest.approx(1 + math.log(40))
    assert PRIORS["uniform"](block) == PRIORS["uniform"](step) == 1.0


def test_example_query_reads_like_a_pr_description() -> None:
    both = example_query(
        ["import a.B;", "  server.port: 8080"], ["import a.B;", "server.port: 9090"], "app.yml", "yaml"
    )
    assert both == "server.port: 8080 changed to server.port: 9090 in app.yml"
    assert example_query([], ["<scm>"], None, "maven") == "added <scm> to the maven file"
    assert example_query(["FROM x"], [], "Dockerfile", "dockerfile") == "removed FROM x from Dockerfile"
    assert example_query(["same"], ["same"], None, "text") is None  # nothing changed that a line shows
    # an import is described only when there is nothing else
    assert example_query(["import a.B;", "B.old()"], ["import c.D;", "D.now()"], None, "java") == (
        "B.old() changed to D.now() in the java file"
    )


def test_option_query_says_what_changed() -> None:
    assert option_query({"oldPropertyKey": "a.b", "newPropertyKey": "a.c"}) == "changed from a.b to a.c"
    upgrade = {"groupId": "commons-io", "artifactId": "commons-io", "newVersion": "2.15.x"}
    assert option_query(upgrade) == "commons-io commons-io changed to 2.15.x"
    assert option_query({"groupId": "org.h2", "artifactId": "h2"}) == "org.h2 h2"
    assert option_query({"flag": "true", "other": None}) is None


def test_pairwise_fit_recovers_a_known_weight() -> None:
    """Pairs whose outcome depends on the margin and a feature at a known ratio: the fit finds the ratio."""
    rng = np.random.default_rng(3)
    margins = rng.normal(0, 1, 4000)
    feature = rng.normal(0, 1, (4000, 1))
    logits = 4.0 * margins + 2.0 * feature[:, 0]  # the feature is worth half a unit of margin
    right_first = rng.random(4000) < 1 / (1 + np.exp(-logits))
    sign = np.where(right_first, 1.0, -1.0)
    ratio = fit_pairwise(sign * margins, sign[:, None] * feature, steps=4000, l2=0.0)
    assert ratio[0] == pytest.approx(0.5, abs=0.1)
    held = fit_pairwise(sign * margins, sign[:, None] * feature, steps=4000, l2=0.0, sharpness=4.0)
    assert held[0] == pytest.approx(0.5, abs=0.1)


@pytest.mark.slow
def test_snapshot_holds_the_example_vectors(catalog) -> None:
    snapshot = snapshot_for(catalog, catalog.check_ready(), MODEL_KEY)
    owners, vectors = snapshot.example_owners, snapshot.example_vectors
    assert len(owners) > 500 and vectors.shape == (len(owners), snapshot.vectors.shape[1])
    assert owners.min() >= 0 and owners.max() < len(snapshot.recipe_ids)
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-3)
    assert snapshot.index[PROPERTY_VALUE] in set(owners.tolist())
    best = snapshot.example_similarity(vectors[:2])
    assert best.shape == (2, len(snapshot.recipe_ids))
    assert best[0, owners[0]] == pytest.approx(1.0, abs=1e-3)  # an example is nearest to itself


@pytest.mark.slow
def test_the_examples_leg_finds_a_recipe_by_its_example(catalog, embedder) -> None:
    snapshot = snapshot_for(catalog, catalog.check_ready(), MODEL_KEY)
    leg = next(leg for leg in LEGS if isinstance(leg, ExamplesLeg))
    vectors = embedder.encode([QUOTED, "migrate JUnit 4 tests to JUnit 5"])
    context = LegContext(None, snapshot, [QUOTED, "x"], SearchFilters(), DEFAULT_TUNING, vectors)
    quoted, words = leg.gather(context)
    assert PROPERTY_VALUE in quoted and quoted[PROPERTY_VALUE] > 0
    assert len(quoted) <= DEFAULT_TUNING.examples_candidates and all(v > 0 for v in quoted.values())
    # filters apply: a module filter keeps only that module's recipes
    module = snapshot.rows[PROPERTY_VALUE].artifact_id
    filtered = dataclasses.replace(context, filters=SearchFilters(module=module))
    kept = leg.gather(filtered)[0]
    assert PROPERTY_VALUE in kept and all(snapshot.rows[r].artifact_id == module for r in kept)
    # the words of a migration resemble few examples, and less
    assert max(words.values(), default=0.0) < quoted[PROPERTY_VALUE]


@pytest.mark.slow
def test_the_examples_leg_brings_the_recipe_into_the_results(catalog, embedder) -> None:
    without = dataclasses.replace(DEFAULT_TUNING, examples_weight=0.0)
    ids = [h.id for h in find_recipes(catalog, embedder, QUOTED, limit=50).hits]
    pool = scored_pool(catalog, embedder, QUOTED, DEFAULT_TUNING)
    assert PROPERTY_VALUE in ids
    assert pool.candidates[PROPERTY_VALUE].evidence["examples"][0] > 0
    base = scored_pool(catalog, embedder, QUOTED, without)
    # the leg's evidence lifts it over where the description alone puts it (or brings it in at all)
    assert PROPERTY_VALUE not in base.candidates or (
        pool.candidates[PROPERTY_VALUE].score > base.candidates[PROPERTY_VALUE].score
    )


@pytest.mark.slow
def test_rerank_features_are_finite_for_every_candidate(catalog, embedder) -> None:
    for query in (QUOTED, "update the Gradle wrapper"):
        pool = scored_pool(catalog, embedder, query, DEFAULT_TUNING)
        assert pool.candidates
        for rid in pool.candidates:
            values = pool.rerank_features(rid)
            assert len(values) == len(FEATURES) and all(math.isfinite(v) for v in values)


@pytest.mark.slow
def test_pseudo_queries_leave_their_own_example_out(catalog) -> None:
    snapshot = snapshot_for(catalog, catalog.check_ready(), MODEL_KEY)
    number = snapshot.index[PROPERTY_VALUE]
    own = np.flatnonzero(snapshot.example_owners == number)
    vector = snapshot.example_vectors[own[0]]
    left = without_example(snapshot, PROPERTY_VALUE, vector)
    assert len(left.example_owners) < len(snapshot.example_owners)
    assert not np.any((left.example_owners == number) & np.isclose(left.example_vectors @ vector, 1.0, atol=1e-4))
    queries = option_queries(catalog, snapshot, random.Random(1), 30)
    assert queries and all(q and rid in snapshot.rows and parent in snapshot.rows for q, rid, parent in queries)
    assert zeroed(DEFAULT_TUNING).examples_weight > 0  # the leg keeps running while its weight is fitted
    assert zeroed(DEFAULT_TUNING).example_terms_weight == 0  # it would read the left-out example's tokens


@pytest.mark.slow
def test_a_catalog_without_example_vectors_gives_the_leg_nothing(catalog, embedder) -> None:
    snapshot = snapshot_for(catalog, catalog.check_ready(), MODEL_KEY)
    bare = dataclasses.replace(
        snapshot, example_vectors=snapshot.example_vectors[:0], example_owners=snapshot.example_owners[:0]
    )
    assert not bare.example_similarity(embedder.encode([QUOTED])).any()
    pool = scored_pool(catalog, embedder, QUOTED, DEFAULT_TUNING, snapshot=bare)
    assert pool.candidates and not any("examples" in c.evidence for c in pool.candidates.values())
