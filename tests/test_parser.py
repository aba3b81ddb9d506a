"""The recipe-page parser, on real pages of every kind from the shared docs snapshot, and on edge cases.

The snapshot is read and parsed once per session; tests look recipes up by their page path.
"""

from __future__ import annotations

from collections import Counter

import pytest
from conftest import docs_snapshot

from rewrite_assist.ingestion import mdx
from rewrite_assist.ingestion.modules import parse_modules_table
from rewrite_assist.ingestion.options import parse_options, valid_values
from rewrite_assist.ingestion.parser import (
    PageParseError,
    ParseResult,
    page_ids,
    parse_page,
    parse_source,
    resolve_used_by,
)
from rewrite_assist.ingestion.recipe_list import parse_recipe_list_yaml
from rewrite_assist.ingestion.source import DocsSource, Page, open_source
from rewrite_assist.server.catalog.models import Recipe

SNAPSHOT = docs_snapshot()


@pytest.fixture(scope="session")
def snapshot() -> DocsSource:
    if not SNAPSHOT.is_file():
        pytest.skip(f"shared docs snapshot not found at {SNAPSHOT}")
    return open_source(SNAPSHOT)


@pytest.fixture(scope="session")
def parsed(snapshot: DocsSource) -> ParseResult:
    return parse_source(snapshot)


@pytest.fixture(scope="session")
def by_path(parsed: ParseResult) -> dict[str, Recipe]:
    return {recipe.doc_path: recipe for recipe in parsed.recipes}


@pytest.fixture(scope="session")
def page_text(snapshot: DocsSource) -> dict[str, str]:
    return dict(snapshot.pages)


def recipe_at(by_path: dict[str, Recipe], slug: str) -> Recipe:
    return by_path[f"docs/recipes/{slug}.md"]


def recipe_at_path(parsed: ParseResult, path: str) -> Recipe:
    return next(r for r in parsed.recipes if r.doc_path == path)


# --- whole snapshot -----------------------------------------------------------------------------------


def test_snapshot_counts(parsed: ParseResult) -> None:
    recipes = parsed.recipes
    assert parsed.skipped == []
    assert len(recipes) == 4118
    assert len({r.id for r in recipes}) == 4118
    assert sum(r.is_composite for r in recipes) == 1402
    assert sum(bool(r.options) for r in recipes) == 519
    assert sum(len(r.options) for r in recipes) == 1463
    assert sum(bool(r.tags) for r in recipes) == 884
    assert Counter(r.license for r in recipes) == {"apache": 2240, "moderne": 1878}


def test_snapshot_modules_and_versions(parsed: ParseResult) -> None:
    recipes = parsed.recipes
    maven = {(r.group_id, r.artifact_id) for r in recipes if r.artifact_id}
    npm = {r.npm_package for r in recipes if r.npm_package}
    # "44 artifacts" = 43 Maven artifacts + the npm package of the 12 JavaScript recipes.
    assert len(maven) == 43
    assert npm == {"@openrewrite/rewrite"}
    assert sum(1 for r in recipes if r.npm_package) == 12
    assert len(parsed.modules) == 52
    assert parsed.modules_missing_from_table == []
    assert all(r.version for r in recipes if r.artifact_id)
    assert all(r.version is None for r in recipes if r.npm_package)


def test_snapshot_description_styles(parsed: ParseResult, page_text: dict[str, str]) -> None:
    empty = [r for r in parsed.recipes if not r.description]
    assert len(empty) == 91
    assert all(r.is_composite for r in empty)
    assert all(not r.description.startswith(("_", "```")) for r in parsed.recipes)
    assert all(r.display_name and "&quot;" not in r.display_name for r in parsed.recipes)


def test_snapshot_used_by_resolves_to_ids_of_composites(parsed: ParseResult) -> None:
    ids = {r.id: r for r in parsed.recipes}
    with_used_by = [r for r in parsed.recipes if r.used_by]
    # 3,564 pages have a "Used by" section; 42 of them list only Moderne-only recipes (no page here).
    assert len(with_used_by) == 3522
    assert parsed.unresolved_used_by == 0
    for recipe in with_used_by:
        for parent in recipe.used_by:
            assert parent in ids
            assert recipe.id in {ref.recipe_id for ref in ids[parent].recipe_list + ids[parent].preconditions}


