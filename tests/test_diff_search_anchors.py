"""Diff search anchors against the real docs snapshot: a recipe named after what each of its examples changes
(``docker.AddOrUpdateLabel``: ``LABEL``), or under a package naming a framework (``java.micronaut``), is weighed
down where the whole diff mentions none of it; composites and option-driven words anchor nothing."""

from __future__ import annotations

import pytest

from rewrite_assist.server.catalog.examples import StoredExample
from rewrite_assist.server.diffs.features import Change
from rewrite_assist.server.search.by_diff import anchors
from rewrite_assist.server.search.by_diff.anchors import (
    diff_words,
    enclosing_element,
    hunk_elements,
    recipe_anchors,
    unanchored,
)
from rewrite_assist.server.search.by_diff.catalog import example_snapshot
from rewrite_assist.server.search.by_diff.scoring import Match, weighed
from rewrite_assist.server.search.by_diff.search import find_recipes_for_diff

LABEL = "org.openrewrite.docker.AddOrUpdateLabel"
USER = "org.openrewrite.docker.AddUserInstruction"


def _dockerfile_diff(context: str) -> str:
    """A Dockerfile hunk that drops an environment variable; ``context`` is one unchanged line above it."""
    return "\n".join(
        [
            "diff --git a/Dockerfile b/Dockerfile",
            "--- a/Dockerfile",
            "+++ b/Dockerfile",
            "@@ -3,6 +3,5 @@ FROM eclipse-temurin:17-jre",
            " WORKDIR /srv",
            f" {context}",
            " COPY target/app.jar /srv/app.jar",
            "-ENV APP_OPTS=-Dfeature.legacy=true",
            '-ENV JAVA_OPTS="-Xmx256m -Dfeature.legacy=true"',
            '+ENV JAVA_OPTS="-Xmx256m"',
            " EXPOSE 8080",
            ' CMD ["java", "-jar", "/srv/app.jar"]',
            "",
        ]
    )


def _example(recipe: str, removed: list[str], added: list[str], **parameters: str) -> StoredExample:
    return StoredExample(recipe, 0, 0, None, dict(parameters), Change("dockerfile", removed, added))


def test_anchors_are_the_id_words_every_example_changes_but_not_option_values_or_composites() -> None:
    examples = [
        _example("org.example.AddLabel", [], ["LABEL team=core"]),
        _example("org.example.AddLabel", ["LABEL a=b"], ["LABEL a=c"]),
        # the word is the example's option value: the user picks it, the recipe is not about it
        _example("org.example.ChangeTeam", ["LABEL team=core"], ["LABEL team=edge"], key="team"),
        _example("org.example.LabelAll", [], ["LABEL x=y"]),
    ]
    found = recipe_anchors(examples, composites={"org.example.LabelAll"})
    assert found == {"org.example.AddLabel": frozenset({"label"})}


def test_a_word_many_recipes_change_anchors_none() -> None:
    common = [_example(f"org.example.Label{n}", [], ["LABEL k=v"]) for n in range(anchors.MAX_RECIPES + 1)]
    assert recipe_anchors(common, composites=()) == {}
    assert recipe_anchors(common[: anchors.MAX_RECIPES], composites=())  # at the limit it still anchors


@pytest.fixture(scope="module")
def snap(catalog):
    return example_snapshot(catalog)


def test_the_catalog_anchors_dockerfile_instructions_and_framework_packages(snap) -> None:
    assert "label" in snap.anchors[LABEL]
    assert "user" in snap.anchors[USER]
    assert snap.frameworks["org.openrewrite.java.micronaut.Micronaut2to3Migration"] == {"micronaut"}
    # a composite has no example anchors, and a package every kind of recipe shares names no framework
    assert "org.openrewrite.java.migrate.UpgradeToJava17" not in snap.anchors
    assert "org.openrewrite.java.migrate.UpgradeToJava17" not in snap.frameworks
    assert "org.openrewrite.staticanalysis.UseDiamondOperator" not in snap.frameworks


def test_a_recipe_is_demoted_only_where_the_diff_mentions_none_of_its_anchors(snap) -> None:
    scores = {LABEL: Match(2.0, 0.5, None, []), "org.openrewrite.docker.ChangeFrom": Match(1.0, 0.5, None, [])}
    mentioned = diff_words(_dockerfile_diff("ARG BUILD=1"))
    without = weighed(scores, unanchored(scores, mentioned, snap.anchors, snap.frameworks))
    assert without[LABEL].score == pytest.approx(2.0 * anchors.UNANCHORED)
    assert without["org.openrewrite.docker.ChangeFrom"].score == 1.0  # its FROM is in the hunk's header
    mentioned = diff_words(_dockerfile_diff("LABEL team=core"))
    kept = weighed(scores, unanchored(scores, mentioned, snap.anchors, snap.frameworks))
    assert kept[LABEL].score == 2.0  # a label anywhere in the diff, context included, keeps it


def test_a_dockerfile_pr_without_labels_ranks_the_label_recipe_lower(catalog, embedder, monkeypatch) -> None:
    def rank(context: str) -> int:
        ids = [h.id for h in find_recipes_for_diff(catalog, embedder, _dockerfile_diff(context), limit=50).hits]
        return ids.index(LABEL) if LABEL in ids else len(ids)

    demoted = rank("ARG BUILD=1")
    monkeypatch.setattr(anchors, "UNANCHORED", 1.0)
    assert rank("ARG BUILD=1") < demoted


def test_the_enclosing_element_is_the_innermost_one_the_lines_above_leave_open() -> None:
    dependency = [
        "  <dependencies>",
        "    <dependency>",
        "      <groupId>org.slf4j</groupId>",
        "      <artifactId>x</artifactId>",
    ]
    assert enclosing_element(dependency) == "dependency"
    closed = ["    </dependency>", "    <dependency/>", "    <!-- pinned -->"]
    assert enclosing_element([*dependency, *closed]) == "dependencies"
    assert enclosing_element(["    <version>1</version>"]) is None  # a hunk's context that closes what it opens
    assert hunk_elements(["  <properties>", "    <a.version>1</a.version>"]) == anchors.THROUGH_PROPERTIES


def test_a_property_bump_demotes_the_project_version_change_but_not_a_dependency_upgrade(snap) -> None:
    project = "org.openrewrite.maven.ChangeProjectVersion"
    upgrade = "org.openrewrite.maven.UpgradeDependencyVersion"
    assert snap.elements[project] == {"project"}
    assert "dependency" in snap.elements[upgrade]
    scores = {project: Match(1.0, 0.5, None, []), upgrade: Match(1.0, 0.5, None, [])}
    above = ["  <properties>", "    <java.version>17</java.version>"]
    out = weighed(scores, unanchored(scores, hunk_elements(above), snap.elements))
    assert out[project].score == pytest.approx(anchors.UNANCHORED)
    assert out[upgrade].score == 1.0  # a dependency's version can live in a property
