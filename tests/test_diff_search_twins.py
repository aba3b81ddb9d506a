"""One edit, two recipes (``by_diff.twins``): the twins read from the catalog (the same options and nearly the same
example change, a one-recipe namesake, a delegate a description names) on hand-written data and the real docs
snapshot, and the twin placed right after a ranked recipe, the ten cut to ten. Real PRs of the spent fresh sets."""

from __future__ import annotations

import pytest
from conftest import spent_pr_case

from rewrite_assist.server.search.by_diff import twins
from rewrite_assist.server.search.by_diff.catalog import example_snapshot
from rewrite_assist.server.search.by_diff.scoring import Match
from rewrite_assist.server.search.by_diff.search import find_recipes_for_diff
from rewrite_assist.server.search.by_diff.twins import (
    delegates,
    follow,
    namesakes,
    option_twins,
    snapshot_twins,
    twin_index,
)

PLUGINS = "org.openrewrite.gradle.plugins."
UPGRADE_PLUGIN = PLUGINS + "UpgradePluginVersion"
CHANGE_PLUGIN = PLUGINS + "ChangePluginVersion"
CHANGE_FROM = "org.openrewrite.docker.ChangeFrom"
DOCKER_LEVEL = "org.openrewrite.java.migrate.UpgradeDockerImageVersion"

BUMP = frozenset({"-org.openrewrite.rewrite", "+org.openrewrite.rewrite", "-5.40.0", "+5.40.6", "-version", "+version"})


def test_two_recipes_alone_sharing_options_and_a_change_are_twins() -> None:
    options = {"a.Upgrade": frozenset({"id", "newVersion"}), "b.Change": frozenset({"id", "newVersion"})}
    tokens = {"a.Upgrade": {"gradle": [BUMP]}, "b.Change": {"gradle": [BUMP | {"-v"}]}}
    assert option_twins(options, tokens) == [("a.Upgrade", "b.Change")]
    # the same change in another file kind is not the same edit
    assert option_twins(options, {"a.Upgrade": {"gradle": [BUMP]}, "b.Change": {"maven": [BUMP]}}) == []
    # options alike, changes apart (an element removed, another excluded): two edits
    apart = {"a.Upgrade": {"gradle": [BUMP]}, "b.Change": {"gradle": [frozenset({"-x", "+y", "+version"})]}}
    assert option_twins(options, apart) == []
    # three recipes sharing the options are a family of edits, not one edit
    family = {**options, "c.Neutral": frozenset({"id", "newVersion"})}
    assert option_twins(family, {**tokens, "c.Neutral": {"gradle": [BUMP]}}) == []
    # no options say nothing
    assert option_twins({"a": frozenset(), "b": frozenset()}, {"a": {"k": [BUMP]}, "b": {"k": [BUMP]}}) == []


def test_a_namesake_and_a_delegate_are_read_from_the_catalog() -> None:
    lists = {
        "x.migrate.SetLevel": [{"recipe_id": "x.build.SetLevel", "options": {}}],
        "x.Many": [{"recipe_id": "x.A"}, {"recipe_id": "x.B"}],
        "x.Other": [{"recipe_id": "x.build.SetLevel"}],
    }
    assert namesakes(lists) == [("x.migrate.SetLevel", "x.build.SetLevel")]
    descriptions = {
        "x.UpgradeImage": "Upgrade image tags. Uses a single `ChangeFrom` glob capture.",
        "x.docker.ChangeFrom": "Change the FROM line.",
        "x.Ambiguous": "Runs `Twice` over the tree.",
        "x.one.Twice": "",
        "x.two.Twice": "",
        "x.WithExamples": "Uses `ChangeFrom` too.",
    }
    found = delegates(descriptions, with_examples={"x.WithExamples"}, composites=set())
    # a name two recipes have names neither; a recipe with examples of its own speaks for itself
    assert found == [("x.UpgradeImage", "x.docker.ChangeFrom")]
    index = twin_index({}, {"x.WithExamples": {}}, {}, descriptions)
    # one way only: the delegate makes any edit of its kind, the delegator only its own
    assert index == {"x.UpgradeImage": ("x.docker.ChangeFrom",)}
    assert twin_index({}, {"x.WithExamples": {}}, {}, descriptions, no_edit={"x.docker.ChangeFrom"}) == {}


