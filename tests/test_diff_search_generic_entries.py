"""A block of property entries that makes several edits at once (``by_diff.generic.entry_edits``): keys
renamed beside a key added in one ``application.properties`` hunk, a Maven property renamed with a new value.
The block is offered its main edit's generic recipes (the most entries'), and a recipe whose edit one entry
makes is told that entry's options."""

from __future__ import annotations

import pytest

from rewrite_assist.server.diffs.features import Change
from rewrite_assist.server.search.by_diff import catalog as diff_catalog
from rewrite_assist.server.search.by_diff.generic import entry_edits, generic_options, generic_recipes

ADD = "org.openrewrite.properties.AddProperty"
RENAME = "org.openrewrite.properties.ChangePropertyKey"
VALUE = "org.openrewrite.properties.ChangePropertyValue"
DELETE = "org.openrewrite.properties.DeleteProperty"
SPRING_ADD = "org.openrewrite.java.spring.AddSpringProperty"
SPRING_RENAME = "org.openrewrite.java.spring.ChangeSpringPropertyKey"
MAVEN_VALUE = "org.openrewrite.maven.ChangePropertyValue"
MAVEN_RENAME = "org.openrewrite.maven.RenamePropertyKey"
CONFIG = "src/main/resources/application.properties"

# Spring Boot 2.3: two keys renamed (their values kept) and graceful shutdown added in one hunk
BOOT_23 = Change(
    "properties",
    ["spring.http.encoding.charset=UTF-8", "spring.http.encoding.force=true"],
    ["server.servlet.encoding.charset=UTF-8", "server.servlet.encoding.force=true", "server.shutdown=graceful"],
)


@pytest.fixture(scope="module")
def known(catalog) -> set[str]:
    return set(diff_catalog.example_snapshot(catalog).recipe_ids)


def test_a_block_of_entries_is_read_edit_by_edit() -> None:
    edits = entry_edits(BOOT_23, "properties")
    assert edits is not None
    assert list(edits) == ["rename", "add"]
    assert edits["rename"] == [
        ("spring.http.encoding.charset=UTF-8", "server.servlet.encoding.charset=UTF-8"),
        ("spring.http.encoding.force=true", "server.servlet.encoding.force=true"),
    ]
    assert edits["add"] == [(None, "server.shutdown=graceful")]
    # more keys removed than added: the leftovers are removals
    dropped = Change("properties", ["a.b=1", "c.d=2", "e.f=3"], ["a.b=2"])
    assert entry_edits(dropped, "properties") == {
        "remove": [("c.d=2", None), ("e.f=3", None)],
        "change": [("a.b=1", "a.b=2")],
    }
    # two entries of one value merged into one are removed and added, not renamed
    merged = Change(
        "maven",
        ["<maven.compiler.source>11</maven.compiler.source>", "<maven.compiler.target>11</maven.compiler.target>"],
        ["<maven.compiler.release>11</maven.compiler.release>"],
    )
    assert list(entry_edits(merged, "maven") or {}) == ["remove", "add"]
    # a comment among the lines: no block of entries, the caller's one-edit reading
    assert entry_edits(Change("properties", ["# old", "a=1"], ["a=2"]), "properties") is None


def test_each_edit_of_the_block_gets_its_generic_recipe(known) -> None:
    offered = generic_recipes(BOOT_23, known, path=CONFIG, spring=True)
    # the main edit (two keys renamed, one added): its recipes only, the Spring one first in a Spring config file
    assert offered == [SPRING_RENAME, RENAME]
    assert generic_recipes(BOOT_23, known, path="config/app.properties") == [RENAME]
    # more entries added than renamed: the add recipe, not the value recipe a block read whole was offered
    shutdown = Change("properties", ["a.b=1"], ["c.d=1", "server.shutdown=graceful", "x.y=2"])
    assert generic_recipes(shutdown, known, path=CONFIG) == [ADD]
    # a value changed alone is still the value recipe only
    bump = Change("properties", ["quarkus.version=2.16.0"], ["quarkus.version=3.2.0"])
    assert generic_recipes(bump, known, path="gradle.properties") == [VALUE]
    # a Maven property renamed with a new version: renamed (first on a tie), and its value changed
    testng = Change(
        "maven", ["    <testng.version>7.8.0</testng.version>"], ["    <junit.version>5.10.0</junit.version>"]
    )
    assert generic_recipes(testng, known, ["  <properties>"]) == [MAVEN_RENAME]
    assert list(entry_edits(testng, "maven") or {}) == ["rename", "change"]
    # the value of a key the line renames: no value option to tell
    assert generic_options(MAVEN_VALUE, "pom.xml", testng, ["  <properties>"]) == {}


def test_the_one_entry_of_an_edit_gives_its_options() -> None:
    assert generic_options(ADD, CONFIG, BOOT_23) == {"property": "server.shutdown", "value": "graceful"}
    assert generic_options(SPRING_ADD, CONFIG, BOOT_23) == {"property": "server.shutdown", "value": "graceful"}
    # two keys renamed: no one rename to tell
    assert generic_options(RENAME, CONFIG, BOOT_23) == {}
    two_added = Change("properties", ["a.b=1"], ["a.b=2", "c.d=3", "e.f=4"])
    assert generic_options(ADD, CONFIG, two_added) == {}
    assert generic_options(VALUE, CONFIG, two_added) == {"propertyKey": "a.b", "newValue": "2", "oldValue": "1"}