def test_snapshot_examples_and_preconditions(parsed: ParseResult) -> None:
    # 1,161 "## Example" + 323 "## Examples" sections; one (PersistenceXmlLocationRule) shows only the
    # ```project marker naming the test project, which is not a file example.
    assert sum(bool(r.examples) for r in parsed.recipes) == 1161 + 323 - 1
    assert recipe_at_path(parsed, "docs/recipes/xml/liberty/persistencexmllocationrule.md").examples == []
    assert sum(bool(r.preconditions) for r in parsed.recipes) == 717
    assert all(e.language not in {"mavenProject", "project"} for r in parsed.recipes for e in r.examples)


def test_snapshot_markdown_has_no_boilerplate(parsed: ParseResult) -> None:
    for recipe in parsed.recipes:
        outside_code = mdx.text_lines(mdx.tokenize(recipe.markdown))
        assert recipe.markdown.startswith(f"# {recipe.display_name}\n")
        assert not any(mdx.is_component_line(line) for line in outside_code), recipe.doc_path
        assert "org.openrewrite.table.SourcesFileResults" not in recipe.markdown
        assert "## Usage\n" not in recipe.markdown
        assert "community edition of the Moderne platform" not in recipe.markdown


# --- single pages of each kind ------------------------------------------------------------------------


def test_simple_recipe_with_options_and_example(by_path: dict[str, Recipe]) -> None:
    r = recipe_at(by_path, "json/deletekey")
    assert r.id == "org.openrewrite.json.DeleteKey"
    assert r.display_name == "Delete key"
    assert r.description == "Delete a JSON mapping entry key."
    assert (r.group_id, r.artifact_id, r.version) == ("org.openrewrite", "rewrite-json", "8.90.3")
    assert r.license == "apache"
    assert r.source_url == (
        "https://github.com/openrewrite/rewrite/blob/main/rewrite-json/src/main/java/org/openrewrite/json/DeleteKey.java"
    )
    assert r.doc_url == "https://docs.openrewrite.org/recipes/json/deletekey"
    assert r.category == ["json"]
    assert [(o.name, o.type, o.required) for o in r.options] == [
        ("keyPath", "String", True),
        ("deleteEmptyParents", "Boolean", False),
    ]
    assert r.options[0].example == "$.subjects.kind"
    assert r.options[1].example is None
    assert r.options[1].description.startswith("Delete objects and arrays")
    [example] = r.examples
    assert example.language == "json"
    assert example.before is not None and '"name": "monitoring-tools"' in example.before
    assert example.after is not None and '"name"' not in example.after
    assert example.diff is not None and example.diff.startswith("@@ -4,1 +4,0 @@")


def test_escaped_id_and_tags(by_path: dict[str, Recipe]) -> None:
    r = recipe_at(by_path, "netty/upgradenetty_3_2_to_4_1")
    assert r.id == "org.openrewrite.netty.UpgradeNetty_3_2_to_4_1"
    assert r.tags == ["netty"]
    assert r.description == "Migrate applications to the latest Netty 4.1.x release."
    assert recipe_at(by_path, "staticanalysis/useportablenewlines").tags == ["RSPEC-S3457"]


def test_html_entities_in_display_name(by_path: dict[str, Recipe]) -> None:
    r = recipe_at(by_path, "staticanalysis/prefersystemgetpropertyovergetenv")
    assert r.display_name == 'Prefer `System.getProperty("user.home")` over `System.getenv("HOME")`'


def test_fenced_description(by_path: dict[str, Recipe]) -> None:
    r = recipe_at(by_path, "staticanalysis/replacestackwithdeque")
    assert r.description.startswith("From the Javadoc of `Stack`:\n> A more complete")
    assert "```" not in r.description
    assert r.tags == ["RSPEC-S1149"]


def test_raw_multiline_description_stops_at_tags(by_path: dict[str, Recipe]) -> None:
    r = recipe_at(by_path, "staticanalysis/unnecessarythrows")
    assert r.description.startswith("Remove unnecessary `throws` declarations.")
    assert "\n - The method declaration is `static` or `private`." in r.description
    assert r.description.endswith("obscures the method's true behavior.")
    assert r.tags == ["RSPEC-S1130"]


