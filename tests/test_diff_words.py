"""The hunk → words bridge and the version evidence of diff search, on real pr-case hunks (no catalog)."""

from __future__ import annotations

import pytest
from conftest import shared_data_dir

from rewrite_assist.evaluation.diff_search_eval import half_of, repository
from rewrite_assist.server.diffs.features import Change
from rewrite_assist.server.diffs.words import describe, describe_pr, new_versions, package_moves, versions
from rewrite_assist.server.search.by_diff.scoring import id_versions, version_factor
from rewrite_assist.server.search.by_diff.split import Segment, split_diff


def segments_of(case: str) -> list[Segment]:
    path = shared_data_dir() / "pr-cases" / case / "pr.diff"
    if not path.exists():
        pytest.skip(f"pr-case not found at {path}")
    return split_diff(path.read_text(encoding="utf-8"))[0]


def phrases_of(case: str, file_suffix: str) -> list[list[str]]:
    return [describe(s.file, s.change, s.context) for s in segments_of(case) if s.file.endswith(file_suffix)]


# -- the description writer on real hunks ----------------------------------------------------------------
def test_wrapper_version_bump_reads_as_a_wrapper_upgrade() -> None:
    [phrases] = phrases_of("analytics-dashboard-pr1", "gradle-wrapper.properties")
    assert phrases[0] == "change gradle wrapper version to 8.1"
    assert any("distribution url" in p for p in phrases)


def test_added_wrapper_keys_read_as_added_properties() -> None:
    [phrases] = phrases_of("notification-service-pr1", "gradle-wrapper.properties")
    assert "add property network timeout to gradle-wrapper.properties" in phrases
    assert all(p.startswith("add property") for p in phrases)


def test_gradle_plugin_bump_and_dependency_swap() -> None:
    plugin, main_class, wrapper_phrases = (
        phrases_of("payment-processing-service-pr1", "build.gradle")
        + phrases_of("payment-processing-service-pr1", ".properties")
    )[:3]
    assert plugin == ["upgrade Gradle plugin version com.github.johnrengelman.shadow to 8.1.1"]
    assert main_class == ["remove main class name from Gradle build"]
    assert wrapper_phrases[0] == "change gradle wrapper version to 8.1"
    junit = phrases_of("file-storage-service-pr1", "build.gradle")[0]
    assert junit[0] == "change Gradle dependency junit:junit to org.junit.jupiter:junit-jupiter-api"
    assert "remove Gradle dependency junit:junit" in junit


def test_java_package_move_deleted_file_and_modifiers() -> None:
    moves = {p for own in phrases_of("notification-service-pr2", ".java") for p in own}
    assert {"change package javax.ws to jakarta.ws", "change package io.dropwizard to io.dropwizard.core"} <= moves
    deleted = [
        describe(s.file, s.change, s.context)
        for s in segments_of("file-storage-service-pr2")
        if s.file.endswith("ApiKeyAuthenticator.java")
    ]
    assert deleted == [["delete files"]]
    webjars = {p for own in phrases_of("webjars-locator-lite-pr10", ".java") for p in own}
    assert "remove public modifier from test method" in webjars
    assert "remove public modifier from test class" in webjars


def test_workflow_java_level_and_dockerfile_base_image() -> None:
    workflow = [p for own in phrases_of("notification-service-pr2", "ci.yml") for p in own]
    assert "change java-version to 21 in GitHub Actions workflow" in workflow
    assert "upgrade Java version to 21 in GitHub Actions workflow" in workflow
    docker = phrases_of("notification-service-pr2", "Dockerfile")[0]
    assert docker[0] == "change Dockerfile FROM base image openjdk:11-jdk-slim to eclipse-temurin:21-jdk-alpine"


def test_new_gitignore_and_a_new_java_class() -> None:
    [gitignore] = phrases_of("spring-unit-testing-with-junit-and-mockito-pr2", ".gitignore")
    assert gitignore[0] == "add entries to .gitignore"
    new_class = Change("java", [], ["package a;", "class A {}"], new_file=True)
    assert describe("src/main/java/a/A.java", new_class) == []  # new code is hand-written


