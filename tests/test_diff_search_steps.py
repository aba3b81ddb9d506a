"""Diff search: composites by the renames, moves and removals their configured steps make (``by_diff.steps``),
on the step options of the real docs snapshot."""

from __future__ import annotations

import pytest

from rewrite_assist.server.search.by_diff import catalog as diff_catalog
from rewrite_assist.server.search.by_diff import search as diff_search
from rewrite_assist.server.search.by_diff import steps
from rewrite_assist.server.search.by_diff.search import find_recipes_for_diff
from rewrite_assist.server.search.by_diff.split import Segment, split_diff

PROPS_2_5 = "org.openrewrite.java.spring.boot2.SpringBootProperties_2_5"
SPRING_KEY = "org.openrewrite.java.spring.ChangeSpringPropertyKey"

# Spring Boot 2.5 moved the datasource initialization keys under spring.sql.init; the root key is far above.
SQL_INIT = (
    "diff --git a/src/main/resources/application.yml b/src/main/resources/application.yml\n"
    "--- a/src/main/resources/application.yml\n+++ b/src/main/resources/application.yml\n"
    "@@ -3,8 +3,10 @@ spring:\n     name: room-booking\n   datasource:\n     url: jdbc:h2:mem:rooms\n"
    "-    initialization-mode: always\n-    schema: classpath:db/schema.sql\n-    data: classpath:db/rooms.sql\n"
    "+  sql:\n+    init:\n+      mode: always\n+      schema-locations: classpath:db/schema.sql\n"
    "+      data-locations: classpath:db/rooms.sql\n   jackson:\n     default-property-inclusion: non_null\n"
)
# A type moved: the removed and the added import are two segments of one file.
RX_CLIENT = (
    "diff --git a/src/main/java/a/Client.java b/src/main/java/a/Client.java\n"
    "--- a/src/main/java/a/Client.java\n+++ b/src/main/java/a/Client.java\n"
    "@@ -1,7 +1,7 @@\n package a;\n \n-import io.micronaut.http.client.RxHttpClient;\n"
    "+import io.micronaut.http.client.HttpClient;\n import javax.inject.Singleton;\n \n @Singleton\n"
    " public class Client {\n"
)


def _shown(diff: str) -> tuple[list[Segment], list[steps.Shown]]:
    """The diff's segments and what each of its files shows, as the search reads them."""
    segments = split_diff(diff)[0]
    files = steps.shown_files([s.file for s in segments], [s.change for s in segments], [s.context for s in segments])
    return segments, files


def test_a_step_is_read_as_what_its_removed_and_added_sides_show() -> None:
    fact = steps.step_fact(
        SPRING_KEY, {"oldPropertyKey": "spring.a.B-c", "newPropertyKey": "spring.x.d", "except": ["e"]}
    )
    assert fact is not None
    # keys relaxed as Spring binds them (``-``/``_`` aside)
    assert fact.removed == (("key", "spring.a.bc"),) and fact.added == (("key", "spring.x.d"),)
    # an unsided option by the step's verb
    deleted = steps.step_fact("x.DeleteSpringProperty", {"propertyKey": "spring.a.b"})
    assert deleted is not None and deleted.removed == (("key", "spring.a.b"),) and not deleted.added
    # coordinates are left to the upgrade and build-edit readers
    assert steps.step_fact("x.RemoveDependency", {"groupId": "org.powermock", "artifactId": "*"}) is None
    moved = steps.step_fact("x.ChangeType", {"oldFullyQualifiedTypeName": "a.B", "newFullyQualifiedTypeName": "c.D"})
    assert moved is not None and moved.removed == (("type", "a.b"),) and moved.added == (("type", "c.d"),)
    # a version, a pattern, text, or nothing moved: no fact
    assert steps.step_fact("x.UpdateGradleWrapper", {"version": "7.x"}) is None
    assert steps.step_fact("x.FindAndReplace", {"find": "a", "replace": "b"}) is None
    assert (
        steps.step_fact("x.ChangeType", {"oldFullyQualifiedTypeName": "a.B", "newFullyQualifiedTypeName": "a.B"})
        is None
    )


def test_a_nested_yaml_key_is_shown_by_its_parts() -> None:
    fact = steps.step_fact(
        SPRING_KEY,
        {"oldPropertyKey": "spring.datasource.initialization-mode", "newPropertyKey": "spring.sql.init.mode"},
    )
    assert fact is not None
    _, files = _shown(SQL_INIT)
    assert [n for shown in files for n in steps.matched(fact, shown)] == [0]
    # another rename of the same leaf key is not this one: its inner parts are not in the hunk
    other = steps.step_fact(
        SPRING_KEY, {"oldPropertyKey": "spring.jpa.initialization-mode", "newPropertyKey": "x.mode"}
    )
    assert other is not None and not [n for shown in files for n in steps.matched(other, shown)]


def test_a_type_move_is_shown_across_the_segments_of_its_file() -> None:
    fact = steps.step_fact(
        "x.ChangeType",
        {
            "oldFullyQualifiedTypeName": "io.micronaut.http.client.RxHttpClient",
            "newFullyQualifiedTypeName": "io.micronaut.http.client.HttpClient",
        },
    )
    assert fact is not None
    segments, files = _shown(RX_CLIENT)
    found = [n for shown in files for n in steps.matched(fact, shown)]
    assert found and all(
        "io.micronaut.http.client.rxhttpclient" in segments[n].change.tokens_removed
        or "io.micronaut.http.client.httpclient" in segments[n].change.tokens_added
        for n in found
    )


def test_a_fact_few_composites_list_weighs_more() -> None:
    assert steps.weight(1) == 1.0
    assert steps.weight(20) < steps.weight(2) < steps.weight(1)


def test_the_catalog_knows_the_renames_a_properties_migration_lists(catalog) -> None:
    index = diff_catalog.example_snapshot(catalog).steps
    facts = index.facts[PROPS_2_5]
    rename = next(f for f in facts if ("key", "spring.datasource.initializationmode") in f.removed)
    assert rename.added == (("key", "spring.sql.init.mode"),) and rename.step == SPRING_KEY
    assert index.holders[rename] <= 3  # one migration lists it (or a republished copy)
    assert rename in index.by_trigger[steps.trigger(rename)]


def test_the_diff_explains_the_composite_that_lists_its_renames(catalog) -> None:
    snap = diff_catalog.example_snapshot(catalog)
    _, files = _shown(SQL_INIT)
    found = steps.explained(snap.steps, files, set(snap.recipe_ids))
    assert found and found[0].recipe == PROPS_2_5, [e.recipe for e in found]
    assert found[0].segments == frozenset({0})


def test_the_composite_whose_renames_the_diff_makes_ranks_near_the_top(
    catalog, embedder, monkeypatch: pytest.MonkeyPatch
) -> None:
    ids = [h.id for h in find_recipes_for_diff(catalog, embedder, SQL_INIT, limit=10).hits]
    assert PROPS_2_5 in ids[:3], ids
    # Without the configured steps the composite falls back (or out): the lever is what placed it.
    monkeypatch.setattr(diff_search, "STEPS", False)
    without = [h.id for h in find_recipes_for_diff(catalog, embedder, SQL_INIT, limit=10).hits]
    assert PROPS_2_5 not in without[:3], without
