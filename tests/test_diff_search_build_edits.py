"""The diff search's build edits (``by_diff.build_edits``): a Maven or Gradle build's dependency and plugin
edits read from the file's structure, the catalog recipe that makes each with the options it needs, and its
place in the ranking (just below a segment's best recipe)."""

from __future__ import annotations

import pytest
from conftest import spent_pr_case

from rewrite_assist.server.diffs.features import Change
from rewrite_assist.server.search.by_diff import build_edits as be
from rewrite_assist.server.search.by_diff import catalog as diff_catalog
from rewrite_assist.server.search.by_diff import rerank
from rewrite_assist.server.search.by_diff.build_edits import (
    RECIPES,
    BuildEdit,
    declared_only,
    edit_recipes,
    gradle_edits,
    maven_edits,
    segment_edits,
)
from rewrite_assist.server.search.by_diff.search import find_recipes_for_diff
from rewrite_assist.server.search.by_diff.split import split_diff


def shapes(edits: list[BuildEdit]) -> list[tuple[str, dict[str, str]]]:
    return [(e.shape, e.options) for e in edits]


DEP_ABOVE = ["    <dependencies>", "        <dependency>", "            <groupId>org.assertj</groupId>"]
DEP_BELOW = ["        </dependency>"]


def test_a_pom_dependency_version_bump_is_read_with_its_coordinates_and_property() -> None:
    above = [*DEP_ABOVE, "            <artifactId>assertj-core</artifactId>"]
    bump = Change("maven", ["            <version>3.22.0</version>"], ["            <version>3.25.3</version>"])
    assert shapes(maven_edits(bump, above, DEP_BELOW)) == [
        ("dependency-version", {"groupId": "org.assertj", "artifactId": "assertj-core", "newVersion": "3.25.3"})
    ]
    # a version moved to a property the PR sets: the property's value is the new version
    moved = Change(
        "maven", ["            <version>3.22.0</version>"], ["            <version>${assertj.version}</version>"]
    )
    assert maven_edits(moved, above, DEP_BELOW, {"assertj.version": "3.25.3"})[0].options["newVersion"] == "3.25.3"
    # ... of the same value, or one the PR does not set: no version change to make
    assert maven_edits(moved, above, DEP_BELOW, {"assertj.version": "3.22.0"}) == []
    assert maven_edits(moved, above, DEP_BELOW) == []
    # the version line dropped (now managed elsewhere): the redundant-version recipe's patterns
    dropped = Change("maven", ["            <version>3.22.0</version>"], [])
    assert shapes(maven_edits(dropped, above, DEP_BELOW)) == [
        ("version-removed", {"groupPattern": "org.assertj", "artifactPattern": "assertj-core"})
    ]


def test_pom_plugins_parents_and_whole_dependencies() -> None:
    plugin = ["        <plugin>", "            <artifactId>maven-surefire-plugin</artifactId>"]
    bump = Change("maven", ["            <version>2.22.2</version>"], ["            <version>3.2.5</version>"])
    # a plugin without a groupId is one of Maven's own
    assert shapes(maven_edits(bump, plugin, ["        </plugin>"])) == [
        (
            "plugin-version",
            {"groupId": "org.apache.maven.plugins", "artifactId": "maven-surefire-plugin", "newVersion": "3.2.5"},
        )
    ]
    parent = [
        "    <parent>",
        "        <groupId>org.springframework.boot</groupId>",
        "        <artifactId>x</artifactId>",
    ]
    assert maven_edits(bump, parent, ["    </parent>"])[0].shape == "parent-version"
    removed = Change(
        "maven",
        [
            "        <dependency>",
            "            <groupId>com.google.guava</groupId>",
            "            <artifactId>guava</artifactId>",
            "        </dependency>",
        ],
        [],
    )
    assert shapes(maven_edits(removed, ["    <dependencies>"], ["    </dependencies>"])) == [
        ("dependency-removed", {"groupId": "com.google.guava", "artifactId": "guava"})
    ]
    # inside <dependencyManagement>: the managed recipes, a BOM's scope and type among the options
    bom = Change(
        "maven",
        [],
        [
            "            <dependency>",
            "                <groupId>org.junit</groupId>",
            "                <artifactId>junit-bom</artifactId>",
            "                <version>5.10.2</version>",
            "                <type>pom</type>",
            "                <scope>import</scope>",
            "            </dependency>",
        ],
    )
    managed = maven_edits(bom, ["    <dependencyManagement>", "        <dependencies>"], [])
    assert shapes(managed) == [
        (
            "managed-added",
            {"groupId": "org.junit", "artifactId": "junit-bom", "version": "5.10.2", "scope": "import", "type": "pom"},
        )
    ]
    assert maven_edits(bom, ["    <dependencies>"], [])[0].shape == "dependency-added"


