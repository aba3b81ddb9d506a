"""Fit the diff search's rerank model (``server/search/by_diff/rerank.py``) on the development PR sets, and
measure it on each set with a model fitted on the others.

Data: every case of ``TRAIN_SETS`` (the fresh PR sets already read, and the pr-cases' tune half; never a set
kept blind for a reading, never the pr-cases' check half). For each PR the search runs with the rerank off: its
pool (the pick's first ``rerank.POOL`` hits) and its head (the pick's first ``rerank.HEAD``) give one row of
``rerank.FEATURES`` per pooled recipe, labelled 1 when the PR's labels name the recipe.

Model: a logistic regression on the standardized features (an L2 penalty ``--l2`` on the weights, not on the
bias), fitted by gradient descent. Every row weighs the same, so a PR with a large pool and many labels counts
more than a three-line bump; the measurement below is per PR, as ``eval diff-search`` reports it.

Measurement: leave one set out. Each set is ranked by a model fitted on the other sets, and its Recall@5,
Recall@10, nDCG@10 and MRR are set beside the pick's own ten. These figures are out of sample for the set
measured, but the features and the penalty were chosen looking at all of them: a set read after the fit is the
real test.

    python -m rewrite_assist.evaluation.diff_rerank_train [--l2 10] [--output cv.json]

It prints the measurement and the ``BIAS``/``MODEL`` lines to paste into ``rerank.py``.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from .diff_search_eval import HELDOUT_SETS

# The sets the model may learn from: the fresh sets already read (the first ``READ_SETS``) and the pr-cases' tune
# half. Fresh set 9 was read blind after this fit (round 14) and joins at the next fit, which fresh set 10, unread,
# then checks: a set joins only after its own reading.
READ_SETS = 8
TRAIN_SETS = (*list(HELDOUT_SETS)[:READ_SETS], "pr-cases")
L2 = 100.0  # the weights' penalty, in rows' worth of log-loss per unit² (measured: 1, 10, 100, 1000; RESULTS)
STEPS = 400
RATE = 0.5


@dataclass
class CaseRows:
    """One PR's pool as training rows."""

    set: str
    id: str
    ids: list[str]  # the pool's recipes, in the pick's order
    head: list[str]  # the pick's own first rerank.HEAD
    rows: np.ndarray
    labels: np.ndarray
    relevant: dict[str, int]


@dataclass
class Fit:
    bias: float
    mean: np.ndarray
    scale: np.ndarray
    weights: np.ndarray

    def logits(self, rows: np.ndarray) -> np.ndarray:
        return np.asarray(self.bias + ((rows - self.mean) / self.scale) @ self.weights)

    def model(self, names: Sequence[str]) -> dict[str, tuple[float, float, float]]:
        return {
            name: (round(float(m), 6), round(float(s), 6), round(float(w), 6))
            for name, m, s, w in zip(names, self.mean, self.scale, self.weights, strict=True)
        }


def fit(rows: np.ndarray, labels: np.ndarray, *, l2: float = L2, steps: int = STEPS, rate: float = RATE) -> Fit:
    """Logistic regression of ``labels`` on standardized ``rows``; a constant feature gets scale 1 and weight 0."""
    mean = rows.mean(axis=0)
    scale = rows.std(axis=0)
    scale[scale < 1e-9] = 1.0
    z = (rows - mean) / scale
    weights = np.zeros(rows.shape[1])
    bias = 0.0
    n = len(labels)
    for _ in range(steps):
        p = 1 / (1 + np.exp(-(bias + z @ weights)))
        weights -= rate * (z.T @ (p - labels) / n + l2 * weights / n)
        bias -= rate * float(np.mean(p - labels))
    return Fit(bias, mean, scale, weights)


def ranking(case: CaseRows, model: Fit) -> list[str]:
    """The case's pool as the search returns it (``rerank.order``) under ``model``."""
    from ..server.search.by_diff.rerank import order

    return [case.ids[n] for n in order(case.ids, case.head, model.logits(case.rows))]