def test_a_file_without_a_trailing_newline_is_not_a_change_of_that_line() -> None:
    text = (
        "diff --git a/app.properties b/app.properties\n--- a/app.properties\n+++ b/app.properties\n"
        "@@ -1,2 +1,3 @@\n alpha=1\n-beta=2\n\\ No newline at end of file\n+beta=2\n+gamma=3\n"
        "\\ No newline at end of file\n"
    )
    [segment] = split_diff(text)[0]
    assert describe(segment.file, segment.change, segment.context) == ["add property gamma to app.properties"]


def test_runs_of_changes_apart_in_one_hunk_are_separate_segments() -> None:
    build = [s for s in segments_of("user-management-service-pr2") if s.file == "build.gradle" and s.hunk == 1]
    assert len(build) == 2  # the plugin bump and, further down, the Java toolchain
    assert "shadow" in build[0].change.added[0] and build[0].header != build[1].header
    assert any("languageVersion" in line for line in build[1].change.added)
    assert any("java {" in line for line in build[1].context)


# -- version evidence ----------------------------------------------------------------------------------------
def test_versions_a_recipe_id_names() -> None:
    assert id_versions("org.openrewrite.java.spring.boot2.UpgradeSpringBoot_2_7") == ("2.7",)
    assert id_versions("org.openrewrite.gradle.MigrateToGradle8") == ("8",)
    assert id_versions("org.openrewrite.java.micronaut.Micronaut3to4Migration") == ("3", "4")
    assert id_versions("org.openrewrite.java.migrate.UpgradeToJava21") == ("21",)
    assert id_versions("org.openrewrite.gradle.UpdateGradleWrapper") == ()
    assert id_versions("org.openrewrite.java.logging.log4j.Log4j1ToLog4j2") == ("1", "2")  # not the 4 of Log4j


def test_version_factor_agrees_disagrees_or_stays_neutral() -> None:
    wrapper = Change(
        "properties",
        ["distributionUrl=https\\://services.gradle.org/distributions/gradle-7.6-bin.zip"],
        ["distributionUrl=https\\://services.gradle.org/distributions/gradle-8.1-bin.zip"],
    )
    added = new_versions(wrapper)
    assert added == ["8.1"]
    agree = version_factor("org.openrewrite.gradle.MigrateToGradle8", added)
    disagree = version_factor("org.openrewrite.java.spring.boot2.UpgradeSpringBoot_2_7", added)
    assert agree > 1.0 > disagree
    assert version_factor("org.openrewrite.gradle.UpdateGradleWrapper", added) == 1.0
    assert version_factor("org.openrewrite.gradle.MigrateToGradle8", []) == 1.0
    assert versions(["image: eclipse-temurin:21-jre-alpine", "version '3.0.0-M2'"]) == ["21", "3.0.0"]


# -- the evaluation's split ----------------------------------------------------------------------------------
def test_cases_split_by_repository_into_tune_and_check_halves() -> None:
    assert repository("notification-service-pr12") == "notification-service"
    assert half_of("analytics-dashboard-pr1") == "tune"  # first repository alphabetically
    assert half_of("ecommerce-catalog-pr1") == half_of("ecommerce-catalog-pr2") == "check"
    assert half_of("file-storage-service-pr2") == "tune"


# -- the whole PR in words ---------------------------------------------------------------------------------
def java_change(moves: list[tuple[str, str]]) -> Change:
    return Change("java", [f"import {old};" for old, _ in moves], [f"import {new};" for _, new in moves])


def test_a_package_family_moved_in_several_files_reads_as_one_migration() -> None:
    segments = [
        ("src/main/java/a/Order.java", java_change([("javax.persistence.Entity", "jakarta.persistence.Entity")])),
        ("src/main/java/a/Api.java", java_change([("javax.ws.rs.GET", "jakarta.ws.rs.GET")])),
        ("src/main/java/a/Dto.java", java_change([("javax.validation.Valid", "jakarta.validation.Valid")])),
        ("build.gradle", Change("gradle", ["    id 'java'"], ["    id 'java-library'"])),
    ]
    [wide] = describe_pr(segments)
    assert wide.phrases == ("migrate javax to jakarta",)
    assert wide.segments == (0, 1, 2)  # the build file is not part of the move


