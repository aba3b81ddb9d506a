"""The example-terms leg (legs/example_terms.py): the code words a one-phrase query quotes, matched on the side
of the change the query puts them against the changed tokens of the recipe pages' examples, on the real
catalog."""

from __future__ import annotations

import dataclasses

import pytest
from conftest import dev_text

from rewrite_assist.ingestion.pipeline import MODEL_KEY
from rewrite_assist.server.search.hybrid import DEFAULT_TUNING, find_recipes, preload, scored_pool
from rewrite_assist.server.search.intent import direction
from rewrite_assist.server.search.legs import code_tokens
from rewrite_assist.server.search.legs import example_terms as example_terms_module
from rewrite_assist.server.search.legs.example_terms import (
    ADDED,
    REMOVED,
    example_terms,
    example_terms_leg,
    sided_tokens,
)
from rewrite_assist.server.search.snapshot import snapshot_for

OFF = dataclasses.replace(DEFAULT_TUNING, example_terms_weight=0.0)


def exclusions() -> str:
    """Dev case q018: add an ``<exclusions>`` entry (a phrase that quotes one code word)."""
    return dev_text("q018")


def renamed() -> str:
    """Dev case q129: a method renamed, old and new names quoted."""
    return dev_text("q129")


def test_code_tokens_are_the_quoted_code_not_the_words() -> None:
    assert code_tokens(exclusions()) == {"exclusions"}  # "commons-logging" and "entry" are words of the sentence
    assert code_tokens("migrate JUnit 4 tests to JUnit 5") == set()
    # backticks quote code even when the word alone looks like English; dotted names whole and in parts
    assert {"compile", "implementation"} <= code_tokens("Replace `compile` with `implementation`")
    assert {"server.port", "server", "port"} <= code_tokens("server.port changed")


def test_sided_tokens_follow_the_direction_of_the_phrase() -> None:
    sides = sided_tokens(renamed())
    assert sides["fetchall"] == REMOVED and sides["findall"] == ADDED
    assert sides["all"] == REMOVED | ADDED  # on both sides: says nothing of the direction
    became = sided_tokens(dev_text("q024").split(", no ")[0])  # the tag, then "became" the new value
    assert became["17"] == REMOVED and became["21"] == ADDED
    # no direction said: a token may be on either side
    assert sided_tokens("`@Rule TemporaryFolder` in tests")["temporaryfolder"] == REMOVED | ADDED


def test_direction_reads_became() -> None:
    became = direction(dev_text("q024").split(", no ")[0])
    assert "17" in became.source and became.target == {"21"} and not became.strong


@pytest.mark.slow
def test_the_leg_finds_the_recipe_whose_example_shows_the_quoted_tag(catalog, embedder) -> None:
    # ExcludeDependency is described as excluding a dependency; only its example adds ``<exclusions>``
    with_leg = [h.id for h in find_recipes(catalog, embedder, exclusions(), limit=10).hits]
    without = [h.id for h in find_recipes(catalog, embedder, exclusions(), limit=10, tuning=OFF).hits]
    assert "org.openrewrite.maven.ExcludeDependency" in with_leg[:3]
    assert "org.openrewrite.maven.ExcludeDependency" not in without


@pytest.mark.slow
def test_a_token_on_the_wrong_side_of_the_example_is_no_match(catalog) -> None:
    snapshot = snapshot_for(catalog, catalog.check_ready(), MODEL_KEY)
    with catalog.db.connection() as conn, conn.cursor() as cur:
        terms = example_terms(cur, snapshot)
    assert terms is not None and terms.recipes > 1000
    assert example_terms(None, snapshot) is terms  # read once per catalog revision
    # UseMatchingInsteadOfFindAll's example removes ``findAll``: it is not what a query adding it asks for
    matching = "org.openrewrite.gradle.gradle9.UseMatchingInsteadOfFindAll"
    assert matching in snapshot.rows
    (wants,) = example_terms_leg(terms, snapshot, [renamed()], None, DEFAULT_TUNING)
    (drops,) = example_terms_leg(terms, snapshot, ["findAll() calls removed"], None, DEFAULT_TUNING)
    assert matching in drops and drops[matching] > wants.get(matching, 0.0)


@pytest.mark.slow
def test_the_leg_serves_one_phrase_searches_only(catalog, embedder) -> None:
    one = scored_pool(catalog, embedder, exclusions(), DEFAULT_TUNING)
    several = scored_pool(catalog, embedder, [exclusions(), dev_text("q018", 1)], DEFAULT_TUNING)
    assert "example_terms" in {leg.name for leg in one.legs}
    assert "example_terms" not in {leg.name for leg in several.legs}
    assert one.candidates["org.openrewrite.maven.ExcludeDependency"].evidence["example_terms"][0] == 1.0


@pytest.mark.slow
def test_preload_reads_the_example_tokens_before_the_first_search(catalog) -> None:
    snapshot = snapshot_for(catalog, catalog.check_ready(), MODEL_KEY)
    example_terms_module._CACHE.clear()
    assert example_terms(None, snapshot) is None  # no cursor, nothing read yet
    preload(catalog)
    assert example_terms(None, snapshot) is not None
