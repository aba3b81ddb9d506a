"""Pre-flight lint of recipe YAML: structure, recipe names, options, which recipe runs."""

from __future__ import annotations

from typing import Any

import pytest
from fixtures.validation_support import InMemoryLookup

from rewrite_assist.server.validation.lint import lint_recipe
from rewrite_assist.server.validation.models import LintReport

GOOD = """---
type: specs.openrewrite.org/v1beta/recipe
name: com.example.Upgrade
displayName: Upgrade CI to Java 21
recipeList:
  - org.openrewrite.github.SetupJavaUpgradeJavaVersion:
      minimumJavaMajorVersion: 21
  - org.openrewrite.text.FindAndReplace:
      find: "FROM eclipse-temurin:17"
      replace: "FROM eclipse-temurin:21"
      filePattern: "**/Dockerfile"
  - com.example.Docs
---
type: specs.openrewrite.org/v1beta/recipe
name: com.example.Docs
displayName: Docs
recipeList:
  - org.openrewrite.text.FindAndReplace:
      find: Java 17
      replace: Java 21
"""


@pytest.fixture
def lookup() -> InMemoryLookup:
    return InMemoryLookup()


def messages(report: LintReport) -> list[str]:
    return [f"{i.path}: {i.message}" for i in report.errors]


def test_good_recipe_passes_and_picks_the_root(lookup: InMemoryLookup) -> None:
    report = lint_recipe(GOOD, lookup)
    assert report.ok, messages(report)
    assert report.recipe_name == "com.example.Upgrade"
    assert report.declared_recipes == ["com.example.Upgrade", "com.example.Docs"]
    assert report.catalog_recipes == [
        "org.openrewrite.github.SetupJavaUpgradeJavaVersion",
        "org.openrewrite.text.FindAndReplace",
    ]
    # two recipes, one root: it runs, with a warning saying so
    assert any("only one no other recipe uses" in w.message for w in report.warnings)


def test_invalid_yaml_reports_the_line(lookup: InMemoryLookup) -> None:
    report = lint_recipe("type: specs.openrewrite.org/v1beta/recipe\nname: x\nrecipeList:\n  - a: [1, 2\n", lookup)
    assert not report.ok
    assert report.errors[0].path == "$"
    assert "invalid YAML" in report.errors[0].message
    assert report.errors[0].line is not None and report.errors[0].line >= 4


def test_missing_type_and_name(lookup: InMemoryLookup) -> None:
    text = "name: com.example.A\nrecipeList:\n  - org.openrewrite.text.FindAndReplace:\n      find: x\n"
    text += "---\ntype: specs.openrewrite.org/v1beta/recipe\ndisplayName: no name\n"
    report = lint_recipe(text, lookup)
    paths = {e.path for e in report.errors}
    assert "doc[0].type" in paths
    assert "doc[1].name" in paths
    assert any("missing 'type: specs.openrewrite.org/v1beta/recipe'" in m for m in messages(report))


def test_unknown_recipe_comes_with_closest_ids(lookup: InMemoryLookup) -> None:
    text = """type: specs.openrewrite.org/v1beta/recipe
name: com.example.A
recipeList:
  - org.openrewrite.java.migrate.UpgradeEclipseTemurinToVersion21
  - org.openrewrite.github.SetupJavaUpgradeJavaVersions
"""
    report = lint_recipe(text, lookup)
    assert not report.ok
    by_path = {e.path: e for e in report.errors}
    typo = by_path["doc[0].recipeList[1]"]
    assert "unknown recipe" in typo.message
    assert typo.line == 5
    assert typo.suggestions[0] == "org.openrewrite.github.SetupJavaUpgradeJavaVersion"
    assert "doc[0].recipeList[0]" in by_path


def test_unknown_option_and_missing_required(lookup: InMemoryLookup) -> None:
    text = """type: specs.openrewrite.org/v1beta/recipe
name: com.example.A
recipeList:
  - org.openrewrite.java.ChangeMethodName:
      methodPatern: "com.example.A foo()"
  - org.openrewrite.text.FindAndReplace:
      find: a
      regexp: true
"""
    report = lint_recipe(text, lookup)
    errors = {e.path: e for e in report.errors}
    typo = errors["doc[0].recipeList[0].org.openrewrite.java.ChangeMethodName.methodPatern"]
    assert "unknown option 'methodPatern'" in typo.message
    assert typo.suggestions[0] == "methodPattern"
    assert typo.line == 5
    missing = errors["doc[0].recipeList[0].org.openrewrite.java.ChangeMethodName"]
    assert "methodPattern, newMethodName" in missing.message
    assert errors["doc[0].recipeList[1].org.openrewrite.text.FindAndReplace.regexp"].suggestions[0] == "regex"


def test_required_option_without_value_and_bare_recipe_with_required_options(lookup: InMemoryLookup) -> None:
    text = """type: specs.openrewrite.org/v1beta/recipe
name: com.example.A
recipeList:
  - org.openrewrite.text.FindAndReplace:
      find:
  - org.openrewrite.java.ChangeMethodName
"""
    report = lint_recipe(text, lookup)
    msgs = messages(report)
    assert any("required option 'find'" in m and "has no value" in m for m in msgs)
    assert "doc[0].recipeList[1]: org.openrewrite.java.ChangeMethodName is missing required option(s): " in "\n".join(
        msgs
    )


def test_misindented_options_are_explained(lookup: InMemoryLookup) -> None:
    text = """type: specs.openrewrite.org/v1beta/recipe
name: com.example.A
recipeList:
  - org.openrewrite.text.FindAndReplace:
    find: a
    replace: b
"""
    report = lint_recipe(text, lookup)
    assert not report.ok
    err = report.errors[0]
    assert err.path == "doc[0].recipeList[0]"
    assert "3 keys" in err.message and "indented" in err.message


