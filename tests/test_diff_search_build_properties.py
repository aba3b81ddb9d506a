"""The diff search's property edits (``by_diff.build_properties`` through ``build_edits``): a version set in a
pom's ``<properties>`` is the version of the dependencies and plugins that use it, and offers the catalog recipe
that makes it with its options; a Java level property is not a dependency's version. Real PRs: beside the other build
edits' in test_diff_search_build_edits."""

from __future__ import annotations

from conftest import spent_pr_case

from rewrite_assist.server.search.by_diff.build_edits import property_edits, segment_edits
from rewrite_assist.server.search.by_diff.build_properties import (
    PropertyUse,
    changed_properties,
    property_uses,
)
from rewrite_assist.server.search.by_diff.split import split_diff

POM = [
    "    <dependencies>",
    "        <dependency>",
    "            <groupId>org.apache.logging.log4j</groupId>",
    "            <artifactId>log4j-core</artifactId>",
    "            <version>${log4j.version}</version>",
    "        </dependency>",
    "    </dependencies>",
    "    <build><plugins>",
    "        <plugin>",
    "            <artifactId>maven-surefire-plugin</artifactId>",
    "            <version>${surefire.version}</version>",
    "        </plugin>",
]


def test_a_property_is_the_version_of_the_elements_that_use_it() -> None:
    uses = property_uses(POM)
    assert uses == {
        "log4j.version": [PropertyUse("dependency", "org.apache.logging.log4j", "log4j-core")],
        # a plugin without a groupId is one of Maven's own
        "surefire.version": [PropertyUse("plugin", "org.apache.maven.plugins", "maven-surefire-plugin")],
    }
    removed = ["        <log4j.version>2.14.1</log4j.version>", "        <surefire.version>2.22.2</surefire.version>"]
    added = ["        <log4j.version>2.17.1</log4j.version>", "        <surefire.version>3.2.5</surefire.version>"]
    edits = property_edits(removed, added, uses)
    assert [(e.shape, e.options) for e in edits] == [
        (
            "dependency-version",
            {"groupId": "org.apache.logging.log4j", "artifactId": "log4j-core", "newVersion": "2.17.1"},
        ),
        (
            "plugin-version",
            {"groupId": "org.apache.maven.plugins", "artifactId": "maven-surefire-plugin", "newVersion": "3.2.5"},
        ),
    ]
    # nothing in the diff uses it: still the dependency upgrade, told the version, and the evidence says so
    [alone] = property_edits(removed[:1], added[:1], {})
    assert (alone.shape, alone.options) == ("property-version", {"newVersion": "2.17.1"})
    assert alone.note is not None and "log4j.version" in alone.note
    # a property only added (for a dependency added with it) or set to the same value is no version change
    assert changed_properties([], added) == {}
    assert changed_properties(removed, removed) == {}
    # the Java level properties are the Java level's, not a dependency's
    java = (["<java.version>11</java.version>"], ["<java.version>17</java.version>"])
    assert changed_properties(*java) == {}
    assert property_edits(*java, {}) == []


def test_a_pom_property_resolves_through_other_hunks_of_the_same_file() -> None:
    """The property changes in one hunk, the dependencies that use it show in another."""
    segments, *_ = split_diff(spent_pr_case("ph04-spring-boot-3-migration").read_text())
    found = [(e.shape, e.options) for edits in segment_edits(segments) for e in edits]
    assert (
        "dependency-version",
        {"groupId": "org.springdoc", "artifactId": "springdoc-openapi-starter-webmvc-ui", "newVersion": "2.5.0"},
    ) in found
