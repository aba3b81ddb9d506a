"""The evaluation's outputs: a JSON document with every number and ranking, and a human summary.

The summary reads like a small IR evaluation report: the headline metrics side by side, a paired
comparison (per-case wins and losses, and a randomization test so a difference on a few dozen cases is
not over-read), breakdowns by kind, category and a stable half-split, the worst cases with what was
returned instead, and an interpretation written from the numbers.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from .cases import RetrievalCase
from .metrics import METRIC_NAMES, RECALL_KS
from .retrieval import OURS, REFERENCE, SystemRun

GOALS = {"ndcg@10": 0.80, "recall@5": 0.70, "mrr": 0.90}
WORST_CASES = 8
PERMUTATIONS = 10_000


def paired_randomization_p(ours: Sequence[float], theirs: Sequence[float], *, seed: int = 7) -> float:
    """Two-sided p-value of a paired randomization (sign-flip) test on the mean per-case difference.

    Under the null hypothesis the two systems are exchangeable on every case, so each per-case difference
    is equally likely to have either sign; the p-value is the share of sign assignments whose mean is at
    least as extreme as the observed one. Seeded, so a report is reproducible.
    """
    diffs = [a - b for a, b in zip(ours, theirs, strict=True)]
    if not diffs or all(d == 0 for d in diffs):
        return 1.0
    observed = abs(sum(diffs))
    rng = random.Random(seed)
    extreme = 0
    for _ in range(PERMUTATIONS):
        total = sum(d if rng.random() < 0.5 else -d for d in diffs)
        if abs(total) >= observed - 1e-12:
            extreme += 1
    return (extreme + 1) / (PERMUTATIONS + 1)


def recall_ceiling(cases: Sequence[RetrievalCase], k: int) -> float:
    """The best mean Recall@k any ranking can reach: a case judging more than k recipes cannot get 1."""
    if not cases:
        return 0.0
    total = 0.0
    for case in cases:
        n = sum(1 for g in case.relevant.values() if g > 0)
        total += min(k, n) / n
    return total / len(cases)


def build_document(
    runs: Sequence[SystemRun],
    cases: Sequence[RetrievalCase],
    *,
    test_set: str,
    mode: str,
    limit: int,
    catalog: Mapping[str, Any],
    generated_at: str,
) -> dict[str, Any]:
    """Everything measured, in one JSON-ready dict (the summary is rendered from it)."""
    doc: dict[str, Any] = {
        "test_set": test_set,
        "cases": len(cases),
        "mode": mode,
        "limit": limit,
        "generated_at": generated_at,
        "catalog": dict(catalog),
        "recall_ceiling": {f"recall@{k}": recall_ceiling(cases, k) for k in RECALL_KS},
        "goals": GOALS,
        "systems": {run.system.name: run.as_json() for run in runs},
    }
    by_name = {run.system.name: run for run in runs}
    if OURS in by_name and REFERENCE in by_name:
        doc["comparison"] = compare(by_name[OURS], by_name[REFERENCE])
    return doc


def compare(ours: SystemRun, theirs: SystemRun) -> dict[str, Any]:
    """Per-metric paired comparison of two runs over the same cases."""
    out: dict[str, Any] = {}
    theirs_by_id = {c.id: c for c in theirs.cases}
    pairs = [(c, theirs_by_id[c.id]) for c in ours.cases if c.id in theirs_by_id]
    for name in METRIC_NAMES:
        a = [p[0].metrics[name] for p in pairs]
        b = [p[1].metrics[name] for p in pairs]
        out[name] = {
            "delta": (sum(a) - sum(b)) / len(pairs) if pairs else 0.0,
            "wins": sum(1 for x, y in zip(a, b, strict=True) if x > y),
            "losses": sum(1 for x, y in zip(a, b, strict=True) if x < y),
            "ties": sum(1 for x, y in zip(a, b, strict=True) if x == y),
            "p_value": paired_randomization_p(a, b),
        }
    return out


# ---------------------------------------------------------------------------------------------- summary
def _table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> list[str]:
    """Plain-text table: first column left-aligned, the numbers right-aligned."""
    widths = [max(len(str(r[i])) for r in [header, *rows]) for i in range(len(header))]

    def line(cells: Sequence[str]) -> str:
        return "  ".join(
            str(c).ljust(w) if i == 0 else str(c).rjust(w) for i, (c, w) in enumerate(zip(cells, widths, strict=True))
        )

    return [line(header), "  ".join("-" * w for w in widths), *(line(r) for r in rows)]


def _fmt(value: float) -> str:
    return f"{value:.3f}"


def _p(value: float) -> str:
    """A p-value as printed: the randomization test cannot resolve below 1 / PERMUTATIONS."""
    return "<0.001" if value < 0.001 else f"{value:.3f}"


def render_summary(doc: Mapping[str, Any]) -> str:
    """The human-readable report for ``doc`` (as written next to the JSON, ``*_summary.txt``)."""
    systems: Mapping[str, Any] = doc["systems"]
    names = list(systems)
    lines = [
        f"Retrieval evaluation: {doc['test_set']}",
        f"{doc['cases']} cases, mode {doc['mode']}, top {doc['limit']}; catalog: "
        f"{doc['catalog'].get('recipes', '?')} recipes ({doc['catalog'].get('source', 'unknown source')}); "
        f"{doc['generated_at']}; embedding backend {doc.get('embedding_backend') or '?'}",
        "",
        "Overall (macro-averaged over cases; latency per search call, query embedding included)",
    ]
    comparison = doc.get("comparison", {})
    header = ["metric", *names] + (["delta", "W/L/T", "p"] if comparison else [])
    rows = []
    for metric in [*METRIC_NAMES, "latency_p50_ms", "latency_p95_ms"]:
        row = [metric] + [
            f"{systems[n]['overall'][metric]:.1f}" if "latency" in metric else _fmt(systems[n]["overall"][metric])
            for n in names
        ]
        if comparison:
            c = comparison.get(metric)
            row += (
                [f"{c['delta']:+.3f}", f"{c['wins']}/{c['losses']}/{c['ties']}", _p(c["p_value"])]
                if c
                else ["", "", ""]
            )
        rows.append(row)
    lines += _table(header, rows)
    ceiling = doc["recall_ceiling"]
    lines.append(
        "Recall ceiling (best reachable when a case judges more recipes than k): "
        + ", ".join(f"{k} {v:.3f}" for k, v in ceiling.items())
    )
    for title, key in (("By kind", "by_kind"), ("By category", "by_category"), ("By half of the ids", "by_half")):
        lines += ["", f"{title} (nDCG@10 / Recall@5 / MRR)"]
        groups = list(systems[names[0]][key])
        rows = []
        for group in groups:
            row = [f"{group} ({systems[names[0]][key][group]['cases']})"]
            for n in names:
                g = systems[n][key][group]
                row.append(f"{g['ndcg@10']:.2f} / {g['recall@5']:.2f} / {g['mrr']:.2f}")
            rows.append(row)
        lines += _table(["group", *names], rows)
    primary = OURS if OURS in systems else names[0]
    lines += ["", *_worst_cases(systems[primary]["cases"], primary)]
    lines += ["", "Interpretation", *_interpret(doc, primary)]
    return "\n".join(lines) + "\n"


def _worst_cases(case_rows: Sequence[Mapping[str, Any]], name: str) -> list[str]:
    """The weakest cases by id, with what came back and how many labelled recipes did not. The cases' text and
    labels stay in the test set file (the dev set lives in ../shared and is not copied into a report)."""
    worst = sorted(case_rows, key=lambda c: (c["metrics"]["ndcg@10"], c["metrics"]["mrr"], c["id"]))[:WORST_CASES]
    lines = [f"Worst {len(worst)} cases for {name} (by nDCG@10; read each case by its id in the test set)"]
    for row in worst:
        m = row["metrics"]
        lines.append(
            f"- {row['id']} [{row['category']}/{row['kind']}] nDCG@10 {m['ndcg@10']:.2f}, "
            f"R@5 {m['recall@5']:.2f}, RR {m['mrr']:.2f}"
        )
        lines.append("    returned: " + ", ".join(row["ranking"][:5] or ["nothing"]))
        missed = [f"{n} of grade {g}" for g, n in row["missed_by_grade"].items()]
        if missed:
            lines.append("    missing from the top {}: ".format(len(row["ranking"]) or "results") + ", ".join(missed))
    return lines


def _interpret(doc: Mapping[str, Any], primary: str) -> list[str]:
    systems = doc["systems"]
    ours = systems[primary]["overall"]
    out = []
    goals = [f"{m} {ours[m]:.4f} {'>=' if ours[m] >= g else '<'} {g:.2f}" for m, g in doc["goals"].items()]
    met = sum(1 for m, g in doc["goals"].items() if ours[m] >= g)
    scope = "" if doc["mode"] == "multi" else " (the goals are set for multi mode, how agents search)"
    out.append(f"- Goals: {met}/{len(doc['goals'])} met ({'; '.join(goals)}){scope}.")
    comparison = doc.get("comparison")
    if comparison:
        better = [m for m, c in comparison.items() if c["delta"] > 0]
        significant = [m for m, c in comparison.items() if c["delta"] > 0 and c["p_value"] < 0.05]
        nd = comparison["ndcg@10"]
        out.append(
            f"- Against the reference: higher on {len(better)}/{len(comparison)} metrics; nDCG@10 "
            f"{nd['delta']:+.3f} (better on {nd['wins']} cases, worse on {nd['losses']}, p {_p(nd['p_value'])}); "
            f"{len(significant)} improvement(s) significant at p < 0.05 under a paired randomization test."
        )
        other = next(n for n in systems if n != primary)
        gains = {
            k: v["ndcg@10"] - systems[other]["by_kind"][k]["ndcg@10"] for k, v in systems[primary]["by_kind"].items()
        }
        out.append(
            "- nDCG@10 gain by kind: "
            + ", ".join(f"{k} {d:+.3f}" for k, d in sorted(gains.items(), key=lambda kv: -kv[1]))
            + "."
        )
    ceiling = doc["recall_ceiling"]["recall@5"]
    out.append(
        f"- Recall@5 is bounded by {ceiling:.3f} because some cases judge more than five recipes relevant; "
        f"{primary} reaches {ours['recall@5'] / ceiling:.0%} of that ceiling."
    )
    kinds = systems[primary]["by_kind"]
    weakest_kind = min(kinds, key=lambda k: kinds[k]["ndcg@10"])
    others = ", ".join(f"{k} {v['ndcg@10']:.3f}" for k, v in kinds.items() if k != weakest_kind)
    out.append(
        f"- Weakest kind: {weakest_kind} (nDCG@10 {kinds[weakest_kind]['ndcg@10']:.3f} over "
        f"{kinds[weakest_kind]['cases']} cases)" + (f"; {others}." if others else ".")
    )
    halves = systems[primary]["by_half"]
    if len(halves) == 2:
        (a, ma), (b, mb) = halves.items()
        out.append(
            f"- The two halves of the ids score nDCG@10 {ma['ndcg@10']:.3f} ({a}) and {mb['ndcg@10']:.3f} ({b}): "
            "a large gap would suggest tuning that does not generalise."
        )
    rows: Sequence[Mapping[str, Any]] = systems[primary]["cases"]
    never = sum(1 for r in rows if r["metrics"]["mrr"] == 0)
    late = sum(1 for r in rows if 0 < r["metrics"]["mrr"] < 1)
    unretrieved = sum(r["missed_by_grade"].get("2", 0) for r in rows)
    out.append(
        f"- Failure modes: {never} case(s) with no relevant recipe in the top {doc['limit']}, {late} with a "
        f"relevant recipe but not at rank 1; {unretrieved} grade-2 recipe(s) never reach the top {doc['limit']}."
    )
    out.append(
        f"- Latency p50 {ours['latency_p50_ms']:.0f} ms, p95 {ours['latency_p95_ms']:.0f} ms per call "
        "(all variations embedded in one batch; machine load makes these noisy)."
    )
    return out