def test_description_with_its_own_headings_and_yaml(by_path: dict[str, Recipe]) -> None:
    """Singleton's description has ## headings and a recipe YAML; none of it makes it a composite."""
    r = recipe_at(by_path, "core/singleton")
    assert r.description.startswith("Used as a precondition to ensure")
    assert "## Usage in YAML recipes" in r.description
    assert r.description.endswith("based on all fields.")
    assert r.recipe_list == [] and r.preconditions == []
    assert r.source_url is not None and r.source_url.endswith("/Singleton.java")


def test_empty_description_composite(by_path: dict[str, Recipe]) -> None:
    r = recipe_at(by_path, "quarkus/updates/minio/minio38/updateall")
    assert r.description == ""
    assert r.is_composite
    assert r.used_by == ["org.openrewrite.quarkus.MigrateToQuarkus_v3_8_0"]


def test_composite_with_preconditions(by_path: dict[str, Recipe]) -> None:
    r = recipe_at(by_path, "staticanalysis/commonstaticanalysis")
    assert [p.recipe_id for p in r.preconditions] == ["org.openrewrite.Singleton"]
    assert len(r.recipe_list) == 73
    assert r.recipe_list[0].recipe_id == "org.openrewrite.staticanalysis.AbstractClassPublicConstructor"
    assert r.recipe_list[-1].recipe_id == "org.openrewrite.java.OrderImports"
    assert r.license == "moderne"
    assert "```yaml\n---\ntype: specs.openrewrite.org/v1beta/recipe" in r.markdown
    assert "import java.util.List;" in r.markdown  # an import line inside an example's code is content


def test_invalid_yaml_recipe_list_with_aliases_and_annotations(by_path: dict[str, Recipe]) -> None:
    r = recipe_at(by_path, "netty/upgradenetty_3_2_to_4_1")
    first = r.recipe_list[0]
    assert first.recipe_id == "org.openrewrite.java.ChangeMethodName"
    assert first.options == {
        "methodPattern": "*..* channelOpen(org.jboss.netty.channel.ChannelHandlerContext, "
        "org.jboss.netty.channel.ChannelStateEvent)",
        "newMethodName": "channelActive",
    }
    parameter = next(ref for ref in r.recipe_list if ref.recipe_id.endswith("ChangeMethodParameter"))
    assert parameter.options["parameterIndex"] == 1
    annotation = next(ref for ref in r.recipe_list if ref.recipe_id.endswith("ReplaceAnnotation"))
    assert annotation.options["annotationTemplateToInsert"] == "@io.netty.channel.ChannelHandler.Sharable"


def test_recipe_list_multiline_and_block_list_values(by_path: dict[str, Recipe]) -> None:
    license_header = recipe_at(by_path, "java/addapache2licenseheader").recipe_list[0]
    text = license_header.options["licenseText"]
    assert text.startswith("Copyright 2023 the original author or authors.\n<p>\nLicensed under")
    assert text.endswith("limitations under the License.")
    jdbc = recipe_at(by_path, "java/migrate/jrejdbcinterfacenewmethods").recipe_list[0]
    assert jdbc.options["methodTemplateString"].endswith("\n\t// TODO Auto-generated method stub\n }")
    reorder = next(
        ref
        for ref in recipe_at(by_path, "java/jackson/upgradejackson_2_3").recipe_list
        if ref.recipe_id == "org.openrewrite.java.ReorderMethodArguments"
    )
    assert reorder.options["newParameterNames"] == ["gen", "msg"]
    assert reorder.options["oldParameterNames"] == ["msg", "gen"]


def test_recipe_list_keeps_java_list_text_that_is_not_yaml(by_path: dict[str, Recipe]) -> None:
    find = recipe_at(by_path, "java/search/findsecrets").recipe_list[0]
    patterns = find.options["patterns"]
    assert isinstance(patterns, str)
    assert patterns.startswith("[(xox[pboa]-") and patterns.endswith("]")


