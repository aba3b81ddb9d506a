"""Diff search, against the real docs snapshot: a segment whose words only frame its edit (``add
Dockerfile RUN instruction``: no name, key, version or coordinate) counts in the whole-diff pick like one
without words; a generic edit recipe the pick left among the runners-up moves up to the generic recipes'
place; a file's last line put back only to end it with a newline is no change."""

from __future__ import annotations

import pytest
from test_diff_search import pr_case

from rewrite_assist.server.diffs.words import describe, names_something
from rewrite_assist.server.search.by_diff import anchors as diff_anchors
from rewrite_assist.server.search.by_diff import direction as diff_direction
from rewrite_assist.server.search.by_diff import pick as diff_pick
from rewrite_assist.server.search.by_diff import search as diff_search
from rewrite_assist.server.search.by_diff import split as diff_split
from rewrite_assist.server.search.by_diff.generic import generic_recipes
from rewrite_assist.server.search.by_diff.pick import with_fallbacks
from rewrite_assist.server.search.by_diff.search import find_recipes_for_diff
from rewrite_assist.server.search.by_diff.split import split_diff

# A base image moves to Java 17 beside a RUN line added, a COPY removed and a port changed; the pom's Java
# level moves too.
DOCKER_AND_POM = (
    "diff --git a/Dockerfile b/Dockerfile\n--- a/Dockerfile\n+++ b/Dockerfile\n"
    "@@ -1,11 +1,13 @@\n-FROM maven:3.8-openjdk-11 AS build\n+FROM maven:3.9-eclipse-temurin-17 AS build\n"
    " WORKDIR /src\n COPY pom.xml .\n+# Fetch dependencies first\n+RUN mvn -B dependency:go-offline\n+\n"
    " COPY src ./src\n"
    "-COPY config/ ./config/\n RUN mvn -B package -DskipTests\n \n"
    " FROM gcr.io/distroless/java17\n COPY --from=build /src/target/app.jar /app.jar\n"
    '-EXPOSE 8081\n+EXPOSE 8080\n ENTRYPOINT ["java", "-jar", "/app.jar"]\n'
    "diff --git a/pom.xml b/pom.xml\n--- a/pom.xml\n+++ b/pom.xml\n"
    "@@ -10,5 +10,5 @@\n   <properties>\n-    <java.version>11</java.version>\n+    <java.version>17</java.version>\n"
    "   </properties>\n \n   <dependencies>\n"
)


def test_frame_words_are_the_edit_the_file_and_its_syntax() -> None:
    assert not names_something("add Dockerfile RUN instruction", "dockerfile", "Dockerfile")
    assert not names_something("remove Dockerfile COPY instruction", "dockerfile", "app/Dockerfile")
    assert names_something("change the base image in a Dockerfile FROM instruction", "dockerfile", "Dockerfile")
    assert names_something("remove repository jcenter from Gradle build", "gradle", "build.gradle")
    assert names_something("upgrade Java version to 17 in Maven pom", "maven", "pom.xml")


def test_the_segments_of_a_real_diff_are_said_or_only_framed() -> None:
    segments, *_ = split_diff(DOCKER_AND_POM)
    said = {s.header: diff_search.said(s, describe(s.file, s.change, s.context, s.lines_above)) for s in segments}
    # the FROM line and the pom's Java level name what changed; the RUN added and the COPY removed do not
    assert said["@@ -1,1 +1,1 @@"] and said["@@ -11,1 +11,1 @@"], said
    assert not said["@@ -4,0 +4,3 @@"] and not said["@@ -5,1 +8,0 @@"], said


