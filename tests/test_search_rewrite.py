"""One-phrase rewriting (server/search/rewrite.py): what the grammar writes for PR-style phrases, that it
writes nothing for a phrase without a file or an edit shape, and, on the real catalog, that the written
phrasings bring the generic building block (upgrade a dependency, remove an XML tag) into the top 10."""

from __future__ import annotations

import dataclasses

import pytest
from conftest import dev_text

from rewrite_assist.server.search.hybrid import DEFAULT_TUNING, find_recipes
from rewrite_assist.server.search.rewrite import rewrite

OFF = dataclasses.replace(DEFAULT_TUNING, query_rewrite=0)


def test_a_version_bump_in_a_pom_reads_as_a_maven_dependency_upgrade() -> None:
    phrases = rewrite("jackson-databind bumped from 2.15.2 to 2.17.0 in pom.xml")
    assert phrases[0] == "upgrade Maven dependency version jackson-databind to 2.17.0"
    assert phrases[1] == "upgrade dependency version to 2.17.0 in Maven pom"


def test_a_bump_in_two_build_files_names_both_kinds() -> None:
    phrases = rewrite("guava went from 31.1-jre to 33.0.0-jre in build.gradle and pom.xml")
    assert phrases == ["upgrade dependency version to 33.0.0-jre in Gradle build and Maven pom"]


def test_a_gradle_coordinate_bump_reads_as_a_gradle_dependency_upgrade() -> None:
    phrases = rewrite("com.google.guava:guava updated from 31.1 to 33.0 in build.gradle")
    assert phrases[0] == "upgrade Gradle dependency version com.google.guava:guava to 33.0"


def test_a_value_change_in_a_yaml_file_reads_as_a_property_value_change() -> None:
    phrases = rewrite("spring.datasource.url in application.yaml changed from jdbc:h2:mem to jdbc:postgresql://db")
    assert "change property value spring.datasource.url in YAML file" in phrases


def test_renames_removals_and_additions() -> None:
    assert rewrite("renamed key db.user to db.username in app.properties") == [
        "change property key db.user to db.username in app.properties"
    ]
    assert rewrite("Deleted the <servlet-mapping> block from web.xml") == [
        "remove XML tag servlet-mapping from XML file"
    ]
    assert rewrite("application.properties gains management.endpoints.enabled=true") == [
        "add property management.endpoints.enabled to application.properties"
    ]
    assert rewrite("org.slf4j:slf4j-simple replaced by ch.qos.logback:logback-classic in pom.xml") == [
        "change dependency org.slf4j:slf4j-simple to ch.qos.logback:logback-classic in Maven pom"
    ]


@pytest.mark.parametrize(
    "phrase",
    [
        "migrate JUnit 4 tests to JUnit 5",
        "use text blocks",
        "upgrade Spring Boot to 3.2",
        "dev:q027",  # a past-tense code change that names no file
        "Removed unused imports",  # a removal, but no file named: nothing to say about which kind of file
    ],
)
def test_a_phrase_without_a_file_or_an_edit_shape_gets_nothing(phrase: str) -> None:
    if phrase.startswith("dev:"):
        phrase = dev_text(phrase.removeprefix("dev:"))
    assert rewrite(phrase) == []


def test_the_limit_caps_the_phrasings() -> None:
    phrase = "jackson-databind bumped from 2.15.2 to 2.17.0 in pom.xml"
    assert len(rewrite(phrase, limit=1)) == 1
    assert rewrite(phrase, limit=0) == []


def _top(catalog, embedder, phrase: str, tuning) -> list[str]:
    return [h.id for h in find_recipes(catalog, embedder, phrase, limit=10, tuning=tuning).hits]


def test_a_version_bump_phrase_brings_an_upgrade_dependency_recipe_into_the_top_10(catalog, embedder) -> None:
    phrase = "guava went from 31.1-jre to 33.0.0-jre in build.gradle and pom.xml"
    with_rewrite = _top(catalog, embedder, phrase, DEFAULT_TUNING)
    without = _top(catalog, embedder, phrase, OFF)
    assert any(rid.endswith(".UpgradeDependencyVersion") for rid in with_rewrite)
    assert not any(rid.endswith(".UpgradeDependencyVersion") for rid in without)


def test_a_removed_xml_block_finds_remove_xml_tag(catalog, embedder) -> None:
    phrase = "Deleted the <servlet-mapping> block from web.xml"
    assert "org.openrewrite.xml.RemoveXmlTag" in _top(catalog, embedder, phrase, DEFAULT_TUNING)[:3]
    assert "org.openrewrite.xml.RemoveXmlTag" not in _top(catalog, embedder, phrase, OFF)


def test_the_result_lists_the_written_phrasings_and_multi_mode_gets_none(catalog, embedder) -> None:
    phrase = "Deleted the <servlet-mapping> block from web.xml"
    assert find_recipes(catalog, embedder, phrase, limit=3).queries == [phrase, *rewrite(phrase)]
    two = [phrase, "remove a servlet mapping from web.xml"]
    assert find_recipes(catalog, embedder, two, limit=3).queries == two
