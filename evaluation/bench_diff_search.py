"""Benchmark ``find_recipes_for_diff`` on a 2,000-line PR diff (goal: under 1 s once the catalog is warm).

The diff is built from the real pr-cases: their ``pr.diff`` files, concatenated (each file once) until the
text holds 2,000 lines, so it mixes Gradle, Maven, YAML, Dockerfile, properties and Java hunks. The
first call loads the example snapshot and the model (reported separately as the cold call); the warm
calls are what an agent waits for in a running server.

    python -m rewrite_assist.evaluation.bench_diff_search [--cases ../shared/data/pr-cases] [--runs 5]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

GOAL_LINES = 2_000
GOAL_SECONDS = 1.0


def build_diff(cases: Path, lines: int = GOAL_LINES) -> str:
    """Sections of the pr-cases' diffs, each file path once, until ``lines`` lines."""
    out: list[str] = []
    seen: set[str] = set()
    for diff in sorted(cases.glob("*/pr.diff")):
        text = diff.read_text(encoding="utf-8", errors="replace")
        for section in text.split("diff --git ")[1:]:
            header = section.split("\n", 1)[0]
            if header in seen or "Binary files" in section:
                continue
            seen.add(header)
            out.extend(("diff --git " + section).rstrip("\n").split("\n"))
            if len(out) >= lines:
                return "\n".join(out) + "\n"
    return "\n".join(out) + "\n"


def main(argv: list[str] | None = None) -> int:
    from ..server.search.by_diff.search import find_recipes_for_diff
    from ..server.services import Services

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cases", type=Path, default=Path("../shared/data/pr-cases"))
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args(argv)
    text = build_diff(args.cases)
    state = Services()
    store = state.store()
    start = time.perf_counter()
    result = find_recipes_for_diff(store, state.embedder, text)
    cold = time.perf_counter() - start
    warm = []
    for _ in range(args.runs):
        start = time.perf_counter()
        result = find_recipes_for_diff(store, state.embedder, text)
        warm.append(time.perf_counter() - start)
    median = statistics.median(warm)
    print(
        f"diff: {text.count(chr(10))} lines, {result.files} files, {result.hunks} hunks, "
        f"{result.searched_segments} searched, {len(result.skipped)} skipped notes"
    )
    print(f"cold call (snapshot + model load): {cold:.2f} s")
    print(f"warm calls: median {median:.3f} s, max {max(warm):.3f} s over {args.runs} runs (goal < {GOAL_SECONDS} s)")
    return 0 if median < GOAL_SECONDS else 1


if __name__ == "__main__":
    sys.exit(main())
