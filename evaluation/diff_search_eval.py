"""``rewrite-assist eval diff-search``: find_recipes_for_diff on labelled PRs, alone and told each case's intent
text, beside find_recipes on that intent text.

Two labelled sets exist. The 27 real pr-cases (``evaluation/data/pr-diff-cases.jsonl``, diffs under
``../shared/data/pr-cases``) are split into a tune half and a check half. The fresh held-out sets
(``HELDOUT_SETS``: diffs under ``evaluation/data/pr-heldout*``, labels beside them) were written and labelled
after the tuning, by people who had not seen the search, so every case of them is held out. The labels
say which catalog recipes reproduce each PR's changes (grade 2: the core change, 1: a part or a helpful step).
Both systems are scored with the same metrics as the retrieval evaluation (Recall@5/10 over every labelled
recipe, nDCG@10, MRR).
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..server.catalog.store import CatalogStore
from ..server.embedding import Embedder
from ..server.errors import BadInput
from .metrics import capped_recall_at, ndcg_at, recall_at, reciprocal_rank
from .pr_sets import DATA

LABELS = DATA / "pr-diff-cases.jsonl"
SYSTEMS = ("diff", "intent", "both", "diff_intent")  # see ``render`` for what each is
METRICS = ("recall@5", "recall@10", "ndcg@10", "mrr", "capped_recall@10", "core_recall@10")
# Not every case has a grade-2 label: a mean over the cases that have one.
OPTIONAL = {"core_recall@10"}
HALVES = ("tune", "check", "held-out", "all")


@dataclass
class PrCase:
    id: str
    relevant: dict[str, int]
    diff: str
    intent: str


def load_pr_cases(cases_dir: Path, labels: Path = LABELS) -> list[PrCase]:
    """The cases labelled in ``labels`` with their PR diff and intent text from ``cases_dir`` (one folder per
    case holding ``pr.diff`` and ``case.json``)."""
    if not cases_dir.is_dir():
        raise BadInput(f"pr-cases folder not found: {cases_dir} (pass --cases DIR)")
    if not labels.is_file():
        raise BadInput(f"labels file not found: {labels} (pass --labels FILE)")
    out = []
    for line in labels.read_text(encoding="utf-8").splitlines():
        if not line.strip():
            continue
        row = json.loads(line)
        folder = cases_dir / row["id"]
        case = json.loads((folder / "case.json").read_text(encoding="utf-8"))
        diff = (folder / "pr.diff").read_text(encoding="utf-8", errors="replace")
        out.append(PrCase(row["id"], {k: int(v) for k, v in row["relevant"].items()}, diff, case["intent"]))
    return out


def repository(case_id: str) -> str:
    """The repository a case comes from: its id without the ``-prN`` suffix."""
    return re.sub(r"-pr\d+$", "", case_id)


def half_of(case_id: str, case_ids: list[str] | None = None) -> str:
    """``tune`` or ``check``: the repositories in alphabetical order, odd positions (1, 3, 5, ...) tune the
    diff search, even positions are the held-out check half, never looked at while tuning. Splitting by
    repository keeps a PR's sibling PRs (often the same change) on the same side."""
    if case_ids is None:
        case_ids = [json.loads(line)["id"] for line in LABELS.read_text(encoding="utf-8").splitlines() if line.strip()]
    repos = sorted({repository(c) for c in [*case_ids, case_id]})
    return "tune" if repos.index(repository(case_id)) % 2 == 0 else "check"


def score(ranking: list[str], relevant: dict[str, int]) -> dict[str, float | None]:
    """The pr-case metrics of one ranking. Beside the standard ones: Recall@10 capped at the labels that fit in
    ten places, and Recall@10 of the grade-2 labels alone (None without one), because a PR labelled with 20
    recipes cannot reach a Recall@10 of 1 and a long tail of grade-1 composites would otherwise hide whether the
    core changes were found."""
    return {
        "recall@5": recall_at(ranking, relevant, 5),
        "recall@10": recall_at(ranking, relevant, 10),
        "ndcg@10": ndcg_at(ranking, relevant, 10),
        "mrr": reciprocal_rank(ranking, relevant),
        "capped_recall@10": capped_recall_at(ranking, relevant, 10),
        "core_recall@10": recall_at(ranking, core, 10)
        if (core := {k: 2 for k, v in relevant.items() if v == 2})
        else None,
    }


def held_out(case_id: str) -> str:
    """The split of a set nobody tuned on: every case is held out."""
    return "held-out"


