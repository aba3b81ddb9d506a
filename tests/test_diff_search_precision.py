"""Diff search: evidence for a change the recipe does not make, weighed down (round 13, precision in the ten).

- ``direction``: a recipe whose examples only add (or only remove) lines, in a hunk that only moves versions
  (``AddSpringDependencyManagementPlugin`` where the dependency-management plugin's version is bumped); one whose
  examples rename keys, in a hunk that only adds or only removes lines (``yaml.ChangeKey`` where a key is added);
- ``configured``: an example sharing with the hunk only the words its options were set to (``NoStaticImport``
  configured with ``java.util.Collections``, where a hunk removes that unused import);
- ``scoring.inherited_demotion``: a composite's match inherited from a cleanup step is tidying there too
  (``JavaBestPractices`` through ``RemoveUnusedImports``).
"""

from __future__ import annotations

import pytest

from rewrite_assist.server.catalog.examples import StoredExample
from rewrite_assist.server.diffs.features import Change
from rewrite_assist.server.search.by_diff import configured, direction
from rewrite_assist.server.search.by_diff import scoring as diff_scoring
from rewrite_assist.server.search.by_diff.catalog import example_snapshot
from rewrite_assist.server.search.by_diff.search import find_recipes_for_diff
from rewrite_assist.server.search.by_diff.split import split_diff

DEPENDENCY_MANAGEMENT = "org.openrewrite.gradle.spring.AddSpringDependencyManagementPlugin"
NO_STATIC_IMPORT = "org.openrewrite.java.NoStaticImport"
UNUSED_IMPORTS = "org.openrewrite.java.RemoveUnusedImports"
JAVA_BEST_PRACTICES = "org.openrewrite.java.migrate.JavaBestPractices"

PLUGIN_BUMP = (
    "diff --git a/build.gradle b/build.gradle\n--- a/build.gradle\n+++ b/build.gradle\n"
    "@@ -1,6 +1,6 @@\n plugins {\n     id 'java'\n"
    "-    id 'org.springframework.boot' version '3.2.5'\n-    id 'io.spring.dependency-management' version '1.1.4'\n"
    "+    id 'org.springframework.boot' version '3.3.2'\n+    id 'io.spring.dependency-management' version '1.1.6'\n"
    " }\n \n group = 'com.example'\n"
)
UNUSED_COLLECTIONS = (
    "diff --git a/src/main/java/org/example/Pager.java b/src/main/java/org/example/Pager.java\n"
    "--- a/src/main/java/org/example/Pager.java\n+++ b/src/main/java/org/example/Pager.java\n"
    "@@ -1,6 +1,5 @@\n package org.example;\n \n-import java.util.Collections;\n import java.util.List;\n \n"
    " public class Pager {\n"
)


def _example(recipe: str, removed: list[str], added: list[str], **parameters: str) -> StoredExample:
    return StoredExample(recipe, 0, 0, None, dict(parameters), Change("gradle", removed, added))


def test_direction_of_a_change() -> None:
    assert direction.direction(Change("yaml", [], ["a: 1"])) == direction.ADDED
    assert direction.direction(Change("yaml", ["a: 1", ""], [""])) == direction.REMOVED
    assert direction.direction(Change("yaml", ["a: 1"], ["b: 1"])) == direction.REWRITTEN
    assert direction.direction(Change("yaml", [" "], [])) is None


def test_only_a_one_for_one_version_rewrite_moves_versions() -> None:
    assert direction.moves_versions(Change("gradle", ["id 'xa' version '1.0'"], ["id 'xa' version '1.1'"]))
    # a name changed too, a line added beside the bump, or nothing but blank lines: no version move
    assert not direction.moves_versions(Change("gradle", ["id 'xa' version '1.0'"], ["id 'yb' version '1.1'"]))
    assert not direction.moves_versions(
        Change("gradle", ["id 'xa' version '1.0'"], ["id 'xa' version '1.1'", "id 'zc'"])
    )
    assert not direction.moves_versions(Change("gradle", [], ["id 'xa' version '1.1'"]))


