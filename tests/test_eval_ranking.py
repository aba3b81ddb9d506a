"""The ranking levers behind find_recipes: variation fusion, catalog priors, graph expansion, exact names,
filters and min_score, checked on the real catalog where the behaviour depends on it."""

from __future__ import annotations

import dataclasses
import math

import numpy as np
import pytest
from conftest import dev_text

from rewrite_assist.server.search.hybrid import DEFAULT_TUNING, find_recipes, soft_max
from rewrite_assist.server.search.legs import named_in
from rewrite_assist.server.search.models import SearchFilters
from rewrite_assist.server.search.priors import RecipeFacts, is_generated_fragment, prior


def test_soft_max_lies_between_mean_and_max():
    values = np.array([0.2, 0.8])
    assert soft_max(values, 0) == pytest.approx(0.5)
    assert 0.5 < soft_max(values, 5) < 0.8
    assert soft_max(values, 200) == pytest.approx(0.8, abs=0.01)
    # by hand: log(mean(exp(5*0.2), exp(5*0.8))) / 5
    assert soft_max(values, 5) == pytest.approx(math.log((math.exp(1) + math.exp(4)) / 2) / 5)


def test_prior_arithmetic():
    plain = RecipeFacts("org.openrewrite.java.ChangeType", False, 0, (), ())
    assert prior(plain, copy_penalty=0.1, fragment_penalty=0.2, popularity=0.01) == 0.0
    popular = dataclasses.replace(plain, used_by_count=9)
    assert prior(popular, copy_penalty=0.1, fragment_penalty=0.2, popularity=0.01) == pytest.approx(0.01 * math.log(10))
    copy = RecipeFacts("io.quarkus.updates.X$Inner", False, 0, (), (), republished_copy=True)
    assert prior(copy, copy_penalty=0.1, fragment_penalty=0.2, popularity=0.01) == pytest.approx(-0.3)
    assert is_generated_fragment("a.b.Rules$OneRecipe") and not is_generated_fragment("a.b$c.Rules")


def test_named_in_finds_ids_and_class_names():
    ids, classes = named_in(
        "run org.openrewrite.github.SetupJavaAdoptOpenJDKToTemurin or UpgradeSpringBoot_3_0 in GitHub"
    )
    assert ids == ["org.openrewrite.github.setupjavaadoptopenjdktotemurin"]
    assert "upgradespringboot_3_0" in classes and "setupjavaadoptopenjdktotemurin" in classes
    assert "github" not in classes  # short CamelCase words are vocabulary


@pytest.mark.slow
def test_expansion_lifts_the_composite_that_includes_the_top_hit(catalog, embedder):
    query = [dev_text("q045", 1), dev_text("q045", 3)]  # its first and third variations
    with_graph = [h.id for h in find_recipes(catalog, embedder, query, limit=10).hits]
    without = dataclasses.replace(DEFAULT_TUNING, expand_top=0)
    flat = [h.id for h in find_recipes(catalog, embedder, query, limit=10, tuning=without).hits]
    top = with_graph[0]
    parents = set(catalog.get_recipe(top).used_by)
    assert parents, f"{top} should be part of a composite"
    assert len(parents & set(with_graph)) > len(parents & set(flat[:10]))


@pytest.mark.slow
def test_filters_hold_for_expanded_hits(catalog, embedder):
    query = ["migrate JUnit 4 tests to JUnit 5", "replace @Rule TemporaryFolder with @TempDir"]
    result = find_recipes(catalog, embedder, query, limit=15, filters=SearchFilters(composite=False))
    assert result.hits and not any(h.is_composite for h in result.hits)
    result = find_recipes(
        catalog, embedder, query, limit=15, filters=SearchFilters(module="rewrite-testing-frameworks")
    )
    assert result.hits and all(h.module and h.module.endswith(":rewrite-testing-frameworks") for h in result.hits)


@pytest.mark.slow
def test_a_recipe_named_in_the_query_ranks_first(catalog, embedder):
    result = find_recipes(catalog, embedder, ["use the ChangeMethodName recipe", "rename a method"], limit=5)
    assert result.hits[0].id == "org.openrewrite.java.ChangeMethodName"


@pytest.mark.slow
def test_min_score_drops_only_weak_embedding_matches(catalog, embedder):
    query = "zxqv wrmbl"  # no word the catalog knows, nothing close in meaning
    assert find_recipes(catalog, embedder, query, limit=5, min_score=0.9).hits == []
    loose = find_recipes(catalog, embedder, query, limit=5, min_score=-1.0)
    assert len(loose.hits) == 5
    strict = find_recipes(catalog, embedder, dev_text("q006"), limit=10, min_score=0.99)  # names workflow_dispatch
    # cosine never reaches 0.99, yet the full-text match on the rare word keeps the right recipe
    assert "org.openrewrite.github.AddManualTrigger" in [h.id for h in strict.hits]
    assert all(h.cosine_score < 0.99 for h in strict.hits)
