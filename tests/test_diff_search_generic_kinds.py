"""The diff search's generic edit recipes per file kind (``by_diff.generic``): a Dockerfile's base image by
``docker.ChangeFrom``, a Java package renamed in its imports by ``java.ChangePackage``, YAML keys by the
property recipes and a GitHub workflow's lines no ``github`` recipe makes by ``FindAndReplace``, no free-text
edit for a build line a build recipe makes; and their place in the whole-diff pick (``pick.with_fallbacks``:
before a weak pick even inside the leading run)."""

from __future__ import annotations

import pytest
from test_diff_search import pr_case

from rewrite_assist.server.diffs.features import Change
from rewrite_assist.server.search.by_diff import catalog as diff_catalog
from rewrite_assist.server.search.by_diff import pick as diff_pick
from rewrite_assist.server.search.by_diff.generic import (
    DOCKER_FROM,
    PACKAGE_RENAME,
    TEXT_EDIT,
    generic_options,
    generic_recipes,
    package_renames,
)
from rewrite_assist.server.search.by_diff.pick import with_fallbacks
from rewrite_assist.server.search.by_diff.search import find_recipes_for_diff

YAML_VALUE = "org.openrewrite.yaml.ChangePropertyValue"
YAML_DELETE = "org.openrewrite.yaml.DeleteProperty"


@pytest.fixture(scope="module")
def known(catalog) -> set[str]:
    return set(diff_catalog.example_snapshot(catalog).recipe_ids)


def test_a_dockerfile_base_image_change_gets_change_from_with_the_images(known) -> None:
    bump = Change("dockerfile", ["FROM eclipse-temurin:11-jre AS run"], ["FROM eclipse-temurin:17-jre AS run"])
    assert generic_recipes(bump, known, path="Dockerfile") == [DOCKER_FROM]
    assert generic_options(DOCKER_FROM, "Dockerfile", bump) == {
        "oldImageName": "eclipse-temurin",
        "oldTag": "11-jre",
        "newImageName": "eclipse-temurin",
        "newTag": "17-jre",
    }
    # a registry port is no tag; an image without a tag has none to match
    moved = Change("dockerfile", ["FROM localhost:5000/base"], ["FROM gcr.io/distroless/java17:nonroot"])
    assert generic_options(DOCKER_FROM, "Dockerfile", moved) == {
        "oldImageName": "localhost:5000/base",
        "newImageName": "gcr.io/distroless/java17",
        "newTag": "nonroot",
    }
    # any other Dockerfile line is still a textual edit
    assert generic_recipes(Change("dockerfile", ["RUN make"], ["RUN make all"]), known) == [TEXT_EDIT]


def test_a_package_renamed_in_one_part_gets_change_package(known) -> None:
    jakarta = Change(
        "java",
        ["import javax.persistence.Entity;", "import javax.persistence.Id;"],
        ["import jakarta.persistence.Entity;", "import jakarta.persistence.Id;"],
    )
    assert package_renames(jakarta) == [("javax.persistence", "jakarta.persistence")]
    assert generic_recipes(jakarta, known, path="src/main/java/a/User.java") == [PACKAGE_RENAME]
    assert generic_options(PACKAGE_RENAME, "User.java", jakarta) == {
        "oldPackageName": "javax.persistence",
        "newPackageName": "jakarta.persistence",
        "recursive": "true",
    }
    # another library's types (a move to another depth) are no package rename (``ChangeType`` moves each type)
    junit = Change("java", ["import org.junit.Test;"], ["import org.junit.jupiter.api.Test;"])
    log = Change("java", ["import org.apache.log4j.Logger;"], ["import org.slf4j.Logger;"])
    assert package_renames(junit) == [] and PACKAGE_RENAME not in generic_recipes(junit, known)
    assert PACKAGE_RENAME not in generic_recipes(log, known)
    # nor is a Java line's edit a text edit
    assert generic_recipes(Change("java", ["int a = 1;"], ["int a = 2;"]), known) == []