def test_one_family_across_a_build_file_and_tests_sub_package_moves_keep_their_root() -> None:
    segments = [
        ("pom.xml", Change("maven", ["<groupId>junit</groupId>"], ["<groupId>org.junit.jupiter</groupId>"])),
        ("src/test/java/a/ATest.java", java_change([("org.junit.Test", "org.junit.jupiter.api.Test")])),
    ]
    [wide] = describe_pr(segments)
    # junit (the Maven group) and org.junit (the package) are one family: the shortest root names it.
    assert wide.phrases == ("migrate junit to org.junit.jupiter",)
    assert wide.segments == (0, 1)


def test_a_change_in_one_file_is_no_pr_level_migration() -> None:
    one_file = [
        ("src/main/java/a/Order.java", java_change([("javax.persistence.Entity", "jakarta.persistence.Entity")])),
        ("src/main/java/a/Order.java", java_change([("javax.persistence.Id", "jakarta.persistence.Id")])),
    ]
    assert describe_pr(one_file) == []
    assert describe_pr([]) == []
    # Real single-file pr-cases: a wrapper bump, wrapper keys added.
    for case in ("analytics-dashboard-pr1", "notification-service-pr1"):
        assert describe_pr([(s.file, s.change) for s in segments_of(case)]) == []


def test_package_moves_and_their_roots() -> None:
    assert package_moves(java_change([("javax.ws.rs.GET", "jakarta.ws.rs.GET")])) == [("javax.ws.rs", "jakarta.ws.rs")]
    gradle = Change(
        "gradle",
        ["testImplementation 'junit:junit:4.13.2'"],
        ["testImplementation 'org.junit.jupiter:junit-jupiter-api:5.9.1'"],
    )
    assert package_moves(gradle) == [("junit", "org.junit.jupiter")]
    assert package_moves(java_change([("org.junit.Assert", "org.junit.jupiter.api.Assertions")])) == []


def test_the_same_java_level_in_several_build_files_reads_as_a_java_migration(monkeypatch: pytest.MonkeyPatch) -> None:
    from rewrite_assist.server.diffs.words import pr as words_pr

    # Two workflows and the build move to Java 17: a project migration.
    segments = [(s.file, s.change) for s in segments_of("file-storage-service-pr2")]
    [wide] = describe_pr(segments)
    assert wide.phrases == ("migrate to Java 17",) and wide.version == "17"
    assert {segments[n][0] for n in wide.segments} == {
        ".github/workflows/master-build.yml",
        ".github/workflows/pr-build.yml",
        "build.gradle",
    }
    monkeypatch.setattr(words_pr, "JAVA_MIN_FILES", 4)
    assert describe_pr(segments) == []
    # One workflow and the build (a routine bump): only the JUnit family move of that PR is PR-level.
    monkeypatch.undo()
    other = describe_pr([(s.file, s.change) for s in segments_of("user-management-service-pr2")])
    assert [w.phrases[0] for w in other] == ["migrate junit to org.junit.jupiter"]


def test_imports_whose_class_changed_read_as_type_changes() -> None:
    # import org.junit.Before / Test / static org.junit.Assert.* → jupiter's BeforeEach / Test / Assertions.*
    # Two types changed in one hunk: one segment per type (the first keeps the hunk's other lines).
    [before_each, assertions, _annotation] = phrases_of("user-management-service-pr2", "UserResourceTest.java")
    assert before_each == [
        "change type org.junit.Before to org.junit.jupiter.api.BeforeEach",
        "change package org.junit to org.junit.jupiter.api",
    ]
    assert assertions == ["change type org.junit.Assert to org.junit.jupiter.api.Assertions"]
    webjars = phrases_of("webjars-locator-lite-pr10", ".java")
    assert webjars[0] == ["change type org.junit.Assert to org.junit.jupiter.api.Assertions"]  # static members
    assert webjars[1] == ["change package org.junit to org.junit.jupiter.api"]  # the same Test class, moved
    # A static member whose class kept its name only moved package; unrelated new imports pair with nothing.
    moved = Change(
        "java",
        ["import static org.old.Util.helper;", "import org.old.Thing;"],
        ["import static org.fresh.Util.helper;", "import org.fresh.Thing;", "import java.util.List;"],
    )
    assert describe("src/main/java/a/A.java", moved) == ["change package org.old to org.fresh"]