def test_example_cell_with_unescaped_pipe(by_path: dict[str, Recipe]) -> None:
    [option] = recipe_at(by_path, "gradle/removeredundantsecurityresolutionrules").options
    assert option.name == "securityPattern"
    assert option.example == "(CVE-\\d|GHSA-[a-z0-9])"
    assert not option.required
    assert "GitHub Security Advisory identifiers" in option.description
    camel = recipe_at(by_path, "apache/camel/upgrade/customrecipes/changecomponenturirecipe")
    pattern = next(o for o in camel.options if o.name == "uriPattern")
    assert pattern.example == "^pulsar:((persistent|non-persistent)://([^/]+)/([^/]+)/([^/]+)/(.+))$"


def test_pre_and_br_in_option_cells(by_path: dict[str, Recipe]) -> None:
    contents = next(o for o in recipe_at(by_path, "xml/createxmlfile").options if o.name == "fileContents")
    assert contents.example == '<?xml version="1.0" encoding="UTF-8"?>\n<root>\n    <child>1</child></root>'
    strategy = next(o for o in recipe_at(by_path, "text/appendtotextfile").options if o.name == "existingFileStrategy")
    assert "\n- `Replace`: remove existing content from file." in strategy.description
    assert "<br" not in strategy.description


def test_valid_values(by_path: dict[str, Recipe]) -> None:
    wrap = recipe_at(by_path, "staticanalysis/operatorwrap").options[0]
    assert wrap.valid_values == ["EOL", "NL"]
    separator = next(o for o in recipe_at(by_path, "maven/addruntimeconfig").options if o.name == "separator")
    assert separator.valid_values == ["", " ", "="]
    regex_options = next(o for o in recipe_at(by_path, "text/findmultiselect").options if o.name == "regexOptions")
    assert regex_options.valid_values == ["Case-sensitive", "Multiline", "Dot all"]
    assert recipe_at(by_path, "json/deletekey").options[0].valid_values == []


def test_npm_recipe(by_path: dict[str, Recipe]) -> None:
    r = recipe_at(by_path, "javascript/dependencies/find-dependency")
    assert r.id == "org.openrewrite.javascript.dependencies.find-dependency"
    assert r.npm_package == "@openrewrite/rewrite"
    assert r.group_id is None and r.artifact_id is None and r.version is None
    assert r.module == "@openrewrite/rewrite"
    assert [o.name for o in r.options] == ["packageName", "version", "onlyDirect"]
    assert r.license == "moderne"


def test_used_by_leaves_out_moderne_only_recipes(by_path: dict[str, Recipe], page_text: dict[str, str]) -> None:
    path = "docs/recipes/core/findsourcefiles.md"
    assert "(https://docs.moderne.io/" in page_text[path].split("## Used by", 1)[1]
    assert by_path[path].used_by == []
    deque = recipe_at(by_path, "staticanalysis/replacestackwithdeque")
    assert deque.used_by == [
        "org.openrewrite.java.migrate.JavaBestPractices",
        "org.openrewrite.staticanalysis.ModernizeCollections",
        "org.openrewrite.recipes.rewrite.OpenRewriteRecipeBestPractices",
    ]


def test_examples_unchanged_and_new_files(by_path: dict[str, Recipe]) -> None:
    changed, unchanged = recipe_at(by_path, "staticanalysis/removemethodsonlycallsuper").examples
    assert changed.after == "class Child extends Parent {\n}"
    assert changed.diff is not None and "-       super.foo();" in changed.diff
    assert unchanged.before == unchanged.after and unchanged.before is not None
    assert unchanged.before.startswith("class Parent {")
    assert unchanged.diff is None
    created = recipe_at(by_path, "java/recipes/generatedeprecatedmethodrecipes").examples[-1]
    assert created.file == "src/main/resources/META-INF/rewrite/inline-deprecated-methods.yml"
    assert created.before is None
    assert created.after is not None and created.after.startswith("type: specs.openrewrite.org/v1beta/recipe")


def test_example_file_names_from_titles_and_tabs(by_path: dict[str, Recipe]) -> None:
    poms = [e for e in recipe_at(by_path, "apache/poi/upgradeapachepoi_5").examples if e.file == "pom.xml"]
    assert poms and all(e.language == "xml" and e.before and e.after for e in poms)
    jenkins = recipe_at(by_path, "jenkins/createjenkinsfile").examples
    assert any(e.file == "Jenkinsfile" for e in jenkins)


