"""A real ``rewrite-assist ingest`` process killed mid-run (SIGTERM or SIGKILL, while embedding or while its write
transaction is open) leaves the previously ingested catalog exactly as it was, and a later ingest still works.

Synchronisation is on observable state, never on sleeps alone: the process's own ``-v`` log line says it started
embedding, and ``pg_stat_activity``/``pg_locks`` (the process connects as application ``APP`` via ``PGAPPNAME``)
show whether its write transaction is open. A row lock this test holds on ``catalog_meta`` (the last table the
write touches) keeps the process from ever committing before the signal lands, so the kill is always mid-run.
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import psycopg2
import pytest
from conftest import _with_dbname
from test_catalog import _github_pages, _subset_tarball

from rewrite_assist.ingestion.pipeline import ingest
from rewrite_assist.server.catalog.db import Database
from rewrite_assist.server.catalog.store import CatalogStore
from rewrite_assist.server.config import MODEL_KEY

APP = "rewrite-assist-ingest-under-test"
BASELINE_PAGES = 20
RUN_PAGES = 300  # enough that embedding takes seconds: the signal lands while the process works
WAIT_S = 240.0  # bound on every wait (model load + parse on a busy 2-core machine)
EMBEDDING_LINE = re.compile(r"embedding (\d+) recipe\(s\)")


def _admin(pg_url: str, sql: str) -> None:
    conn = psycopg2.connect(pg_url)
    conn.autocommit = True
    try:
        with conn.cursor() as cur:
            cur.execute(sql)
    finally:
        conn.close()


def _wait_for(what: str, check: Callable[[], bool], *, timeout: float = WAIT_S, interval: float = 0.05) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout:.0f} s waiting for {what}")
        time.sleep(interval)


def _snapshot(store: CatalogStore) -> tuple[Any, ...]:
    """Everything an interrupted run must not change; ``catalog_revision`` in meta is new on every commit."""
    with store.db.connection() as conn, conn.cursor() as cur:
        cur.execute("SELECT count(*) FROM recipes")
        recipes = cur.fetchone()[0]
        cur.execute("SELECT count(*) FROM recipe_embeddings WHERE model = %s", (MODEL_KEY,))
        embeddings = cur.fetchone()[0]
        cur.execute("SELECT count(*) FROM recipe_examples")
        examples = cur.fetchone()[0]
    return store.info(), store.stored_hashes(MODEL_KEY), store.meta(), recipes, embeddings, examples


def _backends(conn: Any) -> list[tuple[int, str | None, Any, str | None]]:
    """(pid, state, xact_start, wait_event_type) of the ingest process's connections."""
    with conn.cursor() as cur:
        cur.execute(
            "SELECT pid, state, xact_start, wait_event_type FROM pg_stat_activity WHERE application_name = %s",
            (APP,),
        )
        return list(cur.fetchall())


def _written_tables(conn: Any, pid: int) -> set[str]:
    """Catalog tables the backend ``pid`` holds write locks on (rows it inserted/updated/deleted, uncommitted)."""
    with conn.cursor() as cur:
        cur.execute(
            "SELECT relation::regclass::text FROM pg_locks WHERE pid = %s AND locktype = 'relation' "
            "AND mode = 'RowExclusiveLock' AND granted",
            (pid,),
        )
        return {r[0] for r in cur.fetchall()} & {"recipes", "recipe_embeddings", "modules", "catalog_meta"}


class _Lines:
    """Collects a stream's lines on a thread (so the pipe never fills) and remembers the first embedding line."""

    def __init__(self, stream: Any) -> None:
        self.lines: list[str] = []
        self.embedding: re.Match[str] | None = None
        self._thread = threading.Thread(target=self._read, args=(stream,), daemon=True)
        self._thread.start()

    def _read(self, stream: Any) -> None:
        for line in stream:
            self.lines.append(line)
            if self.embedding is None:
                self.embedding = EMBEDDING_LINE.search(line)

    def text(self) -> str:
        self._thread.join(timeout=30)
        return "".join(self.lines)