def test_gradle_dependency_plugin_and_extra_property_edits() -> None:
    compile_to_implementation = Change(
        "gradle",
        ["    compile 'io.dropwizard:dropwizard-core:1.3.29'"],
        ["    implementation 'io.dropwizard:dropwizard-core:1.3.29'"],
    )
    assert shapes(gradle_edits(compile_to_implementation, [])) == [
        (
            "dependency-configuration",
            {
                "groupId": "io.dropwizard",
                "artifactId": "dropwizard-core",
                "newConfiguration": "implementation",
                "configuration": "compile",
            },
        )
    ]
    kotlin_bump = Change(
        "gradle",
        ['    implementation("org.mapstruct:mapstruct:1.5.5.Final")'],
        ['    implementation("org.mapstruct:mapstruct:1.6.2")'],
    )
    assert shapes(gradle_edits(kotlin_bump, [])) == [
        ("dependency-version", {"groupId": "org.mapstruct", "artifactId": "mapstruct", "newVersion": "1.6.2"})
    ]
    swap = Change(
        "gradle",
        ["    testImplementation 'org.hamcrest:hamcrest:2.2'"],
        ["    testImplementation 'org.assertj:assertj-core:3.25.3'"],
    )
    assert gradle_edits(swap, [])[0].options == {
        "oldGroupId": "org.hamcrest",
        "oldArtifactId": "hamcrest",
        "newGroupId": "org.assertj",
        "newArtifactId": "assertj-core",
        "newVersion": "3.25.3",
    }
    plugin = Change(
        "gradle",
        ['    id("com.diffplug.spotless") version "6.23.3"'],
        ['    id("com.diffplug.spotless") version "6.25.0"'],
    )
    assert shapes(gradle_edits(plugin, [])) == [
        ("plugin-version", {"pluginIdPattern": "com.diffplug.spotless", "newVersion": "6.25.0"})
    ]
    for old, new, above in [
        ('extra["testcontainersVersion"] = "1.19.3"', 'extra["testcontainersVersion"] = "1.19.4"', []),
        ("    set('testcontainersVersion', \"1.19.3\")", "    set('testcontainersVersion', \"1.19.4\")", []),
        ("    testcontainersVersion = '1.19.3'", "    testcontainersVersion = '1.19.4'", ["ext {"]),
    ]:
        assert shapes(gradle_edits(Change("gradle", [old], [new]), above)) == [
            ("extra-property", {"key": "testcontainersVersion", "value": "1.19.4"})
        ], old
    # the same assignment outside an ``ext`` block is no extra property
    assert gradle_edits(Change("gradle", ["    version = '1.0'"], ["    version = '1.1'"]), ["java {"]) == []
    platform = Change("gradle", [], ['    testImplementation(platform("org.junit:junit-bom:5.10.1"))'])
    assert shapes(gradle_edits(platform, [])) == [
        (
            "platform-added",
            {
                "groupId": "org.junit",
                "artifactId": "junit-bom",
                "configuration": "testImplementation",
                "version": "5.10.1",
            },
        )
    ]


def test_a_pom_change_deep_inside_dependency_management_is_known_as_managed() -> None:
    """The BOM imported a dozen lines below ``<dependencyManagement>``: git shows no opening tag above it, the
    pom's earlier segment does."""
    text = spent_pr_case("ph19-maven-plugin-and-bom-cleanup").read_text()
    segments, *_ = split_diff(text)
    found = {
        (e.shape, e.options.get("artifactId") or e.options.get("artifactPattern"))
        for seg_edits in segment_edits(segments)
        for e in seg_edits
    }
    assert ("managed-added", "junit-bom") in found and ("dependency-added", "junit-bom") not in found, found
    assert ("managed-removed", "junit-jupiter") in found
    # the child pom's version line, now managed by the parent
    assert ("version-removed", "jackson-datatype-jsr310") in found
    # a plugin version moved to a ${property} the PR sets: read as the upgrade it is
    assert ("plugin-version", "maven-compiler-plugin") in found


def test_every_build_edit_recipe_is_in_the_catalog_and_declares_the_options_offered(catalog) -> None:
    known = set(diff_catalog.example_snapshot(catalog).recipe_ids)
    recipes = catalog.get_recipes(be.BUILD_EDIT_IDS)
    assert set(recipes) == be.BUILD_EDIT_IDS <= known
    samples = {
        ("maven", "dependency-version"): {"groupId", "artifactId", "newVersion"},
        ("maven", "managed-added"): {"groupId", "artifactId", "version", "scope", "type"},
        ("maven", "version-removed"): {"groupPattern", "artifactPattern"},
        ("maven", "dependency-changed"): {"oldGroupId", "oldArtifactId", "newGroupId", "newArtifactId", "newVersion"},
        ("gradle", "dependency-configuration"): {"groupId", "artifactId", "newConfiguration", "configuration"},
        ("gradle", "dependency-added"): {"groupId", "artifactId", "configuration", "version"},
        ("gradle", "plugin-version"): {"pluginIdPattern", "newVersion"},
        ("gradle", "extra-property"): {"key", "value"},
        ("maven", "property-version"): {"newVersion"},
    }
    for key, options in samples.items():
        for rid in RECIPES[key]:
            declared = {o.name for o in recipes[rid].options}
            assert options <= declared, (rid, options - declared)
    # an option the recipe does not declare is not suggested; an id the catalog lacks is not offered
    assert declared_only({"groupId": "g", "scope": "test"}, ["groupId", "artifactId"]) == {"groupId": "g"}
    edit = BuildEdit("dependency-version", {})
    assert edit_recipes("maven", [edit], known - {"org.openrewrite.maven.UpgradeDependencyVersion"}) == []