def test_a_named_image_upgrade_outranks_recipes_found_by_frame_words_alone(
    pick_order, catalog, embedder, monkeypatch: pytest.MonkeyPatch
) -> None:
    image, label = "org.openrewrite.java.migrate.UpgradeDockerImageVersion", "org.openrewrite.docker.AddOrUpdateLabel"
    ids = [h.id for h in find_recipes_for_diff(catalog, embedder, DOCKER_AND_POM, limit=10).hits]
    # after the pom segment's level recipes (its step, the setter and the migration tie its best: ``java_level``)
    assert image in ids[:4], ids
    assert label not in ids or ids.index(image) < ids.index(label), ids
    # Read as worded, the RUN line's bare words win the pick with a generic Docker recipe.
    monkeypatch.setattr(diff_search, "FRAME_ONLY_UNWORDED", False)
    monkeypatch.setattr(diff_anchors, "UNANCHORED", 1.0)  # the frame-word rule alone: the anchors demote it too,
    monkeypatch.setattr(diff_direction, "OPPOSED", 1.0)  # ... and so does ``direction`` (it adds, the FROM moves)
    without = [h.id for h in find_recipes_for_diff(catalog, embedder, DOCKER_AND_POM, limit=10).hits]
    assert without.index(label) < without.index(image), without


# -- a generic recipe already among the runners-up moves up to the generic recipes' place --------------------
def test_a_generic_recipe_among_the_runners_up_moves_up_to_its_place(monkeypatch: pytest.MonkeyPatch) -> None:
    chosen = [("a", 1.0), ("b", 0.5), ("g", 0.4), ("c", 0.3)]
    best = [True, False, False, False]
    monkeypatch.setattr(diff_pick, "FALLBACK", 2)
    assert with_fallbacks(chosen, best, [["g"]], 10) == [("a", 1.0), ("g", 0.75), ("b", 0.5), ("c", 0.3)]
    # one of the leading picks stays where it is
    assert with_fallbacks(chosen, [True, False, True, False], [["a"]], 10) == chosen
    monkeypatch.setattr(diff_pick, "RUNNERS_UP_STAY", True)
    assert with_fallbacks(chosen, best, [["g"]], 10) == chosen


def test_a_property_added_to_the_wrapper_file_offers_the_generic_add_second(
    pick_order, catalog, embedder, monkeypatch: pytest.MonkeyPatch
) -> None:
    # networkTimeout and validateDistributionUrl added: UpdateGradleWrapper is best; the Gradle and Maven
    # AddProperty recipes (other files) were ahead of the properties file's own AddProperty.
    path = str(pr_case("notification-service-pr1"))
    generic = "org.openrewrite.properties.AddProperty"
    ids = [h.id for h in find_recipes_for_diff(catalog, embedder, path, limit=10).hits]
    assert ids[:2] == ["org.openrewrite.gradle.UpdateGradleWrapper", generic], ids
    monkeypatch.setattr(diff_pick, "RUNNERS_UP_STAY", True)
    stayed = [h.id for h in find_recipes_for_diff(catalog, embedder, path, limit=10).hits]
    assert generic in stayed and stayed.index(generic) > 2, stayed


# -- a file's last line put back only to end it with a newline is no change ----------------------------------
APPENDED = (
    "diff --git a/src/main/resources/application.properties b/src/main/resources/application.properties\n"
    "--- a/src/main/resources/application.properties\n+++ b/src/main/resources/application.properties\n"
    "@@ -1,2 +1,3 @@\n server.port=8080\n-management.endpoints.web.exposure.include=health\n"
    "\\ No newline at end of file\n+management.endpoints.web.exposure.include=health\n+server.shutdown=graceful\n"
    "\\ No newline at end of file\n"
)


def test_a_line_appended_after_a_last_line_without_newline_is_an_addition(monkeypatch: pytest.MonkeyPatch) -> None:
    (segment,) = split_diff(APPENDED)[0]
    assert segment.change.removed == [] and segment.change.added == ["server.shutdown=graceful"]
    assert generic_recipes(segment.change, {"org.openrewrite.properties.AddProperty"}, path=segment.file) == [
        "org.openrewrite.properties.AddProperty"
    ]
    monkeypatch.setattr(diff_split, "EOF_NEWLINE_LINE", False)
    (before,) = split_diff(APPENDED)[0]
    assert before.change.removed == ["management.endpoints.web.exposure.include=health"]
