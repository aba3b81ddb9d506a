"""Load, soak and outage benchmark of the MCP server, on loopback only, bounded in calls and time.

    python evaluation/bench_load.py load   [--clients 1,8,32,64] [--calls 6] [--transport both]
    python evaluation/bench_load.py soak   [--minutes 10] [--clients 16]
    python evaluation/bench_load.py outage [--clients 16]

Starts its own server (``rewrite-assist serve``) on the catalog the environment points at: run
``rewrite-assist ingest`` first (set ``REWRITE_ASSIST_HOME`` to keep it apart). Over HTTP the server binds
127.0.0.1 on a free port with a random ``REWRITE_ASSIST_TOKEN``; K clients each keep one call in flight.
Over stdio one client session keeps K calls in flight. Every call is one of a realistic mix, in turn:
find_recipes with 1 and with 5 variations, get_recipe, lint_recipe (inline YAML) and analyze_diffs (inline
text). Reports throughput, p50/p95/p99 latency and errors per level; ``soak`` also the server's RSS, open
file descriptors and database connections at start and end; ``outage`` stops the embedded database
mid-load and starts it again (the server reaches it through ``REWRITE_ASSIST_DATABASE_URL`` there, so it
cannot restart it by itself) and classifies every call as before, during or after the outage.
Each level stops issuing calls after ``--level-seconds``; the whole run is capped by ``--max-seconds``.
"""

from __future__ import annotations

import argparse
import json
import os
import secrets
import socket
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Callable
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import anyio

from .bench_server import VARIATIONS, pct

RECIPE = """type: specs.openrewrite.org/v1beta/recipe
name: com.example.UseTemurin
displayName: Use Temurin
recipeList:
  - org.openrewrite.github.SetupJavaAdoptOpenJDKToTemurin
  - org.openrewrite.java.ChangeType:
      oldFullyQualifiedTypeName: org.junit.Test
      newFullyQualifiedTypeName: org.junit.jupiter.api.Test
"""
PR_DIFF = (
    "diff --git a/.github/workflows/ci.yml b/.github/workflows/ci.yml\n--- a/.github/workflows/ci.yml\n"
    "+++ b/.github/workflows/ci.yml\n@@ -10,3 +10,3 @@\n       with:\n-        distribution: adopt\n"
    "+        distribution: temurin\n         java-version: 17\n"
)
RECIPE_DIFF = PR_DIFF.replace("java-version: 17", "java-version: '17'")
MIX: list[tuple[str, dict[str, Any]]] = [
    ("find_recipes", {"intent": VARIATIONS[0]}),
    ("find_recipes", {"intent": VARIATIONS}),
    ("get_recipe", {"recipe_id": "org.openrewrite.java.testing.junit5.JUnit4to5Migration"}),
    ("lint_recipe", {"recipe": RECIPE}),
    ("analyze_diffs", {"pr_diff": PR_DIFF, "recipe_diff": RECIPE_DIFF}),
]
DB_MIX = MIX[:3]  # the outage run: calls that need the database


@dataclass
class Call:
    tool: str
    started: float
    ended: float
    error: str | None


@dataclass
class Level:
    transport: str
    clients: int
    in_flight: int
    calls: list[Call] = field(default_factory=list)
    wall_s: float = 0.0

    def row(self) -> dict[str, Any]:
        lat = sorted((c.ended - c.started) * 1000 for c in self.calls)
        errors = [c for c in self.calls if c.error]
        return {
            "transport": self.transport,
            "clients": self.clients,
            "in_flight": self.in_flight,
            "calls": len(self.calls),
            "throughput_per_s": round(len(self.calls) / self.wall_s, 1) if self.wall_s else 0.0,
            "p50_ms": round(pct(lat, 0.50), 1),
            "p95_ms": round(pct(lat, 0.95), 1),
            "p99_ms": round(pct(lat, 0.99), 1),
            "errors": len(errors),
            "error_kinds": dict(Counter(first_words(c.error or "") for c in errors)),
        }


