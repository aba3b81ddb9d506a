"""The diff search's generic edit recipes: for an edit no specific recipe makes, the recipe of the file's kind
that makes any edit of that shape (``by_diff.generic``), placed by the whole-diff pick after the recipes that
were best for some change (``pick.with_fallbacks``)."""

from __future__ import annotations

import pytest
from test_diff_search import pr_case

from rewrite_assist.server.diffs.features import Change
from rewrite_assist.server.search.by_diff import catalog as diff_catalog
from rewrite_assist.server.search.by_diff import pick as diff_pick
from rewrite_assist.server.search.by_diff.build_edits import BUILD_EDIT_IDS
from rewrite_assist.server.search.by_diff.generic import (
    TEXT_EDIT,
    edit_of,
    generic_options,
    generic_recipes,
    in_properties_section,
)
from rewrite_assist.server.search.by_diff.pick import with_fallbacks
from rewrite_assist.server.search.by_diff.search import find_recipes_for_diff

PROPERTY_VALUE = "org.openrewrite.properties.ChangePropertyValue"
MAIN_CLASS = "org.openrewrite.gradle.gradle9.UseMainClassPropertyForApplication"
MAVEN_PROPERTY = "org.openrewrite.maven.ChangePropertyValue"


def test_the_generic_recipe_follows_the_file_kind_and_the_edit(catalog) -> None:
    known = set(diff_catalog.example_snapshot(catalog).recipe_ids)
    changed = Change("properties", ["timeout=10"], ["timeout=30"])
    assert edit_of(changed) == "change"
    assert generic_recipes(changed, known) == [PROPERTY_VALUE]
    assert generic_recipes(Change("properties", [], ["retries=3"]), known) == ["org.openrewrite.properties.AddProperty"]
    assert generic_recipes(Change("yaml", ["  port: 80"], []), known) == ["org.openrewrite.yaml.DeleteProperty"]
    # No structured recipe for a build script's or a Dockerfile's lines: a textual find and replace.
    assert generic_recipes(Change("gradle", ["    mainClassName = 'App'"], ["    mainClass = 'App'"]), known) == [
        TEXT_EDIT
    ]
    assert generic_recipes(Change("dockerfile", ["RUN make"], []), known) == [TEXT_EDIT]
    # ... which adds nothing a line could be found by, and is never offered for source code.
    assert generic_recipes(Change("gradle", [], ["    id 'java'"]), known) == []
    assert generic_recipes(Change("java", ["int a = 1;"], ["int a = 2;"]), known) == []
    # A whole file created or deleted has recipes of its own; an id the catalog lacks is not offered.
    assert generic_recipes(Change("properties", ["a=1"], [], deleted_file=True), known) == []
    assert generic_recipes(changed, known - {PROPERTY_VALUE}) == []


def test_generic_recipes_go_after_the_leading_picks_that_were_best_for_a_change(monkeypatch) -> None:
    chosen = [("a", 3.0), ("b", 2.5), ("c", 1.0), ("d", 0.9)]
    best = [True, True, False, True]
    fallbacks = [["g1"], ["b", "g2"], ["g1", "g3"]]
    monkeypatch.setattr(diff_pick, "FALLBACK", 2)
    # after a and b (the leading run), before the runner-up c; b already picked, g1 once, at most two
    assert with_fallbacks(chosen, best, fallbacks, 10) == [
        ("a", 3.0),
        ("b", 2.5),
        ("g1", 1.75),
        ("g2", 1.75),
        ("c", 1.0),
        ("d", 0.9),
    ]
    assert [rid for rid, _ in with_fallbacks(chosen, best, fallbacks, 3)] == ["a", "b", "g1"]
    # every pick best for some change and the list full: nothing displaced; room left: they follow
    assert with_fallbacks(chosen[:2], best[:2], fallbacks, 2) == chosen[:2]
    assert with_fallbacks(chosen[:2], best[:2], fallbacks, 5)[2:] == [("g1", 2.5), ("g2", 2.5)]


@pytest.mark.parametrize(
    ("case", "generic", "after"),
    [
        # mainClassName → mainClass: the Gradle 9 recipe, then the text edit that makes such a line's change
        ("user-management-service-pr1", TEXT_EDIT, MAIN_CLASS),
        # the wrapper's distributionUrl: the wrapper upgrade, and the properties file's generic value change
        ("payment-processing-service-pr1", PROPERTY_VALUE, "org.openrewrite.gradle.UpdateGradleWrapper"),
    ],
)
def test_a_small_diff_offers_the_generic_edit_before_the_runners_up(
    pick_order, catalog, embedder, monkeypatch, case: str, generic: str, after: str
) -> None:
    path = str(pr_case(case))
    result = find_recipes_for_diff(catalog, embedder, path, limit=10)
    # a build edit recipe offered for a dependency or plugin line ranks above the free-text fallbacks
    # (``build_edits``): counted apart
    ids = [h.id for h in result.hits if h.id not in BUILD_EDIT_IDS]
    assert after in ids and generic in ids[:5] and ids.index(after) < ids.index(generic), ids
    hit = next(h for h in result.hits if h.id == generic)
    if generic == TEXT_EDIT:  # no example or phrase found it: its evidence is the hunks it was offered for
        assert hit.evidence and all(e.generic and e.file == "build.gradle" for e in hit.evidence), hit.evidence
    monkeypatch.setattr(diff_pick, "FALLBACK", 0)
    without = [h.id for h in find_recipes_for_diff(catalog, embedder, path, limit=10).hits]
    assert generic not in without[:5], without