@pytest.fixture(scope="module")
def baseline(pg_url: str, embedder: Any, tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    """A template database holding a small catalog ingested in-process, and the larger, edited run's tarball."""
    tmp = tmp_path_factory.mktemp("ingest-interrupt")
    name = f"interrupt_base_{uuid.uuid4().hex[:10]}"
    _admin(pg_url, f'CREATE DATABASE "{name}"')
    db = Database(_with_dbname(pg_url, name), "embedded")
    try:
        report = ingest(
            CatalogStore(db), _subset_tarball(tmp / "base", count=BASELINE_PAGES), embedder=embedder, progress=False
        )
        assert report.recipes > 0, report.summary()
    finally:
        db.close()  # a template must have no connections
    edited = _subset_tarball(tmp / "run", count=RUN_PAGES, edit={_github_pages(1)[0]: "_=>_Changed wording. "})
    yield name, edited
    _admin(pg_url, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.mark.parametrize("phase", ["embedding", "writing"])
@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGKILL], ids=["SIGTERM", "SIGKILL"])
def test_killed_ingest_leaves_previous_catalog_intact(
    phase: str,
    sig: signal.Signals,
    baseline: tuple[str, Path],
    pg_url: str,
    embedder: Any,
    rewrite_home: Path,
) -> None:
    template, tarball = baseline
    name = f"interrupt_{uuid.uuid4().hex[:10]}"
    _admin(pg_url, f'CREATE DATABASE "{name}" TEMPLATE "{template}"')
    db = Database(_with_dbname(pg_url, name), "embedded")
    store = CatalogStore(db)
    before = _snapshot(store)
    assert before[0].recipes > 0 and before[2].get("catalog_revision")

    watcher = psycopg2.connect(db.url)  # sees the ingest's backends and locks
    watcher.autocommit = True
    holder = psycopg2.connect(db.url)  # holds the catalog_meta row the write upserts last
    proc: subprocess.Popen[str] | None = None
    try:
        with holder.cursor() as cur:
            cur.execute("SELECT value FROM catalog_meta WHERE key = 'ingested_at' FOR UPDATE")
            assert cur.fetchone() is not None
        env = {
            **os.environ,
            "REWRITE_ASSIST_DATABASE_URL": db.url,
            "REWRITE_ASSIST_HOME": str(rewrite_home),  # the session's home: its ONNX export is reused
            "PGAPPNAME": APP,
        }
        proc = subprocess.Popen(
            [sys.executable, "-m", "rewrite_assist", "-v", "ingest", "--source", str(tarball), "--no-progress"],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=env,
        )
        stdout, stderr = _Lines(proc.stdout), _Lines(proc.stderr)
        running = proc  # for the closures below (mypy: not None)

        def started_embedding() -> bool:
            if running.poll() is not None:
                raise AssertionError(f"ingest exited ({running.returncode}) before embedding:\n{stderr.text()}")
            return stderr.embedding is not None

        _wait_for("the ingest to log that it started embedding", started_embedding)
        assert stderr.embedding is not None and int(stderr.embedding.group(1)) > 0

        if phase == "writing":
            # Its write transaction is open, has written rows, and waits on our lock: it cannot commit.
            def blocked_in_write() -> bool:
                if running.poll() is not None:
                    raise AssertionError(f"ingest exited ({running.returncode}) before writing:\n{stderr.text()}")
                return any(w == "Lock" and x is not None for _, _, x, w in _backends(watcher))

            _wait_for("the ingest's write transaction to block on catalog_meta", blocked_in_write)
            pid = next(p for p, _, x, w in _backends(watcher) if w == "Lock" and x is not None)
            assert {"recipes", "recipe_embeddings", "modules"} <= _written_tables(watcher, pid)
        else:
            # Still embedding: no transaction of its own is open yet.
            assert all(x is None for _, _, x, _ in _backends(watcher)), _backends(watcher)

        assert proc.poll() is None, "the ingest finished before the signal"
        proc.send_signal(sig)
        returncode = proc.wait(timeout=60)
        out, err = stdout.text(), stderr.text()
        assert returncode == -sig, (returncode, err)
        assert out == "" and "Catalog:" not in err, (out, err)  # it never printed its final summary
    finally:
        if proc is not None and proc.poll() is None:
            proc.kill()
            proc.wait(timeout=60)
        holder.rollback()
        holder.close()

    try:
        # Once our lock is gone the orphaned backend finds its client gone and rolls back.
        _wait_for("the killed ingest's connections to end", lambda: not _backends(watcher), timeout=60)
        assert _snapshot(store) == before

        after = ingest(store, tarball, embedder=embedder, progress=False)  # a later ingest still works
        assert after.embedded > 0 and after.parsed_changed > 0, after.summary()
        assert store.info().recipes == after.recipes
        assert store.meta()["catalog_revision"] != before[2]["catalog_revision"]
        assert set(store.stored_hashes(MODEL_KEY)) >= set(before[1])
    finally:
        watcher.close()
        db.close()
        _admin(pg_url, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
