"""The Java level as one concern (``by_diff.java_level``) against the real docs snapshot: the level setter, its
build file steps and the composites presetting it read from the catalog's graph; the level a segment moves read
from poms, Gradle scripts and CI; the build tool's step offered where a build file moves the level (or swaps
``source``/``target`` for ``release``), and the concern weighed down where the diff moves no level. Real PRs of the
spent fresh sets."""

from __future__ import annotations

import pytest
from conftest import spent_pr_case

from rewrite_assist.server.diffs.features import Change
from rewrite_assist.server.search.by_diff import java_level, rerank
from rewrite_assist.server.search.by_diff.catalog import example_snapshot
from rewrite_assist.server.search.by_diff.java_level import (
    as_level,
    image_level,
    level_moves,
    level_recipes,
    segment_level,
)
from rewrite_assist.server.search.by_diff.scoring import Match
from rewrite_assist.server.search.by_diff.search import find_recipes_for_diff
from rewrite_assist.server.search.by_diff.split import split_diff

MIGRATE = "org.openrewrite.java.migrate."
MAVEN_LEVEL = "org.openrewrite.maven.UpdateMavenProjectPropertyJavaVersion"
MAVEN_RELEASE = "org.openrewrite.maven.UseMavenCompilerPluginReleaseConfiguration"
GRADLE_LEVEL = "org.openrewrite.gradle.UpdateJavaCompatibility"


def _change(kind: str, removed: list[str], added: list[str]) -> Change:
    return Change(kind=kind, removed=removed, added=added)


def test_levels_are_read_as_the_recipes_take_them() -> None:
    assert as_level("1.8") == "8"
    assert as_level("'17'") == "17"
    assert as_level("${java.version}") is None
    # a pom's level property, and the compiler's elements
    pom = _change("maven", ["    <java.version>11</java.version>"], ["    <java.version>17</java.version>"])
    assert segment_level(pom) == "17"
    swap = _change("maven", ["<source>1.8</source>", "<target>1.8</target>"], ["<release>11</release>"])
    assert segment_level(swap) == "11"
    # the same level in other words is no move (a release swap at 11, a Gradle toolchain for VERSION_17)
    same = _change("maven", ["<maven.compiler.source>11</maven.compiler.source>"], ["<release>11</release>"])
    assert segment_level(same) is None
    toolchain = _change(
        "gradle",
        ["sourceCompatibility = JavaVersion.VERSION_17"],
        ["java {", "    toolchain { languageVersion = JavaLanguageVersion.of(17) }"],
    )
    assert segment_level(toolchain) is None
    ci = _change("yaml", ["          java-version: '11'"], ["          java-version: '17'"])
    assert segment_level(ci) == "17"
    # an action's own version is no Java level; the level beside it is
    action = _change("yaml", ["uses: actions/setup-java@v3"], ["uses: actions/setup-java@v4"])
    assert segment_level(action) is None
    both = _change(
        "yaml",
        ["uses: actions/setup-java@v3", "java-version: '11'"],
        ["uses: actions/setup-java@v4", "java-version: 17"],
    )
    assert segment_level(both) == "17"
    # Java code is no level move, whatever numbers it holds
    assert segment_level(_change("java", ["int java = 11;"], ["int java = 17;"])) is None


def test_a_jdk_image_tag_is_read_as_a_level() -> None:
    # the number after a word naming Java, a JDK or a JRE; else the leading number of a JDK image's tag
    assert image_level("FROM eclipse-temurin:17-jre-jammy") == "17"
    assert image_level("FROM --platform=linux/amd64 eclipse-temurin:21-jdk-alpine AS build") == "21"
    assert image_level("FROM openjdk:11") == "11"
    assert image_level("FROM maven:3.6-jdk-11 AS build") == "11"
    assert image_level("FROM registry.access.redhat.com/ubi8/openjdk-17:1.18") == "17"
    assert image_level("FROM adoptopenjdk/openjdk11:alpine-jre") == "11"
    assert image_level("FROM gcr.io/distroless/java17-debian12:nonroot") == "17"
    # a registry port is no tag: the image's own tag is read (the shared reference reader, ``image_parts``)
    assert image_level("FROM registry.local:5000/eclipse-temurin:17-jre") == "17"
    # an image naming no JDK has no Java level, whatever its tag's number
    assert image_level("FROM node:20-alpine") is None
    assert image_level("FROM postgres:16") is None
    assert image_level("RUN java -version") is None
    # a Dockerfile-only move is a level move; the same level in another image is none
    move = _change("dockerfile", ["FROM adoptopenjdk/openjdk11:jre-11.0.11_9-alpine"], ["FROM eclipse-temurin:21-jre"])
    assert segment_level(move) == "21"
    same = _change("dockerfile", ["FROM eclipse-temurin:17-jre-alpine"], ["FROM gcr.io/distroless/java17-debian12"])
    assert segment_level(same) is None
    assert segment_level(_change("dockerfile", ["FROM node:18"], ["FROM node:20"])) is None


