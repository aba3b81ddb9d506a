"""Moderne-only recipes in the real catalog: counted, searchable behind a filter with a hint, described by
get_recipe, a warning (not "unknown") for lint, and refused by validate before any build."""

from __future__ import annotations

import subprocess
from pathlib import Path
from typing import Any

import pytest
from conftest import dev_text
from fixtures.mcp_support import call, text_of

from rewrite_assist.ingestion.pipeline import IngestReport
from rewrite_assist.server.catalog.store import CatalogStore
from rewrite_assist.server.config import MODEL_KEY
from rewrite_assist.server.mcp.state import AppState
from rewrite_assist.server.validation.runner import ValidationFailed, ValidationRequest, validate_recipe

DROPWIZARD5 = "io.moderne.java.dropwizard.MigrateToDropwizard5"
DROPWIZARD_INTENT = [
    "upgrade a Dropwizard 4 application to Dropwizard 5",
    "migrate Dropwizard 4.x to 5.0.x",
    "bump io.dropwizard dependencies to version 5",
]

MODERNE_YAML = f"""\
type: specs.openrewrite.org/v1beta/recipe
name: com.example.rewriteassist.Option1
displayName: Dropwizard 5
description: Upgrade Dropwizard.
recipeList:
  - {DROPWIZARD5}
  - org.openrewrite.java.dependencies.UpgradeDependencyVersion:
      groupId: io.dropwizard
      artifactId: "*"
      newVersion: 5.0.x
"""


def find(state: AppState, **args: Any) -> dict[str, Any]:
    result = call(state, "find_recipes", args)
    assert not result.is_error, text_of(result)
    data: dict[str, Any] = result.structured_content
    return data


def test_ingest_and_status_count_moderne_only_entries(catalog: CatalogStore, catalog_report: IngestReport) -> None:
    report = catalog_report
    assert (report.recipes, report.moderne_only, report.moderne_with_page) == (4118 + 3611, 3611, 0)
    assert "Moderne-only: 3611" in report.summary()
    info = catalog.info()
    assert (info.recipes, info.moderne_only) == (7729, 3611)
    with catalog.db.connection() as conn, conn.cursor() as cur:
        cur.execute("SELECT availability, count(*) FROM recipes GROUP BY 1 ORDER BY 1")
        assert cur.fetchall() == [("docs", 4118), ("moderne-only", 3611)]
        cur.execute(
            "SELECT count(*) FROM recipes r JOIN recipe_embeddings e ON e.recipe_id = r.id "
            "WHERE r.availability = 'moderne-only'"
        )
        assert cur.fetchone()[0] == 3611  # embedded like the others


def test_find_recipes_leaves_moderne_only_out_and_hints(app_state: AppState) -> None:
    data = find(app_state, intent=DROPWIZARD_INTENT, limit=5)
    assert data["hits"] and all(h["availability"] == "docs" for h in data["hits"])
    assert not any(h["id"].startswith("io.moderne.") for h in data["hits"])
    hint = data["moderne_hint"]
    assert hint is not None and 1 <= hint["would_rank"] <= 5
    assert DROPWIZARD5 in hint["best"] and 1 <= len(hint["best"]) <= 2
    assert DROPWIZARD5 in hint["message"] and "include_moderne" in hint["message"]

    everything = find(app_state, intent=DROPWIZARD_INTENT, limit=5, include_moderne=True)
    flagged = [h["id"] for h in everything["hits"] if h["availability"] == "moderne-only"]
    assert DROPWIZARD5 in flagged and everything["moderne_hint"] is None
    # The hint's best id is the best Moderne-only hit of the unfiltered ranking.
    assert flagged[0] == hint["best"][0]


def test_no_hint_when_no_moderne_recipe_would_rank(app_state: AppState) -> None:
    data = find(
        app_state,
        intent=[dev_text("q003", 1), dev_text("q003", 2)],  # two variations of a dev case, from ../shared
        limit=3,
    )
    assert data["hits"][0]["id"] == "org.openrewrite.github.SetupJavaAdoptOpenJDKToTemurin"
    assert data["moderne_hint"] is None


def test_a_moderne_id_in_the_query_is_found_only_with_include_moderne(app_state: AppState) -> None:
    default = find(app_state, intent=f"{DROPWIZARD5}", limit=3)
    assert DROPWIZARD5 not in [h["id"] for h in default["hits"]]
    assert default["moderne_hint"]["best"][0] == DROPWIZARD5
    included = find(app_state, intent=f"{DROPWIZARD5}", limit=3, include_moderne=True)
    assert included["hits"][0]["id"] == DROPWIZARD5 and included["hits"][0]["availability"] == "moderne-only"