def test_a_new_base_image_is_also_said_without_the_image_names() -> None:
    docker = phrases_of("notification-service-pr2", "Dockerfile")[0]
    assert docker[0].startswith("change Dockerfile FROM base image openjdk:11-jdk-slim")
    assert "change the base image in a Dockerfile FROM instruction" in docker


def test_java_compatibility_lines_read_as_a_java_compatibility_update(monkeypatch: pytest.MonkeyPatch) -> None:
    from rewrite_assist.server.diffs.words import build as words_build

    # sourceCompatibility/targetCompatibility = JavaVersion.VERSION_11 → toolchain { languageVersion = ...of(17) }
    toolchain = [p for p in phrases_of("user-management-service-pr2", "build.gradle") if "toolchain" in " ".join(p)]
    assert toolchain and toolchain[0][0] == "update Java compatibility to 17 in Gradle build"
    # Only removed (the toolchain comes in another hunk): the update without a level.
    removed = Change("gradle", ["sourceCompatibility = '11'", "targetCompatibility = '11'"], [])
    assert describe("build.gradle", removed)[0] == "update Java compatibility in Gradle build"
    # A constant names the level (``VERSION_1_8`` is 1.8); a version elsewhere in the hunk is not it.
    constant = Change(
        "gradle",
        ["sourceCompatibility = JavaVersion.VERSION_1_8", "    id 'org.example.tool' version '1.2.3'"],
        ["sourceCompatibility = JavaVersion.VERSION_17", "    id 'org.example.tool' version '1.2.4'"],
    )
    assert describe("build.gradle", constant)[0] == "update Java compatibility to 17 in Gradle build"
    # Other Gradle lines do not say it.
    plain = Change("gradle", ["    mainClassName = 'a.B'"], ["    mainClass = 'a.B'"])
    assert not any("compatibility" in p for p in describe("build.gradle", plain))
    monkeypatch.setattr(words_build, "JAVA_COMPATIBILITY", False)
    assert describe("build.gradle", removed) == [
        "remove source compatibility from Gradle build",
        "remove target compatibility from Gradle build",
    ]


def test_a_property_version_change_says_the_generic_edit_with_the_file_kind() -> None:
    [phrases] = phrases_of("analytics-dashboard-pr1", "gradle-wrapper.properties")
    assert phrases[0] == "change gradle wrapper version to 8.1"  # the file's own words first
    assert "change property distribution url value in properties file" in phrases
    assert not any("gradle-wrapper.properties" in p for p in phrases[1:2])


def test_pair_tokens_say_what_became_what() -> None:
    from rewrite_assist.server.search.by_diff.catalog import pair_tokens

    imports = Change(
        "java",
        ["import static org.junit.Assert.assertEquals;", "import org.junit.Test;"],
        ["import static org.junit.jupiter.api.Assertions.assertEquals;", "import org.junit.jupiter.api.Test;"],
    )
    assert pair_tokens(imports) == {
        "~org.junit.assert.assertequals>org.junit.jupiter.api.assertions.assertequals",
        "~org.junit.test>org.junit.jupiter.api.test",
    }
    coordinate = Change(
        "gradle",
        ["testImplementation 'junit:junit:4.13.2'"],
        ["testImplementation 'org.junit.jupiter:junit-jupiter:5.8.1'"],
    )
    assert pair_tokens(coordinate) == {"~junit:junit>org.junit.jupiter:junit-jupiter"}
    # Versions are the project's own: a version bump pairs nothing; lines only added pair nothing either.
    assert pair_tokens(Change("gradle", ["implementation 'a.b:c:1.0'"], ["implementation 'a.b:c:2.0'"])) == set()
    assert pair_tokens(Change("gradle", [], ["implementation 'a.b:c:1.0'"])) == set()