def test_a_twin_follows_its_first_and_the_ten_stays_ten() -> None:
    ranked = [("a", 3.0), ("first", 2.0), ("b", 1.5), ("c", 1.0)]
    units = [{"first": Match(2.0, 0.5, 3, ["x"]), "a": Match(1.0, 0.1, None, [])}, {"a": Match(3.0, 0.2, None, [])}]
    out = follow(ranked, units, {"first": ("twin",)}, 4, known={"a", "first", "b", "c", "twin"})
    assert [rid for rid, _ in out] == ["a", "first", "twin", "b"]
    assert out[2][1] < out[1][1]
    # the twin cites the first one's change, saying whom it stands in for
    lent = units[0]["twin"]
    assert lent.score < 2.0 and lent.phrase is not None and "first" in lent.phrase
    assert "twin" not in units[1]
    # a twin the ten holds stays where its own evidence placed it; one the catalog lacks stays out
    held = follow([("first", 2.0), ("b", 1.5), ("twin", 1.0)], [{}], {"first": ("twin",)}, 3, {"first", "b", "twin"})
    assert [rid for rid, _ in held] == ["first", "b", "twin"]
    assert follow(ranked, [{}], {"first": ("twin",)}, 4, known={"a", "first", "b", "c"}) == ranked


def test_the_catalog_twins(catalog) -> None:
    index = snapshot_twins(example_snapshot(catalog))
    # the Gradle plugin-version pair: the same options, the same bump in their examples
    assert index.get(UPGRADE_PLUGIN) == (CHANGE_PLUGIN,)
    assert index.get(CHANGE_PLUGIN) == (UPGRADE_PLUGIN,)
    # the JDK image upgrade makes its edit through ``ChangeFrom``; a base image changed is not a Java level moved
    assert CHANGE_FROM in index.get(DOCKER_LEVEL, ())
    assert DOCKER_LEVEL not in index.get(CHANGE_FROM, ())
    # a family of one set of options (a dependency removed, excluded, or removed from management) is no pair,
    # nor the build-tool-neutral dependency change beside the Gradle one
    assert "org.openrewrite.maven.RemoveDependency" not in index
    assert "org.openrewrite.java.dependencies.ChangeDependency" not in index.get(
        "org.openrewrite.gradle.ChangeDependency", ()
    )


def _ids(catalog, embedder, case: str) -> list[str]:
    diff = spent_pr_case(case).read_text(encoding="utf-8")
    return [h.id for h in find_recipes_for_diff(catalog, embedder, diff, limit=10).hits]


@pytest.mark.parametrize(
    ("case", "pair"),
    [
        # Java 8 -> 17 with a Dockerfile's openjdk:8 moved to a Temurin 17 image: the image upgrade and ChangeFrom
        ("pt18-java8-to-17-boot27", (DOCKER_LEVEL, CHANGE_FROM)),
        # Boot 3.2 and Java 21 in a Gradle build: the Spring Boot plugin's version bumped
        ("ph15-java21-boot-3-2-virtual-threads", (CHANGE_PLUGIN, UPGRADE_PLUGIN)),
    ],
)
def test_a_ranked_recipe_brings_its_twin(
    pick_order, catalog, embedder, monkeypatch: pytest.MonkeyPatch, case: str, pair: tuple[str, str]
) -> None:
    first, twin = pair
    ids = _ids(catalog, embedder, case)
    assert first in ids and twin in ids, ids
    assert ids.index(twin) == ids.index(first) + 1 or ids.index(first) == ids.index(twin) + 1, ids
    monkeypatch.setattr(twins, "TWINS", False)
    assert twin not in _ids(catalog, embedder, case)
