"""The catalog built from the real snapshot: counts, incremental re-ingest, atomic failure, dump/restore."""

from __future__ import annotations

import gzip
import io
import re
import subprocess
import tarfile
from pathlib import Path
from typing import Any

import pytest
from conftest import REPO_ROOT, require_snapshot

from rewrite_assist.ingestion.pipeline import IngestError, ingest
from rewrite_assist.server.catalog.db import Database, _pgserver
from rewrite_assist.server.catalog.store import CatalogNotReady, CatalogStore
from rewrite_assist.server.config import MODEL_KEY
from rewrite_assist.server.embedding import Embedder
from rewrite_assist.server.search.hybrid import find_recipes


def test_full_snapshot_counts(catalog: CatalogStore) -> None:
    info = catalog.info()
    # 4,118 recipe pages + 3,611 Moderne-only entries (no page)
    assert (info.recipes, info.composites, info.with_options, info.moderne_only) == (7729, 1402, 519, 3611)
    assert info.modules == 52
    assert info.embedding_model == "sentence-transformers/all-MiniLM-L6-v2"
    assert info.source and "7aca9c8d8b18953e2c5a33f21b662caa25154d40" in info.source
    assert info.ingested_at and info.database == "embedded"
    with catalog.db.connection() as conn, conn.cursor() as cur:
        cur.execute("SELECT count(*) FROM recipe_embeddings WHERE model = %s", (MODEL_KEY,))
        assert cur.fetchone()[0] == 7729
        cur.execute(
            "SELECT count(DISTINCT group_id || ':' || artifact_id) FROM recipes "
            "WHERE artifact_id IS NOT NULL AND availability = 'docs'"
        )
        maven_artifacts = cur.fetchone()[0]
        cur.execute("SELECT count(*) FROM recipes WHERE npm_package IS NOT NULL AND group_id IS NULL")
        npm_recipes = cur.fetchone()[0]
    assert (maven_artifacts, npm_recipes) == (43, 12)  # "44 artifacts + npm": 43 Maven + @openrewrite/rewrite


def test_hnsw_index_is_used_by_the_dense_query(catalog: CatalogStore, embedder) -> None:
    vector = embedder.encode(["migrate to junit 5"])[0]
    with catalog.db.connection() as conn, conn.cursor() as cur:
        cur.execute("SET LOCAL hnsw.ef_search = 100")
        cur.execute(
            "EXPLAIN SELECT recipe_id FROM recipe_embeddings WHERE model = %s ORDER BY embedding <=> %s LIMIT 40",
            (MODEL_KEY, vector),
        )
        plan = "\n".join(r[0] for r in cur.fetchall())
    assert "recipe_embeddings_hnsw_" in plan, plan


def test_unchanged_reingest_is_a_noop(catalog: CatalogStore, embedder) -> None:
    before = catalog.meta()["ingested_at"]
    report = ingest(catalog, require_snapshot(), embedder=embedder, progress=False)
    assert (report.parsed_changed, report.embedded, report.removed) == (0, 0, 0)
    assert report.unchanged == 7729 and report.moderne_only == 3611
    assert catalog.meta()["ingested_at"] == before


def _subset_tarball(dest: Path, *, count: int, edit: dict[str, str] | None = None) -> Path:
    """A real-page subset of the snapshot as a GitHub-style tarball, optionally with edited pages."""
    snapshot = require_snapshot()
    dest.mkdir(parents=True, exist_ok=True)
    out = dest / "subset.tar.gz"
    taken = 0
    with tarfile.open(snapshot, "r:gz") as src, tarfile.open(out, "w:gz") as dst:
        for member in src:
            if not member.isfile():
                continue
            is_page = member.name.startswith("docs/recipes/github/") and not member.name.endswith("README.md")
            is_versions = member.name.endswith("latest-versions-of-every-openrewrite-module.md")
            if not (is_page or is_versions) or (is_page and taken >= count):
                continue
            data = src.extractfile(member).read()  # type: ignore[union-attr]
            if edit and member.name in edit:
                old, new = edit[member.name].split("=>", 1)
                data = data.decode().replace(old, new).encode()
            taken += is_page
            info = tarfile.TarInfo("rewrite-docs-main/" + member.name)
            info.size = len(data)
            dst.addfile(info, io.BytesIO(data))
    return out


def _github_pages(count: int) -> list[str]:
    with tarfile.open(require_snapshot(), "r:gz") as src:
        names = [m.name for m in src if m.name.startswith("docs/recipes/github/") and not m.name.endswith("README.md")]
    return names[:count]


def test_incremental_reingest_touches_only_what_changed(make_database, embedder, tmp_path: Path) -> None:
    store = CatalogStore(make_database("incr"))
    first = ingest(store, _subset_tarball(tmp_path / "a", count=12), embedder=embedder, progress=False)
    assert (first.recipes, first.embedded) == (12, 12)

    page = _github_pages(1)[0]
    edited = _subset_tarball(tmp_path / "b", count=12, edit={page: "_=>_Changed wording. "})
    second = ingest(store, edited, embedder=embedder, progress=False)
    assert (second.parsed_changed, second.embedded, second.removed, second.unchanged) == (1, 1, 0, 11)

    third = ingest(store, _subset_tarball(tmp_path / "c", count=10), embedder=embedder, progress=False)
    assert (third.removed, third.embedded, third.recipes) == (2, 1, 10)  # the edited page reverts: re-embedded
    assert store.info().recipes == 10


