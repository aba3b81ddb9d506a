"""Search by the change itself: examples stored as rows, the PR-diff splitter, its error cases, and the
CLI and MCP tool returning the same hits, against the real docs snapshot and real pr-cases."""

from __future__ import annotations

import json
import tarfile
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from conftest import require_snapshot, shared_data_dir
from test_cli import run
from test_mcp_server import call, text_of

from rewrite_assist.evaluation.pr_sets import HELDOUT_SETS
from rewrite_assist.ingestion.page import parse_page
from rewrite_assist.server.catalog.examples import example_rows, write_examples
from rewrite_assist.server.catalog.models import Recipe
from rewrite_assist.server.config import MODEL_KEY
from rewrite_assist.server.diffs.features import Change, corresponding_value, example_change, file_kind
from rewrite_assist.server.diffs.words import describe
from rewrite_assist.server.errors import BadInput
from rewrite_assist.server.search.by_diff import catalog as diff_catalog
from rewrite_assist.server.search.by_diff import java_level, rerank
from rewrite_assist.server.search.by_diff import phrases as diff_phrases
from rewrite_assist.server.search.by_diff import scoring as diff_scoring
from rewrite_assist.server.search.by_diff import search as diff_search
from rewrite_assist.server.search.by_diff import split as diff_split
from rewrite_assist.server.search.by_diff.search import find_recipes_for_diff
from rewrite_assist.server.search.by_diff.split import MAX_SEGMENTS, split_diff


def pr_case(name: str) -> Path:
    path = shared_data_dir() / "pr-cases" / name / "pr.diff"
    if not path.exists():
        pytest.skip(f"pr-case not found at {path}")
    return path


def page(relative: str) -> Recipe:
    """One real recipe page from the docs snapshot, parsed as ingest parses it."""
    with tarfile.open(require_snapshot()) as tar:
        member = next(m for m in tar.getmembers() if m.name.endswith("docs/recipes/" + relative))
        handle = tar.extractfile(member)
        assert handle is not None
        return parse_page("docs/recipes/" + relative, handle.read().decode("utf-8"))


# -- examples from real pages of each kind -------------------------------------------------------------
@pytest.mark.parametrize(
    ("relative", "kind", "parameter"),
    [
        ("gradle/updategradlewrapper.md", "properties", ("version", "7.4.2")),
        ("docker/changefrom.md", "dockerfile", ("newTag", "22.04")),
        ("gradle/upgradedependencyversion.md", "gradle", ("groupId", "com.fasterxml.jackson.core")),
        ("maven/upgradedependencyversion.md", "maven", None),
        ("yaml/changepropertykey.md", "yaml", ("newPropertyKey", "a.b.c")),
        ("java/changepackage.md", "java", None),
        ("properties/changepropertykey.md", "properties", None),
        ("github/setupjavaupgradejavaversion.md", "yaml", None),
    ],
)
def test_examples_of_each_kind_parse_with_parameters(relative: str, kind: str, parameter: Any) -> None:
    recipe = page(relative)
    assert recipe.examples, relative
    first = recipe.examples[0]
    change = example_change(
        file=first.file, language=first.language, before=first.before, after=first.after, diff=first.diff
    )
    assert change.kind == kind
    assert change.removed or change.added
    if parameter is not None:
        name, value = parameter
        assert first.parameters.get(name) == value
    assert "null" not in first.parameters.values()


def test_pages_with_several_examples_number_them() -> None:
    recipe = page("yaml/changepropertykey.md")
    numbers = [e.example for e in recipe.examples]
    assert numbers == sorted(numbers) and numbers[0] == 1 and numbers[-1] >= 3
    assert recipe.examples[1].parameters["oldPropertyKey"] == "management.metrics.binders.*.enabled"


def test_file_kinds() -> None:
    assert file_kind("build.gradle") == "gradle"
    assert file_kind("a/pom.xml") == "maven"
    assert file_kind("Dockerfile") == "dockerfile"
    assert file_kind(".github/workflows/ci.yml") == "yaml"
    assert file_kind("gradle/wrapper/gradle-wrapper.properties") == "properties"
    assert file_kind(None, "groovy") == "gradle"
    assert file_kind(None, "xml", "<project><artifactId>x</artifactId></project>") == "maven"


def test_an_example_parameter_lines_up_with_the_pr_value() -> None:
    example = ["distributionUrl=https\\://downloads.gradle.org/distributions/gradle-7.4.2-bin.zip"]
    pr = ["distributionUrl=https\\://services.gradle.org/distributions/gradle-8.1-bin.zip"]
    assert corresponding_value("7.4.2", example, pr) == "8.1"
    assert corresponding_value("7.4.2", example, ["something else entirely"]) is None
    # the PR may move to the very version the example shows
    same = ["distributionUrl=https\\://services.gradle.org/distributions/gradle-7.4.2-bin.zip"]
    assert corresponding_value("7.4.2", example, same) == "7.4.2"


def test_a_value_of_another_kind_is_a_misalignment_not_a_suggestion() -> None:
    # the example names the artifact where the PR's line, laid out otherwise, has its group
    example = ["    implementation group: 'commons-lang', name: 'commons-lang', version: '2.6'"]
    pr = ["    implementation group: 'com.fasterxml.jackson.core', name: 'jackson-databind', version: '2.16.1'"]
    assert corresponding_value("commons-lang", example, pr) is None
    assert corresponding_value("2.6", example, pr) == "2.16.1"