def test_a_hunk_changing_two_types_is_split_per_type(monkeypatch: pytest.MonkeyPatch) -> None:
    from rewrite_assist.server.diffs.words import java as words_java

    segments = [s for s in segments_of("user-management-service-pr2") if s.file.endswith("UserResourceTest.java")]
    imports = [s for s in segments if any("import" in line for line in s.change.removed)]
    assert [s.change.removed for s in imports] == [
        ["import org.junit.Before;", "import org.junit.Test;"],
        ["import static org.junit.Assert.*;"],
    ]
    assert [s.change.added for s in imports] == [
        ["import org.junit.jupiter.api.BeforeEach;", "import org.junit.jupiter.api.Test;"],
        ["import static org.junit.jupiter.api.Assertions.*;"],
    ]
    assert imports[0].hunk == imports[1].hunk and imports[0].header == imports[1].header  # one hunk, two parts
    # Static members of a type go with it; the first type keeps the other lines (``Test`` only moved).
    two = Change(
        "java",
        [
            "import org.junit.After;",
            "import org.junit.Test;",
            "import static org.junit.Assert.assertEquals;",
            "import static org.junit.Assert.fail;",
        ],
        [
            "import org.junit.jupiter.api.AfterEach;",
            "import org.junit.jupiter.api.Test;",
            "import static org.junit.jupiter.api.Assertions.assertEquals;",
            "import static org.junit.jupiter.api.Assertions.fail;",
        ],
    )
    first, second = words_java.split_type_changes(two)
    assert first.removed == two.removed[1:] and first.added == two.added[1:]  # Assert's members, and Test
    assert second.removed == two.removed[:1] and second.added == two.added[:1]  # After → AfterEach
    assert describe("src/test/java/a/ATest.java", second) == [
        "change type org.junit.After to org.junit.jupiter.api.AfterEach"
    ]
    # A hunk with one type change stays whole.
    one = Change("java", ["import org.junit.Before;"], ["import org.junit.jupiter.api.BeforeEach;"])
    assert words_java.split_type_changes(one) == [one]
    monkeypatch.setattr(words_java, "SPLIT_TYPES", False)
    assert len([s for s in segments_of("user-management-service-pr2") if s.file.endswith("Test.java")]) == 2


def test_properties_and_gradle_properties_are_one_reader_said_two_ways() -> None:
    # One reader, two vocabularies: a .properties key in the words of the properties recipes (camel case in
    # words, a new version as the file's version), gradle.properties in Gradle's (the key as written, "add
    # Gradle property", a version key also as an upgrade); a renamed key's new value only in the first.
    props, gradle = "src/main/resources/application.properties", "gradle.properties"
    bump = (["kotlinVersion=1.8"], ["kotlinVersion=1.9"])
    assert describe(props, Change("properties", *bump)) == [
        "change application version to 1.9",
        "change property kotlin version value in properties file",
    ]
    assert describe(gradle, Change("gradle", *bump)) == [
        "change property kotlinVersion value to 1.9 in gradle.properties",
        "upgrade version property kotlinVersion to 1.9 in Gradle build",
    ]
    renamed = (["oldKey=a"], ["newKey=b"])
    assert describe(props, Change("properties", *renamed)) == [
        "change property key oldKey to newKey in application.properties",
        "change property newKey value to b in application.properties",
    ]
    assert describe(gradle, Change("gradle", *renamed)) == ["change property key oldKey to newKey in gradle.properties"]
    assert describe(props, Change("properties", [], ["fooBar=1"])) == ["add property foo bar to application.properties"]
    assert describe(gradle, Change("gradle", [], ["fooBar=1", "# a comment"])) == [
        "add Gradle property fooBar to gradle.properties"
    ]