def test_comment_lines_in_code_are_not_headings(by_path: dict[str, Recipe]) -> None:
    r = recipe_at(by_path, "java/spring/commentoutspringpropertykey")
    [example] = r.examples  # the mavenProject marker block is not an example
    assert example.after == "# This property has been removed.\n# server.port: 8080"
    assert "# This property has been removed." in r.markdown
    assert r.used_by  # the "Used by" section after the example was still found


def test_custom_data_tables_are_kept(by_path: dict[str, Recipe]) -> None:
    markdown = recipe_at(by_path, "netty/upgradenetty_3_2_to_4_1").markdown
    assert "## Data Tables\n\n### Maven metadata failures\n**org.openrewrite.maven.table.MavenMetadataFailures**" in (
        markdown
    )
    assert "## Data Tables" not in recipe_at(by_path, "json/deletekey").markdown


def test_nested_category(by_path: dict[str, Recipe]) -> None:
    r = recipe_at(by_path, "java/spring/boot3/enablevirtualthreads")
    assert r.category == ["java", "spring", "boot3"]
    assert r.doc_url == "https://docs.openrewrite.org/recipes/java/spring/boot3/enablevirtualthreads"


# --- synthetic edge cases -----------------------------------------------------------------------------

MINIMAL_PAGE = """---
title: "Use &lt;T&gt; things"
sidebar_label: "Use &lt;T&gt; things"
---

import RunRecipe from '@site/src/components/RunRecipe';

# Use &lt;T&gt; things

**com.example.Use\\_Things**

_Does things._

## Recipe source

[GitHub: UseThings.java](https://github.com/example/UseThings.java),
[Issue Tracker](https://github.com/example/issues)

This recipe is available under the [Apache License Version 2.0](https://www.apache.org/licenses/LICENSE-2.0).

## Options

| Type | Name | Description | Example |
| --- | --- | --- | --- |
| `String` | pattern | A regex like `a\\|b`. Valid options: `x`, `y` | `a|b` |

## Usage

<RunRecipe
  recipeName="com.example.Use_Things"
  displayName="Use &lt;T&gt; things"
  groupId="com.example"
  artifactId="things"
/>
"""


def test_synthetic_page_escaped_pipe_in_description() -> None:
    r = parse_page("docs/recipes/example/usethings.md", MINIMAL_PAGE)
    assert r.id == "com.example.Use_Things"
    assert r.display_name == "Use <T> things"
    [option] = r.options
    assert option.description == "A regex like `a|b`. Valid options: `x`, `y`"
    assert option.example == "a|b"
    assert option.required
    assert option.valid_values == ["x", "y"]
    assert r.markdown.startswith("# Use <T> things\n\n**com.example.Use\\_Things**\n\n_Does things._\n")
    assert "import RunRecipe" not in r.markdown


def test_bold_id_is_used_without_run_recipe() -> None:
    page = MINIMAL_PAGE.split("## Usage")[0]
    assert parse_page("docs/recipes/example/usethings.md", page).id == "com.example.Use_Things"


def test_page_without_id_is_rejected_with_a_reason() -> None:
    with pytest.raises(PageParseError) as caught:
        parse_page("docs/recipes/x.md", '---\ntitle: "X"\n---\n\n# X\n\nJust prose.\n')
    assert "no recipe id" in caught.value.reason
    assert caught.value.path == "docs/recipes/x.md"


def test_page_with_malformed_id_is_rejected() -> None:
    with pytest.raises(PageParseError, match="not a dotted name"):
        parse_page("docs/recipes/x.md", "# X\n\n**not an id!**\n")


def test_parse_source_skips_bad_and_duplicate_pages() -> None:
    class Pages(list[Page]):
        versions_text: str | None = None

    pages = Pages(
        [
            Page("docs/recipes/example/a.md", MINIMAL_PAGE),
            Page("docs/recipes/example/b.md", "# Nothing here\n"),
            Page("docs/recipes/example/c.md", MINIMAL_PAGE),
        ]
    )
    result = parse_source(pages)
    assert [r.doc_path for r in result.recipes] == ["docs/recipes/example/a.md"]
    assert [(s.path, s.reason.split(":")[0]) for s in result.skipped] == [
        ("docs/recipes/example/b.md", "no recipe id"),
        (
            "docs/recipes/example/c.md",
            "duplicate recipe id com.example.Use_Things (also docs/recipes/example/a.md)",
        ),
    ]
    assert result.recipes[0].version is None  # no versions table given