TWO_UPGRADES = """\
diff --git a/api/build.gradle b/api/build.gradle
--- a/api/build.gradle
+++ b/api/build.gradle
@@ -10,4 +10,4 @@ dependencies {
     implementation 'org.slf4j:slf4j-api:2.0.9'
-    implementation('com.fasterxml.jackson.core:jackson-databind:2.11.0')
+    implementation('com.fasterxml.jackson.core:jackson-databind:2.16.1')
     testImplementation 'junit:junit:4.13.2'
 }
diff --git a/core/build.gradle b/core/build.gradle
--- a/core/build.gradle
+++ b/core/build.gradle
@@ -5,4 +5,4 @@ dependencies {
     implementation 'org.slf4j:slf4j-api:2.0.9'
-    compileOnly 'com.google.guava:guava:29.0-jre'
+    compileOnly 'com.google.guava:guava:33.0.0-jre'
     testImplementation 'junit:junit:4.13.2'
 }
"""


@pytest.mark.slow
def test_suggested_options_come_from_one_change(catalog, embedder) -> None:
    hits = {h.id: h for h in find_recipes_for_diff(catalog, embedder, TWO_UPGRADES).hits}
    options = hits["org.openrewrite.gradle.UpgradeDependencyVersion"].suggested_options
    assert options, hits["org.openrewrite.gradle.UpgradeDependencyVersion"]
    jackson, guava = {"com.fasterxml.jackson.core", "jackson-databind", "2.16.1"}, {"com.google.guava", "guava"}
    values = set(options.values())
    # all from one hunk: never the guava coordinates with jackson's version (a recipe configured for neither)
    assert not (values & jackson and values & guava), options


# -- the catalog rows ------------------------------------------------------------------------------------
def test_examples_are_stored_as_rows_and_get_recipe_keeps_them(catalog) -> None:
    with catalog.db.connection() as conn, conn.cursor() as cur:
        cur.execute("SELECT count(*) FROM recipe_examples")
        stored = cur.fetchone()[0]
        cur.execute(
            "SELECT file_kind, parameters, added, embedding IS NOT NULL FROM recipe_examples "
            "WHERE recipe_id = 'org.openrewrite.gradle.UpdateGradleWrapper' ORDER BY ordinal"
        )
        kind, params, added, embedded = cur.fetchone()
        cur.execute("SELECT count(*) FROM recipe_examples WHERE search_tsv @@ to_tsquery('simple', 'distributionurl')")
        searchable = cur.fetchone()[0]
    recipes = catalog.get_recipes(catalog.all_ids())
    assert stored == sum(len(r.examples) for r in recipes.values()) > 1500
    assert kind == "properties" and params == {"version": "7.4.2"} and "gradle-7.4.2-bin.zip" in added and embedded
    assert searchable >= 1
    wrapper = catalog.get_recipe("org.openrewrite.gradle.UpdateGradleWrapper")
    assert wrapper is not None and wrapper.examples[0].parameters == {"version": "7.4.2"}


def test_example_rows_are_written_only_when_they_change(catalog) -> None:
    recipes = list(catalog.get_recipes(catalog.all_ids()).values())
    rows = example_rows(recipes)
    with catalog.db.connection() as conn, conn.cursor() as cur:
        assert write_examples(cur, rows, model_key=MODEL_KEY, embeddings={}) == 0
        wrapper = next(r for r in recipes if r.id == "org.openrewrite.gradle.UpdateGradleWrapper")
        wrapper.examples[0].diff = (wrapper.examples[0].diff or "") + "\n+extra=1"
        assert write_examples(cur, example_rows(recipes), model_key=MODEL_KEY, embeddings={}) == 1
        cur.execute("SELECT added FROM recipe_examples WHERE recipe_id = %s AND ordinal = 0", (wrapper.id,))
        assert "extra=1" in cur.fetchone()[0]
        conn.rollback()  # leave the shared catalog as ingested


# -- the splitter and its errors -------------------------------------------------------------------------
def test_split_real_pr_per_file_and_hunk() -> None:
    segments, skipped, files, hunks = split_diff(pr_case("payment-processing-service-pr1").read_text())
    assert files == 2 and hunks == 3 and not skipped
    assert {(s.file, s.change.kind) for s in segments} == {
        ("build.gradle", "gradle"),
        ("gradle/wrapper/gradle-wrapper.properties", "properties"),
    }
    wrapper = next(s for s in segments if s.change.kind == "properties")
    assert wrapper.change.removed[0].startswith("distributionUrl=") and "8.1" in wrapper.change.added[0]


def test_split_skips_binary_and_build_outputs_and_says_so() -> None:
    segments, skipped, _, _ = split_diff(pr_case("user-management-service-pr1").read_text())
    assert {s.file for s in segments} == {"build.gradle"}  # its two runs of changes, nothing else
    assert any(": binary" in s for s in skipped) and any(": build output" in s for s in skipped)