@pytest.mark.parametrize(
    ("case", "recipe", "options", "lever"),
    [
        (
            "ph21-spring-boot-3-3-bump",
            "org.openrewrite.gradle.UpgradeDependencyVersion",
            {"groupId": "org.springdoc", "artifactId": "springdoc-openapi-starter-webmvc-ui", "newVersion": "2.6.0"},
            ("BUILD_SHARE", 0.0),
        ),
        (
            "ph09-gradle-7-configurations",
            "org.openrewrite.gradle.ChangeDependencyConfiguration",
            {"groupId": "io.dropwizard", "artifactId": "dropwizard-core", "newConfiguration": "implementation"},
            ("BUILD_SHARE", 0.0),
        ),
        (
            "ph18-drop-guava",
            "org.openrewrite.maven.RemoveDependency",
            {"groupId": "com.google.guava", "artifactId": "guava"},
            ("BUILD_SHARE", 0.0),
        ),
        # a version bumped in ``<properties>`` (no dependency in the diff uses it: the version alone)
        (
            "pq11-log4j-2-17-1",
            "org.openrewrite.maven.UpgradeDependencyVersion",
            {"newVersion": "2.17.1"},
            ("PROPERTY_EDITS", False),
        ),
        (
            "pq03-boot-2-7-config",
            "org.openrewrite.maven.UpgradeDependencyVersion",
            {"newVersion": "1.7.0"},
            ("PROPERTY_EDITS", False),
        ),
    ],
)
def test_real_prs_get_the_build_edit_recipe_with_its_options(
    catalog, embedder, monkeypatch, case: str, recipe: str, options: dict[str, str], lever: tuple[str, object]
) -> None:
    path = str(spent_pr_case(case))
    hits = {h.id: h for h in find_recipes_for_diff(catalog, embedder, path, limit=10).hits}
    assert recipe in hits, list(hits)
    suggested = hits[recipe].suggested_options
    assert {k: suggested.get(k) for k in options} == options, suggested
    # the lever, a rule of the pick, read in the pick's own order (the rerank may find the recipe deeper in the pool
    # without it): without the lever the recipe ranks lower, or not at all
    monkeypatch.setattr(rerank, "RERANK", False)
    picked = [h.id for h in find_recipes_for_diff(catalog, embedder, path, limit=10).hits]
    assert recipe in picked, picked
    monkeypatch.setattr(be, *lever)
    without = [h.id for h in find_recipes_for_diff(catalog, embedder, path, limit=10).hits]
    assert recipe not in without or without.index(recipe) > picked.index(recipe), without


def test_a_pr_without_build_edits_ranks_as_before(catalog, embedder, monkeypatch) -> None:
    """A wrapper bump touches no dependency or plugin: the offer changes nothing."""
    path = str(spent_pr_case("ph01-gradle-wrapper-8-10"))
    with_offer = [h.id for h in find_recipes_for_diff(catalog, embedder, path, limit=10).hits]
    monkeypatch.setattr(be, "BUILD_SHARE", 0.0)
    assert [h.id for h in find_recipes_for_diff(catalog, embedder, path, limit=10).hits] == with_offer
    assert not be.BUILD_EDIT_IDS & set(with_offer[:3]), with_offer


def test_the_projects_own_dependencies_after_a_managed_section_are_direct() -> None:
    """An earlier hunk ends inside ``<dependencyManagement>``; the next shows the project's ``<dependencies>``
    at the same depth: a swap there is a direct dependency's, not a managed one's."""
    state = be.managed_after(["  </properties>", "  <dependencyManagement>", "    <dependencies>"])
    assert state == (True, 2)
    above = ["  <dependencies>", "    <dependency>", "      <groupId>io.quarkus</groupId>"]
    swap = Change(
        "maven",
        ["      <artifactId>quarkus-resteasy-reactive-jackson</artifactId>"],
        ["      <artifactId>quarkus-rest-jackson</artifactId>"],
    )
    assert [e.shape for e in maven_edits(swap, above, ["    </dependency>"], {}, state)] == ["dependency-changed"]
    # ... while a dependency deeper than the section's tag is still inside it
    assert [e.shape for e in maven_edits(swap, above[1:], ["    </dependency>"], {}, state)] == [
        "managed-added",
        "managed-removed",
    ]