def test_the_concern_is_read_from_the_catalog_graph(catalog) -> None:
    recipes = level_recipes(example_snapshot(catalog))
    # the recipe the UpgradeBuildToJavaN composites run with version N
    assert recipes.setters == frozenset({MIGRATE + "UpgradeJavaVersion"})
    assert recipes.presets[MIGRATE + "UpgradeBuildToJava17"] == "17"
    assert recipes.presets[MIGRATE + "UpgradeBuildToJava21"] == "21"
    # the migrations to a level: the composites running its preset
    assert MIGRATE + "UpgradeToJava17" in recipes.migrations["17"]
    assert MIGRATE + "UpgradeToJava21" in recipes.migrations["21"]
    assert MIGRATE + "Java8toJava11" in recipes.migrations["11"]
    assert MIGRATE + "UpgradeToJava21" not in recipes.migrations["17"]
    # its steps, by the file kind of their examples
    assert {MAVEN_LEVEL, MAVEN_RELEASE} <= set(recipes.steps["maven"])
    assert GRADLE_LEVEL in recipes.steps["gradle"]
    assert GRADLE_LEVEL not in recipes.steps["maven"]
    # a one-recipe namesake in another package
    assert recipes.namesakes[MAVEN_LEVEL] == (MIGRATE + "maven.UpdateMavenProjectPropertyJavaVersion",)
    # the names their examples change: a property for one, the compiler's release element for the other
    assert "java.version" in recipes.names[MAVEN_LEVEL]
    assert "release" in recipes.adds[MAVEN_RELEASE]
    assert "release" not in recipes.adds[MAVEN_LEVEL]


def test_a_segment_offers_the_step_that_writes_its_lines(catalog) -> None:
    snap = example_snapshot(catalog)
    recipes, known = level_recipes(snap), set(snap.recipe_ids)
    prop = _change("maven", ["<java.version>11</java.version>"], ["<java.version>17</java.version>"])
    assert java_level.segment_steps(prop, True, recipes, {}, known) == [MAVEN_LEVEL]
    # source/target swapped for release at the same level: the release configuration only
    swap = _change("maven", ["<source>11</source>", "<target>11</target>"], ["<release>11</release>"])
    assert java_level.segment_steps(swap, False, recipes, {}, known) == [MAVEN_RELEASE]
    # ... and where the level moves too, the level's own step after it
    both = _change(
        "maven",
        ["<maven.compiler.source>1.8</maven.compiler.source>", "<maven.compiler.target>1.8</maven.compiler.target>"],
        ["<maven.compiler.release>11</maven.compiler.release>"],
    )
    assert java_level.segment_steps(both, True, recipes, {}, known) == [MAVEN_RELEASE, MAVEN_LEVEL]
    compat = _change("gradle", ["sourceCompatibility = '11'"], ["sourceCompatibility = '17'"])
    assert java_level.segment_steps(compat, True, recipes, {}, known) == [GRADLE_LEVEL]
    # a toolchain line no step's examples change: the setter itself
    toolchain = _change(
        "gradle", ["languageVersion = JavaLanguageVersion.of(17)"], ["languageVersion = JavaLanguageVersion.of(21)"]
    )
    assert java_level.segment_steps(toolchain, True, recipes, {}, known) == [MIGRATE + "UpgradeJavaVersion"]