def test_leaf_recipes_are_read_by_their_examples_composites_are_not() -> None:
    examples = [
        _example("org.example.AddPlugin", [], ["id 'xa' version '1.0'"]),
        _example("org.example.AddPlugin", [], ["id 'yb'"]),
        _example("org.example.Bump", ["id 'xa' version '1.0'"], ["id 'xa' version '1.1'"]),
        _example("org.example.Migration", [], ["id 'zc'"]),
    ]
    ways = direction.example_directions(examples, composites={"org.example.Migration"})
    assert ways == {"org.example.AddPlugin": {direction.ADDED}, "org.example.Bump": {direction.REWRITTEN}}
    bump = Change("gradle", ["id 'xa' version '1.0'"], ["id 'xa' version '2.0'"])
    assert direction.weights(bump, ["org.example.AddPlugin", "org.example.Bump", "org.example.Migration"], ways) == {
        "org.example.AddPlugin": direction.OPPOSED
    }
    # a hunk that adds the line is what the adding recipe makes
    assert direction.weights(Change("gradle", [], ["id 'xa' version '1.0'"]), ["org.example.AddPlugin"], ways) == {}


def test_a_recipe_renaming_keys_makes_no_hunk_that_only_adds_or_removes_keys() -> None:
    examples = [
        StoredExample("org.example.RenameKey", 0, 0, None, {}, Change("yaml", ["  name: tools"], ["  name2: tools"])),
        StoredExample("org.example.SetValue", 0, 0, None, {}, Change("yaml", ["  name: tools"], ["  name: kit"])),
    ]
    ways = direction.example_directions(examples, composites=())
    assert ways == {"org.example.RenameKey": {direction.RENAMED}, "org.example.SetValue": {direction.REWRITTEN}}
    added = Change("yaml", [], ["    condition: service_healthy"])
    assert direction.weights(added, list(ways), ways) == {"org.example.RenameKey": direction.OPPOSED}
    # a hunk renaming a key is what it makes
    assert direction.weights(Change("yaml", ["  a: 1"], ["  b: 1"]), list(ways), ways) == {}


def test_an_example_matching_on_its_option_values_only_is_the_configurations() -> None:
    words = configured.option_words({"methodPattern": "java.util.Collections emptyList()"})
    assert {"java.util.collections", "collections", "emptylist"} <= words


@pytest.fixture(scope="module")
def snap(catalog):
    return example_snapshot(catalog)


def test_the_catalog_reads_the_dependency_management_plugin_as_adding(snap) -> None:
    ways = direction.leaf_directions(snap)
    assert ways[DEPENDENCY_MANAGEMENT] == {direction.ADDED}
    assert ways["org.openrewrite.gradle.plugins.UpgradePluginVersion"] == {direction.REWRITTEN}
    assert ways["org.openrewrite.yaml.ChangeKey"] == {direction.RENAMED}
    assert JAVA_BEST_PRACTICES not in ways  # a composite: its examples show some of its steps
    # a generic edit recipe: ``generic`` reads each segment for its edit, its example is one configured use
    assert "org.openrewrite.yaml.ChangePropertyKey" not in ways


def test_a_plugin_bump_is_no_place_for_the_recipe_adding_that_plugin(catalog, embedder) -> None:
    segments, *_ = split_diff(PLUGIN_BUMP)
    ways = direction.leaf_directions(example_snapshot(catalog))
    assert direction.weights(segments[0].change, [DEPENDENCY_MANAGEMENT], ways) == {
        DEPENDENCY_MANAGEMENT: direction.OPPOSED
    }
    hits = [h.id for h in find_recipes_for_diff(catalog, embedder, PLUGIN_BUMP).hits]
    assert "org.openrewrite.gradle.plugins.UpgradePluginVersion" in hits[:3]
    assert DEPENDENCY_MANAGEMENT not in hits[:3]


def test_an_unused_import_removed_is_no_static_import_inlined(snap) -> None:
    segments, *_ = split_diff(UNUSED_COLLECTIONS)
    own = [i for i, rid in enumerate(snap.example_recipes) if rid == NO_STATIC_IMPORT]
    assert own and configured.configured_only(segments[0].change, own[0], snap)
    # the cleanup's example is not configured: it removes an import because it is unused
    cleanup = [i for i, rid in enumerate(snap.example_recipes) if rid == UNUSED_IMPORTS]
    assert cleanup and not configured.configured_only(segments[0].change, cleanup[0], snap)


def test_a_composite_inherits_its_cleanup_steps_demotion(snap) -> None:
    assert UNUSED_IMPORTS in snap.cleanups
    assert diff_scoring.inherited_demotion(JAVA_BEST_PRACTICES, UNUSED_IMPORTS, snap) == pytest.approx(
        diff_scoring.CLEANUP
    )
    assert diff_scoring.inherited_demotion(UNUSED_IMPORTS, UNUSED_IMPORTS, snap) == 1.0  # its own is in ``demotion``
