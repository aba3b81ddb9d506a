"""The deterministic pieces check-run relies on: the decision rule, recipe counting, intent heuristics."""

from __future__ import annotations

import pytest

from rewrite_assist.agents.decision import OptionOutcome, RecipeShape, decide, recipe_shape
from rewrite_assist.agents.intents import DiffIndex, assess, parse_atomic_intents


def outcome(
    n: int,
    f1: float | None,
    precision: float | None = 0.5,
    entries: int = 3,
    text: int = 0,
    status: str | None = "ok",
    build: str | None = "passed",
) -> OptionOutcome:
    shape = RecipeShape(entries=entries, text_entries=text, recipe_ids=())
    return OptionOutcome(n, status, build, f1, precision, shape)


def test_rule_orders_by_f1_then_precision_then_entries_then_text_then_number() -> None:
    options = [
        outcome(1, 0.8, 0.9),
        outcome(2, 0.9, 0.5),
        outcome(3, 0.9, 0.7, entries=5),
        outcome(4, 0.9, 0.7, entries=4, text=2),
        outcome(5, 0.9, 0.7, entries=4, text=1),
        outcome(6, 0.9, 0.7, entries=4, text=1),
    ]
    decision = decide(options)
    assert decision.ranking == (5, 6, 4, 3, 2, 1)
    assert decision.winner == 5
    assert decision.reasons == (
        "option-5 before option-6: full tie, lower option number",
        "option-6 before option-4: fewer text-replacement entries (1 vs 2)",
        "option-4 before option-3: fewer recipe entries (4 vs 5)",
        "option-3 before option-2: higher precision (0.7 vs 0.5)",
        "option-2 before option-1: higher F1 (0.9 vs 0.8)",
    )


@pytest.mark.parametrize(
    ("option", "reason"),
    [
        (outcome(1, 1.0, status="build_failed"), "status build_failed"),
        (outcome(1, 1.0, status="timeout"), "status timeout"),
        (outcome(1, 1.0, build="failed"), "build check failed"),
        (outcome(1, None, status="ok"), "no metrics"),
    ],
)
def test_options_that_did_not_run_or_broke_the_build_are_out(option: OptionOutcome, reason: str) -> None:
    assert not option.eligible
    assert option.ineligible_reason() == reason
    assert decide([option, outcome(2, 0.1)]).winner == 2
    assert decide([option]).winner is None


def test_no_changes_and_unchecked_builds_stay_eligible() -> None:
    assert outcome(1, 0.0, status="no_changes").eligible
    assert outcome(1, 0.4, build="not run").eligible
    assert outcome(1, 0.4, status=None, build=None).eligible  # no analysis, but real metrics


def test_recipe_shape_counts_root_entries_and_expands_local_recipes() -> None:
    text = """
type: specs.openrewrite.org/v1beta/recipe
name: com.example.Main
recipeList:
  - org.openrewrite.gradle.UpdateGradleWrapper:
      version: "8.5"
  - com.example.Docs
---
type: specs.openrewrite.org/v1beta/recipe
name: com.example.Docs
recipeList:
  - org.openrewrite.text.FindAndReplace:
      find: Java 17
      replace: Java 21
  - org.openrewrite.text.FindAndReplace:
      find: JDK 17
      replace: JDK 21
"""
    shape = recipe_shape(text)
    assert shape.recipe_ids == (
        "org.openrewrite.gradle.UpdateGradleWrapper",
        "org.openrewrite.text.FindAndReplace",
        "org.openrewrite.text.FindAndReplace",
    )
    assert (shape.entries, shape.text_entries) == (3, 2)


@pytest.mark.parametrize("text", ["recipeList: [", "just: a mapping\n"])
def test_recipe_shape_rejects_what_is_not_a_recipe(text: str) -> None:
    with pytest.raises(ValueError):
        recipe_shape(text)


PR = """diff --git a/src/main/resources/app.yml b/src/main/resources/app.yml
index 1..2 100644
--- a/src/main/resources/app.yml
+++ b/src/main/resources/app.yml
@@ -1,3 +1,3 @@
 server:
-  port: 8080
+  port: 9090
 name: demo
diff --git a/src/test/java/a/FooTest.java b/src/test/java/a/FooTest.java
index 1..2 100644
--- a/src/test/java/a/FooTest.java
+++ b/src/test/java/a/FooTest.java
@@ -1,2 +1,2 @@
-import org.junit.Test;
+import org.junit.jupiter.api.Test;
 class FooTest {}
"""


def test_intents_outside_code_fences_with_file_and_tokens() -> None:
    tree = """# Intent tree
## YAML: move the port
- `src/main/resources/app.yml`: `server.port` `8080` → `9090`
```markdown
- `ignored.txt`: inside a fence
```
## Java: JUnit 5
- `src/test/**/*.java`: replace import org.junit.Test with org.junit.jupiter.api.Test
* Tidy up
"""
    intents = parse_atomic_intents(tree)
    assert [i.file for i in intents] == ["src/main/resources/app.yml", "src/test/**/*.java", None]
    assert intents[0].tokens == ("server.port", "8080", "9090")
    assert intents[2].tokens == ()


def test_coverage_checks_only_tokens_the_pr_touches() -> None:
    tree = """- `src/main/resources/app.yml`: `server.port` `8080` → `9090`
- `src/test/**/*.java`: `org.junit.Test` → `org.junit.jupiter.api.Test`
- `README.md`: mention the port
"""
    pr = DiffIndex.parse(PR)
    only_yaml = DiffIndex.parse(PR.split("diff --git a/src/test")[0])
    coverage = assess(parse_atomic_intents(tree), pr, only_yaml)
    first, second, third = coverage.verdicts
    # `server.port` is written as nested YAML in the diff: not checkable, not a miss
    assert first.checkable == ("src/main/resources/app.yml", "8080", "9090") and first.satisfied
    assert second.checkable == ("src/test/**/*.java", "org.junit.Test", "org.junit.jupiter.api.Test")
    assert second.missing == second.checkable
    assert not third.verifiable and third.file_outside_pr
    assert not first.file_outside_pr and not second.file_outside_pr
    assert coverage.summary() == "2 of 3 intents verifiable, 1 of 2 satisfied"


def test_leading_double_star_glob_matches_top_level_files() -> None:
    index = DiffIndex.parse(PR.replace("src/main/resources/app.yml", "app.yml"))
    assert index.files_matching("**/app.yml") == ["app.yml"]
    assert index.files_matching("**/*.java") == ["src/test/java/a/FooTest.java"]
    assert index.files_matching("resources/app.yml") == []


def test_touches_compares_without_quotes_and_extra_spaces() -> None:
    index = DiffIndex.parse(PR.replace("  port: 9090", "  port:   '9090'"))
    assert index.touches("port: 9090", index.files_matching("app.yml"))
    assert not index.touches("port: 9090", index.files_matching("src/test/**/*.java"))
