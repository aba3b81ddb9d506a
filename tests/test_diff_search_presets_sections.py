"""Diff search: per-segment evidence of presets (a composite that runs one recipe with its options
set) and of a Maven change's section (inside ``<dependencyManagement>`` or not), against the real docs
snapshot."""

from __future__ import annotations

import pytest

from rewrite_assist.server.diffs import features
from rewrite_assist.server.diffs.words import describe
from rewrite_assist.server.search.by_diff import anchors as diff_anchors
from rewrite_assist.server.search.by_diff import catalog as diff_catalog
from rewrite_assist.server.search.by_diff import java_level, rerank
from rewrite_assist.server.search.by_diff import scoring as diff_scoring
from rewrite_assist.server.search.by_diff.search import find_recipes_for_diff
from rewrite_assist.server.search.by_diff.split import split_diff

TOOLCHAIN_17 = (
    "diff --git a/build.gradle b/build.gradle\n--- a/build.gradle\n+++ b/build.gradle\n"
    "@@ -8,6 +8,7 @@ plugins {\n java {\n"
    "-    sourceCompatibility = JavaVersion.VERSION_11\n-    targetCompatibility = JavaVersion.VERSION_11\n"
    "+    toolchain {\n+        languageVersion = JavaLanguageVersion.of(17)\n+    }\n }\n \n repositories {\n"
)


def test_preset_values_keep_single_words_and_drop_flags() -> None:
    assert diff_catalog.preset_values({"version": 17}) == ("17",)
    assert diff_catalog.preset_values({"groupId": "junit", "artifactId": "*", "overrideManagedVersion": True}) == (
        "junit",
    )
    assert diff_catalog.preset_values({"licenseText": "Copyright 2023 the original author"}) is None
    assert diff_catalog.preset_values({"addIfMissing": False}) is None
    assert diff_catalog.preset_values([]) is None


def test_option_shown_reads_tokens_and_version_patterns() -> None:
    assert diff_scoring.option_shown("junit", {"junit", "4.13.2"}, [])
    assert diff_scoring.option_shown("3.9.x", set(), ["3.9.2"])
    assert diff_scoring.option_shown("17", set(), ["17"])
    assert not diff_scoring.option_shown("21", set(), ["17"])
    assert not diff_scoring.option_shown("3.9.x", set(), ["3.10.0"])


def test_the_catalog_knows_the_java_level_presets(catalog) -> None:
    snap = diff_catalog.example_snapshot(catalog)
    assert snap.presets["org.openrewrite.java.migrate.UpgradeBuildToJava17"] == (
        "org.openrewrite.java.migrate.UpgradeJavaVersion",
        ("17",),
    )
    # a composite of many steps is no preset
    assert "org.openrewrite.java.migrate.UpgradeToJava17" not in snap.presets


def test_a_preset_for_the_version_the_build_moves_to_ranks_above_its_generic_step(
    catalog, embedder, monkeypatch: pytest.MonkeyPatch
) -> None:
    preset, generic = (
        "org.openrewrite.java.migrate.UpgradeBuildToJava17",
        "org.openrewrite.java.migrate.UpgradeJavaVersion",
    )
    ids = [h.id for h in find_recipes_for_diff(catalog, embedder, TOOLCHAIN_17, limit=10).hits]
    assert preset in ids, ids
    assert generic not in ids or ids.index(preset) < ids.index(generic), ids
    # the presets for other levels name a version the build does not move to
    assert "org.openrewrite.java.migrate.UpgradeBuildToJava21" not in ids[: ids.index(preset) + 1], ids
    # the preset weight is what places it in the pick's own order (the rerank off: its neighbours also know that
    # PRs like this one need the preset)
    monkeypatch.setattr(rerank, "RERANK", False)
    picked = [h.id for h in find_recipes_for_diff(catalog, embedder, TOOLCHAIN_17, limit=10).hits]
    assert preset in picked, picked
    monkeypatch.setattr(diff_scoring, "PRESET", 0.0)
    without = [h.id for h in find_recipes_for_diff(catalog, embedder, TOOLCHAIN_17, limit=10).hits]
    assert preset not in without[: picked.index(preset) + 1], without


def _pom_swap(section: str) -> str:
    return (
        "diff --git a/pom.xml b/pom.xml\n--- a/pom.xml\n+++ b/pom.xml\n@@ -20,8 +20,8 @@\n"
        f"     {section}\n         <dependencies>\n             <dependency>\n"
        "-                <groupId>javax.activation</groupId>\n"
        "-                <artifactId>javax.activation-api</artifactId>\n"
        "+                <groupId>jakarta.activation</groupId>\n"
        "+                <artifactId>jakarta.activation-api</artifactId>\n"
        "                 <version>${activation.version}</version>\n"
        "             </dependency>\n         </dependencies>\n"
    )


MANAGED_SWAP = _pom_swap("<dependencyManagement>")
DIRECT_SWAP = _pom_swap("<properties/>")
MANAGED, DIRECT = (
    "org.openrewrite.maven.ChangeManagedDependencyGroupIdAndArtifactId",
    "org.openrewrite.maven.ChangeDependencyGroupIdAndArtifactId",
)