def evaluate(
    store: CatalogStore,
    embedder: Embedder,
    cases: list[PrCase],
    *,
    limit: int = 10,
    split: Callable[[str], str] = half_of,
) -> dict[str, Any]:
    """Per case and overall metrics of both systems, with latencies; ``split`` names each case's part
    (``half_of`` for the pr-cases, ``held_out`` for a set nobody tuned on)."""
    from ..server.search.by_diff.search import find_recipes_for_diff
    from ..server.search.hybrid import find_recipes

    rows: list[dict[str, Any]] = []
    for case in cases:
        start = time.perf_counter()
        diff_hits = [h.id for h in find_recipes_for_diff(store, embedder, case.diff, limit=limit).hits]
        diff_ms = (time.perf_counter() - start) * 1000
        start = time.perf_counter()
        intent_hits = [h.id for h in find_recipes(store, embedder, case.intent, limit=limit).hits]
        intent_ms = (time.perf_counter() - start) * 1000
        both = interleave(diff_hits, intent_hits)[:limit]
        # the diff search told the PR's intent too (``find_recipes_for_diff(..., intent=...)``)
        with_intent = [
            h.id for h in find_recipes_for_diff(store, embedder, case.diff, limit=limit, intent=case.intent).hits
        ]
        rows.append(
            {
                "id": case.id,
                "half": split(case.id),
                "intent_names_a_label": any(rid in case.intent for rid in case.relevant),
                "diff": {"ranking": diff_hits, "ms": round(diff_ms, 1), **score(diff_hits, case.relevant)},
                "intent": {"ranking": intent_hits, "ms": round(intent_ms, 1), **score(intent_hits, case.relevant)},
                "both": {"ranking": both, **score(both, case.relevant)},
                "diff_intent": {"ranking": with_intent, **score(with_intent, case.relevant)},
            }
        )
    overall = {system: rounded_mean([r[system] for r in rows]) for system in SYSTEMS}
    halves = {
        half: {
            "cases": len(part),
            **{system: rounded_mean([r[system] for r in part]) for system in SYSTEMS},
        }
        for half in HALVES
        if (part := [r for r in rows if half in {"all", r["half"]}])
    }
    return {"limit": limit, "cases": len(rows), "overall": overall, "halves": halves, "per_case": rows}


def interleave(first: list[str], second: list[str]) -> list[str]:
    """Alternate two rankings (first's best first), each id once: what an agent running both sees."""
    out: list[str] = []
    for pair in zip(first, second, strict=False):
        for rid in pair:
            if rid not in out:
                out.append(rid)
    for rid in first[len(second) :] + second[len(first) :]:
        if rid not in out:
            out.append(rid)
    return out


def mean_scores(rows: Sequence[Mapping[str, Any]]) -> dict[str, float]:
    """Each metric's mean over the cases that have it (``core_recall@10`` needs a grade-2 label)."""
    out = {}
    for m in METRICS:
        values = [r[m] for r in rows if r.get(m) is not None]
        out[m] = sum(values) / len(values) if values else 0.0
    return out


def rounded_mean(rows: Sequence[Mapping[str, Any]]) -> dict[str, float]:
    """``mean_scores`` to four decimals, as the reports give them."""
    return {k: round(v, 4) for k, v in mean_scores(rows).items()}


def render(doc: dict[str, Any]) -> str:
    """The summary: totals per half for every system, and per-case recall for the tune half only."""
    if "tune" in doc["halves"] or "check" in doc["halves"]:
        head = (
            f"pr-cases: {doc['cases']} labelled PRs, top {doc['limit']}; tune half: repositories 1, 3, 5, ... "
            "alphabetically, check half: 2, 4, 6, ... (held out from tuning)"
        )
    else:
        head = f"{doc['cases']} labelled PRs nobody tuned on, top {doc['limit']}"
    if doc.get("embedding_backend"):
        # ONNX and torch vectors agree to cosine 0.9999, which can swap recipes tied to the fourth decimal.
        head += f"; embedding backend {doc['embedding_backend']}"
    lines = [
        head,
        f"{'system':<40} {'half':<8} {'cases':>5} {'R@5':>6} {'R@10':>6} {'nDCG@10':>8} {'MRR':>6} "
        f"{'capR@10':>8} {'2R@10':>6}",
    ]
    names = {
        "diff": "find_recipes_for_diff(pr.diff)",
        "intent": "find_recipes(case.json intent)",
        "both": "both, interleaved (top 10)",
        "diff_intent": "find_recipes_for_diff(pr.diff, intent)",
    }
    for system, label in names.items():
        for half, part in doc["halves"].items():
            m = part.get(system)
            if m is None:  # a report written before the system existed
                continue
            lines.append(
                f"{label:<40} {half:<8} {part['cases']:>5} {m['recall@5']:>6.3f} {m['recall@10']:>6.3f} "
                f"{m['ndcg@10']:>8.3f} {m['mrr']:>6.3f} {m.get('capped_recall@10', 0.0):>8.3f} "
                f"{m.get('core_recall@10', 0.0):>6.3f}"
            )
    named = sum(1 for row in doc["per_case"] if row["intent_names_a_label"])
    lines.append(f"({named} of {doc['cases']} intents name a labelled recipe id in their text, marked *)")
    lines.append(
        "(capR@10: labelled recipes in the top 10 over min(10, labelled); 2R@10: Recall@10 of the grade-2 labels, "
        "over the cases that have one)"
    )
    lines.append("")
    lines.append(f"{'case':<48} {'half':<6} {'diff R@10':>9} {'intent R@10':>11}")
    for row in doc["per_case"]:
        if row["half"] != "tune":
            continue
        mark = "*" if row["intent_names_a_label"] else " "
        diff_r, intent_r = row["diff"]["recall@10"], row["intent"]["recall@10"]
        lines.append(f"{row['id']:<47}{mark} {row['half']:<6} {diff_r:>9.2f} {intent_r:>11.2f}")
    lines.append(
        "(held-out cases are not listed, so whoever tunes on this summary stays blind to them; "
        "their rankings are in the JSON)"
    )
    return "\n".join(lines) + "\n"
