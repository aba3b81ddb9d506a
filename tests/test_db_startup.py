"""A catalog database that is still starting up: a connection waits for it instead of failing.

Two commands that start the embedded server at once race: the second finds the first one's pid file and connects
while PostgreSQL still replays its log, and the server answers "the database system is not yet accepting
connections". A loopback stand-in in front of the real test server answers the first connections exactly so (the
FATAL error a starting PostgreSQL sends), then passes the rest through to the real server."""

from __future__ import annotations

import contextlib
import socket
import struct
import threading
from collections.abc import Callable, Iterator
from typing import Literal
from urllib.parse import parse_qs, urlsplit

import pytest

from rewrite_assist.server.catalog import db as db_module
from rewrite_assist.server.catalog.db import Database, DatabaseUnavailable

Upstream = tuple[int, str | tuple[str, int]]  # socket family, address of the real test server
NEGOTIATION = {80877103, 80877104}  # SSLRequest, GSSENCRequest: answered "N" (neither)


def _error(message: str, code: str) -> bytes:
    """A backend ErrorResponse of severity FATAL."""
    pairs = ((b"S", "FATAL"), (b"V", "FATAL"), (b"C", code), (b"M", message))
    body = b"".join(key + text.encode() + b"\0" for key, text in pairs) + b"\0"
    return b"E" + struct.pack("!I", len(body) + 4) + body


def _read(conn: socket.socket, n: int) -> bytes:
    data = b""
    while len(data) < n:
        chunk = conn.recv(n - len(data))
        if not chunk:
            raise ConnectionError("client left")
        data += chunk
    return data


def _startup_packet(conn: socket.socket) -> bytes:
    """The client's startup message, after declining its SSL/GSS requests."""
    while True:
        head = _read(conn, 8)
        length, code = struct.unpack("!II", head)
        if code in NEGOTIATION:
            conn.sendall(b"N")
            continue
        return head + _read(conn, length - 8)


def _pipe(src: socket.socket, dst: socket.socket) -> None:
    try:
        while chunk := src.recv(65536):
            dst.sendall(chunk)
    except OSError:
        pass
    finally:
        for end in (src, dst):
            with contextlib.suppress(OSError):
                end.shutdown(socket.SHUT_RDWR)


class StartingServer:
    """Answers its first ``refusals`` connections as a starting PostgreSQL (or with ``message``), then forwards
    to ``upstream``. Loopback only; at most ``MAX_CONNECTIONS`` connections; its threads stop with the test."""

    MAX_CONNECTIONS = 40

    def __init__(self, upstream: Upstream, refusals: int, message: str, code: str = "57P03") -> None:
        self.upstream = upstream
        self.refusals = refusals
        self.refused = 0
        self.message, self.code = message, code
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.listener.settimeout(30)
        self.port = self.listener.getsockname()[1]
        self.thread = threading.Thread(target=self._serve, daemon=True)
        self.thread.start()

    def _serve(self) -> None:
        for _ in range(self.MAX_CONNECTIONS):
            try:
                conn, _ = self.listener.accept()
            except OSError:
                return
            conn.settimeout(30)
            try:
                startup = _startup_packet(conn)
            except (ConnectionError, OSError):
                conn.close()
                continue
            if self.refused < self.refusals:
                self.refused += 1
                conn.sendall(_error(self.message, self.code))
                conn.close()
                continue
            family, address = self.upstream
            backend = socket.socket(family, socket.SOCK_STREAM)
            backend.connect(address)
            backend.sendall(startup)
            threading.Thread(target=_pipe, args=(conn, backend), daemon=True).start()
            threading.Thread(target=_pipe, args=(backend, conn), daemon=True).start()

    def close(self) -> None:
        self.listener.close()


def _upstream(url: str) -> Upstream:
    parts = urlsplit(url)
    host = parse_qs(parts.query).get("host", [parts.hostname or "127.0.0.1"])[0]
    port = parts.port or 5432
    if host.startswith("/"):
        return socket.AF_UNIX, f"{host}/.s.PGSQL.{port}"
    return socket.AF_INET, (host, port)


@pytest.fixture
def starting(pg_url: str) -> Iterator[Callable[..., tuple[StartingServer, str]]]:
    servers: list[StartingServer] = []

    def make(refusals: int, message: str = db_module.STARTING[1]) -> tuple[StartingServer, str]:
        server = StartingServer(_upstream(pg_url), refusals, message)
        servers.append(server)
        parts = urlsplit(pg_url)
        user = parts.username or "postgres"
        password = f":{parts.password}" if parts.password else ""
        return server, f"postgresql://{user}{password}@127.0.0.1:{server.port}{parts.path or '/postgres'}"

    yield make
    for server in servers:
        server.close()


@pytest.mark.parametrize("message", db_module.STARTING)
@pytest.mark.parametrize("kind", ["embedded", "external"])
def test_a_connection_waits_for_a_server_that_is_starting_up(
    starting, message: str, kind: Literal["embedded", "external"]
) -> None:
    server, url = starting(refusals=3, message=message)
    database = Database(url, kind)
    try:
        with database.cursor() as cur:
            cur.execute("SELECT extversion FROM pg_extension WHERE extname = 'vector'")
            assert cur.fetchone() is not None  # the real server behind the stand-in answered
    finally:
        database.close()
    assert server.refused == 3


def test_any_other_refusal_fails_at_once_with_what_to_do(starting) -> None:
    server, url = starting(refusals=5, message='password authentication failed for user "postgres"')
    database = Database(url, "external")
    expected = r"password authentication failed.*Check REWRITE_ASSIST_DATABASE_URL"
    with pytest.raises(DatabaseUnavailable, match=expected), database.cursor():
        pass
    assert server.refused == 1  # not retried
    database.close()


def test_a_server_that_never_finishes_starting_is_reported(starting, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(db_module, "STARTUP_WAIT_S", 0.5)
    server, url = starting(refusals=StartingServer.MAX_CONNECTIONS)
    database = Database(url, "embedded")
    expected = r"not yet accepting connections.*rewrite-assist db start"
    with pytest.raises(DatabaseUnavailable, match=expected), database.cursor():
        pass
    assert 2 <= server.refused < StartingServer.MAX_CONNECTIONS  # it retried, then gave up within the wait
    database.close()


def test_a_call_whose_server_restarts_under_it_is_told_to_retry(starting, pg_url: str) -> None:
    """The connection breaks mid-call and the server answers "starting up" for a moment: the call fails (its
    statement is lost) with "retry", the same as a plain lost connection, not with "the database is down"."""
    import psycopg2

    from rewrite_assist.server.errors import CatalogUnavailable

    server, url = starting(refusals=0)
    database = Database(url, "external")
    with pytest.raises(CatalogUnavailable) as lost, database.cursor() as cur:
        cur.execute("SELECT pg_backend_pid()")
        pid = cur.fetchone()[0]
        server.refusals = server.refused + 3  # the next three connections meet a server still starting up
        killer = psycopg2.connect(pg_url)
        try:
            with killer.cursor() as k:
                k.execute("SELECT pg_terminate_backend(%s)", (pid,))
            killer.commit()
        finally:
            killer.close()
        cur.execute("SELECT 1")
    assert not isinstance(lost.value, DatabaseUnavailable)
    assert "lost during the call" in str(lost.value) and "retry" in str(lost.value)
    assert server.refused == 3  # the probe waited through the restart
    with database.cursor() as cur:  # and the next call works
        cur.execute("SELECT 1")
        assert cur.fetchone() == (1,)
    database.close()