def test_large_diffs_are_capped_and_say_what_was_merged() -> None:
    hunks = "".join(f"@@ -{i * 10},1 +{i * 10},1 @@\n-v{i}=1\n+v{i}=2\n" for i in range(1, 120))
    text = f"diff --git a/x.properties b/x.properties\n--- a/x.properties\n+++ b/x.properties\n{hunks}"
    files = "".join(
        f"diff --git a/f{n}.properties b/f{n}.properties\n--- a/f{n}.properties\n+++ b/f{n}.properties\n"
        f"@@ -1,1 +1,1 @@\n-k=1\n+k=2\n"
        for n in range(80)
    )
    segments, skipped, _, hunk_count = split_diff(text + files)
    assert hunk_count == 199 and len(segments) <= MAX_SEGMENTS
    assert any("merged" in s for s in skipped) and any("not searched" in s for s in skipped)


def test_the_phrase_budget_searches_every_first_phrase_then_takes_turns_by_file_kind() -> None:
    """A big PR has more phrases than ``MAX_PHRASES``: each segment's first phrase is searched, and the
    spare slots go round the file kinds instead of to the diff's first files."""
    segments, _, _, _ = split_diff(pr_case("notification-service-pr2").read_text())
    phrases = [describe(s.file, s.change, s.context) for s in segments]
    kinds = [s.change.kind for s in segments]
    searched = diff_phrases.budget_phrases(phrases, kinds)
    firsts = list(dict.fromkeys(own[0] for own in phrases if own))
    later = {p for own in phrases for p in own[1:]} - set(firsts)
    assert len(firsts) < diff_phrases.MAX_PHRASES < len(firsts) + len(later)  # the budget binds here
    assert len(searched) == len(set(searched)) == diff_phrases.MAX_PHRASES
    assert searched[: len(firsts)] == firsts
    spare = searched[len(firsts) :]
    kind_of = {p: kinds[n] for n in reversed(range(len(phrases))) for p in phrases[n][1:]}
    with_later = {kinds[n] for n, own in enumerate(phrases) if len(own) > 1}
    served = [kind_of[p] for p in spare]
    assert 2 < len(with_later) <= len(spare)
    assert set(served[: len(with_later)]) == with_later  # each kind once before any kind twice
    # in diff order the spare slots went to the workflow and the Dockerfile, never to the wrapper file
    assert "change property distribution url value in properties file" in spare
    # under the budget nothing is left out, the first phrases still first
    small = [["a1", "a2"], ["b1"], ["a1", "c2", "c3"]]
    assert diff_phrases.budget_phrases(small, ["gradle", "yaml", "java"]) == ["a1", "b1", "a2", "c2", "c3"]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "is empty"),
        ("   \n", "is empty"),
        ("hello\nthis is a letter, not a diff\n", "is not a unified diff"),
        (
            "diff --git a/gradle/wrapper/gradle-wrapper.jar b/gradle/wrapper/gradle-wrapper.jar\n"
            "index 1b6c787..7f93135 100644\nBinary files a/gradle/wrapper/gradle-wrapper.jar and "
            "b/gradle/wrapper/gradle-wrapper.jar differ\n",
            "binary files only",
        ),
    ],
)
def test_bad_diffs_are_bad_input(text: str, message: str) -> None:
    with pytest.raises(BadInput, match=message):
        split_diff(text)


