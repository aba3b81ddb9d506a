"""Measure retrieval levers one at a time: each ``--variant`` overrides ``SearchTuning`` fields (or
``min_score``) on top of the defaults and is scored on the test set by the same harness as
``rewrite-assist eval retrieval``, with both halves of the ids shown so a lever that only helps one half
is visible.

    python -m rewrite_assist.evaluation.sweep --test-set ../shared/data/retrieval-dev/cases.jsonl \\
        --variant lexical_weight=0 --variant softness=0 --variant expand_top=0 --variant min_score=0.4
"""

from __future__ import annotations

import argparse
import dataclasses
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

HEADLINE = ("ndcg@10", "recall@5", "mrr", "hit@5", "recall@10")


def parse_variant(text: str, defaults: Any) -> tuple[str, dict[str, Any]]:
    """``"a=1,b=0.5"`` → overrides with each value cast to the type of the default it replaces."""
    overrides: dict[str, Any] = {}
    for part in filter(None, (p.strip() for p in text.split(","))):
        key, sep, raw = part.partition("=")
        if not sep:
            raise ValueError(f"variant part {part!r} is not key=value")
        if key == "min_score":
            overrides[key] = float(raw)
            continue
        if key not in {f.name for f in dataclasses.fields(defaults)}:
            raise ValueError(f"unknown tuning field {key!r}")
        kind = type(getattr(defaults, key))
        overrides[key] = raw if kind is str else kind(float(raw)) if kind is int else kind(raw)
    return text or "defaults", overrides


def main(argv: Sequence[str] | None = None) -> int:
    from ..server.search.hybrid import DEFAULT_MIN_SCORE, DEFAULT_TUNING
    from ..server.services import Services
    from .cases import load_cases
    from .retrieval import our_system, run_system

    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--test-set", required=True, type=Path)
    parser.add_argument("--mode", choices=["multi", "single"], default="multi")
    parser.add_argument("--limit", type=int, default=10)
    parser.add_argument("--variant", action="append", default=[], help="key=value[,key=value...]")
    args = parser.parse_args(argv)

    cases = load_cases(args.test_set)
    state = Services()
    store = state.store()
    variants: list[tuple[str, dict[str, Any]]] = [("defaults", {})]
    variants += [parse_variant(v, DEFAULT_TUNING) for v in args.variant]
    print(f"{'variant':44s} " + " ".join(f"{m:>9s}" for m in HEADLINE) + "   even/odd nDCG@10   p50 ms")
    for label, overrides in variants:
        min_score = overrides.pop("min_score", DEFAULT_MIN_SCORE)
        tuning = dataclasses.replace(DEFAULT_TUNING, **overrides)
        system = our_system(store, state.embedder, tuning=tuning, min_score=min_score)
        system.search(cases[0].queries(args.mode), args.limit)  # warm up
        run = run_system(system, cases, mode=args.mode, limit=args.limit)
        overall = run.overall()
        halves = run.grouped(lambda c: c.half)
        half_text = "/".join(f"{halves[h]['ndcg@10']:.3f}" for h in sorted(halves))
        print(
            f"{label[:44]:44s} "
            + " ".join(f"{overall[m]:9.3f}" for m in HEADLINE)
            + f"   {half_text:>17s}   {overall['latency_p50_ms']:6.0f}",
            flush=True,
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