def test_option_type_and_valid_values_warnings(lookup: InMemoryLookup) -> None:
    text = """type: specs.openrewrite.org/v1beta/recipe
name: com.example.A
recipeList:
  - org.openrewrite.github.SetupJavaUpgradeJavaVersion:
      minimumJavaMajorVersion: twenty-one
  - org.openrewrite.text.FindAndReplace:
      find: a
      regex: maybe
"""
    report = lint_recipe(text, lookup)
    assert report.ok  # type doubts are warnings: OpenRewrite may still coerce
    warned = {w.path: w.message for w in report.warnings}
    assert (
        "expects a whole number"
        in warned["doc[0].recipeList[0].org.openrewrite.github.SetupJavaUpgradeJavaVersion.minimumJavaMajorVersion"]
    )
    assert "expects true or false" in warned["doc[0].recipeList[1].org.openrewrite.text.FindAndReplace.regex"]


def test_preconditions_are_checked(lookup: InMemoryLookup) -> None:
    text = """type: specs.openrewrite.org/v1beta/recipe
name: com.example.A
preconditions:
  - org.openrewrite.java.search.HasJavaVersions
recipeList:
  - org.openrewrite.github.SetupJavaAdoptOpenJDKToTemurin
"""
    report = lint_recipe(text, lookup)
    assert [e.path for e in report.errors] == ["doc[0].preconditions[0]"]
    assert "org.openrewrite.java.search.HasJavaVersion" in report.errors[0].suggestions


def test_options_on_a_file_recipe_and_cycles(lookup: InMemoryLookup) -> None:
    text = """type: specs.openrewrite.org/v1beta/recipe
name: com.example.A
recipeList:
  - com.example.B:
      foo: 1
---
type: specs.openrewrite.org/v1beta/recipe
name: com.example.B
recipeList:
  - com.example.A
"""
    report = lint_recipe(text, lookup, recipe_name="com.example.A")
    msgs = "\n".join(messages(report))
    assert "takes no options" in msgs
    assert "cycle: com.example.A -> com.example.B -> com.example.A" in msgs


@pytest.mark.parametrize(
    ("recipe_name", "expected"),
    [
        ("com.example.Docs", None),
        ("com.example.Nope", "is not declared in the file or in the catalog"),
        ("org.openrewrite.java.ChangeMethodName", "has required options (methodPattern, newMethodName)"),
        ("org.openrewrite.github.SetupJavaAdoptOpenJDKToTemurin", None),
    ],
)
def test_recipe_name_selection(lookup: InMemoryLookup, recipe_name: str, expected: str | None) -> None:
    report = lint_recipe(GOOD, lookup, recipe_name=recipe_name)
    if expected is None:
        assert report.ok, messages(report)
        assert report.recipe_name == recipe_name
    else:
        assert not report.ok
        assert any(expected in m for m in messages(report))


def test_several_roots_need_a_name(lookup: InMemoryLookup) -> None:
    text = GOOD.replace("  - com.example.Docs\n", "")
    report = lint_recipe(text, lookup)
    assert not report.ok
    assert report.recipe_name is None
    assert report.errors[-1].suggestions == ["com.example.Upgrade", "com.example.Docs"]


def test_without_catalog_only_structure_is_checked() -> None:
    report = lint_recipe(GOOD.replace("SetupJavaUpgradeJavaVersion", "DoesNotExist"), None)
    assert report.ok
    assert not report.catalog_checked
    assert any("catalog is not available" in w.message for w in report.warnings)


def test_empty_and_non_recipe_documents(lookup: InMemoryLookup) -> None:
    assert "no YAML documents" in lint_recipe("", lookup).errors[0].message
    style_only = "type: specs.openrewrite.org/v1beta/style\nname: com.example.Style\n"
    report = lint_recipe(style_only, lookup)
    assert "declares no recipe" in report.errors[0].message


def test_redeclaring_a_catalog_recipe_warns(lookup: InMemoryLookup) -> None:
    text = """type: specs.openrewrite.org/v1beta/recipe
name: org.openrewrite.github.SetupJavaAdoptOpenJDKToTemurin
recipeList:
  - org.openrewrite.text.FindAndReplace:
      find: a
"""
    report = lint_recipe(text, lookup)
    assert report.ok
    assert any("replaces it" in w.message for w in report.warnings)


def test_real_catalog(catalog: Any) -> None:
    """Against the full ingested snapshot: real ids pass, required options are enforced, typos are named."""
    text = """type: specs.openrewrite.org/v1beta/recipe
name: com.example.Real
recipeList:
  - org.openrewrite.github.SetupJavaAdoptOpenJDKToTemurin
  - org.openrewrite.java.ChangeMethodName:
      methodPattern: "com.example.A foo()"
  - org.openrewrite.github.SetupJavaAdoptOpenJdkToTemurin
"""
    report = lint_recipe(text, catalog)
    assert report.catalog_checked
    by_path = {e.path: e for e in report.errors}
    assert set(by_path) == {
        "doc[0].recipeList[1].org.openrewrite.java.ChangeMethodName",
        "doc[0].recipeList[2]",
    }
    assert "newMethodName" in by_path["doc[0].recipeList[1].org.openrewrite.java.ChangeMethodName"].message
    assert "org.openrewrite.github.SetupJavaAdoptOpenJDKToTemurin" in by_path["doc[0].recipeList[2]"].suggestions
    fixed = text.replace('foo()"\n', 'foo()"\n      newMethodName: bar\n').replace(
        "  - org.openrewrite.github.SetupJavaAdoptOpenJdkToTemurin\n", ""
    )
    assert lint_recipe(fixed, catalog).ok
