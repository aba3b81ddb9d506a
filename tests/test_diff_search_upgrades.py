"""Diff search: upgrade recipes by the coordinates their steps move and the versions they move them to
(``by_diff.upgrades``), on the step options of the real docs snapshot."""

from __future__ import annotations

import pytest

from rewrite_assist.server.diffs.words import describe
from rewrite_assist.server.search.by_diff import anchors as diff_anchors
from rewrite_assist.server.search.by_diff import catalog as diff_catalog
from rewrite_assist.server.search.by_diff import scoring as diff_scoring
from rewrite_assist.server.search.by_diff import upgrades
from rewrite_assist.server.search.by_diff.search import find_recipes_for_diff
from rewrite_assist.server.search.by_diff.split import split_diff

BOOT_3_3 = "org.openrewrite.java.spring.boot3.UpgradeSpringBoot_3_3"
BOOT_3_2 = "org.openrewrite.java.spring.boot3.UpgradeSpringBoot_3_2"

# The Spring Boot Gradle plugin moves from 3.2.5 to 3.3.4.
BOOT_PLUGIN = (
    "diff --git a/build.gradle b/build.gradle\n--- a/build.gradle\n+++ b/build.gradle\n"
    "@@ -1,5 +1,5 @@\n plugins {\n     id 'java'\n-    id 'org.springframework.boot' version '3.2.5'\n"
    "+    id 'org.springframework.boot' version '3.3.4'\n"
    "     id 'io.spring.dependency-management' version '1.1.6'\n }\n"
)
# The Spring Boot parent moves from 3.1.5 to 3.2.4: the changed line shows only the version.
BOOT_PARENT = (
    "diff --git a/pom.xml b/pom.xml\n--- a/pom.xml\n+++ b/pom.xml\n"
    "@@ -5,6 +5,6 @@\n   <parent>\n     <groupId>org.springframework.boot</groupId>\n"
    "     <artifactId>spring-boot-starter-parent</artifactId>\n"
    "-    <version>3.1.5</version>\n+    <version>3.2.4</version>\n"
    "     <relativePath/>\n   </parent>\n"
)


def test_a_step_is_read_as_the_coordinate_it_moves_and_the_version() -> None:
    step = upgrades.version_step(
        "org.openrewrite.maven.UpgradeParentVersion",
        {"groupId": "org.springframework.boot", "artifactId": "spring-boot-starter-parent", "newVersion": "3.3.x"},
    )
    assert step is not None and step.version == "3.3.x"
    # the artifact is what a parent's <version> line is said with; its words name a version property
    assert "spring-boot-starter-parent" in step.handles and "~springboot" in step.handles
    wildcard = upgrades.version_step(
        "x.UpgradeDependencyVersion", {"groupId": "org.mockito", "artifactId": "*", "newVersion": "5.x"}
    )
    assert wildcard is not None and "org.mockito" in wildcard.handles and "~mockito" in wildcard.handles
    # no version, a version that is none, or no coordinate: not a version step
    assert upgrades.version_step("x.UpgradeDependencyVersion", {"groupId": "g", "newVersion": "latest.release"}) is None
    assert upgrades.version_step("x.ChangeType", {"oldFullyQualifiedTypeName": "a.B"}) is None
    assert upgrades.version_step("org.openrewrite.gradle.UpdateGradleWrapper", {"version": "7.x"}) is None


def test_version_patterns_agree_by_their_fixed_parts() -> None:
    assert upgrades.agrees("3.3.x", ["1.1.6", "3.3.4"])
    assert upgrades.agrees("17", ["17"])
    assert upgrades.agrees("2023.0.x", ["2023.0.3"])
    assert not upgrades.agrees("3.2.x", ["3.3.4"])
    assert not upgrades.agrees("3.x", ["13.0"])


def test_a_segment_names_its_coordinates_and_version_properties() -> None:
    handles = upgrades.segment_handles({"mockito.version", "5.11.0", "springcloudversion"}, [])
    assert {"~mockito", "~springcloud", "mockito.version"} <= handles
    (segment,) = split_diff(BOOT_PARENT)[0]
    phrases = describe(segment.file, segment.change, segment.context, segment.lines_above)
    # the artifact is not on the changed line: the segment's words carry it
    assert "spring-boot-starter-parent" in upgrades.segment_handles(segment.change.tokens_added, phrases)


def test_the_catalog_knows_what_each_upgrade_moves_and_to_which_version(catalog) -> None:
    index = diff_catalog.example_snapshot(catalog).upgrades
    boot = index.steps[BOOT_3_3]
    plugin = [s for s in boot if "org.springframework.boot" in s.handles]
    assert plugin and {s.version for s in plugin} == {
        "3.3.x"
    }  # the 3.2.x of the UpgradeSpringBoot_3_2 it runs is shadowed
    # what it also upgrades on the way, at the version it goes to (springdoc with Boot 3.3)
    assert {s.version for s in boot if "org.springdoc" in s.handles} == {"2.6.x"}
    assert {s.version for s in index.steps[BOOT_3_2] if "org.springframework.boot" in s.handles} == {"3.2.x"}
    assert BOOT_3_3 in index.by_handle["org.springframework.boot"]
    # presets (one step with options) keep their own rule
    assert "org.openrewrite.java.migrate.UpgradeBuildToJava17" not in index.steps


def test_agreements_tell_the_upgrade_to_the_version_moved_to_from_the_others(catalog) -> None:
    index = diff_catalog.example_snapshot(catalog).upgrades
    said = upgrades.agreements(index, {"org.springframework.boot"}, ["3.3.4"])
    assert said[BOOT_3_3].agrees and said[BOOT_3_3].holders <= diff_scoring.UPGRADE_HOLDERS
    assert not said[BOOT_3_2].agrees
    assert upgrades.agreements(index, {"org.springframework.boot"}, []) == {}  # no version moved: nothing said


@pytest.mark.parametrize(
    ("diff", "upgrade", "other"),
    [
        (BOOT_PLUGIN, BOOT_3_3, BOOT_3_2),
        (BOOT_PARENT, BOOT_3_2, "org.openrewrite.java.spring.boot3.UpgradeSpringBoot_3_1"),
    ],
)
def test_the_upgrade_to_the_version_the_diff_moves_to_ranks_near_the_top(
    pick_order, catalog, embedder, monkeypatch: pytest.MonkeyPatch, diff: str, upgrade: str, other: str
) -> None:
    ids = [h.id for h in find_recipes_for_diff(catalog, embedder, diff, limit=10).hits]
    assert upgrade in ids[:4], ids
    assert other not in ids or ids.index(other) > ids.index(upgrade), ids
    # Without the coordinate steps the upgrade falls back (or out): the lever is what placed it.
    monkeypatch.setattr(diff_scoring, "UPGRADE", 0.0)
    monkeypatch.setattr(diff_anchors, "UNANCHORED", 1.0)  # the steps alone: the anchors also move other recipes
    without = [h.id for h in find_recipes_for_diff(catalog, embedder, diff, limit=10).hits]
    assert upgrade not in without[:4], without