def test_a_change_inside_dependency_management_is_read_as_managed() -> None:
    [managed] = split_diff(MANAGED_SWAP)[0]
    [direct] = split_diff(DIRECT_SWAP)[0]
    assert features.MANAGED_SHAPE in managed.change.shapes
    assert features.MANAGED_SHAPE not in direct.change.shapes
    said = describe(managed.file, managed.change, managed.context, managed.lines_above)
    assert said[0] == "change Maven managed dependency groupId javax.activation to jakarta.activation", said
    said = describe(direct.file, direct.change, direct.context, direct.lines_above)
    assert said[0] == "change Maven dependency groupId javax.activation to jakarta.activation", said
    # a closed section above the change is no longer open; a block that opens one is managed
    assert not features.in_managed_section(["<dependencyManagement>", "</dependencyManagement>", "<dependencies>"])
    assert features.in_managed_section([], ["<dependencyManagement>", "<dependencies>"])


def test_the_examples_know_their_section(catalog) -> None:
    snap = diff_catalog.example_snapshot(catalog)
    marked = {snap.example_recipes[i] for i in range(len(snap.examples)) if snap.managed[i]}
    assert MANAGED in marked and DIRECT not in marked
    assert "org.openrewrite.maven.RemoveManagedDependency" in marked


def test_a_capped_diff_keeps_the_managed_mark() -> None:
    """Over the segment budget the pom's hunks are merged into one change; it stays a managed change."""
    from rewrite_assist.server.search.by_diff.split import MAX_SEGMENTS

    second = MANAGED_SWAP.split("@@", 1)[1].replace("-20,8 +20,8", "-60,8 +60,8", 1)
    pom = MANAGED_SWAP + "@@" + second
    files = "".join(
        f"diff --git a/f{n}.properties b/f{n}.properties\n--- a/f{n}.properties\n+++ b/f{n}.properties\n"
        "@@ -1,1 +1,1 @@\n-k=1\n+k=2\n"
        for n in range(MAX_SEGMENTS)
    )
    segments, skipped, _, _ = split_diff(pom + files)
    [merged] = [s for s in segments if s.file == "pom.xml"]
    assert merged.header == "2 hunks merged" and any("merged" in note for note in skipped)
    assert features.MANAGED_SHAPE in merged.change.shapes


def test_managed_and_direct_swaps_find_their_own_recipes(catalog, embedder, monkeypatch: pytest.MonkeyPatch) -> None:
    # With the rerank, the direct recipe leads either swap (it also changes managed dependencies by default, and
    # labelled PRs name it far more often) and the managed one stays in the five; the section rule is the pick's,
    # read in its own order.
    for swap in (MANAGED_SWAP, DIRECT_SWAP):
        assert {MANAGED, DIRECT} <= {h.id for h in find_recipes_for_diff(catalog, embedder, swap, limit=5).hits}
    monkeypatch.setattr(rerank, "RERANK", False)
    managed = [h.id for h in find_recipes_for_diff(catalog, embedder, MANAGED_SWAP, limit=5).hits]
    direct = [h.id for h in find_recipes_for_diff(catalog, embedder, DIRECT_SWAP, limit=5).hits]
    assert managed[0] == MANAGED and DIRECT in managed, managed
    assert direct[0] == DIRECT and MANAGED in direct, direct
    # Without the section weighing the examples, the two examples' shared tokens decide, whatever the section.
    monkeypatch.setattr(diff_scoring, "SECTION_MISMATCH", 1.0)
    assert find_recipes_for_diff(catalog, embedder, MANAGED_SWAP, limit=5).hits[0].id == DIRECT


GRADLE_PROPERTIES = (
    "diff --git a/gradle.properties b/gradle.properties\n--- a/gradle.properties\n+++ b/gradle.properties\n"
    "@@ -1,4 +1,5 @@\n org.gradle.jvmargs=-Xmx2g\n-kotlinVersion=1.8.22\n+kotlinVersion=1.9.22\n"
    " springBootVersion=3.2.0\n+org.gradle.caching=true\n group=com.example\n"
)


def test_gradle_properties_is_read_as_a_properties_file(monkeypatch: pytest.MonkeyPatch) -> None:
    from rewrite_assist.server.diffs.words import hunk

    changed, added = split_diff(GRADLE_PROPERTIES)[0]
    assert changed.change.kind == added.change.kind == "gradle"
    assert describe(changed.file, changed.change) == [
        "change property kotlinVersion value to 1.9.22 in gradle.properties",
        "upgrade version property kotlinVersion to 1.9.22 in Gradle build",
    ]
    assert describe(added.file, added.change) == ["add Gradle property org.gradle.caching to gradle.properties"]
    monkeypatch.setattr(hunk, "GRADLE_PROPERTIES", False)  # read as build script lines
    assert describe(changed.file, changed.change) == ["change kotlin version to 1.9.22 in Gradle build"]


def test_a_gradle_property_added_finds_gradles_add_property(pick_order, catalog, embedder, monkeypatch) -> None:
    from rewrite_assist.server.diffs.words import hunk

    ids = [h.id for h in find_recipes_for_diff(catalog, embedder, GRADLE_PROPERTIES, limit=5).hits]
    assert ids[0] == "org.openrewrite.gradle.AddProperty", ids
    # a version key of gradle.properties is no Kotlin JVM target
    assert "org.openrewrite.java.migrate.UpgradeKotlinJvmTargetVersion" not in ids, ids
    monkeypatch.setattr(hunk, "GRADLE_PROPERTIES", False)
    monkeypatch.setattr(diff_anchors, "UNANCHORED", 1.0)  # the properties reading alone, not the anchors
    monkeypatch.setattr(java_level, "UNMOVED", 1.0)  # ... nor the Java level recipes weighed down
    without = [h.id for h in find_recipes_for_diff(catalog, embedder, GRADLE_PROPERTIES, limit=5).hits]
    assert without[0] != "org.openrewrite.gradle.AddProperty", without