def test_a_pom_change_gets_the_maven_property_recipes_only_inside_properties(catalog) -> None:
    known = set(diff_catalog.example_snapshot(catalog).recipe_ids)
    bump = Change("maven", ["    <java.version>1.8</java.version>"], ["    <java.version>17</java.version>"])
    assert generic_recipes(bump, known, ["  <properties>", "    <a.b>1</a.b>"]) == [MAVEN_PROPERTY]
    # the parent's (or a dependency's) <version> is no property: its own recipes change it (``built``)
    parent = Change("maven", ["    <version>2.4.0</version>"], ["    <version>3.0.0</version>"])
    assert generic_recipes(parent, known, ["  <parent>", "    <artifactId>x</artifactId>"], built=True) == []
    assert MAVEN_PROPERTY not in generic_recipes(bump, known, ["  </properties>", "  <dependencies>"])
    # a pom line outside <properties> no build recipe makes: the free-text edit of that one line, not of several
    enforcer = Change("maven", ["    <version>[17,)</version>"], ["    <version>[21,)</version>"])
    assert generic_recipes(enforcer, known, ["  <requireJavaVersion>"]) == [TEXT_EDIT]
    two = Change("maven", ["<source>11</source>", "<target>11</target>"], ["<release>11</release>"])
    assert generic_recipes(two, known, ["  <configuration>"]) == []
    # above a long properties block's middle the hunk shows no element: an entry named like a property counts
    assert in_properties_section([], bump.removed + bump.added)
    assert not in_properties_section([], parent.removed + parent.added)
    # gradle.properties is a Gradle file by kind, and a properties file to the properties recipes
    version = Change("gradle", ["kotlinVersion=1.9.0"], ["kotlinVersion=2.0.0"])
    assert generic_recipes(version, known, path="gradle.properties") == [PROPERTY_VALUE]


@pytest.mark.parametrize(
    ("recipe", "change", "above", "options"),
    [
        (
            PROPERTY_VALUE,
            Change("properties", ["server.port=8080"], ["server.port=9090"]),
            [],
            {"propertyKey": "server.port", "newValue": "9090", "oldValue": "8080"},
        ),
        (
            "org.openrewrite.properties.AddProperty",
            Change("properties", [], ["retries = 3"]),
            [],
            {"property": "retries", "value": "3"},
        ),
        (
            "org.openrewrite.properties.DeleteProperty",
            Change("properties", ["legacy.mode=true"], []),
            [],
            {"propertyKey": "legacy.mode"},
        ),
        (
            MAVEN_PROPERTY,
            Change("maven", ["<java.version>1.8</java.version>"], ["<java.version>17</java.version> <!-- was 1.8 -->"]),
            [],
            {"key": "java.version", "newValue": "17"},
        ),
        (
            "org.openrewrite.yaml.ChangeValue",
            Change("yaml", ["    url: jdbc:h2:mem:db"], ["    url: 'jdbc:postgresql://db/app'"]),
            ["spring:", "  datasource:"],
            {"keyPath": "$.spring.datasource.url", "value": "jdbc:postgresql://db/app", "filePattern": "app.yml"},
        ),
        (
            TEXT_EDIT,
            Change("gradle", ["    mainClassName = 'App'"], []),
            [],
            {"find": "mainClassName = 'App'", "replace": "", "filePattern": "app.yml"},
        ),
    ],
)
def test_a_one_line_edit_gets_the_options_that_make_it(recipe, change, above, options) -> None:
    assert generic_options(recipe, "app.yml", change, above) == options


def test_no_options_where_the_edit_needs_a_judgement() -> None:
    two = Change("properties", ["a=1", "b=2"], ["a=3", "b=4"])
    assert generic_options(PROPERTY_VALUE, "x.properties", two) == {}
    renamed = Change("properties", ["old.key=1"], ["new.key=1"])
    assert generic_options(PROPERTY_VALUE, "x.properties", renamed) == {}
    # a YAML key whose parents the hunk does not show has no path to give
    nested = Change("yaml", ["    url: a"], ["    url: b"])
    assert generic_options("org.openrewrite.yaml.ChangeValue", "app.yml", nested, []) == {}


def test_the_generic_hits_of_real_prs_carry_the_options_for_their_change(catalog, embedder) -> None:
    hits = {
        h.id: h for h in find_recipes_for_diff(catalog, embedder, str(pr_case("payment-processing-service-pr1"))).hits
    }
    text = hits[TEXT_EDIT].suggested_options
    assert text["filePattern"] == "build.gradle" and text["find"] and text["find"] != text["replace"], text
    assert hits[PROPERTY_VALUE].suggested_options["propertyKey"] == "distributionUrl"
    assert "gradle-8.1-bin.zip" in hits[PROPERTY_VALUE].suggested_options["newValue"]
    # (below the ten's edge: the Java level concern offers UpdateMavenProjectPropertyJavaVersion for that line)
    spring = find_recipes_for_diff(
        catalog, embedder, str(pr_case("spring-unit-testing-with-junit-and-mockito-pr2")), limit=20
    ).hits
    maven = {h.id: h for h in spring}[MAVEN_PROPERTY]
    assert maven.suggested_options == {"key": "java.version", "newValue": "17"}
