"""Shared, session-scoped fixtures: one real embedded PostgreSQL + pgvector, one embedding model, and one
catalog ingested from the real docs snapshot, reused by every test that needs them."""

from __future__ import annotations

import json
import os
import shutil
import tempfile
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parents[1]


def shared_data_dir() -> Path:
    """``../shared/data`` beside the checkout (read-only evaluation and source data)."""
    return REPO_ROOT.parent / "shared" / "data"


def docs_snapshot() -> Path:
    return shared_data_dir() / "openrewrite-docs" / "recipes.tar.gz"


def dev_text(case_id: str, index: int = 0) -> str:
    """A retrieval dev case's intent (``index`` 0) or its ``index``-th variation, read from
    ``../shared/data/retrieval-dev/cases.jsonl``: the dev set is evaluation data and is not copied into the repo."""
    path = shared_data_dir() / "retrieval-dev" / "cases.jsonl"
    if not path.exists():
        pytest.skip(f"retrieval dev set not found at {path} (expected ../shared beside the checkout)")
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.strip() and (case := json.loads(line))["id"] == case_id:
            return str([case["intent"], *case.get("variations", [])][index])
    raise LookupError(f"no case {case_id} in {path}")


# The fresh PR sets whose one blind reading is spent (development data since); an unread set stays out of tests.
SPENT_PR_SETS = tuple(f"pr-heldout{n}" for n in ("", 2, 3, 4, 5, 6, 7, 8))  # read: development data


def spent_pr_case(name: str) -> Path:
    """The ``pr.diff`` of a case of a spent fresh PR set (``SPENT_PR_SETS``)."""
    for folder in SPENT_PR_SETS:
        path = REPO_ROOT / "evaluation" / "data" / folder / name / "pr.diff"
        if path.exists():
            return path
    raise LookupError(f"no case {name} in {SPENT_PR_SETS}")


def require_snapshot() -> Path:
    path = docs_snapshot()
    if not path.exists():
        pytest.skip(f"docs snapshot not found at {path} (expected ../shared beside the checkout)")
    return path


@pytest.fixture(scope="session")
def rewrite_home(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """An isolated REWRITE_ASSIST_HOME so tests never touch the user's catalog."""
    home = tmp_path_factory.mktemp("rewrite-assist-home")
    old = os.environ.get("REWRITE_ASSIST_HOME")
    os.environ["REWRITE_ASSIST_HOME"] = str(home)
    yield home
    if old is None:
        os.environ.pop("REWRITE_ASSIST_HOME", None)
    else:
        os.environ["REWRITE_ASSIST_HOME"] = old


@pytest.fixture(scope="session")
def pg_url(rewrite_home: Path) -> Iterator[str]:
    """URL of a real PostgreSQL with pgvector: REWRITE_ASSIST_TEST_DATABASE_URL, or a throwaway embedded one."""
    external = os.environ.get("REWRITE_ASSIST_TEST_DATABASE_URL")
    if external:
        yield external
        return
    from rewrite_assist.server.catalog.db import start_embedded, stop_embedded

    # Not under pytest's 0700 tmp root: as root, pgserver runs PostgreSQL as a separate system user.
    home = Path(tempfile.mkdtemp(prefix="rewrite-assist-pg-"))
    home.chmod(0o755)
    yield start_embedded(home)
    stop_embedded(home)
    shutil.rmtree(home, ignore_errors=True)


@pytest.fixture(scope="session")
def make_database(pg_url: str):
    """Factory: a fresh, empty database on the test server, as a ``Database``."""
    import psycopg2

    from rewrite_assist.server.catalog.db import Database

    created: list[Database] = []

    def factory(prefix: str = "t") -> Database:
        name = f"{prefix}_{uuid.uuid4().hex[:10]}"
        conn = psycopg2.connect(pg_url)
        conn.autocommit = True
        with conn.cursor() as cur:
            cur.execute(f'CREATE DATABASE "{name}"')
        conn.close()
        db = Database(_with_dbname(pg_url, name), "embedded")
        created.append(db)
        return db

    yield factory
    for db in created:
        db.close()


def _with_dbname(url: str, name: str) -> str:
    from urllib.parse import urlsplit, urlunsplit

    parts = urlsplit(url)
    return urlunsplit(parts._replace(path="/" + name))


@pytest.fixture(scope="session")
def embedder(rewrite_home: Path):
    """The model on the default (auto) backend, loaded once: its ONNX export is cached in the session's
    REWRITE_ASSIST_HOME, never in the user's."""
    from rewrite_assist.server.embedding import Embedder

    model = Embedder()
    model.load()
    return model


@pytest.fixture(scope="session")
def ingested_catalog(make_database, embedder):
    """The full snapshot (4,118 pages + the Moderne-only list) ingested once per session: (store, report)."""
    from rewrite_assist.ingestion.pipeline import ingest
    from rewrite_assist.server.catalog.store import CatalogStore

    snapshot = require_snapshot()
    store = CatalogStore(make_database("catalog"))
    report = ingest(store, snapshot, embedder=embedder, progress=False)
    assert report.recipes > 4000, report.summary()
    return store, report


@pytest.fixture(scope="session")
def catalog(ingested_catalog):
    """The session's ``CatalogStore``."""
    return ingested_catalog[0]


@pytest.fixture(scope="session")
def catalog_report(ingested_catalog):
    """What the session's ingest reported."""
    return ingested_catalog[1]


@pytest.fixture(scope="session")
def app_state(catalog, embedder):
    """The MCP server's shared state pointed at the session catalog."""
    from rewrite_assist.server.mcp.state import AppState

    return AppState(database_factory=lambda: catalog.db, embedder=embedder)


@pytest.fixture
def pick_order(monkeypatch: pytest.MonkeyPatch) -> None:
    """The diff search in the pick's own order, without the learned rerank (``by_diff.rerank``): for a test of one
    rule of the pick, which compares the ranking with and without that rule (the rerank would reorder both)."""
    from rewrite_assist.server.search.by_diff import rerank

    monkeypatch.setattr(rerank, "RERANK", False)
