"""Reciprocal Rank Fusion (k = 60, 1-based ranks), the selectable alternative to score fusion."""

from __future__ import annotations

import dataclasses

import pytest

from rewrite_assist.server.search.hybrid import DEFAULT_TUNING, find_recipes

TEMURIN = [
    "switch setup-java distribution from adopt to temurin in GitHub workflows",
    "replace AdoptOpenJDK with Eclipse Temurin in CI",
]


def test_rrf_scores_are_sums_of_reciprocal_ranks(catalog, embedder) -> None:
    tuning = dataclasses.replace(DEFAULT_TUNING, fusion="rrf", expand_top=0)
    result = find_recipes(catalog, embedder, TEMURIN, limit=10, tuning=tuning)
    assert "org.openrewrite.github.SetupJavaAdoptOpenJDKToTemurin" in [h.id for h in result.hits[:3]]
    k = tuning.rrf_k
    # lists: per variation one dense and one lexical list, one joint list, one exact list
    best_possible = len(TEMURIN) * (1 + tuning.rrf_lexical_weight) / (k + 1) + (
        tuning.rrf_joint_weight + tuning.rrf_exact_weight
    ) / (k + 1)
    top = result.hits[0].fusion_score
    assert 0 < top <= best_possible + 1e-9
    assert top >= (1 + tuning.rrf_joint_weight) / (k + len(result.hits))  # ranked high in at least two lists
    scores = [h.fusion_score for h in result.hits]
    assert scores == sorted(scores, reverse=True)


def test_rrf_and_score_fusion_agree_on_an_unambiguous_intent(catalog, embedder) -> None:
    rrf = dataclasses.replace(DEFAULT_TUNING, fusion="rrf")
    ours = find_recipes(catalog, embedder, TEMURIN, limit=5)
    theirs = find_recipes(catalog, embedder, TEMURIN, limit=5, tuning=rrf)
    assert ours.hits[0].id in [h.id for h in theirs.hits[:3]]


def test_the_server_setting_switches_find_recipes_to_rrf(catalog, embedder, monkeypatch) -> None:
    from rewrite_assist.server.search.hybrid import QueryError, configured_tuning

    assert configured_tuning() is DEFAULT_TUNING and DEFAULT_TUNING.fusion == "score"
    score = find_recipes(catalog, embedder, TEMURIN, limit=5)
    monkeypatch.setenv("REWRITE_ASSIST_FUSION", "RRF")
    assert configured_tuning().fusion == "rrf"
    rrf = find_recipes(catalog, embedder, TEMURIN, limit=5)
    tuning = configured_tuning()
    lists = 2 * len(TEMURIN) + 2  # dense + lexical per variation, joint, exact
    assert all(h.fusion_score <= lists / (tuning.rrf_k + 1) for h in rrf.hits)  # sums of 1/(60 + rank)
    assert score.hits[0].fusion_score > lists / (tuning.rrf_k + 1)  # a similarity-scale score
    assert "org.openrewrite.github.SetupJavaAdoptOpenJDKToTemurin" in [h.id for h in rrf.hits[:3]]
    monkeypatch.setenv("REWRITE_ASSIST_FUSION", "borda")
    with pytest.raises(QueryError, match="REWRITE_ASSIST_FUSION must be one of score, rrf"):
        find_recipes(catalog, embedder, TEMURIN)
