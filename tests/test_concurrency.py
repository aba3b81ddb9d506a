"""Concurrent tool calls and database faults, against the real catalog on the real embedded PostgreSQL.

Agents issue tool calls in parallel and a team shares one HTTP server: a burst must queue for database
connections, a broken connection must cost only its own call, and an outage must be reported as what it
is and heal by itself once the database is back.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import anyio
import pytest
from fixtures.mcp_support import text_of
from mcp import Client

from rewrite_assist.server.catalog.db import CatalogBusy, Database, start_embedded, stop_embedded
from rewrite_assist.server.mcp.app import create_server
from rewrite_assist.server.mcp.state import AppState

INTENTS = [
    "migrate the project from JUnit 4 to JUnit 5",
    ["upgrade to Java 17", "migrate to JDK 17"],
    "replace AdoptOpenJDK with Eclipse Temurin in CI",
    ["change a maven dependency version", "upgrade dependency version in pom.xml"],
]
# What psycopg2's raising pool and a closeall() under other threads used to tell agents.
FORMER_SYMPTOMS = ("pool exhausted", "pool is closed", "cursor already closed", "pointer is NULL")


async def burst(state: AppState, calls: list[tuple[str, dict[str, Any]]]) -> list[Any]:
    """All ``calls`` at once over one in-process client session; results in call order."""
    results: list[Any] = [None] * len(calls)
    async with Client(create_server(state, warm_up=False)) as client:

        async def one(n: int) -> None:
            tool, args = calls[n]
            results[n] = await client.call_tool(tool, args)

        async with anyio.create_task_group() as tg:
            for n in range(len(calls)):
                tg.start_soon(one, n)
    return results


def test_64_concurrent_searches_queue_for_4_connections(catalog, embedder) -> None:
    db = Database(catalog.db.url, "embedded", pool_size=4, pool_timeout=120)
    state = AppState(database_factory=lambda: db, embedder=embedder)
    calls = [("find_recipes", {"intent": INTENTS[n % len(INTENTS)], "limit": 3}) for n in range(64)]
    peak = {"open": 0}
    stop = threading.Event()

    def watch() -> None:
        while not stop.is_set():
            peak["open"] = max(peak["open"], db.open_connections)
            stop.wait(0.005)

    watcher = threading.Thread(target=watch, daemon=True)
    watcher.start()
    try:
        results = anyio.run(burst, state, calls)
    finally:
        stop.set()
        watcher.join()
        db.close()
    failures = [text_of(r) for r in results if r.is_error]
    assert failures == [], failures[:3]
    assert all(r.structured_content["hits"] for r in results)
    # The bound held: 4 pooled connections, plus at most one nested (snapshot) connection per holder.
    assert 1 <= peak["open"] <= 8, peak


def test_an_exhausted_pool_waits_then_serves(catalog) -> None:
    db = Database(catalog.db.url, "embedded", pool_size=2, pool_timeout=60)
    holding = threading.Barrier(3)
    release = threading.Event()
    order: list[str] = []

    def hold(name: str) -> None:
        with db.connection():
            holding.wait()
            release.wait(30)
            order.append(f"{name} released")

    holders = [threading.Thread(target=hold, args=(n,)) for n in ("a", "b")]
    for t in holders:
        t.start()
    holding.wait()  # both connections are out

    def third() -> None:
        with db.cursor() as cur:
            cur.execute("SELECT count(*) FROM recipes")
            order.append(f"third counted {cur.fetchone()[0]}")

    waiter = threading.Thread(target=third)
    waiter.start()
    waiter.join(0.5)
    assert waiter.is_alive() and order == []  # waiting, not failing
    release.set()
    waiter.join(30)
    for t in holders:
        t.join(30)
    counted = f"third counted {catalog.info().recipes}"
    assert order[-1] == counted and order.index(counted) >= 1  # served, after a holder let go
    assert db.open_connections <= 2
    db.close()


def test_a_pool_wait_that_expires_says_busy_and_retry(catalog) -> None:
    db = Database(catalog.db.url, "embedded", pool_size=1, pool_timeout=0.3)
    with db.connection(), pytest.raises(CatalogBusy, match=r"busy.*Retry.*REWRITE_ASSIST_DB_POOL_SIZE"):
        # another thread: a nested acquisition by the holder itself is allowed past the bound
        failure: list[BaseException] = []

        def other() -> None:
            try:
                with db.connection():
                    pass
            except BaseException as exc:
                failure.append(exc)

        t = threading.Thread(target=other)
        t.start()
        t.join(10)
        raise failure[0]
    with db.cursor() as cur:  # and the pool serves again once the holder is done
        cur.execute("SELECT 1")
        assert cur.fetchone()[0] == 1
    db.close()


def test_a_broken_connection_costs_only_its_own_call(catalog) -> None:
    db = Database(catalog.db.url, "embedded", pool_size=4)
    victim_pid: list[int] = []
    survivor_ready = threading.Event()
    victim_done = threading.Event()
    survivor_result: list[int] = []

    def survivor() -> None:
        with db.cursor() as cur:
            survivor_ready.set()
            victim_done.wait(30)
            cur.execute("SELECT count(*) FROM recipes")  # its connection was never closed under it
            survivor_result.append(cur.fetchone()[0])

    t = threading.Thread(target=survivor)
    t.start()
    assert survivor_ready.wait(30)
    with pytest.raises(Exception) as lost, db.cursor() as cur:
        cur.execute("SELECT pg_backend_pid()")
        victim_pid.append(cur.fetchone()[0])
        with catalog.db.cursor() as killer:
            killer.execute("SELECT pg_terminate_backend(%s)", (victim_pid[0],))
        cur.execute("SELECT 1")
    victim_done.set()
    t.join(30)
    assert "lost during the call" in str(lost.value) and "retry" in str(lost.value)
    assert survivor_result == [catalog.info().recipes]
    with db.cursor() as cur:  # the next call gets a working connection
        cur.execute("SELECT pg_backend_pid()")
        assert cur.fetchone()[0] != victim_pid[0]
    db.close()


def _embedded_home(catalog) -> Path:
    if os.environ.get("REWRITE_ASSIST_TEST_DATABASE_URL"):
        pytest.skip("the outage test stops and restarts the embedded test server")
    with catalog.db.cursor() as cur:
        cur.execute("SHOW data_directory")
        return Path(cur.fetchone()[0]).parent


def test_database_outage_mid_load_reports_the_reason_and_heals(catalog, embedder) -> None:
    """Stop the embedded PostgreSQL while 16 callers search, then start it again: calls during the outage
    fail with the real reason, calls after it succeed, and the server object is never rebuilt."""
    home = _embedded_home(catalog)
    db = Database(catalog.db.url, "embedded", pool_size=4, pool_timeout=60)
    state = AppState(database_factory=lambda: db, embedder=embedder)
    phase = {"now": "before"}
    outcomes: dict[str, list[str]] = {"before": [], "switching": [], "outage": [], "after": []}

    async def run() -> None:
        async with Client(create_server(state, warm_up=False)) as client:
            done = anyio.Event()

            async def caller(n: int) -> None:
                while not done.is_set():
                    seen = phase["now"]
                    result = await client.call_tool("find_recipes", {"intent": INTENTS[n % len(INTENTS)]})
                    if phase["now"] == seen:  # only calls wholly inside one phase count for it
                        outcomes[seen].append(text_of(result) if result.is_error else "ok")
                    await anyio.sleep(0.01)

            async def until(count: Callable[[], int], at_least: int, limit_s: float) -> None:
                deadline = anyio.current_time() + limit_s
                while count() < at_least and anyio.current_time() < deadline:
                    await anyio.sleep(0.05)

            async def conductor() -> None:
                # Phases end on what happened, not on a clock: the machine may be slow.
                await until(lambda: len(outcomes["before"]), 16, 300)
                phase["now"] = "switching"
                await anyio.to_thread.run_sync(stop_embedded, home)
                phase["now"] = "outage"
                await until(lambda: len(outcomes["outage"]), 16, 60)
                phase["now"] = "switching"
                await anyio.to_thread.run_sync(start_embedded, home)
                phase["now"] = "after"
                await until(lambda: len(outcomes["after"]), 32, 300)
                done.set()

            async with anyio.create_task_group() as tg:
                for n in range(16):
                    tg.start_soon(caller, n)
                tg.start_soon(conductor)

    try:
        anyio.run(run)
    finally:
        start_embedded(home)  # never leave the session's server down
        db.close()
    assert outcomes["before"] and set(outcomes["before"]) == {"ok"}, outcomes["before"][:3]
    during = [o for o in outcomes["outage"] if o != "ok"]
    assert during, "no call fell inside the outage"
    for message in during:
        assert "Cannot connect to the catalog database" in message or "lost during the call" in message, message
        assert not any(s in message for s in FORMER_SYMPTOMS), message
    assert outcomes["after"] and set(outcomes["after"]) == {"ok"}, [o for o in outcomes["after"] if o != "ok"][:3]