def test_get_recipe_describes_a_moderne_only_recipe(app_state: AppState) -> None:
    result = call(app_state, "get_recipe", {"recipe_id": DROPWIZARD5})
    assert not result.is_error, text_of(result)
    data = result.structured_content
    assert data["availability"] == "moderne-only"
    assert data["display_name"] == "Migrate to Dropwizard 5.0.x from 4.x"
    assert data["doc_url"].startswith("https://docs.moderne.io/")
    assert "Moderne CLI/platform" in data["runs_with"] and "io.moderne.recipe:rewrite-dropwizard" in data["runs_with"]
    assert data["module"]["artifact_id"] == "rewrite-dropwizard" and data["module"]["coordinates"] is None
    assert "recipeList" not in data["rewrite_yml"] and "Moderne-only" in data["rewrite_yml"]
    docs = call(app_state, "get_recipe", {"recipe_id": "org.openrewrite.java.ChangeMethodName"}).structured_content
    assert docs["availability"] == "docs" and docs["runs_with"] is None


def test_class_names_shared_with_a_moderne_recipe_still_resolve_to_the_docs_recipe(catalog: CatalogStore) -> None:
    # io.moderne.java.spring.framework7.UpgradeSpringFramework_7_0 is Moderne-only; the page's recipe wins.
    resolved = catalog.resolve_id("UpgradeSpringFramework_7_0")
    assert resolved is not None and not resolved.startswith("io.moderne.")
    assert catalog.get_recipe(resolved).availability == "docs"  # type: ignore[union-attr]


def test_lint_warns_on_a_moderne_only_recipe_and_never_calls_it_unknown(app_state: AppState) -> None:
    result = call(app_state, "lint_recipe", {"recipe": MODERNE_YAML})
    assert not result.is_error, text_of(result)
    report = result.structured_content
    assert report["ok"] is True and report["errors"] == []
    warnings = [w for w in report["warnings"] if DROPWIZARD5 in w["message"]]
    assert len(warnings) == 1
    assert (
        "Moderne-only recipe: runs with the Moderne CLI/platform, not with the OpenRewrite build plugins"
        in warnings[0]["message"]
    )
    assert warnings[0]["line"] == 6 and "unknown" not in warnings[0]["message"]
    invented = call(app_state, "lint_recipe", {"recipe": MODERNE_YAML.replace(DROPWIZARD5, DROPWIZARD5 + "x")})
    assert any("unknown recipe" in e["message"] for e in invented.structured_content["errors"])


def test_an_unknown_id_whose_recipe_moved_to_moderne_says_so(app_state: AppState, catalog: CatalogStore) -> None:
    """The reference runs used org.openrewrite.java.dropwizard.* ids; those recipes are now Moderne-only."""
    moved = "io.moderne.java.dropwizard.boot.method.RemoveUnnecessaryOverride"
    yaml = MODERNE_YAML.replace(DROPWIZARD5, "org.openrewrite.java.dropwizard.method.RemoveUnnecessaryOverride")
    report = call(app_state, "lint_recipe", {"recipe": yaml}).structured_content
    [error] = [e for e in report["errors"] if "RemoveUnnecessaryOverride" in e["message"]]
    assert error["message"].startswith("unknown recipe") and "Moderne-only, so not usable here" in error["message"]
    assert moved in error["message"] and error["suggestions"][0] == moved
    # Other Moderne-only look-alikes do not crowd out the suggestions that have a page.
    others = [catalog.get_recipe(s) for s in error["suggestions"][1:]]
    assert len(others) == 4 and all(r is not None and r.availability == "docs" for r in others)