def first_words(message: str) -> str:
    text = message.removeprefix("Error executing tool ").split(": ", 1)[-1]
    return text[:90]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class HttpServer:
    """``rewrite-assist serve --transport http`` on 127.0.0.1 with a fresh token; stopped on exit."""

    def __init__(self, env: dict[str, str]) -> None:
        self.token = secrets.token_hex(16)
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}/mcp"
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "rewrite_assist", "serve", "--transport", "http", "--port", str(self.port)],
            env={**env, "REWRITE_ASSIST_TOKEN": self.token},
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise SystemExit(f"the server exited with code {self.proc.returncode}")
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.5):
                    return
            except OSError:
                time.sleep(0.2)
        self.stop()
        raise SystemExit("the server did not listen within 120 s")

    def client(self) -> AbstractAsyncContextManager[Any]:
        from mcp import Client
        from mcp.client.streamable_http import streamable_http_client
        from mcp.shared._httpx_utils import create_mcp_http_client

        http = create_mcp_http_client(headers={"authorization": f"Bearer {self.token}"})
        return Client(streamable_http_client(self.url, http_client=http))

    def stop(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.proc.kill()


def stdio_client(env: dict[str, str]) -> AbstractAsyncContextManager[Any]:
    from mcp import Client, StdioServerParameters

    return Client(StdioServerParameters(command=sys.executable, args=["-m", "rewrite_assist", "serve"], env=env))


def server_process(pid_hint: int | None) -> Any:
    """The server's psutil process: the HTTP child we started, or the stdio child the SDK started."""
    import psutil

    if pid_hint is not None:
        return psutil.Process(pid_hint)
    for child in psutil.Process().children(recursive=True):
        if "serve" in " ".join(child.cmdline()):
            return child
    return None


def database_connections() -> int | None:
    """Client connections the catalog database holds, besides this probe's own."""
    import psycopg2

    from rewrite_assist.server.catalog.db import resolve_url

    try:
        url, _ = resolve_url(start=False)
        conn = psycopg2.connect(url, connect_timeout=5)
    except Exception:
        return None
    try:
        with conn.cursor() as cur:
            cur.execute(
                "SELECT count(*) FROM pg_stat_activity "
                "WHERE backend_type = 'client backend' AND pid <> pg_backend_pid()"
            )
            return int(cur.fetchone()[0])
    finally:
        conn.close()


def resources(proc: Any) -> dict[str, Any]:
    if proc is None:
        return {}
    return {
        "rss_mb": round(proc.memory_info().rss / 1024 / 1024, 1),
        "open_fds": proc.num_fds(),
        "db_connections": database_connections(),
    }


async def drive(
    sessions: list[Any],
    per_session: int,
    mix: list[tuple[str, dict[str, Any]]],
    *,
    calls_each: int | None,
    seconds: float,
    on_tick: Callable[[float], Any] | None = None,
) -> tuple[list[Call], float]:
    """Keep ``per_session`` calls in flight on every session until each worker made ``calls_each`` calls or
    ``seconds`` passed; returns the calls and the wall time."""
    calls: list[Call] = []
    start = time.perf_counter()
    deadline = start + seconds

    async def worker(session: Any, n: int) -> None:
        made = 0
        while time.perf_counter() < deadline and (calls_each is None or made < calls_each):
            tool, args = mix[(n + made) % len(mix)]
            t = time.perf_counter()
            try:
                result = await session.call_tool(tool, args)
                error = " ".join(getattr(b, "text", "") for b in result.content) if result.is_error else None
            except Exception as exc:  # a transport failure counts as an error too
                error = f"{type(exc).__name__}: {exc}"
            calls.append(Call(tool, t, time.perf_counter(), error))
            made += 1

    async with anyio.create_task_group() as tg:
        for s, session in enumerate(sessions):
            for k in range(per_session):
                tg.start_soon(worker, session, s * per_session + k)
        if on_tick is not None:
            tg.start_soon(on_tick, start)
    return calls, time.perf_counter() - start


async def warm(session: Any) -> None:
    for tool, args in MIX:
        await session.call_tool(tool, args)


async def http_level(server: HttpServer, clients: int, calls_each: int, seconds: float) -> Level:
    from contextlib import AsyncExitStack

    async with AsyncExitStack() as stack:
        sessions = [await stack.enter_async_context(server.client()) for _ in range(clients)]
        await warm(sessions[0])
        calls, wall = await drive(sessions, 1, MIX, calls_each=calls_each, seconds=seconds)
    return Level("http", clients, clients, calls, wall)


async def stdio_level(env: dict[str, str], in_flight: int, calls_each: int, seconds: float) -> Level:
    async with stdio_client(env) as session:
        await warm(session)
        calls, wall = await drive([session], in_flight, MIX, calls_each=calls_each, seconds=seconds)
    return Level("stdio", 1, in_flight, calls, wall)


def run_load(args: argparse.Namespace, env: dict[str, str]) -> dict[str, Any]:
    levels = [int(k) for k in args.clients.split(",")]
    rows: list[dict[str, Any]] = []
    started = time.monotonic()
    if args.transport in ("http", "both"):
        server = HttpServer(env)
        try:
            proc = server_process(server.proc.pid)
            for k in levels:
                if time.monotonic() - started > args.max_seconds:
                    break
                level = anyio.run(http_level, server, k, args.calls, args.level_seconds)
                rows.append({**level.row(), **resources(proc)})
                print(json.dumps(rows[-1]), file=sys.stderr)
        finally:
            server.stop()
    if args.transport in ("stdio", "both"):
        for k in levels:
            if time.monotonic() - started > args.max_seconds:
                break
            level = anyio.run(stdio_level, env, k, args.calls, args.level_seconds)
            rows.append(level.row())
            print(json.dumps(rows[-1]), file=sys.stderr)
    return {"mode": "load", "rows": rows}


def run_soak(args: argparse.Namespace, env: dict[str, str]) -> dict[str, Any]:
    minutes = min(args.minutes, 15.0)
    server = HttpServer(env)
    samples: list[dict[str, Any]] = []
    try:
        proc = server_process(server.proc.pid)

        async def soak() -> Level:
            from contextlib import AsyncExitStack

            async with AsyncExitStack() as stack:
                sessions = [await stack.enter_async_context(server.client()) for _ in range(args.clients)]
                await warm(sessions[0])
                samples.append({"t_s": 0, **resources(proc)})

                async def sampler(start: float) -> None:
                    while time.perf_counter() - start < minutes * 60 - 1:
                        await anyio.sleep(min(30.0, max(1.0, minutes * 60 - 1 - (time.perf_counter() - start))))
                        samples.append({"t_s": round(time.perf_counter() - start), **resources(proc)})

                calls, wall = await drive(sessions, 1, MIX, calls_each=None, seconds=minutes * 60, on_tick=sampler)
            level = Level("http", args.clients, args.clients, calls, wall)
            samples.append({"t_s": round(wall), "after_clients_closed": True, **resources(proc)})
            return level

        row = anyio.run(soak).row()
    finally:
        server.stop()
    return {"mode": "soak", "minutes": minutes, "row": row, "samples": samples}


def run_outage(args: argparse.Namespace, env: dict[str, str]) -> dict[str, Any]:
    from rewrite_assist.server.catalog.db import embedded_status, start_embedded, stop_embedded

    url = embedded_status()
    if url is None:
        url = start_embedded()
    # Through the external-URL setting the server cannot restart the database itself: a true outage.
    server = HttpServer({**env, "REWRITE_ASSIST_DATABASE_URL": url})
    marks: dict[str, float] = {}
    try:

        async def outage() -> tuple[list[Call], float]:
            from contextlib import AsyncExitStack

            async with AsyncExitStack() as stack:
                sessions = [await stack.enter_async_context(server.client()) for _ in range(args.clients)]
                await warm(sessions[0])

                async def conductor(start: float) -> None:
                    await anyio.sleep(args.outage_at)
                    marks["stop_begin"] = time.perf_counter()
                    await anyio.to_thread.run_sync(stop_embedded)
                    marks["stopped"] = time.perf_counter()
                    await anyio.sleep(args.outage_seconds)
                    marks["start_begin"] = time.perf_counter()
                    await anyio.to_thread.run_sync(start_embedded)
                    marks["started"] = time.perf_counter()

                total = args.outage_at + args.outage_seconds + args.after_seconds
                return await drive(sessions, 1, DB_MIX, calls_each=None, seconds=total, on_tick=conductor)

        calls, wall = anyio.run(outage)
    finally:
        server.stop()
        if embedded_status() is None:
            start_embedded()
    phases: dict[str, list[Call]] = {"before": [], "during": [], "after": [], "straddling": []}
    for c in calls:
        if c.ended < marks["stop_begin"]:
            phases["before"].append(c)
        elif c.started >= marks["stopped"] and c.ended <= marks["start_begin"]:
            phases["during"].append(c)
        elif c.started >= marks["started"]:
            phases["after"].append(c)
        else:
            phases["straddling"].append(c)
    report: dict[str, Any] = {"mode": "outage", "clients": args.clients, "wall_s": round(wall, 1)}
    for name, group in phases.items():
        errors = [c for c in group if c.error]
        report[name] = {
            "calls": len(group),
            "errors": len(errors),
            "messages": dict(Counter(first_words(c.error or "") for c in errors).most_common(4)),
        }
    after_ok = [c for c in phases["after"] if not c.error]
    report["first_success_after_restart_s"] = (
        round(min(c.ended for c in after_ok) - marks["started"], 2) if after_ok else None
    )
    report["outage_s"] = round(marks["start_begin"] - marks["stopped"], 1)
    return report


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("mode", choices=["load", "soak", "outage"])
    parser.add_argument("--clients", default=None, help="load: comma-separated levels (default 1,8,32,64)")
    parser.add_argument("--calls", type=int, default=6, help="load: calls per in-flight slot per level")
    parser.add_argument("--transport", choices=["http", "stdio", "both"], default="both")
    parser.add_argument("--level-seconds", type=float, default=180.0, help="stop issuing calls after this")
    parser.add_argument("--max-seconds", type=float, default=1800.0, help="no new level after this")
    parser.add_argument("--minutes", type=float, default=10.0, help="soak: duration (at most 15)")
    parser.add_argument("--outage-at", type=float, default=5.0)
    parser.add_argument("--outage-seconds", type=float, default=5.0)
    parser.add_argument("--after-seconds", type=float, default=10.0)
    parser.add_argument("--out", type=Path, help="also write the JSON report here")
    args = parser.parse_args(argv)
    if args.mode == "load":
        args.clients = args.clients or "1,8,32,64"
    else:
        args.clients = int(args.clients or 16)
    env = {k: v for k, v in os.environ.items() if k != "REWRITE_ASSIST_TOKEN"}
    runner = {"load": run_load, "soak": run_soak, "outage": run_outage}[args.mode]
    report = runner(args, env)
    report["machine"] = {"cpus": os.cpu_count(), "python": sys.version.split()[0]}
    text = json.dumps(report, indent=2)
    print(text)
    if args.out:
        args.out.write_text(text + "\n")
    if args.mode == "load":
        print_table(report["rows"])
    return 0


def print_table(rows: list[dict[str, Any]]) -> None:
    print(
        "| transport | clients | in flight | calls | calls/s | p50 ms | p95 ms | p99 ms | errors | RSS MB |",
        file=sys.stderr,
    )
    print("|---|---|---|---|---|---|---|---|---|---|", file=sys.stderr)
    for r in rows:
        print(
            f"| {r['transport']} | {r['clients']} | {r['in_flight']} | {r['calls']} | {r['throughput_per_s']} | "
            f"{r['p50_ms']} | {r['p95_ms']} | {r['p99_ms']} | {r['errors']} | {r.get('rss_mb', '')} |",
            file=sys.stderr,
        )


if __name__ == "__main__":
    sys.exit(main())