def test_yaml_keys_get_the_property_recipes_and_workflow_lines_a_text_edit(known) -> None:
    port = Change("yaml", ["    port: 8080"], ["    port: 9090"])
    assert generic_recipes(port, known, path="src/main/resources/application.yml") == [YAML_VALUE]
    assert generic_options(YAML_VALUE, "application.yml", port, ["server:", "  http:"]) == {
        "propertyKey": "server.http.port",
        "newValue": "9090",
        "filePattern": "application.yml",
    }
    gone = Change("yaml", ["      start_period: 30s"], [])
    assert generic_recipes(gone, known, path="docker-compose.yml") == [YAML_DELETE]
    assert generic_options(YAML_DELETE, "docker-compose.yml", gone, ["services:", "  app:", "    healthcheck:"]) == {
        "propertyKey": "services.app.healthcheck.start_period",
        "filePattern": "docker-compose.yml",
    }
    # a workflow's steps sit in lists: the github recipes make an action's and setup-java's edits, not a key path
    step = Change("yaml", ["      - uses: actions/checkout@v3"], ["      - uses: actions/checkout@v4"])
    assert generic_recipes(step, known, path=".github/workflows/ci.yml") == []
    java = Change("yaml", ["          java-version: '11'"], ["          java-version: '17'"])
    assert generic_recipes(java, known, path=".github/workflows/ci.yml") == []
    # ... any other line of a step (its name, its command, a matrix) only a free-text edit writes
    name = Change("yaml", ["      - name: Set up JDK 11"], ["      - name: Set up JDK 17"])
    assert generic_recipes(name, known, path=".github/workflows/ci.yml") == [TEXT_EDIT]
    assert generic_options(TEXT_EDIT, ".github/workflows/ci.yml", name) == {
        "find": "- name: Set up JDK 11",
        "replace": "- name: Set up JDK 17",
        "filePattern": ".github/workflows/ci.yml",
    }
    added = Change("yaml", [], ["      fail-fast: false"])
    assert generic_recipes(added, known, path=".github/workflows/ci.yml") == []


def test_a_renamed_key_gets_the_key_rename_recipe_of_its_kind(known) -> None:
    spring = Change("properties", ["spring.datasource.initialization-mode=always"], ["spring.sql.init.mode=always"])
    assert generic_recipes(spring, known, path="application.properties") == [
        "org.openrewrite.properties.ChangePropertyKey"
    ]
    assert generic_options("org.openrewrite.properties.ChangePropertyKey", "application.properties", spring) == {
        "oldPropertyKey": "spring.datasource.initialization-mode",
        "newPropertyKey": "spring.sql.init.mode",
    }
    url = Change("yaml", ["    url: a"], ["    jdbc-url: a"])
    assert generic_recipes(url, known, path="application.yml") == ["org.openrewrite.yaml.ChangePropertyKey"]
    assert generic_options(
        "org.openrewrite.yaml.ChangePropertyKey", "application.yml", url, ["spring:", "  datasource:"]
    ) == {
        "oldPropertyKey": "spring.datasource.url",
        "newPropertyKey": "spring.datasource.jdbc-url",
        "filePattern": "application.yml",
    }
    pom = Change(
        "maven", ["<junit.version>5.9</junit.version>"], ["<junit-jupiter.version>5.9</junit-jupiter.version>"]
    )
    assert generic_recipes(pom, known, ["<properties>"]) == ["org.openrewrite.maven.RenamePropertyKey"]
    assert generic_options("org.openrewrite.maven.RenamePropertyKey", "pom.xml", pom) == {
        "oldKey": "junit.version",
        "newKey": "junit-jupiter.version",
    }
    # a value changed under the same key stays the value recipe's
    assert generic_recipes(Change("properties", ["a=1"], ["a=2"]), known) == [
        "org.openrewrite.properties.ChangePropertyValue"
    ]


def test_a_build_line_a_build_recipe_makes_gets_no_text_edit(known) -> None:
    dependency = Change("gradle", ["    implementation 'a:b:1.0'"], ["    implementation 'a:b:2.0'"])
    assert generic_recipes(dependency, known, path="build.gradle") == [TEXT_EDIT]
    assert generic_recipes(dependency, known, path="build.gradle", built=True) == []


def test_generic_recipes_take_the_place_of_weak_picks_inside_the_leading_run(monkeypatch) -> None:
    monkeypatch.setattr(diff_pick, "FALLBACK", 2)
    chosen = [("a", 4.0), ("b", 1.0), ("c", 3.0), ("d", 1.9), ("e", 1.5), ("f", 1.2)]
    every = [True] * 6
    # d is valued under half of a: the generic recipes go before it though it was best for some change; b too,
    # but in the list's first third, which is left to the specific evidence
    top = [rid for rid, _ in with_fallbacks(chosen, every, [["g1", "g2", "g3"]], 6)]
    assert top == ["a", "b", "c", "g1", "g2", "d"]
    monkeypatch.setattr(diff_pick, "WEAK_PICK", 0.0)
    assert with_fallbacks(chosen, every, [["g1", "g2", "g3"]], 6) == chosen


def test_a_real_pr_offers_change_package_with_its_options(catalog, embedder) -> None:
    # javax → jakarta imports in the code beside a Spring Boot 3 upgrade
    hits = {h.id: h for h in find_recipes_for_diff(catalog, embedder, str(pr_case("notification-service-pr2"))).hits}
    assert PACKAGE_RENAME in hits, list(hits)
    options = hits[PACKAGE_RENAME].suggested_options
    assert options["oldPackageName"].startswith("javax.") and options["newPackageName"].startswith("jakarta."), options
