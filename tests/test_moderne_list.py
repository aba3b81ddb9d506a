"""The Moderne-only recipe list (``docs/reference/moderne-recipes.md``), parsed from the real snapshot."""

from __future__ import annotations

from collections import Counter

import pytest
from conftest import require_snapshot

from rewrite_assist.ingestion.moderne_list import ModerneList, merge_moderne, parse_moderne_list
from rewrite_assist.ingestion.parser import parse_source
from rewrite_assist.ingestion.source import DocsSource, open_source
from rewrite_assist.server.catalog.models import Recipe


@pytest.fixture(scope="module")
def docs() -> DocsSource:
    return open_source(require_snapshot())


@pytest.fixture(scope="module")
def listed(docs: DocsSource) -> ModerneList:
    assert docs.moderne_text is not None, "the snapshot's docs/reference/moderne-recipes.md was not read"
    return parse_moderne_list(docs.moderne_text)


def test_real_list_counts_and_groups(listed: ModerneList) -> None:
    recipes = listed.recipes
    assert listed.skipped == []
    assert len(recipes) == 3611
    assert len({r.id for r in recipes}) == 3611
    assert Counter(r.group_id for r in recipes) == {
        "io.moderne.recipe": 2629,
        "org.openrewrite.recipe": 965,
        "org.openrewrite": 17,
    }
    modules = Counter(r.artifact_id for r in recipes)
    assert len(modules) == 43
    assert modules["recipes-kotlin"] == 1011 and modules["rewrite-dropwizard"] == 26
    assert modules["rewrite-spring"] == 208 and modules["rewrite-java-security"] == 132
    assert modules["rewrite-terraform"] == 135 and modules["rewrite-kubernetes"] == 46
    assert all(r.availability == "moderne-only" and r.is_moderne_only for r in recipes)
    assert all(r.doc_url and r.doc_url.startswith("https://docs.moderne.io/") for r in recipes)
    assert all(r.display_name and r.description for r in recipes)
    assert all(not r.doc_path and not r.options and not r.recipe_list for r in recipes)


def test_real_entry_fields(listed: ModerneList) -> None:
    by_id = {r.id: r for r in listed.recipes}
    dropwizard = by_id["io.moderne.java.dropwizard.MigrateToDropwizard5"]
    assert dropwizard.display_name == "Migrate to Dropwizard 5.0.x from 4.x"
    assert dropwizard.description.startswith("Apply changes required to upgrade a Dropwizard 4.x application")
    assert (dropwizard.group_id, dropwizard.artifact_id) == ("io.moderne.recipe", "rewrite-dropwizard")
    assert dropwizard.module == "io.moderne.recipe:rewrite-dropwizard"
    assert dropwizard.doc_url == (
        "https://docs.moderne.io/user-documentation/recipes/recipe-catalog/java/dropwizard/migratetodropwizard5"
    )
    # HTML entities and MDX escapes are undone: `aws = "~> 3.0"`, `{ source = ... }`.
    providers = by_id["org.openrewrite.terraform.terraform013.UpgradeRequiredProvidersSyntax"]
    assert 'aws = "~> 3.0"' in providers.description
    assert 'aws = { source = "hashicorp/aws", version = "~> 3.0" }' in providers.description
    assert "&quot;" not in providers.description and "\\{" not in providers.description
    assert by_id["org.openrewrite.terraform.terraform012.UpgradeTerraformTo0_12"].artifact_id == "rewrite-terraform"


def test_no_listed_id_has_a_page(docs: DocsSource, listed: ModerneList) -> None:
    """The list and the pages are disjoint in this snapshot (0 overlaps); the merge keeps pages anyway."""
    pages = parse_source(docs).recipes
    merged = merge_moderne(pages, listed.recipes)
    assert merged.with_page == []
    assert len(merged.added) == 3611


def test_page_wins_over_a_listed_id() -> None:
    page = Recipe(id="org.example.Both", display_name="From the page", options=[])
    listed = parse_moderne_list(
        "## org.example\n\n### rewrite-example\n\n"
        "* [org.example.Both](https://docs.moderne.io/both)\n  * **Listed**\n  * Listed description.\n"
        "* [org.example.OnlyListed](https://docs.moderne.io/only)\n  * **Only \\{listed\\}**\n  * A &lt;b&gt;\n"
    )
    merged = merge_moderne([page], listed.recipes)
    assert merged.with_page == ["org.example.Both"]
    assert [(r.id, r.display_name, r.description) for r in merged.added] == [
        ("org.example.OnlyListed", "Only {listed}", "A <b>")
    ]


def test_malformed_lines_are_reported_not_guessed() -> None:
    listed = parse_moderne_list(
        "* [org.example.NoGroup](https://docs.moderne.io/x)\n"
        "## org.example\n### mod\n"
        "* [org.example.A](https://docs.moderne.io/a)\n  * **A**\n  * First.\n"
        "* [org.example.A](https://docs.moderne.io/a2)\n  * **A again**\n"
        "* not a link\n",
        path="list.md",
    )
    assert [r.id for r in listed.recipes] == ["org.example.A"]
    assert listed.recipes[0].description == "First."
    reasons = {s.path: s.reason for s in listed.skipped}
    assert "outside" in reasons["list.md:1"] and "duplicate" in reasons["list.md:7"]
    assert "unexpected list line" in reasons["list.md:8"]
    assert "list.md:9" in reasons  # the "* not a link" line