def cross_validate(cases: Sequence[CaseRows], *, l2: float = L2) -> dict[str, dict[str, dict[str, float]]]:
    """Per set: the pick's head and the reranked pool, scored by ``eval diff-search``'s metrics, each set
    ranked by a model fitted on the other sets."""
    from .diff_search_eval import score

    out: dict[str, dict[str, dict[str, float]]] = {}
    for name in dict.fromkeys(c.set for c in cases):
        train = [c for c in cases if c.set != name]
        model = fit(np.vstack([c.rows for c in train]), np.concatenate([c.labels for c in train]), l2=l2)
        measured = [c for c in cases if c.set == name]
        out[name] = {
            "cases": {"n": float(len(measured))},
            "pick": _mean([score(c.head, c.relevant) for c in measured]),
            "reranked": _mean([score(ranking(c, model)[:10], c.relevant) for c in measured]),
        }
    return out


def _mean(scores: Sequence[dict[str, float | None]]) -> dict[str, float]:
    keys = ("recall@5", "recall@10", "ndcg@10", "mrr")
    return {k: round(float(np.mean([s[k] or 0.0 for s in scores])), 4) for k in keys}


def collect(store: Any, embedder: Any, sets: Sequence[str] = TRAIN_SETS) -> list[CaseRows]:
    """Every training PR's pool as rows, searched with the rerank off (the pick's order and values)."""
    from ..server.search.by_diff import rerank
    from ..server.search.by_diff.catalog import example_snapshot
    from ..server.search.by_diff.search import find_recipes_for_diff
    from .diff_search_eval import LABELS, half_of, load_pr_cases

    snap = example_snapshot(store)
    out: list[CaseRows] = []
    was = rerank.RERANK
    rerank.RERANK = False
    try:
        for name in sets:
            if name == "pr-cases":
                cases = [c for c in load_pr_cases(Path("../shared/data/pr-cases"), LABELS) if half_of(c.id) == "tune"]
            else:
                cases = load_pr_cases(*HELDOUT_SETS[name])
            for case in cases:
                pool = find_recipes_for_diff(store, embedder, case.diff, limit=rerank.POOL)
                head = [h.id for h in find_recipes_for_diff(store, embedder, case.diff, limit=rerank.HEAD).hits]
                groups = [[g.id for g in group.recipes] for group in pool.groups]
                rows = rerank.features(pool.hits, head, groups, snap, pool.searched_segments, pool.files)
                ids = [h.id for h in pool.hits]
                labels = np.array([1.0 if rid in case.relevant else 0.0 for rid in ids])
                out.append(CaseRows(name, case.id, ids, head, rows, labels, dict(case.relevant)))
    finally:
        rerank.RERANK = was
    return out


def render(names: Sequence[str], model: Fit, measured: dict[str, dict[str, dict[str, float]]]) -> str:
    """The measurement table and the lines to paste into ``rerank.py``."""
    lines = ["set            PRs   pick R@5/R@10/nDCG@10/MRR        reranked (model fitted on the other sets)"]
    for name, m in measured.items():
        p, r = m["pick"], m["reranked"]
        lines.append(
            f"{name:14s} {int(m['cases']['n']):3d}   "
            + " / ".join(f"{p[k]:.3f}" for k in ("recall@5", "recall@10", "ndcg@10", "mrr"))
            + "   "
            + " / ".join(f"{r[k]:.3f}" for k in ("recall@5", "recall@10", "ndcg@10", "mrr"))
        )
    lines.append("")
    lines.append(f"BIAS = {round(model.bias, 6)}")
    lines.append("MODEL: dict[str, tuple[float, float, float]] = {")
    lines.extend(f'    "{name}": {values},' for name, values in model.model(names).items())
    lines.append("}")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    from ..server.search.by_diff import rerank
    from ..server.services import Services

    parser = argparse.ArgumentParser(prog="diff_rerank_train", description=__doc__.split("\n\n")[0])
    parser.add_argument("--l2", type=float, default=L2)
    parser.add_argument("--output", type=Path, help="write the per-set measurement here as JSON")
    args = parser.parse_args(argv)
    state = Services()
    store = state.store()
    store.check_ready()
    cases = collect(store, state.embedder)
    model = fit(np.vstack([c.rows for c in cases]), np.concatenate([c.labels for c in cases]), l2=args.l2)
    measured = cross_validate(cases, l2=args.l2)
    if args.output:
        args.output.write_text(json.dumps(measured, indent=1))
    sys.stdout.write(render(rerank.FEATURES, model, measured) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
