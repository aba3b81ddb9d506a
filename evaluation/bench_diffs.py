"""Benchmark ``analyze_diffs``: time and peak memory on generated diffs of 10k, 100k and 1M changed lines.

Goal (issue #4): linear growth, and 100k changed lines scored in at most 2 s on a 2-core machine.
Each size runs in a fresh subprocess so one size's peak memory does not hide the next one's.

    python -m rewrite_assist.evaluation.bench_diffs            # 10k, 100k, 1M
    python -m rewrite_assist.evaluation.bench_diffs --sizes 10000 100000 --check

The generated PR diff holds ``n`` changed lines in files of 1,000, as hunks of 5 removed + 5 added lines
between context lines. The recipe diff is the same change with one hunk in ten edited differently and
OpenRewrite's recipe name after every ``@@``, so matching, the per-file breakdown, the unmatched-line
listing and the header cleaning all do real work.
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import time
import tracemalloc

GOAL_LINES = 100_000
GOAL_SECONDS = 2.0
LINES_PER_FILE = 1_000


def generate(n_changed: int, *, recipe: bool = False) -> str:
    """A git-style diff with ``n_changed`` added + removed lines (the recipe variant differs slightly)."""
    out: list[str] = []
    hunks_per_file = LINES_PER_FILE // 10
    n_hunks = max(1, n_changed // 10)
    for h in range(n_hunks):
        f, k = divmod(h, hunks_per_file)
        if k == 0:
            name = f"src/main/java/org/example/pkg{f % 50}/Generated{f}.java"
            out.append(f"diff --git a/{name} b/{name}\nindex 1111111..2222222 100644\n")
            out.append(f"--- a/{name}\n+++ b/{name}\n")
        start = k * 20 + 1
        tail = " org.openrewrite.java.migrate.UpgradeToJava21" if recipe else ""
        out.append(f"@@ -{start},8 +{start},8 @@{tail}\n     // context {k}\n")
        variant = "changed" if recipe and k % 10 == 3 else "new"
        out.extend(f"-    int value{i} = oldCall({f}, {k}, {i});\n" for i in range(5))
        out.extend(f"+    int value{i} = {variant}Call({f}, {k}, {i});\n" for i in range(5))
        out.append("     }\n     \n")
    return "".join(out)


def measure(n_changed: int, *, trace: bool) -> dict[str, float | int]:
    """Time one analysis (best of a few runs for small sizes); optionally a traced run for peak memory."""
    from ..server.diffs import analyze_diffs

    pr, recipe = generate(n_changed), generate(n_changed, recipe=True)
    rss_before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    repeats = 3 if n_changed <= 100_000 else 1
    best, best_cpu = float("inf"), float("inf")
    for _ in range(repeats):
        t0, c0 = time.perf_counter(), time.process_time()
        analysis = analyze_diffs(pr, recipe)
        best, best_cpu = min(best, time.perf_counter() - t0), min(best_cpu, time.process_time() - c0)
    result: dict[str, float | int] = {
        "changed_lines": analysis.metrics.total_expected_changes,
        "diff_mb": round((len(pr) + len(recipe)) / 1e6, 1),
        "seconds": round(best, 3),
        "cpu_seconds": round(best_cpu, 3),
        "us_per_line": round(best / analysis.metrics.total_expected_changes * 1e6, 2),
        "maxrss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1),
        "rss_growth_mb": round((resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - rss_before) / 1024, 1),
        "f1": analysis.metrics.f1_score,
    }
    if trace:
        tracemalloc.start()
        analyze_diffs(pr, recipe)
        result["traced_peak_mb"] = round(tracemalloc.get_traced_memory()[1] / 1e6, 1)
        tracemalloc.stop()
    return result


def _run_child(n: int, trace: bool) -> dict[str, float | int]:
    cmd = [sys.executable, "-m", "rewrite_assist.evaluation.bench_diffs", "--single", str(n)]
    if not trace:
        cmd.append("--no-trace")
    done = subprocess.run(cmd, capture_output=True, text=True, check=True)
    return dict(json.loads(done.stdout))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[10_000, 100_000, 1_000_000])
    parser.add_argument("--no-trace", action="store_true", help="skip the tracemalloc run (faster)")
    parser.add_argument("--check", action="store_true", help=f"exit 1 if {GOAL_LINES} lines take > {GOAL_SECONDS}s")
    parser.add_argument("--single", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.single:
        print(json.dumps(measure(args.single, trace=not args.no_trace)))
        return 0
    rows = [_run_child(n, not args.no_trace) for n in args.sizes]
    keys = list(rows[0])
    print("  ".join(f"{k:>14}" for k in keys))
    for row in rows:
        print("  ".join(f"{row.get(k, ''):>14}" for k in keys))
    per_line = [float(r["us_per_line"]) for r in rows]
    print(f"time per changed line, largest / smallest size: {max(per_line) / min(per_line):.2f}x (1.0 = linear)")
    goal = next((r for r in rows if r["changed_lines"] == GOAL_LINES), None)
    if goal is not None:
        verdict = "met" if float(goal["seconds"]) <= GOAL_SECONDS else "MISSED"
        print(f"goal {GOAL_LINES} changed lines <= {GOAL_SECONDS}s: {goal['seconds']}s, {verdict}")
        if args.check and verdict != "met":
            return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
