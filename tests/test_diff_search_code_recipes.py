"""Diff search, recipes that change Java code, against the real docs snapshot: a composite that runs one
recipe several times configured for one type (``slf4j.ParameterizedLogging``) is that recipe's preset, shown where
the diff names the type; recipes whose examples only remove imports tidy after a change and weigh less; and a step
that is itself a composite counts for the composites listing it when they are the PR's umbrella."""

from __future__ import annotations

import pytest

from rewrite_assist.server.search.by_diff import catalog as diff_catalog
from rewrite_assist.server.search.by_diff import scoring as diff_scoring
from rewrite_assist.server.search.by_diff import umbrella as diff_umbrella
from rewrite_assist.server.search.by_diff.catalog import example_snapshot, preset_of
from rewrite_assist.server.search.by_diff.scoring import Match
from rewrite_assist.server.search.by_diff.search import find_recipes_for_diff
from rewrite_assist.server.search.by_diff.umbrella import umbrellas

SLF4J = "org.openrewrite.java.logging.slf4j.ParameterizedLogging"
GENERIC = "org.openrewrite.java.logging.ParameterizedLogging"

# Log lines rewritten from concatenation to placeholders in a class that logs through SLF4J.
PLACEHOLDERS = (
    "diff --git a/src/main/java/com/acme/Sync.java b/src/main/java/com/acme/Sync.java\n"
    "--- a/src/main/java/com/acme/Sync.java\n+++ b/src/main/java/com/acme/Sync.java\n"
    "@@ -1,11 +1,11 @@\n package com.acme;\n \n import org.slf4j.Logger;\n import org.slf4j.LoggerFactory;\n"
    " \n class Sync {\n     void run(String name, int count) {\n"
    '-        LOG.info("synced " + count + " rows of " + name);\n'
    '-        LOG.debug("next run for " + name);\n'
    '+        LOG.info("synced {} rows of {}", count, name);\n'
    '+        LOG.debug("next run for {}", name);\n'
    "     }\n }\n"
)


def test_a_method_pattern_option_reads_as_its_type() -> None:
    assert diff_catalog.preset_values({"methodPattern": "org.slf4j.Logger info(..)"}) == ("type:org.slf4j.logger",)
    # the same values save the method: one preset of one recipe
    steps = [
        {"recipe_id": GENERIC, "options": {"methodPattern": f"org.slf4j.Logger {level}(..)"}}
        for level in ("debug", "info")
    ]
    assert preset_of(steps) == (GENERIC, ("type:org.slf4j.logger",))
    # two types, or two recipes, are no preset
    assert preset_of([*steps, {"recipe_id": GENERIC, "options": {"methodPattern": "org.acme.Log info(..)"}}]) is None
    assert preset_of([*steps, {"recipe_id": "org.openrewrite.java.ChangeType", "options": {}}]) is None
    assert preset_of([]) is None


def test_a_type_value_is_shown_anywhere_in_the_diff_other_values_in_the_segment() -> None:
    assert diff_scoring.type_shown("type:org.slf4j.logger", {"org.slf4j.logger", "info"})
    assert not diff_scoring.type_shown("type:org.slf4j.logger", {"org.apache.log4j.logger"})
    # a dotted key is a value of its own, for the segment to show
    assert not diff_scoring.type_shown("org.gradle.caching", {"org.gradle.caching"})


def test_the_catalog_knows_the_slf4j_logging_preset_and_the_import_cleanups(catalog) -> None:
    snap = example_snapshot(catalog)
    assert snap.presets[SLF4J] == (GENERIC, ("type:org.slf4j.logger",))
    # Log4j's namesake configures two types (Logger and Category): no single preset
    assert "org.openrewrite.java.logging.log4j.ParameterizedLogging" not in snap.presets
    assert "org.openrewrite.java.RemoveUnusedImports" in snap.cleanups
    assert "org.openrewrite.java.testing.junit5.CleanupJUnitImports" in snap.cleanups
    # a package move changes only imports too, but adds them: a change of its own
    assert "org.openrewrite.java.migrate.jakarta.JavaxServletToJakartaServlet" not in snap.cleanups
    unused = "org.openrewrite.java.RemoveUnusedImports"
    assert diff_scoring.demotion(unused, snap) == pytest.approx(diff_scoring.CLEANUP)


def test_placeholders_in_a_class_logging_through_slf4j_find_the_slf4j_preset(
    pick_order, catalog, embedder, monkeypatch: pytest.MonkeyPatch
) -> None:
    ids = [h.id for h in find_recipes_for_diff(catalog, embedder, PLACEHOLDERS, limit=10).hits]
    assert ids[0] == SLF4J, ids
    assert GENERIC not in ids or ids.index(SLF4J) < ids.index(GENERIC), ids
    # the same lines where the diff never names the type: the preset is not shown
    unnamed = PLACEHOLDERS.replace("org.slf4j.Logger;", "com.acme.Log;").replace("org.slf4j.LoggerFactory", "x.Y")
    ids = [h.id for h in find_recipes_for_diff(catalog, embedder, unnamed, limit=10).hits]
    assert ids[0] == GENERIC and SLF4J not in ids[:3], ids
    monkeypatch.setattr(diff_scoring, "PRESET_TYPES", False)
    ids = [h.id for h in find_recipes_for_diff(catalog, embedder, PLACEHOLDERS, limit=10).hits]
    assert ids[0] == GENERIC and SLF4J not in ids[:3], ids


def test_a_nested_composite_step_makes_its_lister_the_umbrella(catalog, monkeypatch: pytest.MonkeyPatch) -> None:
    snap = example_snapshot(catalog)
    known = set(snap.recipe_ids)
    best = "org.openrewrite.java.testing.junit5.JUnit5BestPractices"
    leaf = Match(1.0, 0.5, 0, [])
    # a JUnit 4 annotation moved in one change, a public test method made package-private in another: steps of
    # JUnit4to5Migration and JupiterBestPractices, the two composites JUnit5BestPractices lists among three
    tests = [
        {"org.openrewrite.java.testing.junit5.UpdateBeforeAfterAnnotations": leaf},
        {"org.openrewrite.java.testing.cleanup.TestsShouldNotBePublic": leaf},
    ]
    assert best in {u.recipe for u in umbrellas(tests, snap, known)}
    monkeypatch.setattr(diff_umbrella, "NESTED", False)
    assert best not in {u.recipe for u in umbrellas(tests, snap, known)}