def test_resolve_used_by_maps_paths_and_counts_unknown_pages() -> None:
    parent = Recipe(id="p.Parent", display_name="Parent", doc_path="docs/recipes/p/parent.md")
    child = Recipe(
        id="c.Child",
        display_name="Child",
        doc_path="docs/recipes/c/child.md",
        used_by=["docs/recipes/p/parent.md", "docs/recipes/gone.md", "docs/recipes/p/parent.md"],
    )
    assert page_ids([parent, child]) == {
        "docs/recipes/p/parent.md": "p.Parent",
        "docs/recipes/c/child.md": "c.Child",
    }
    assert resolve_used_by([parent, child]) == 1
    assert child.used_by == ["p.Parent"]
    assert resolve_used_by([parent, child]) == 0  # idempotent: ids stay ids
    assert child.used_by == ["p.Parent"]


def test_fence_aware_tokenizer() -> None:
    text = "# Title\n\n```yaml\n# comment\n## not a section\n```\n## Real\n~~~\n```\n~~~\ntext"
    tokens = mdx.tokenize(text)
    assert [mdx.heading(t) for t in tokens if mdx.heading(t)] == [(1, "Title"), (2, "Real")]
    fence = mdx.fences(tokens)[0]
    assert fence.language == "yaml" and fence.body == "# comment\n## not a section"
    assert mdx.fences(tokens)[1].body == "```"  # a backtick line cannot close a tilde fence
    assert mdx.render(tokens) == text


def test_unclosed_fence_runs_to_end_and_info_closer_does_not_close() -> None:
    tokens = mdx.tokenize("```yaml\na: 1\n```## Usage in Java\n## hidden\n")
    assert len(tokens) == 1 and isinstance(tokens[0], mdx.Fence)
    assert "## hidden" in tokens[0].body


def test_table_cells_split_only_at_unescaped_pipes() -> None:
    assert mdx.table_cells("| `String` | a | one \\| two | `x|y` |") == [
        "`String`",
        "a",
        "one \\| two",
        "`x",
        "y`",
    ]


def test_options_without_table_and_valid_values_text() -> None:
    assert parse_options(mdx.tokenize("No table here.\n")) == []
    assert valid_values('Pick one. Valid options: "", `a`') == ["", "a"]
    assert valid_values("Valid options are discussed elsewhere.") == []


def test_recipe_list_yaml_scalars_and_sections() -> None:
    block = parse_recipe_list_yaml(
        "name: x\n"
        "preconditions:\n"
        "  - org.openrewrite.FindSourceFiles:\n"
        "      filePattern: '**/*.java'\n"
        "recipeList:\n"
        "  - a.B:\n"
        '      version: 3.10\n      enabled: true\n      count: 12\n      star: "*"\n      nothing: null\n'
        "      list: [one, two]\n"
        "  - a.C\n"
        "tags:\n"
        "  - not.A.Recipe\n"
    )
    assert [p.recipe_id for p in block.preconditions] == ["org.openrewrite.FindSourceFiles"]
    assert block.preconditions[0].options == {"filePattern": "'**/*.java'"}
    assert [r.recipe_id for r in block.recipe_list] == ["a.B", "a.C"]
    assert block.recipe_list[0].options == {
        "version": "3.10",
        "enabled": True,
        "count": 12,
        "star": "*",
        "nothing": None,
        "list": ["one", "two"],
    }


def test_modules_table(snapshot: DocsSource) -> None:
    assert snapshot.versions_text is not None
    modules = {m.coordinates: m for m in parse_modules_table(snapshot.versions_text)}
    assert modules["org.openrewrite:rewrite-java"].version == "8.90.3"
    assert modules["org.openrewrite:rewrite-java"].license == "apache"
    assert modules["org.openrewrite:rewrite-cobol"].license == "moderne"
    assert modules["org.openrewrite.recipe:rewrite-recipe-bom"].version == "3.37.0"  # a bold row
    assert parse_modules_table("no table at all") == []