def test_huge_diff_is_refused_with_the_fix(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(diff_split, "MAX_DIFF_LINES", 1000)
    text = "diff --git a/a b/a\n--- a/a\n+++ b/a\n@@ -1,1 +1,1200 @@\n" + "+x\n" * 1200
    with pytest.raises(BadInput, match="over the 1,000-line limit; search per file"):
        split_diff(text)


def test_missing_path_and_bad_limit_are_bad_input(catalog, embedder) -> None:
    with pytest.raises(BadInput, match="no such file"):
        find_recipes_for_diff(catalog, embedder, "/nonexistent/pr.diff")
    with pytest.raises(BadInput, match="limit"):
        find_recipes_for_diff(catalog, embedder, str(pr_case("payment-processing-service-pr1")), limit=0)


# -- the search ------------------------------------------------------------------------------------------
def test_wrapper_and_plugin_upgrade_found_with_evidence_and_options(catalog, embedder) -> None:
    result = find_recipes_for_diff(catalog, embedder, str(pr_case("payment-processing-service-pr1")), limit=10)
    ids = [h.id for h in result.hits]
    assert "org.openrewrite.gradle.UpdateGradleWrapper" in ids
    wrapper = result.hits[ids.index("org.openrewrite.gradle.UpdateGradleWrapper")]
    assert wrapper.suggested_options.get("version") == "8.1"
    assert wrapper.evidence[0].file == "gradle/wrapper/gradle-wrapper.properties"
    assert {g.file for g in result.groups} == {"build.gradle", "gradle/wrapper/gradle-wrapper.properties"}
    assert all(g.recipes for g in result.groups)


def test_cli_and_mcp_return_the_same_hits(catalog, app_state) -> None:
    path = str(pr_case("ecommerce-catalog-pr1"))
    cli = run(["search-diff", path, "--limit", "8", "--json"], {"REWRITE_ASSIST_DATABASE_URL": catalog.db.url})
    assert cli.returncode == 0, cli.stderr
    from_cli = json.loads(cli.stdout)
    result = call(app_state, "find_recipes_for_diff", {"pr_diff": path, "limit": 8})
    assert not result.is_error, text_of(result)
    from_mcp = result.structured_content
    assert [h["id"] for h in from_cli["hits"]] == [h["id"] for h in from_mcp["hits"]]
    assert len(from_mcp["hits"]) == 8 and from_cli["groups"] == from_mcp["groups"]


def test_cli_and_mcp_return_the_same_hits_for_a_diff_and_its_intent(catalog, app_state) -> None:
    path = str(pr_case("ecommerce-catalog-pr1"))
    intent = "Move the catalog service to a newer Spring Boot and tidy its build"
    env = {"REWRITE_ASSIST_DATABASE_URL": catalog.db.url}
    cli = run(["search-diff", path, "--limit", "10", "--json", "--intent", intent], env)
    assert cli.returncode == 0, cli.stderr
    from_cli = json.loads(cli.stdout)
    result = call(app_state, "find_recipes_for_diff", {"pr_diff": path, "limit": 10, "intent": intent})
    assert not result.is_error, text_of(result)
    assert [h["id"] for h in from_cli["hits"]] == [h["id"] for h in result.structured_content["hits"]]
    too_long = call(app_state, "find_recipes_for_diff", {"pr_diff": path, "intent": "x" * 5000})
    assert too_long.is_error and "at most 4000" in text_of(too_long)


def test_the_same_diff_gives_the_same_answer_in_every_process(catalog) -> None:
    """Python salts string hashes per process, so iterating a set of tokens differs between server runs:
    sums in that order differed in the last digits and ties between equal scores fell either way. Two
    processes with different salts must return the same hits, scores, evidence and groups."""
    path = str(pr_case("spring-unit-testing-with-junit-and-mockito-pr2"))
    answers = []
    for seed in ("1", "2"):
        result = run(
            ["search-diff", path, "--json"], {"REWRITE_ASSIST_DATABASE_URL": catalog.db.url, "PYTHONHASHSEED": seed}
        )
        assert result.returncode == 0, result.stderr
        answers.append(json.loads(result.stdout))
    assert answers[0]["hits"] and answers[0] == answers[1]


def test_mcp_errors_are_tool_errors(app_state) -> None:
    result = call(app_state, "find_recipes_for_diff", {"pr_diff": "not a diff\nat all\n"})
    assert result.is_error and "not a unified diff" in text_of(result)
    bad = call(app_state, "find_recipes_for_diff", {"pr_diff": ""})
    assert bad.is_error and "is empty" in text_of(bad)


def test_pr_case_labels_name_catalog_recipes(catalog) -> None:
    from rewrite_assist.evaluation.diff_search_eval import LABELS

    rows = [json.loads(line) for line in LABELS.read_text().splitlines() if line.strip()]
    assert len(rows) == 27 and all(r["rationale"] for r in rows)
    labelled = {rid for r in rows for rid in r["relevant"]}
    assert labelled - set(catalog.all_ids()) == set()
    assert all(set(r["relevant"].values()) <= {1, 2} and 2 in r["relevant"].values() for r in rows)


@pytest.mark.parametrize("case_set", list(HELDOUT_SETS))
def test_held_out_pr_labels_name_catalog_recipes_for_every_ready_case(catalog, case_set: str) -> None:
    from rewrite_assist.evaluation.diff_search_eval import load_pr_cases

    folder, labels = HELDOUT_SETS[case_set]
    ready = (folder / "READY").read_text().split()
    cases = load_pr_cases(folder, labels)
    ids = [c.id for c in cases]
    assert len(ready) >= 20 and ids == [r for r in ready if r in set(ids)]
    # The labelling rules drop a case no catalog recipe reproduces; the labels' description names each one.
    described = labels.with_suffix(".md").read_text()
    dropped = [r.split("-")[0] for r in ready if r not in set(ids)]
    assert len(dropped) <= 2 and all(d in described for d in dropped), dropped  # at most two of twenty
    labelled = {rid for c in cases for rid in c.relevant}
    assert labelled - set(catalog.all_ids()) == set()
    assert all(set(c.relevant.values()) <= {1, 2} and c.diff.startswith("diff --git") and c.intent for c in cases)


def test_version_evidence_picks_the_migration_that_fits_over_other_composites(catalog, embedder) -> None:
    text = (
        "diff --git a/gradle/wrapper/gradle-wrapper.properties b/gradle/wrapper/gradle-wrapper.properties\n"
        "--- a/gradle/wrapper/gradle-wrapper.properties\n+++ b/gradle/wrapper/gradle-wrapper.properties\n"
        "@@ -1,5 +1,5 @@\n distributionBase=GRADLE_USER_HOME\n distributionPath=wrapper/dists\n"
        "-distributionUrl=https\\://services.gradle.org/distributions/gradle-7.6-bin.zip\n"
        "+distributionUrl=https\\://services.gradle.org/distributions/gradle-8.1-bin.zip\n"
        " zipStoreBase=GRADLE_USER_HOME\n zipStorePath=wrapper/dists\n"
    )
    ids = [h.id for h in find_recipes_for_diff(catalog, embedder, text, limit=10).hits]
    assert ids[0] == "org.openrewrite.gradle.UpdateGradleWrapper"  # the leaf that makes the change
    gradle8 = ids.index("org.openrewrite.gradle.MigrateToGradle8")
    spring = "org.openrewrite.java.spring.boot2.UpgradeSpringBoot_2_7"
    assert spring not in ids or ids.index(spring) > gradle8
    # Composites that also run the wrapper update, for versions the diff does not move to, stay out.
    other_versions = [rid for rid in ids if diff_scoring.version_factor(rid, ["8.1"]) < 1.0]
    assert len(other_versions) <= 2, ids


def test_a_recipe_without_examples_is_found_through_the_hunk_in_words(catalog, embedder) -> None:
    # properties.AddProperty has no example on its page: only the description "add property ..." reaches it.
    result = find_recipes_for_diff(catalog, embedder, str(pr_case("notification-service-pr1")), limit=10)
    ids = [h.id for h in result.hits]
    # among the hits: the Gradle and Maven AddProperty recipes, whose names the phrase also says ("add property
    # ... to gradle-wrapper.properties"), may rank above it
    assert "org.openrewrite.properties.AddProperty" in ids
    assert "org.openrewrite.gradle.UpdateGradleWrapper" in ids
    add_property = result.hits[ids.index("org.openrewrite.properties.AddProperty")]
    assert add_property.evidence[0].example is None  # no example: the words found it, and say so
    assert (add_property.evidence[0].described_as or "").startswith("add property network timeout")


# -- PR-level descriptions ----------------------------------------------------------------------------
def javax_to_jakarta_diff() -> str:
    """Three Java files moving their javax imports to jakarta, built here (no pr-case does only that)."""

    def java_file(name: str, imports: list[str]) -> str:
        removed = [f"-import javax.{i};" for i in imports]
        added = [f"+import jakarta.{i};" for i in imports]
        path = f"src/main/java/app/{name}.java"
        return (
            f"diff --git a/{path} b/{path}\n--- a/{path}\n+++ b/{path}\n"
            f"@@ -1,{len(imports) + 3} +1,{len(imports) + 3} @@\n package app;\n \n"
            + "\n".join(removed + added)
            + f"\n \n public class {name} {{\n"
        )

    return (
        java_file("Order", ["persistence.Entity", "persistence.Id"])
        + java_file("OrderResource", ["ws.rs.GET", "ws.rs.Path"])
        + java_file("OrderRequest", ["validation.constraints.NotNull"])
    )


def test_a_package_moved_in_several_files_finds_the_umbrella_migration(
    catalog, embedder, monkeypatch: pytest.MonkeyPatch
) -> None:
    umbrella = "org.openrewrite.java.migrate.jakarta.JavaxMigrationToJakarta"
    result = find_recipes_for_diff(catalog, embedder, javax_to_jakarta_diff(), limit=10)
    ids = [h.id for h in result.hits]
    assert umbrella in ids[:3], ids
    [wide] = [g for g in result.groups if g.kind == "pr"]
    assert wide.header == "migrate javax to jakarta" and wide.file.startswith("3 files: ")
    assert wide.recipes[0].id == umbrella  # it explains every file, its siblings one each
    evidence = result.hits[ids.index(umbrella)].evidence
    assert any(e.described_as == "migrate javax to jakarta" and e.summed_up == 3 for e in evidence)
    # The PR-level description is what places it: in the pick's own order (the rerank off, whose neighbours know
    # that PRs like this one need the umbrella) it leads, and without the description the per-file leaves rank above it.
    monkeypatch.setattr(rerank, "RERANK", False)
    picked = [h.id for h in find_recipes_for_diff(catalog, embedder, javax_to_jakarta_diff(), limit=10).hits]
    assert umbrella in picked[:3], picked
    monkeypatch.setattr(diff_search, "W_WIDE", 0.0)
    without = [h.id for h in find_recipes_for_diff(catalog, embedder, javax_to_jakarta_diff(), limit=10).hits]
    assert umbrella not in without[:3], without
    assert not [g for g in find_recipes_for_diff(catalog, embedder, javax_to_jakarta_diff()).groups if g.kind == "pr"]


def test_the_cli_says_a_hit_came_from_the_whole_pr(catalog, tmp_path: Path) -> None:
    diff = tmp_path / "jakarta.diff"
    diff.write_text(javax_to_jakarta_diff(), encoding="utf-8")
    cli = run(["search-diff", str(diff), "--limit", "5"], {"REWRITE_ASSIST_DATABASE_URL": catalog.db.url})
    assert cli.returncode == 0, cli.stderr
    assert '~ description; "migrate javax to jakarta"' in cli.stdout
    assert "the whole PR (3 changes in 3 files: src/main/java/app/Order.java" in cli.stdout


POM_TWO_CHANGES = """\
diff --git a/pom.xml b/pom.xml
--- a/pom.xml
+++ b/pom.xml
@@ -3,9 +3,9 @@
     <dependency>
       <groupId>com.fasterxml.jackson.core</groupId>
       <artifactId>jackson-databind</artifactId>
-      <version>2.13.0</version>
+      <version>2.17.1</version>
     </dependency>
     <dependency>
-      <groupId>javax.servlet</groupId>
-      <artifactId>javax.servlet-api</artifactId>
+      <groupId>jakarta.servlet</groupId>
+      <artifactId>jakarta.servlet-api</artifactId>
       <version>6.0.0</version>
"""


def test_one_hunk_with_two_changes_is_counted_and_located_as_two(catalog, embedder, tmp_path: Path) -> None:
    # Git joins changes a few lines apart into one hunk; each is searched on its own, and the counts, the
    # evidence and the CLI say changes (with their own line numbers), not hunks.
    result = find_recipes_for_diff(catalog, embedder, POM_TWO_CHANGES, limit=5)
    assert (result.files, result.hunks, result.searched_segments) == (1, 1, 2)
    located = {e.lines for h in result.hits for e in h.evidence}
    assert {"@@ -6,1 +6,1 @@", "@@ -9,2 +9,2 @@"} <= located, located
    assert all(h.matched_variations <= 2 for h in result.hits)
    diff = tmp_path / "pom.diff"
    diff.write_text(POM_TWO_CHANGES, encoding="utf-8")
    cli = run(["search-diff", str(diff), "--limit", "3"], {"REWRITE_ASSIST_DATABASE_URL": catalog.db.url})
    assert cli.returncode == 0, cli.stderr
    assert cli.stdout.startswith("1 file, 1 hunk; 2 changes searched\n")
    assert "pom.xml hunk 1 @@ -6,1 +6,1 @@ ~ " in cli.stdout and " hunks]" not in cli.stdout


# -- search-only recipes ------------------------------------------------------------------------------
def test_search_only_is_the_rankings_fact_and_find_and_replace_changes_text(catalog, embedder) -> None:
    # One rule for both searches (``priors.is_search_only``): FindAndReplace changes text, Find only marks it.
    snap = diff_catalog.example_snapshot(catalog)
    assert "org.openrewrite.text.FindAndReplace" not in snap.search_only
    assert {"org.openrewrite.text.Find", "org.openrewrite.java.search.FindMethods"} <= snap.search_only
    text = (
        "diff --git a/docs/notes.txt b/docs/notes.txt\n--- a/docs/notes.txt\n+++ b/docs/notes.txt\n"
        "@@ -1,3 +1,3 @@\n Deploy notes\n-Run the service on port 8080.\n+Run the service on port 9090.\n end\n"
    )
    ids = [h.id for h in find_recipes_for_diff(catalog, embedder, text, limit=10).hits]
    assert ids[0] == "org.openrewrite.text.FindAndReplace", ids  # a text edit: the text recipe, not halved
    assert "org.openrewrite.text.Find" not in ids[:3]


def test_gradle_examples_named_after_the_test_helper_are_gradle(catalog, embedder, monkeypatch) -> None:
    # UpgradePluginVersion's page shows its example as a ``buildGradleKts`` block, not a file name.
    assert diff_catalog.example_kind("buildgradlekts") == "gradle"
    assert diff_catalog.example_kind("settingsgradle") == "gradle"
    assert diff_catalog.example_kind("properties") == "properties"
    snap = diff_catalog.example_snapshot(catalog)
    upgrade = [n for n, rid in enumerate(snap.example_recipes) if rid.endswith(".plugins.UpgradePluginVersion")]
    assert upgrade and all(snap.kinds[n] == "gradle" for n in upgrade)
    text = (
        "diff --git a/build.gradle b/build.gradle\n--- a/build.gradle\n+++ b/build.gradle\n"
        "@@ -1,4 +1,4 @@\n plugins {\n     id 'java'\n"
        "-    id 'com.github.johnrengelman.shadow' version '6.1.0'\n"
        "+    id 'com.github.johnrengelman.shadow' version '7.1.2'\n }\n"
    )
    ids = [h.id for h in find_recipes_for_diff(catalog, embedder, text, limit=5).hits]
    # The same plugin at a new version: upgrade it (or its twin ChangePluginVersion, which the rerank may put first),
    # not ChangePlugin (which swaps one plugin for another).
    bumps = {f"org.openrewrite.gradle.plugins.{name}PluginVersion" for name in ("Upgrade", "Change")}
    assert set(ids[:2]) == bumps, ids
    monkeypatch.setattr(rerank, "RERANK", False)  # the pick's own order: the recipe whose example is this edit
    ids = [h.id for h in find_recipes_for_diff(catalog, embedder, text, limit=5).hits]
    assert ids[0] == "org.openrewrite.gradle.plugins.UpgradePluginVersion", ids


def test_republished_copies_rank_below_the_canonical_recipes(pick_order, catalog, embedder) -> None:
    snap = diff_catalog.example_snapshot(catalog)
    copy = "io.quarkus.updates.core.quarkus30.JavaxPersistenceToJakartaPersistence"
    canonical = "org.openrewrite.java.migrate.jakarta.JavaxPersistenceToJakartaPersistence"
    assert copy in snap.copies and canonical not in snap.copies
    path = "src/main/java/app/Order.java"
    text = (
        f"diff --git a/{path} b/{path}\n--- a/{path}\n+++ b/{path}\n@@ -1,6 +1,6 @@\n package app;\n \n"
        "-import javax.persistence.Entity;\n-import javax.persistence.Id;\n"
        "+import jakarta.persistence.Entity;\n+import jakarta.persistence.Id;\n \n public class Order {\n"
    )
    ids = [h.id for h in find_recipes_for_diff(catalog, embedder, text, limit=10).hits]
    assert ids[0] == canonical, ids
    umbrella = "org.openrewrite.java.migrate.jakarta.JavaxMigrationToJakarta"
    assert copy not in ids[:5] and ids.index(umbrella) < (ids.index(copy) if copy in ids else 10), ids


def test_a_base_image_change_finds_the_generic_from_recipe_too(catalog, embedder, monkeypatch) -> None:
    text = (
        "diff --git a/Dockerfile b/Dockerfile\n--- a/Dockerfile\n+++ b/Dockerfile\n"
        "@@ -1,3 +1,3 @@\n-FROM openjdk:17-jdk-slim\n+FROM eclipse-temurin:21-jdk\n"
        " WORKDIR /app\n COPY app.jar app.jar\n"
    )
    both = {"org.openrewrite.java.migrate.UpgradeDockerImageVersion", "org.openrewrite.docker.ChangeFrom"}
    # The rerank may put either first (ChangeFrom makes any swap, and labelled PRs name it often), and a Java level
    # migration between them (labelled PRs that move the JDK image often move the build too): both lead.
    ids = [h.id for h in find_recipes_for_diff(catalog, embedder, text, limit=10).hits]
    assert both <= set(ids[:3]) and ids[0] in both, ids
    # The pick's own order: the image names find the recipe that knows them; the bare words find ChangeFrom.
    monkeypatch.setattr(rerank, "RERANK", False)
    ids = [h.id for h in find_recipes_for_diff(catalog, embedder, text, limit=10).hits]
    assert ids[0] == "org.openrewrite.java.migrate.UpgradeDockerImageVersion", ids
    assert "org.openrewrite.docker.ChangeFrom" in ids[:3], ids


# -- round 3: Java compatibility words, composites and their members, substitutions ---------------------
def test_a_toolchain_hunk_finds_the_java_compatibility_recipe(catalog, embedder, monkeypatch) -> None:
    from rewrite_assist.server.diffs.words import build as words_build

    text = (
        "diff --git a/build.gradle b/build.gradle\n--- a/build.gradle\n+++ b/build.gradle\n"
        "@@ -8,6 +8,7 @@ plugins {\n java {\n"
        "-    sourceCompatibility = JavaVersion.VERSION_11\n-    targetCompatibility = JavaVersion.VERSION_11\n"
        "+    toolchain {\n+        languageVersion = JavaLanguageVersion.of(17)\n+    }\n }\n \n repositories {\n"
    )
    member = "org.openrewrite.gradle.UpdateJavaCompatibility"
    # The words alone: the preset configured for 17 (UpgradeBuildToJava17) would take the first place above
    # both (tests/test_diff_search_presets_sections.py).
    monkeypatch.setattr(diff_scoring, "PRESET", 0.0)
    # ... and without the Java level concern, which offers it for the removed sourceCompatibility lines
    # (tests/test_diff_search_java_level.py)
    monkeypatch.setattr(java_level, "JAVA_LEVEL", False)
    result = find_recipes_for_diff(catalog, embedder, text, limit=5)
    ids = [h.id for h in result.hits]
    assert member in ids[:2], ids
    hit = result.hits[ids.index(member)]
    assert hit.evidence[0].described_as == "update Java compatibility to 17 in Gradle build"
    # Said only as "add toolchain", "upgrade Java version to 17", ... it ranks lower.
    monkeypatch.setattr(words_build, "JAVA_COMPATIBILITY", False)
    without = [h.id for h in find_recipes_for_diff(catalog, embedder, text, limit=5).hits]
    assert member not in without[: ids.index(member) + 1], without


def test_a_picked_composite_leaves_its_member_that_tops_a_hunk(pick_order, catalog, embedder, monkeypatch) -> None:
    # CI and build move to Java 17, JUnit 4 → 5, the wrapper and a plugin: UpgradeToJava17 is picked and
    # covers the toolchain hunk, whose best recipe, UpdateJavaCompatibility, is one of the steps it runs.
    from rewrite_assist.server.search.by_diff import pick as diff_pick
    from rewrite_assist.server.search.by_diff import twins

    composite, member = "org.openrewrite.java.migrate.UpgradeToJava17", "org.openrewrite.gradle.UpdateJavaCompatibility"
    snap = diff_catalog.example_snapshot(catalog)
    assert composite in snap.ancestors[member]  # through UpgradeBuildToJava17: more than one level up
    path = str(pr_case("user-management-service-pr2"))
    # top 12: since the Assert imports are a segment of their own, AssertToAssertions takes one of the ten, and
    # JUnit5BestPractices (the umbrella of the JUnit changes through the composites it lists) another; the pick's
    # own list (a twin placed after it, ``twins``: ChangePluginVersion after UpgradePluginVersion, takes one more)
    monkeypatch.setattr(twins, "TWINS", False)
    ids = [h.id for h in find_recipes_for_diff(catalog, embedder, path, limit=12).hits]
    assert composite in ids and member in ids, ids
    monkeypatch.setattr(diff_pick, "MEMBERS_KEEP", False)
    without = [h.id for h in find_recipes_for_diff(catalog, embedder, path, limit=12).hits]
    assert composite in without and member not in without, without


def test_substitutions_shared_with_an_example_count(catalog) -> None:
    snap = diff_catalog.example_snapshot(catalog)
    token = "~org.junit.assert.assertfalse>org.junit.jupiter.api.assertions.assertfalse"
    holders = {snap.example_recipes[i] for i in snap.pair_postings[token]}
    assert "org.openrewrite.java.testing.junit5.AssertToAssertions" in holders
    swap = Change(
        "java",
        ["import static org.junit.Assert.assertFalse;"],
        ["import static org.junit.jupiter.api.Assertions.assertFalse;"],
    )
    both_named = Change(
        "java",
        [],
        ["import static org.junit.Assert.assertFalse;", "import static org.junit.jupiter.api.Assertions.assertFalse;"],
    )
    paired = diff_scoring.pair_overlap(swap, snap)
    assert isinstance(paired, np.ndarray) and paired[snap.pair_postings[token]].min() > 0.3
    assert diff_scoring.pair_overlap(both_named, snap) == 0.0  # naming both is not turning one into the other


def test_phrase_searches_leave_the_example_terms_leg_out(monkeypatch: pytest.MonkeyPatch) -> None:
    # The diff search matches hunks against the examples itself; its phrase searches must not count that twice.
    from rewrite_assist.server.search import hybrid

    seen: list[Any] = []

    def fake_find(store: Any, embedder: Any, phrase: str, *, limit: int, tuning: Any) -> Any:
        seen.append(tuning)
        return type("R", (), {"hits": []})()

    monkeypatch.setattr(hybrid, "find_recipes", fake_find)
    pending = diff_phrases.start_searches(None, None, ["change property key a to b in application.properties"])  # type: ignore[arg-type]
    assert [f.result() for f in pending.values()] == [{}]
    assert hybrid.configured_tuning().example_terms_weight > 0  # on for one-phrase find_recipes ...
    assert [t.example_terms_weight for t in seen] == [0.0] and seen[0].query_rewrite == 0  # ... off here


def test_each_type_a_hunk_changes_finds_its_own_recipe(catalog, embedder, monkeypatch) -> None:
    # One hunk moves org.junit.Before → BeforeEach and org.junit.Assert.* → Assertions.*: two recipes' changes.
    from rewrite_assist.server.diffs.words import java as words_java

    assertions = "org.openrewrite.java.testing.junit5.AssertToAssertions"
    path = str(pr_case("user-management-service-pr2"))
    result = find_recipes_for_diff(catalog, embedder, path, limit=10)
    ids = [h.id for h in result.hits]
    assert assertions in ids and "org.openrewrite.java.testing.junit5.UpdateBeforeAfterAnnotations" in ids, ids
    evidence = result.hits[ids.index(assertions)].evidence
    assert any(e.described_as == "change type org.junit.Assert to org.junit.jupiter.api.Assertions" for e in evidence)
    monkeypatch.setattr(words_java, "SPLIT_TYPES", False)
    without = [h.id for h in find_recipes_for_diff(catalog, embedder, path, limit=10).hits]
    assert assertions not in without, without


def test_a_renamed_property_key_finds_the_key_change_recipe(pick_order, catalog, embedder, monkeypatch) -> None:
    from rewrite_assist.server.diffs.words import keys as words_keys

    path = "src/main/resources/application.properties"
    text = (
        f"diff --git a/{path} b/{path}\n--- a/{path}\n+++ b/{path}\n@@ -1,3 +1,3 @@\n server.port=8080\n"
        "-spring.datasource.initialization-mode=always\n+spring.sql.init.mode=always\n spring.jpa.show-sql=true\n"
    )
    key, value = (
        "org.openrewrite.java.spring.ChangeSpringPropertyKey",
        "org.openrewrite.java.spring.ChangeSpringPropertyValue",
    )
    ids = [h.id for h in find_recipes_for_diff(catalog, embedder, text, limit=10).hits]
    assert key in ids[:3] and value not in ids, ids
    monkeypatch.setattr(words_keys, "KEY_RENAMES", False)
    without = [h.id for h in find_recipes_for_diff(catalog, embedder, text, limit=10).hits]
    assert value in without and without.index(key) > ids.index(key), without


def test_a_description_that_finds_nothing_leaves_no_empty_group(catalog, embedder, monkeypatch) -> None:
    # The PR-level description's hits all fall below the floor: no "pr" group, no empty group at all.
    monkeypatch.setattr(diff_phrases, "WIDE_MIN", 10.0)
    result = find_recipes_for_diff(catalog, embedder, javax_to_jakarta_diff(), limit=10)
    assert result.hits and result.groups
    assert not [g for g in result.groups if g.kind == "pr"]
    assert all(g.recipes for g in result.groups)


def test_a_renamed_nested_yaml_key_finds_the_dotted_key_recipes(pick_order, catalog, embedder, monkeypatch) -> None:
    from rewrite_assist.server.diffs.words import keys as words_keys

    path = "src/main/resources/application.yml"
    text = (
        f"diff --git a/{path} b/{path}\n--- a/{path}\n+++ b/{path}\n@@ -1,6 +1,6 @@\n spring:\n   datasource:\n"
        "     url: jdbc:h2:mem:test\n-    initialization-mode: always\n+    init-mode: always\n   jpa:\n"
        "     show-sql: true\n"
    )
    # yaml.ChangePropertyKey "expects dot notation for nested YAML mappings"; the Spring key recipe knows the keys
    result = find_recipes_for_diff(catalog, embedder, text, limit=10)
    ids = [h.id for h in result.hits]
    assert ids[0] == "org.openrewrite.yaml.ChangePropertyKey", ids
    assert "org.openrewrite.java.spring.ChangeSpringPropertyKey" in ids
    assert result.hits[0].evidence[0].described_as == (
        "change YAML key spring.datasource.initialization-mode to spring.datasource.init-mode in YAML file"
    )
    monkeypatch.setattr(words_keys, "YAML_PATHS", False)
    # (the Spring property recipes a Spring project's config file is offered as generic edits aside)
    monkeypatch.setattr(diff_search, "spring_project", lambda diff: False)
    without = [h.id for h in find_recipes_for_diff(catalog, embedder, text, limit=10).hits]
    assert (
        without[0] != "org.openrewrite.yaml.ChangePropertyKey"
        and "org.openrewrite.java.spring.ChangeSpringPropertyKey" not in without
    )
