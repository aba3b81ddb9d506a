"""Benchmark: the MCP server on the real catalog, and our search vs. a reference-shaped query, in one run.

    python -m rewrite_assist.evaluation.bench_server [--runs 30]

Uses the catalog the environment points at (``REWRITE_ASSIST_DATABASE_URL`` or the embedded one; run
``rewrite-assist ingest`` first). Measures: process start → ``initialize`` answered (stdio subprocess);
first ``find_recipes`` after start; warm ``find_recipes`` p50/p95 for 1 and 5 variations (with the Python
SDK client, and p50 with a bare JSON-RPC client on the pipes); ``get_recipe`` p50; and, in-process, our
5-variation search vs. the reference system's shape (one embedding call and one sequential cosine query
per variation, ordered by ``1 - distance``, which cannot use the index), with the same embedder, and the
process CPU time per in-process search (comparable across runs on a busy machine, unlike the wall times).
Goals: initialize ≤ 1 s; warm 5-variation p50 ≤ 30 ms; ≥ 2× faster than the reference shape.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from typing import Any

import anyio

VARIATIONS = [
    "migrate the project from JUnit 4 to JUnit 5",
    "replace org.junit.Test with org.junit.jupiter.api.Test",
    "upgrade unit tests to Jupiter",
    "convert @Before and @After to @BeforeEach and @AfterEach",
    "change junit dependency in build.gradle to junit-jupiter",
]


def pct(values: list[float], q: float) -> float:
    """The ``q`` quantile of ``values`` (nearest rank; 0.0 when there are none)."""
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


async def over_stdio(runs: int) -> dict[str, float]:
    from mcp import Client, StdioServerParameters

    params = StdioServerParameters(command=sys.executable, args=["-m", "rewrite_assist", "serve"], env=dict(os.environ))
    started = time.perf_counter()
    async with Client(params) as client:
        initialized = time.perf_counter() - started
        t = time.perf_counter()
        await client.call_tool("find_recipes", {"intent": VARIATIONS[:2]})
        first = time.perf_counter() - t
        one, five, get = [], [], []
        for _ in range(runs):
            t = time.perf_counter()
            await client.call_tool("find_recipes", {"intent": VARIATIONS[0]})
            one.append(time.perf_counter() - t)
            t = time.perf_counter()
            await client.call_tool("find_recipes", {"intent": VARIATIONS})
            five.append(time.perf_counter() - t)
            t = time.perf_counter()
            await client.call_tool(
                "get_recipe", {"recipe_id": "org.openrewrite.java.testing.junit5.JUnit4to5Migration"}
            )
            get.append(time.perf_counter() - t)
    ms = 1000
    return {
        "initialize_s": round(initialized, 3),
        "first_find_recipes_s": round(first, 3),
        "find_1_variation_p50_ms": round(statistics.median(one) * ms, 1),
        "find_1_variation_p95_ms": round(pct(one, 0.95) * ms, 1),
        "find_5_variations_p50_ms": round(statistics.median(five) * ms, 1),
        "find_5_variations_p95_ms": round(pct(five, 0.95) * ms, 1),
        "get_recipe_p50_ms": round(statistics.median(get) * ms, 1),
    }


def over_raw_stdio(runs: int) -> dict[str, float]:
    """The same warm calls from a bare JSON-RPC client on the pipes: the server's latency without the
    Python SDK client's own work (pydantic parsing, output-schema validation)."""
    import subprocess

    proc = subprocess.Popen(
        [sys.executable, "-m", "rewrite_assist", "serve"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        env=dict(os.environ),
    )
    assert proc.stdin is not None and proc.stdout is not None
    stdin, stdout = proc.stdin, proc.stdout
    counter = 0

    def send(method: str, params: dict[str, Any], *, notify: bool = False) -> dict[str, Any]:
        nonlocal counter
        message: dict[str, Any] = {"jsonrpc": "2.0", "method": method, "params": params}
        if not notify:
            counter += 1
            message["id"] = counter
        stdin.write((json.dumps(message) + "\n").encode())
        stdin.flush()
        while not notify:
            reply: dict[str, Any] = json.loads(stdout.readline())
            if reply.get("id") == counter:
                if "error" in reply or reply.get("result", {}).get("isError"):
                    raise RuntimeError(f"{method} failed: {reply}")
                return reply
        return {}

    try:
        send(
            "initialize",
            {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "bench", "version": "0"}},
        )
        send("notifications/initialized", {}, notify=True)
        send("tools/call", {"name": "find_recipes", "arguments": {"intent": VARIATIONS[:2]}})
        timings: dict[str, list[float]] = {"1": [], "5": []}
        for _ in range(runs):
            for key, intent in (("1", VARIATIONS[0]), ("5", VARIATIONS)):
                t = time.perf_counter()
                send("tools/call", {"name": "find_recipes", "arguments": {"intent": intent}})
                timings[key].append(time.perf_counter() - t)
    finally:
        stdin.close()
        proc.wait(timeout=30)
    return {
        "raw_find_1_variation_p50_ms": round(statistics.median(timings["1"]) * 1000, 1),
        "raw_find_5_variations_p50_ms": round(statistics.median(timings["5"]) * 1000, 1),
    }