def test_a_renamed_property_key_reads_as_a_key_change(monkeypatch: pytest.MonkeyPatch) -> None:
    from rewrite_assist.server.diffs.words import keys as words_keys

    path = "src/main/resources/application.properties"
    renamed = Change("properties", ["spring.datasource.initialization-mode=always"], ["spring.sql.init.mode=always"])
    assert describe(path, renamed) == [
        "change property key spring.datasource.initialization-mode to spring.sql.init.mode in application.properties"
    ]
    # Renamed and given a new value: the key change first, then the value.
    both = Change("properties", ["management.metrics.export.x=on"], ["management.x.metrics.export=off"])
    assert describe(path, both) == [
        "change property key management.metrics.export.x to management.x.metrics.export in application.properties",
        "change property management.x.metrics.export value to off in application.properties",
    ]
    # The same key with a new value stays a value change.
    value = Change("properties", ["logging.level.root=INFO"], ["logging.level.root=DEBUG"])
    assert describe(path, value) == ["change property logging.level.root value to DEBUG in application.properties"]
    # YAML: a key renamed with its value kept; a renamed key with a new value keeps the value phrase first.
    yml = "src/main/resources/application.yml"
    kept = Change("yaml", ["    initialization-mode: always"], ["    init-mode: always"])
    assert describe(yml, kept) == ["change YAML key initialization-mode to init-mode in YAML file"]
    moved = Change("yaml", ["    initialization-mode: always"], ["    init-mode: never"])
    assert describe(yml, moved) == [
        "change init-mode to never in YAML file",
        "change YAML key initialization-mode to init-mode",
    ]
    monkeypatch.setattr(words_keys, "KEY_RENAMES", False)
    assert describe(path, renamed) == ["change property spring.sql.init.mode value to always in application.properties"]


def test_a_continued_dockerfile_instruction_reads_as_one(monkeypatch: pytest.MonkeyPatch) -> None:
    from rewrite_assist.server.diffs.words import docker as words_docker

    # RUN groupadd ... && useradd ... → RUN apk add ... && \ / groupadd ... && \ / useradd ...: one RUN changed
    runs = [
        p for p in phrases_of("notification-service-pr2", "Dockerfile") if p == ["change Dockerfile RUN instruction"]
    ]
    assert len(runs) == 1
    assert not any(
        "GROUPADD" in p or "USERADD" in p for ps in phrases_of("notification-service-pr2", "Dockerfile") for p in ps
    )
    # A HEALTHCHECK's continued CMD line, changed alone: the unchanged line above says whose line it is.
    [healthcheck] = [p for p in phrases_of("notification-service-pr2", "Dockerfile") if "HEALTHCHECK" in " ".join(p)]
    assert healthcheck == ["change Dockerfile HEALTHCHECK instruction"]
    # A line added inside an instruction that stays changes it; a new continued instruction is one addition.
    inside = Change("dockerfile", [], ["    apt-get install -y curl && \\"])
    context = ["FROM ubuntu:22.04", "RUN apt-get update && \\", "    rm -rf /var/lib/apt/lists/*"]
    assert describe("Dockerfile", inside, context) == ["change Dockerfile RUN instruction"]
    new = Change("dockerfile", [], ["RUN apt-get update && \\", "    apt-get install -y curl", "# done"])
    assert describe("Dockerfile", new) == ["add Dockerfile RUN instruction"]
    assert words_docker.dockerfile_instructions(new.added) == ["RUN apt-get update && apt-get install -y curl"]
    monkeypatch.setattr(words_docker, "DOCKER_CONTINUATIONS", False)
    assert "add Dockerfile APT-GET instruction" in describe("Dockerfile", new)


def test_a_renamed_nested_yaml_key_is_said_as_its_dotted_path() -> None:
    from rewrite_assist.server.diffs.words import yaml_parents

    above = ["spring:", "  datasource:", "    url: jdbc:h2:mem:test"]
    assert yaml_parents(above, "    initialization-mode: always") == ["spring", "datasource"]
    assert yaml_parents([], "top: 1") == []
    # Not shown the whole way up (a level skipped), or inside a list: no partial path.
    assert yaml_parents(["spring:", "    url: x"], "    mode: a") == ["spring"]  # 4-space indents
    assert yaml_parents(["spring:", "  a: 1", "      url: x"], "      mode: a") is None
    steps = ["jobs:", "  build:", "    steps:", "      - uses: actions/setup-java@v3", "        with:"]
    assert yaml_parents(steps, "          java-version: 11") is None
    kept = Change("yaml", ["    initialization-mode: always"], ["    init-mode: always"])
    assert describe("src/main/resources/application.yml", kept, above, above) == [
        "change YAML key spring.datasource.initialization-mode to spring.datasource.init-mode in YAML file"
    ]
    # Split per hunk, the unchanged lines above the change are the segment's ``above``.
    path = "src/main/resources/application.yml"
    text = (
        f"diff --git a/{path} b/{path}\n--- a/{path}\n+++ b/{path}\n@@ -1,6 +1,6 @@\n spring:\n   datasource:\n"
        "     url: jdbc:h2:mem:test\n-    initialization-mode: always\n+    init-mode: always\n   jpa:\n"
        "     show-sql: true\n"
    )
    [segment] = split_diff(text)[0]
    assert segment.context[: segment.above] == above
    assert segment.context[segment.above :] == ["  jpa:", "    show-sql: true"]