def _ids(catalog, embedder, case: str) -> list[str]:
    diff = spent_pr_case(case).read_text(encoding="utf-8")
    return [h.id for h in find_recipes_for_diff(catalog, embedder, diff, limit=10).hits]


def test_a_pr_moving_the_level_shows_the_pom_recipe_beside_the_migration(
    catalog, embedder, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Java 11 -> 17 in the CI workflow, the Dockerfile and the pom's java.version
    segments, *_ = split_diff(spent_pr_case("ph02-java17-maven-docker-ci").read_text(encoding="utf-8"))
    assert set(level_moves(segments).values()) == {"17"}
    ids = _ids(catalog, embedder, "ph02-java17-maven-docker-ci")
    assert MAVEN_LEVEL in ids, ids
    assert MIGRATE + "UpgradeToJava17" in ids, ids
    # the rule is the pick's: read in its own order (the rerank may find the recipe deeper in the pool without it)
    monkeypatch.setattr(rerank, "RERANK", False)
    assert MAVEN_LEVEL in _ids(catalog, embedder, "ph02-java17-maven-docker-ci")
    monkeypatch.setattr(java_level, "JAVA_LEVEL", False)
    assert MAVEN_LEVEL not in _ids(catalog, embedder, "ph02-java17-maven-docker-ci")


def test_a_pr_moving_no_level_leaves_the_level_recipes_out(catalog, embedder, monkeypatch: pytest.MonkeyPatch) -> None:
    # plugin and BOM versions through pom properties; no Java level anywhere
    case = "ph19-maven-plugin-and-bom-cleanup"
    segments, *_ = split_diff(spent_pr_case(case).read_text(encoding="utf-8"))
    assert level_moves(segments) == {}
    concern = level_recipes(example_snapshot(catalog)).all()
    assert not concern & set(_ids(catalog, embedder, case))
    monkeypatch.setattr(java_level, "UNMOVED", 1.0)
    assert concern & set(_ids(catalog, embedder, case))


def test_a_jdk_image_keeping_its_level_moves_none(catalog, embedder) -> None:
    # Quarkus 3.2: the UBI image's own version moves (openjdk-17:1.14 -> 1.16), the JDK stays at 17
    case = "pt14-quarkus-3-2"
    segments, *_ = split_diff(spent_pr_case(case).read_text(encoding="utf-8"))
    assert level_moves(segments) == {}
    assert MAVEN_LEVEL not in _ids(catalog, embedder, case)


def test_a_build_moving_the_level_offers_the_migration_to_it(
    catalog, embedder, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Boot 3: the pom's java.version 11 -> 17 (CI and the Dockerfile too) among Jakarta and tracing changes
    case = "pt20-boot3-cloud-2022-tracing"
    segments, *_ = split_diff(spent_pr_case(case).read_text(encoding="utf-8"))
    assert "17" in level_moves(segments).values()
    assert MIGRATE + "UpgradeToJava17" in _ids(catalog, embedder, case)
    monkeypatch.setattr(java_level, "MIGRATION", False)
    assert MIGRATE + "UpgradeToJava17" not in _ids(catalog, embedder, case)


_POM_MOVE = """diff --git a/pom.xml b/pom.xml
--- a/pom.xml
+++ b/pom.xml
@@ -10,3 +10,3 @@
     <properties>
-        <java.version>11</java.version>
+        <java.version>17</java.version>
     </properties>
"""
# the same move in the CI workflow too: the PR moves the level beyond its build files
_CI_MOVE = """diff --git a/.github/workflows/ci.yml b/.github/workflows/ci.yml
--- a/.github/workflows/ci.yml
+++ b/.github/workflows/ci.yml
@@ -20,3 +20,3 @@
         with:
-          java-version: 11
+          java-version: 17
           distribution: temurin
"""
SETTER = MIGRATE + "UpgradeJavaVersion"


def _offered(catalog, leader: str, diff: str = _POM_MOVE + _CI_MOVE) -> tuple[dict[str, Match], set[tuple[int, str]]]:
    """The pom segment moving the level to 17 after ``offer``, its best recipe before being ``leader`` at 2.0."""
    snap = example_snapshot(catalog)
    segments, *_ = split_diff(diff)
    assert segments[0].change.kind == "maven"
    scores = {leader: Match(2.0, 0.0, None, [], None)}
    per_segment = [scores] + [{} for _ in segments[1:]]
    raised, _ = java_level.offer(
        per_segment, segments, level_moves(segments), level_recipes(snap), set(snap.recipe_ids)
    )
    return scores, raised


def test_the_setter_is_offered_beside_the_step_and_ties_a_best_composite_running_both(
    catalog, monkeypatch: pytest.MonkeyPatch
) -> None:
    # the best recipe runs the step and the setter (UpgradeBuildToJava17 -> UpgradeJavaVersion -> the pom step):
    # both tie it, so the composite picked leaves the segment open for them (``pick.MEMBERS_KEEP``)
    scores, raised = _offered(catalog, MIGRATE + "UpgradeBuildToJava17")
    assert scores[MAVEN_LEVEL].score == scores[SETTER].score == 2.0
    assert {(0, MAVEN_LEVEL), (0, SETTER)} <= raised
    # the namesake runs under no composite: just below
    assert scores[MIGRATE + "maven.UpdateMavenProjectPropertyJavaVersion"].score < 2.0
    # a best recipe running neither: the step just below it, the setter below the step, both still offered
    scores, raised = _offered(catalog, "org.openrewrite.maven.UpgradeParentVersion")
    assert 2.0 > scores[MAVEN_LEVEL].score > scores[SETTER].score > 1.9
    assert (0, SETTER) in raised
    monkeypatch.setattr(java_level, "RUN_BY_BEST", False)
    scores, _ = _offered(catalog, MIGRATE + "UpgradeBuildToJava17")
    assert scores[MAVEN_LEVEL].score < 2.0
    monkeypatch.setattr(java_level, "SETTER", False)
    scores, _ = _offered(catalog, MIGRATE + "UpgradeBuildToJava17")
    assert SETTER not in scores


def test_a_level_moved_in_a_build_file_alone_is_its_steps_change(catalog, monkeypatch: pytest.MonkeyPatch) -> None:
    # only the pom moves the level: the step is offered below the best composite, neither tying it nor joined by
    # the setter, which moves the level everywhere (``BEYOND_BUILD``)
    scores, raised = _offered(catalog, MIGRATE + "UpgradeBuildToJava17", _POM_MOVE)
    assert 2.0 > scores[MAVEN_LEVEL].score > 1.9
    assert (0, MAVEN_LEVEL) in raised
    assert SETTER not in scores
    monkeypatch.setattr(java_level, "BEYOND_BUILD", False)
    scores, _ = _offered(catalog, MIGRATE + "UpgradeBuildToJava17", _POM_MOVE)
    assert scores[MAVEN_LEVEL].score == scores[SETTER].score == 2.0


@pytest.mark.parametrize("case", ["ph02-java17-maven-docker-ci", "pt03-jdk21-maven-multimodule"])
def test_a_build_moving_the_level_shows_its_setter(
    pick_order, catalog, embedder, monkeypatch: pytest.MonkeyPatch, case: str
) -> None:
    # the pom's level property moves (11 -> 17, 17 -> 21) with CI and the Dockerfile; the pom segment's best
    # recipe is a composite running the setter
    ids = _ids(catalog, embedder, case)
    assert SETTER in ids, ids
    monkeypatch.setattr(java_level, "SETTER", False)
    monkeypatch.setattr(java_level, "RUN_BY_BEST", False)
    # ... and the pom step picked on its own evidence covering the segment, as before round 13
    monkeypatch.setattr(java_level, "OWN_STEP_LEAVES_OPEN", False)
    assert SETTER not in _ids(catalog, embedder, case)


def test_a_pom_moves_the_level_through_its_level_lines_only(monkeypatch: pytest.MonkeyPatch) -> None:
    # a comment beside an added dependency names the JDK and a number: no level line moves
    comment = _change(
        "maven",
        [],
        ["    <!-- JAXB left the JDK in 11 -->", "    <dependency>", "      <groupId>jakarta.xml.bind</groupId>"],
    )
    assert segment_level(comment) is None
    # the level property beside it still moves the level
    prop = _change("maven", [], ["    <maven.compiler.release>11</maven.compiler.release>"])
    assert segment_level(prop) == "11"
    monkeypatch.setattr(java_level, "POM_LEVEL_LINES_ONLY", False)
    assert segment_level(comment) == "11"


def test_gradle_java_version_constants_are_read_as_levels(monkeypatch: pytest.MonkeyPatch) -> None:
    moved = _change(
        "gradle", ["sourceCompatibility = JavaVersion.VERSION_11"], ["sourceCompatibility = JavaVersion.VERSION_17"]
    )
    assert segment_level(moved) == "17"
    assert (
        segment_level(
            _change(
                "gradle",
                ["targetCompatibility = JavaVersion.VERSION_1_8"],
                ["targetCompatibility = JavaVersion.VERSION_11"],
            )
        )
        == "11"
    )
    # the same level written as a constant is no move
    same = _change("gradle", ["sourceCompatibility = 1.8"], ["sourceCompatibility = JavaVersion.VERSION_1_8"])
    assert segment_level(same) is None
    monkeypatch.setattr(java_level, "GRADLE_CONSTANTS", False)
    assert segment_level(moved) is None


def test_an_updater_step_needs_a_line_to_rewrite(catalog, monkeypatch: pytest.MonkeyPatch) -> None:
    # the release property added where source/target were (removed in another hunk): the pom's property updater's
    # examples rewrite a level property the pom has, and this segment has none; the release configuration's add it
    snap = example_snapshot(catalog)
    recipes, known = level_recipes(snap), set(snap.recipe_ids)
    added = _change("maven", [], ["<maven.compiler.release>11</maven.compiler.release>"])
    steps = java_level.segment_steps(added, True, recipes, {}, known)
    assert MAVEN_LEVEL not in steps
    assert MAVEN_RELEASE in steps
    # a level property rewritten: the updater is the segment's step
    prop = _change(
        "maven", ["<java.version>1.8</java.version>"], ["<maven.compiler.release>11</maven.compiler.release>"]
    )
    assert MAVEN_LEVEL in java_level.segment_steps(prop, True, recipes, {}, known)
    monkeypatch.setattr(java_level, "UPDATER_NEEDS_OLD_LINE", False)
    assert MAVEN_LEVEL in java_level.segment_steps(added, True, recipes, {}, known)


_POM_ADDS_RELEASE = """diff --git a/pom.xml b/pom.xml
--- a/pom.xml
+++ b/pom.xml
@@ -10,2 +10,3 @@
     <properties>
+        <maven.compiler.release>17</maven.compiler.release>
     </properties>
"""


def test_an_updater_without_a_line_to_rewrite_is_weighed_down(catalog, monkeypatch: pytest.MonkeyPatch) -> None:
    # its own evidence (the property's name) made it the segment's best: halved
    scores, raised = _offered(catalog, MAVEN_LEVEL, _POM_ADDS_RELEASE + _CI_MOVE)
    assert scores[MAVEN_LEVEL].score == pytest.approx(2.0 * java_level.UPDATER_WITHOUT_OLD_LINE)
    # the release configuration is offered in its place, the updater is not raised
    assert (0, MAVEN_RELEASE) in raised
    assert (0, MAVEN_LEVEL) not in raised
    monkeypatch.setattr(java_level, "UPDATER_NEEDS_OLD_LINE", False)
    scores, _ = _offered(catalog, MAVEN_LEVEL, _POM_ADDS_RELEASE + _CI_MOVE)
    assert scores[MAVEN_LEVEL].score == 2.0


def test_a_step_ranked_by_its_own_evidence_leaves_the_segment_open(catalog, monkeypatch: pytest.MonkeyPatch) -> None:
    # the pom step is the segment's best on its own: picked, it leaves the segment to its namesake and the setter
    # as the offered step would (``pick`` decays a raised pair by ``BUILD_DECAY`` only)
    _, raised = _offered(catalog, MAVEN_LEVEL)
    assert (0, MAVEN_LEVEL) in raised
    monkeypatch.setattr(java_level, "OWN_STEP_LEAVES_OPEN", False)
    _, raised = _offered(catalog, MAVEN_LEVEL)
    assert (0, MAVEN_LEVEL) not in raised