def test_validate_refuses_a_moderne_only_recipe_before_any_build(catalog: CatalogStore, tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    repo.mkdir()
    (repo / "pom.xml").write_text("<project/>\n")
    subprocess.run(["git", "init", "-q", str(repo)], check=True)
    steps: list[str] = []
    request = ValidationRequest(repo=repo, recipe_text=MODERNE_YAML, output_dir=tmp_path / "out")
    with pytest.raises(ValidationFailed) as raised:
        validate_recipe(request, catalog, progress=lambda n, total, message: steps.append(message))
    message = str(raised.value)
    assert DROPWIZARD5 in message and "Moderne CLI/platform" in message
    assert raised.value.exit_code == 2
    assert steps == ["linting the recipe"]  # no build tool detection, no copy, no run
    assert not (tmp_path / "out").exists()


def _tarball(dest: Path, moderne_list: str, pages: int = 5) -> Path:
    """Real GitHub recipe pages of the snapshot plus a Moderne recipe list, as a GitHub-style archive."""
    import io
    import tarfile

    from conftest import require_snapshot

    dest.mkdir(parents=True, exist_ok=True)
    out = dest / "docs.tar.gz"
    taken = 0
    with tarfile.open(require_snapshot(), "r:gz") as src, tarfile.open(out, "w:gz") as dst:

        def add(name: str, data: bytes) -> None:
            info = tarfile.TarInfo("rewrite-docs-main/" + name)
            info.size = len(data)
            dst.addfile(info, io.BytesIO(data))

        for member in src:
            name = member.name
            page = member.isfile() and name.startswith("docs/recipes/github/") and not name.endswith("README.md")
            if page and taken < pages:
                add(name, src.extractfile(member).read())  # type: ignore[union-attr]
                taken += 1
        add("docs/reference/moderne-recipes.md", moderne_list.encode())
    return out


LIST = """\
## io.moderne.recipe

### rewrite-dropwizard

* [io.moderne.java.dropwizard.MigrateToDropwizard5](https://docs.moderne.io/dw5)
  * **Migrate to Dropwizard 5.0.x from 4.x**
  * Apply changes required to upgrade a Dropwizard 4.x application to 5.0.x.
* [io.moderne.java.dropwizard.MigrateToDropwizard4](https://docs.moderne.io/dw4)
  * **Migrate to Dropwizard 4.x**
  * Upgrade to Dropwizard 4.
"""


def test_moderne_entries_are_incremental_and_upgrade_a_version_1_catalog(
    make_database, embedder, tmp_path: Path
) -> None:
    from rewrite_assist.ingestion.pipeline import ingest

    store = CatalogStore(make_database("moderne"))
    first = ingest(store, _tarball(tmp_path / "a", LIST), embedder=embedder, progress=False)
    assert (first.recipes, first.moderne_only, first.embedded) == (7, 2, 7)
    same = ingest(store, _tarball(tmp_path / "b", LIST), embedder=embedder, progress=False)
    assert (same.parsed_changed, same.embedded, same.removed, same.unchanged) == (0, 0, 0, 7)

    edited = LIST.replace("Upgrade to Dropwizard 4.", "Upgrade to Dropwizard 4.0.x.")
    changed = ingest(store, _tarball(tmp_path / "c", edited), embedder=embedder, progress=False)
    assert (changed.parsed_changed, changed.embedded, changed.removed) == (1, 1, 0)
    shorter = edited[: edited.index("* [io.moderne.java.dropwizard.MigrateToDropwizard4]")]
    removed = ingest(store, _tarball(tmp_path / "d", shorter), embedder=embedder, progress=False)
    assert (removed.recipes, removed.moderne_only, removed.removed) == (6, 1, 1)

    # A catalog written before the availability column existed is upgraded by the next ingest.
    with store.db.connection() as conn, conn.cursor() as cur:
        cur.execute("ALTER TABLE recipes DROP COLUMN availability")
        cur.execute("UPDATE catalog_meta SET value = '1' WHERE key = 'schema_version'")
    again = ingest(store, _tarball(tmp_path / "e", LIST), embedder=embedder, progress=False)
    assert again.moderne_only == 2 and store.info().moderne_only == 2 and store.check_ready()
    with store.db.connection() as conn, conn.cursor() as cur:
        cur.execute("SELECT availability, count(*) FROM recipes GROUP BY 1 ORDER BY 1")
        assert cur.fetchall() == [("docs", 5), ("moderne-only", 2)]


def test_the_hint_ranks_moderne_entries_by_exact_cosine_agreeing_with_the_index(
    catalog: CatalogStore, embedder: Any
) -> None:
    """The hint's in-memory exact neighbours are the true nearest Moderne-only entries: nothing the HNSW
    index finds beyond them is nearer, and the two mostly agree (the index approximates; how closely
    varies with each build of the graph, so the overlap bound is loose)."""
    from rewrite_assist.server.search.legs.dense import dense_candidates, exact_candidates
    from rewrite_assist.server.search.models import SearchFilters
    from rewrite_assist.server.search.snapshot import snapshot_for

    snapshot = snapshot_for(catalog, catalog.check_ready(), MODEL_KEY)
    vectors = embedder.encode(DROPWIZARD_INTENT)
    only = SearchFilters(availability="moderne-only")
    exact = exact_candidates(snapshot, vectors, only, depth=20)
    with catalog.db.connection() as conn, conn.cursor() as cur:
        cur.execute("SET LOCAL hnsw.ef_search = 100")
        cur.execute("SET LOCAL hnsw.iterative_scan = relaxed_order")
        indexed = dense_candidates(cur, vectors, only, model_key=MODEL_KEY, depth=20)
    assert DROPWIZARD5 in exact
    assert all(snapshot.rows[rid].availability == "moderne-only" for rid in exact)
    cosines = snapshot.cosines(sorted(set(exact) | set(indexed)), vectors)
    for n in range(len(DROPWIZARD_INTENT)):
        mine = {rid for rid, found in exact.items() if n in found}
        theirs = {rid for rid, found in indexed.items() if n in found}
        assert len(mine) == 20
        weakest_exact = min(cosines[rid][n] for rid in mine)
        assert all(cosines[rid][n] <= weakest_exact + 1e-6 for rid in theirs - mine), n
        assert len(mine & theirs) >= 14, (n, sorted(mine ^ theirs))