def test_a_gradle_hunk_says_each_kind_of_dependency_edit_first(monkeypatch: pytest.MonkeyPatch) -> None:
    from rewrite_assist.server.diffs.words import build as words_build

    # A dozen versions bumped, javax.validation → jakarta.validation, httpclient → httpclient5, log4j dropped.
    [phrases] = [p for p in phrases_of("notification-service-pr2", "build.gradle") if "guava" in " ".join(p)]
    assert [p.split(" Gradle")[0] for p in phrases] == ["upgrade", "change", "add", "remove"]
    assert phrases[1] == (
        "change Gradle dependency org.apache.httpcomponents:httpclient to org.apache.httpcomponents.client5:httpclient5"
    )
    assert phrases[3] == "remove Gradle dependency org.apache.logging.log4j:log4j-core"
    # The swap pairs the names that share words, not the first removed with the first added.
    gone = [("org.apache.logging.log4j", "log4j-core"), ("javax.mail", "javax.mail-api")]
    came = [("jakarta.validation", "jakarta.validation-api"), ("jakarta.mail", "jakarta.mail-api")]
    assert words_build._likely_swap(gone, came) == (gone[1], came[1])
    monkeypatch.setattr(words_build, "DEPENDENCY_TURNS", False)
    [before] = [p for p in phrases_of("notification-service-pr2", "build.gradle") if "guava" in " ".join(p)]
    assert all(p.startswith("upgrade Gradle dependency version") for p in before)


def test_lines_taken_out_and_put_back_unchanged_are_no_segment() -> None:
    # gradle-wrapper.properties: ``zipStorePath=wrapper/dists`` removed and added back (a newline at the end)
    wrapper = [s for s in segments_of("notification-service-pr2") if s.file.endswith("gradle-wrapper.properties")]
    assert len(wrapper) == 1 and wrapper[0].change.removed != wrapper[0].change.added
    assert not any(s.change.removed == s.change.added for s in segments_of("notification-service-pr2"))
    assert not any(
        p.startswith("find and replace") for p in phrases_of("notification-service-pr2", "wrapper.properties")[0]
    )


def test_a_plain_number_in_a_property_is_a_value_not_a_version() -> None:
    def said(old: str, new: str, path: str = "src/main/resources/application.properties") -> list[str]:
        return describe(path, Change("properties", [old], [new]), [])

    # A port or a timeout is a value like any other ...
    assert said("server.port=8080", "server.port=9090") == [
        "change property server.port value to 9090 in application.properties"
    ]
    assert not any("version" in p for p in said("app.timeout=30", "app.timeout=60"))
    # ... a dotted number, or a key that says "version", stays a version.
    assert said("java.version=11", "java.version=17", "gradle.properties")[0].endswith("version to 17")
    wrapper = "gradle/wrapper/gradle-wrapper.properties"
    url = "distributionUrl=https\\://services.gradle.org/distributions/gradle-{}-bin.zip"
    assert said(url.format("8.1"), url.format("8.5"), wrapper)[0] == "change gradle wrapper version to 8.5"


def test_a_hunk_moving_several_packages_as_often_is_said_by_its_first_move_in_every_process() -> None:
    # Six packages each move once: a tie. Picked from a set, the move said depended on the process's hash
    # seed, so the same diff searched for different words (and recipes) from one run to the next.
    olds = ["transaction", "inject", "persistence", "validation", "annotation", "servlet"]
    moved = Change(
        "java",
        [f"import javax.{p}.T{n};" for n, p in enumerate(olds)],
        [f"import jakarta.{p}.T{n};" for n, p in enumerate(olds)],
    )
    assert describe("src/main/java/a/A.java", moved)[0] == "change package javax.transaction to jakarta.transaction"