def reference_shaped(store: Any, embedder: Any, queries: list[str], limit: int = 5) -> list[str]:
    """The reference system's query shape: per variation, embed alone and scan by ``1 - distance``."""
    from ..server.config import MODEL_KEY

    fused: dict[str, float] = {}
    for query in queries:
        vector = embedder.encode([query])[0]
        with store.db.connection() as conn, conn.cursor() as cur:
            cur.execute(
                "SELECT r.id, 1 - (e.embedding <=> %s) AS score FROM recipe_embeddings e "
                "JOIN recipes r ON r.id = e.recipe_id WHERE e.model = %s AND 1 - (e.embedding <=> %s) >= 0.5 "
                "ORDER BY score DESC LIMIT %s",
                (vector, MODEL_KEY, vector, limit * 2),
            )
            for rank, (rid, _score) in enumerate(cur.fetchall(), start=1):
                fused[rid] = fused.get(rid, 0.0) + 1 / (60 + rank)
    return sorted(fused, key=lambda r: -fused[r])[:limit]


def in_process(runs: int) -> dict[str, float | str]:
    from ..server.search.hybrid import find_recipes
    from ..server.services import Services

    state = Services()
    store = state.store()
    find_recipes(store, state.embedder, VARIATIONS)  # warm both paths
    reference_shaped(store, state.embedder, VARIATIONS)
    ours, ref, cpu = [], [], []
    for _ in range(runs):
        t, c = time.perf_counter(), time.process_time()
        find_recipes(store, state.embedder, VARIATIONS)
        ours.append(time.perf_counter() - t)
        cpu.append(time.process_time() - c)
        t = time.perf_counter()
        reference_shaped(store, state.embedder, VARIATIONS)
        ref.append(time.perf_counter() - t)
    return {
        "embedding_backend": state.embedder.backend_name or "?",
        "ours_5_variations_p50_ms": round(statistics.median(ours) * 1000, 1),
        # CPU of this process (every thread: the model's, the search's) per search: moves far less than
        # the wall time when other work shares the cores
        "ours_5_variations_cpu_p50_ms": round(statistics.median(cpu) * 1000, 1),
        "reference_shape_5_variations_p50_ms": round(statistics.median(ref) * 1000, 1),
        "speedup": round(statistics.median(ref) / statistics.median(ours), 2),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=30)
    args = parser.parse_args()
    result: dict[str, object] = dict(anyio.run(over_stdio, args.runs))
    result.update(over_raw_stdio(args.runs))
    result.update(in_process(args.runs))
    result["goals"] = {"initialize_s": 1.0, "find_5_variations_p50_ms": 30, "speedup": 2.0}
    print(json.dumps(result, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