class _FailingEmbedder(Embedder):
    """Fails like a crash in the middle of a run (after parsing, before anything is written)."""

    def encode(self, texts: Any, **_kwargs: Any) -> Any:
        raise RuntimeError("simulated crash while embedding")


def test_failed_run_leaves_previous_catalog_intact(make_database, embedder, tmp_path: Path) -> None:
    store = CatalogStore(make_database("atomic"))
    ingest(store, _subset_tarball(tmp_path / "a", count=5), embedder=embedder, progress=False)
    before = (store.info(), store.stored_hashes(MODEL_KEY))
    with pytest.raises(RuntimeError, match="simulated crash"):
        ingest(store, _subset_tarball(tmp_path / "b", count=8), embedder=_FailingEmbedder(), progress=False)
    assert (store.info(), store.stored_hashes(MODEL_KEY)) == before


def test_strict_mode_writes_nothing_when_a_page_fails(make_database, embedder, tmp_path: Path) -> None:
    store = CatalogStore(make_database("strict"))
    page = _github_pages(1)[0]
    broken = _subset_tarball(tmp_path / "a", count=4, edit={page: 'recipeName="=>recipeName="not a dotted id '})
    with pytest.raises(IngestError, match="could not be parsed"):
        ingest(store, broken, embedder=embedder, strict=True, progress=False)
    assert store.meta() == {}
    report = ingest(store, broken, embedder=embedder, progress=False)  # lenient: skipped and listed
    assert report.recipes == 3 and len(report.skipped) == 1 and report.skipped[0].path.endswith(".md")


def test_empty_database_reports_how_to_fix(make_database) -> None:
    store = CatalogStore(make_database("empty"))
    with pytest.raises(CatalogNotReady, match="rewrite-assist ingest"):
        store.check_ready()
    assert store.info().recipes == 0


def test_dump_restores_into_a_fresh_server_with_same_counts_and_results(
    catalog: CatalogStore, make_database, embedder, tmp_path: Path
) -> None:
    from rewrite_assist.ingestion.dump import write_dump

    dump = tmp_path / "catalog.sql.gz"
    counts = write_dump(catalog, dump, model_key=MODEL_KEY)
    assert counts["recipes"] == 7729 and counts["recipe_embeddings"] == 7729
    size_mb = dump.stat().st_size / 1e6
    assert size_mb < 30, f"dump is {size_mb:.1f} MB"
    sql = gzip.decompress(dump.read_bytes()).decode()
    assert "transaction_timeout" not in sql and "\\restrict" not in sql

    # The oldest server the dump promises to support: PostgreSQL 16 + pgvector (pgserver ships both 16 and 18).
    server, psql = _fresh_pg16_server(tmp_path / "pg16")
    try:
        _restore_and_compare(catalog, embedder, sql, str(server.get_uri()), psql)
    finally:
        # Stopped here, not at interpreter exit: by then pytest may have locked its temporary directories
        # against the server's own user, and pg_ctl fails before the server is killed.
        server.cleanup()


def _restore_and_compare(catalog: CatalogStore, embedder, sql: str, url: str, psql: Path) -> None:
    result = subprocess.run(
        [str(psql), "-v", "ON_ERROR_STOP=1", "-q", "-d", url, "-f", "-"],
        input=sql,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, result.stderr[-2000:]
    target = Database(url, "external")
    with target.connection() as conn, conn.cursor() as cur:
        cur.execute("SHOW server_version_num")
        assert cur.fetchone()[0].startswith("16")
    restored = CatalogStore(target)
    assert restored.info().model_dump(exclude={"database"}) == catalog.info().model_dump(exclude={"database"})
    query = ["upgrade to Spring Boot 3", "migrate spring boot 2 application to 3.x"]
    ours = find_recipes(catalog, embedder, query, limit=10)
    theirs = find_recipes(restored, embedder, query, limit=10)
    assert [h.id for h in theirs.hits] == [h.id for h in ours.hits]


def _fresh_pg16_server(pgdata: Path) -> tuple[Any, Path]:
    pgserver = _pgserver()
    server = pgserver.get_server(pgdata, cleanup_mode="delete", postgres_version=16)
    return server, Path(pgserver.utils.POSTGRES_VERSIONS[16]) / "psql"


def test_docker_files_reference_what_the_dump_produces(tmp_path: Path) -> None:
    dockerfile = (REPO_ROOT / "docker" / "Dockerfile").read_text()
    assert re.search(r"^FROM pgvector/pgvector:pg1[6-9]", dockerfile, re.M)
    sources = re.findall(r"^COPY\s+(\S+)\s+(\S+)", dockerfile, re.M)
    assert sources == [("catalog.sql.gz", "/docker-entrypoint-initdb.d/10-catalog.sql.gz")]
    readme = (REPO_ROOT / "README.md").read_text()
    assert "db dump --output docker/catalog.sql.gz" in readme  # the documented way to create the COPY source
    compose = (REPO_ROOT / "docker" / "compose.yaml").read_text()
    assert "dockerfile: Dockerfile" in compose and "healthcheck" in compose
