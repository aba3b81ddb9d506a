"""Benchmark the command line as a user meets it: wall time of whole ``rewrite-assist`` processes.

Needs a built catalog (``rewrite-assist ingest``) in the configured database; the embedded server is
started once before timing, as it stays running between commands. Cases:

- ``--help`` and ``search --help`` (imports only: no catalog, no model);
- ``search`` on a warm catalog, with the ranking snapshot read from its disk cache, and once with the cache
  removed (the first search after an ingest);
- ``show`` and ``status`` (no model);
- ``search`` on an empty catalog with a fresh ``REWRITE_ASSIST_HOME`` (no exported model yet): the time until
  the process has exited, which must be about the time to print the error, not the model export's.

Run: ``python -m rewrite_assist.evaluation.bench_cli [--runs 7]``. Goals (quiet 2-core machine): ``search``
≤ 1.5 s, ``--help`` ≤ 0.5 s. The load average is printed beside the figures: on a busy machine they are
not comparable with those goals.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Sequence
from pathlib import Path

# As a user's shell runs it: Python caches compiled modules (an environment that turns that off pays for
# compiling the package's sources in every process).
BASE_ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
INTENT = ["migrate JUnit 4 tests to JUnit 5", "replace @Test(expected) with assertThrows"]


def timed(args: Sequence[str], env: dict[str, str] | None = None) -> tuple[float, subprocess.CompletedProcess[str]]:
    """Wall seconds of one CLI process (its CPU seconds accumulate in ``cpu_seconds()``)."""
    started = time.perf_counter()
    result = subprocess.run(
        [sys.executable, "-m", "rewrite_assist", *args],
        capture_output=True,
        text=True,
        timeout=600,
        env={**BASE_ENV, **(env or {})},
    )
    return time.perf_counter() - started, result


def cpu_seconds() -> float:
    """User + system CPU of every finished child process so far: less sensitive to a busy machine than wall."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def row(name: str, times: list[float], cpu: list[float]) -> None:
    print(
        f"| {name} | {statistics.median(times):.2f} | {min(times):.2f} | {max(times):.2f} | "
        f"{statistics.median(cpu):.2f} | {len(times)} | {os.getloadavg()[0]:.1f} |",
        flush=True,
    )


def series(name: str, args: Sequence[str], runs: int, env: dict[str, str] | None = None, *, expect: int = 0) -> None:
    times, cpu = [], []
    for _ in range(runs):
        before = cpu_seconds()
        seconds, result = timed(args, env)
        if result.returncode != expect:
            raise SystemExit(f"{name}: exit {result.returncode}, expected {expect}: {result.stderr.strip()[:500]}")
        times.append(seconds)
        cpu.append(cpu_seconds() - before)
    row(name, times, cpu)


def snapshot_cache_dir() -> Path:
    from ..server import config

    return config.home_dir() / "cache"


def empty_catalog_case(runs: int) -> None:
    """``search`` against an empty database on the running server, with a fresh home (no model export)."""
    import psycopg2

    from ..server.catalog.db import resolve_url

    url, _kind = resolve_url(start=True)
    name = f"bench_empty_{uuid.uuid4().hex[:8]}"
    admin = psycopg2.connect(url)
    admin.autocommit = True
    try:
        with admin.cursor() as cur:
            cur.execute(f'CREATE DATABASE "{name}"')
        empty_url = url.rsplit("/", 1)[0] + "/" + name
        for fresh_home in (True, False):
            home = tempfile.mkdtemp(prefix="bench-cli-home-")
            try:
                env = {"REWRITE_ASSIST_DATABASE_URL": empty_url}
                if fresh_home:
                    env["REWRITE_ASSIST_HOME"] = home
                label = (
                    "search, empty catalog, fresh home (model never exported)"
                    if fresh_home
                    else ("search, empty catalog")
                )
                series(label, ["search", *INTENT], runs, env, expect=1)
            finally:
                shutil.rmtree(home, ignore_errors=True)
    finally:
        with admin.cursor() as cur:
            cur.execute(f'DROP DATABASE IF EXISTS "{name}"')
        admin.close()


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=7, help="processes per case (default 7)")
    args = parser.parse_args(argv)
    _seconds, status = timed(["status", "--json"])  # starts the embedded server if needed; warms the OS cache
    if status.returncode != 0 or '"recipes": 0' in status.stdout:
        raise SystemExit("no catalog: run `rewrite-assist ingest` first")
    timed(["search", *INTENT])  # writes the snapshot cache if missing; loads the model files into the page cache
    print(f"{os.cpu_count()} CPUs; load average before: {os.getloadavg()[0]:.1f}")
    print(
        "| command | wall median s | wall min s | wall max s | CPU median s | runs | load (1 min) |\n"
        "| --- | --- | --- | --- | --- | --- | --- |"
    )
    series("--help", ["--help"], args.runs)
    series("search --help", ["search", "--help"], args.runs)
    series("search (2 variations), warm", ["search", *INTENT], args.runs)
    series("search --json, warm", ["search", *INTENT, "--json"], args.runs)
    series("show", ["show", "org.openrewrite.java.testing.junit5.JUnit4to5Migration"], args.runs)
    series("status", ["status"], args.runs)
    cold, cold_cpu = [], []
    for _ in range(max(1, args.runs // 3)):
        for stale in snapshot_cache_dir().glob("ranking-*.pickle"):
            stale.unlink()
        before = cpu_seconds()
        cold.append(timed(["search", *INTENT])[0])
        cold_cpu.append(cpu_seconds() - before)
    row("search, snapshot cache removed (the first search after an ingest)", cold, cold_cpu)
    empty_catalog_case(max(1, args.runs // 3))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
