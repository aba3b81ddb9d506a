"""CLI: ``rewrite-assist eval retrieval`` — score recipe search on a graded test set."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from ..server.errors import BadInput
from .pr_sets import HELDOUT_SETS


def register(subparsers: Any) -> None:
    p = subparsers.add_parser("eval", help="evaluate the project (retrieval quality)")
    sub = p.add_subparsers(dest="eval_command", metavar="WHAT", required=True)
    r = sub.add_parser(
        "retrieval",
        help="Recall@k, nDCG, MRR, Hit@5 and latency of find_recipes on a JSONL test set",
        description="Run every case of the test set through find_recipes (the MCP tool's function) and "
        "report IR metrics overall, per category and per kind; optionally the reference system side by side.",
    )
    r.add_argument("--test-set", required=True, type=Path, help="JSONL cases (see retrieval-dev/README.md)")
    r.add_argument("--limit", type=int, default=10, help="results per search (default 10)")
    r.add_argument(
        "--mode",
        choices=["multi", "single"],
        default="multi",
        help="multi: intent + variations in one call (how agents search); single: the intent alone",
    )
    r.add_argument(
        "--baseline",
        choices=["reference"],
        help="also score the reference system's approach on the same catalog in the same run",
    )
    r.add_argument("--output", type=Path, help="write the JSON here and the summary beside it as <name>_summary.txt")
    r.set_defaults(func=run_retrieval)
    d = sub.add_parser(
        "diff-search",
        help="Recall@5/10, nDCG@10, MRR of find_recipes_for_diff on the labelled pr-cases, beside find_recipes",
        description="Search each labelled PR's diff with find_recipes_for_diff and its case.json intent with "
        "find_recipes; score both against evaluation/data/pr-diff-cases.jsonl.",
    )
    d.add_argument(
        "--cases",
        type=Path,
        help="folder of case folders (pr.diff, case.json); default ../shared/data/pr-cases, or the held-out "
        "set's folder under evaluation/data",
    )
    d.add_argument(
        "--set",
        dest="case_set",
        choices=["pr-cases", *HELDOUT_SETS],
        default="pr-cases",
        help=f"pr-cases: the 27 real PRs, split into tune and check halves; held-out … {list(HELDOUT_SETS)[-1]}: "
        "the fresh PR sets written after the tuning (evaluation/data/pr-heldout*)",
    )
    d.add_argument("--output", type=Path, help="write the JSON here")
    d.set_defaults(func=run_diff_search)


def summary_path(output: Path) -> Path:
    """``results/dev.json`` → ``results/dev_summary.txt``."""
    return output.with_name(f"{output.stem}_summary.txt")


def run_retrieval(args: argparse.Namespace) -> int:
    from ..server.catalog.store import now_iso
    from ..server.search.hybrid import QueryError
    from ..server.services import Services
    from .cases import load_cases
    from .report import build_document, render_summary
    from .retrieval import evaluate, our_system, reference_system

    if not 1 <= args.limit <= 50:
        raise BadInput(f"--limit must be between 1 and 50, got {args.limit}")
    cases = load_cases(args.test_set)
    state = Services()
    try:
        store = state.store()
        store.check_ready()
        systems = [our_system(store, state.embedder)]
        if args.baseline == "reference":
            systems.append(reference_system(store, state.embedder))
        runs = evaluate(systems, cases, mode=args.mode, limit=args.limit, warm_up=lambda: state.embedder.encode(["x"]))
        info = store.info().model_dump()
    except QueryError as exc:
        raise BadInput(f"a test case is not a valid query: {exc}") from exc
    doc = build_document(
        runs, cases, test_set=str(args.test_set), mode=args.mode, limit=args.limit, catalog=info, generated_at=now_iso()
    )
    doc["embedding_backend"] = state.embedder.backend_name
    summary = render_summary(doc)
    return _report(doc, summary, args.output)


def run_diff_search(args: argparse.Namespace) -> int:
    from ..server.services import Services
    from .diff_search_eval import (
        LABELS,
        evaluate,
        half_of,
        held_out,
        load_pr_cases,
        render,
    )

    if args.case_set in HELDOUT_SETS:
        folder, labels = HELDOUT_SETS[args.case_set]
        cases = load_pr_cases(args.cases or folder, labels)
        split = held_out
    else:
        cases = load_pr_cases(args.cases or Path("../shared/data/pr-cases"), LABELS)
        split = half_of
    state = Services()
    store = state.store()
    store.check_ready()
    doc = evaluate(store, state.embedder, cases, split=split)
    doc["set"] = args.case_set
    doc["embedding_backend"] = state.embedder.backend_name
    summary = render(doc)
    return _report(doc, summary, args.output)


def _report(doc: dict[str, Any], summary: str, output: Path | None) -> int:
    """Print the summary; with ``output``, also write the JSON there and the summary beside it."""
    if output:
        output.parent.mkdir(parents=True, exist_ok=True)
        output.write_text(json.dumps(doc, indent=2) + "\n", encoding="utf-8")
        summary_path(output).write_text(summary, encoding="utf-8")
        print(f"wrote {output} and {summary_path(output)}", file=sys.stderr)
    print(summary, end="")
    return 0
