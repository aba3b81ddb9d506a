"""Fit the diff search's rerank models (``server/search/by_diff/rerank.py``) on the development PR sets, and
measure each on every set with a model fitted on the others.

Data: every case of ``TRAIN_SETS`` (the fresh PR sets already read, and the pr-cases' tune half; never a set
kept blind for a reading, never the pr-cases' check half). Each PR is searched up to the rerank
(``search.diff_pool``) with its case's intent: the pick's first ``rerank.POOL`` hits and its head (the pick's
first ``rerank.HEAD``) give one row of ``rerank.FEATURES`` per pooled recipe for ``MODEL``; the same pool plus
the intent search's recipes the pick did not place give one row of ``FEATURES`` + ``INTENT_FEATURES`` each for
``MODEL_WITH_INTENT``. A row is labelled 1 when the PR's labels name its recipe.

Model: a logistic regression on the standardized features (an L2 penalty ``--l2`` on the weights, not on the
bias), fitted by gradient descent. Every row weighs the same, so a PR with a large pool and many labels counts
more than a three-line bump; the measurement below is per PR, as ``eval diff-search`` reports it.

Measurement: leave one set out. Each set is ranked by a model fitted on the other sets, and its Recall@5,
Recall@10, nDCG@10 and MRR are set beside the pick's own ten. These figures are out of sample for the set
measured, but the features and the penalty were chosen looking at all of them: a set read after the fit is the
real test.

    python -m rewrite_assist.evaluation.diff_rerank_train [--l2 100] [--output cv.json]

It prints, for each model, the measurement and the lines to paste into ``rerank.py``.
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
# half. Fresh set 9 was read blind after round 14's fit and joined at round 15's, which fresh set 10 checks: a set
# joins only after its own reading.
READ_SETS = 9
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
    """A fitted model: the features' standardization (mean, scale), their weights and the bias."""

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
    from .diff_search_eval import rounded_mean, score

    out: dict[str, dict[str, dict[str, float]]] = {}
    for name in dict.fromkeys(c.set for c in cases):
        train = [c for c in cases if c.set != name]
        model = fit(np.vstack([c.rows for c in train]), np.concatenate([c.labels for c in train]), l2=l2)
        measured = [c for c in cases if c.set == name]
        out[name] = {
            "cases": {"n": float(len(measured))},
            "pick": rounded_mean([score(c.head, c.relevant) for c in measured]),
            "reranked": rounded_mean([score(ranking(c, model)[:10], c.relevant) for c in measured]),
        }
    return out


def collect(store: Any, embedder: Any, sets: Sequence[str] = TRAIN_SETS) -> tuple[list[CaseRows], list[CaseRows]]:
    """Every training PR's pool as rows, once as searched without an intent and once with its case's intent
    (``search.diff_pool``: the pick's order and values, before the rerank)."""
    from ..server.search.by_diff import rerank
    from ..server.search.by_diff.search import diff_pool
    from .diff_search_eval import LABELS, half_of, load_pr_cases

    plain: list[CaseRows] = []
    with_intent: list[CaseRows] = []
    for name in sets:
        if name == "pr-cases":
            cases = [c for c in load_pr_cases(Path("../shared/data/pr-cases"), LABELS) if half_of(c.id) == "tune"]
        else:
            cases = load_pr_cases(*HELDOUT_SETS[name])
        for case in cases:
            pool = diff_pool(store, embedder, case.diff, depth=rerank.POOL, intent=case.intent)
            groups = [[g.id for g in group.recipes] for group in pool.groups]
            for hits, ranking, out in ((pool.hits[: pool.picked], None, plain), (pool.hits, pool.intent, with_intent)):
                rows = rerank.features(hits, pool.head, groups, pool.snap, pool.segments, pool.files, ranking)
                ids = [h.id for h in hits]
                labels = np.array([1.0 if rid in case.relevant else 0.0 for rid in ids])
                out.append(CaseRows(name, case.id, ids, pool.head, rows, labels, dict(case.relevant)))
    return plain, with_intent


def render(name: str, features: Sequence[str], model: Fit, measured: dict[str, dict[str, dict[str, float]]]) -> str:
    """The measurement table and the lines to paste into ``rerank.py`` (``name``: ``MODEL`` or
    ``MODEL_WITH_INTENT``, its bias beside it)."""
    lines = ["set            PRs   pick R@5/R@10/nDCG@10/MRR        reranked (model fitted on the other sets)"]
    for set_name, m in measured.items():
        p, r = m["pick"], m["reranked"]
        lines.append(
            f"{set_name:14s} {int(m['cases']['n']):3d}   "
            + " / ".join(f"{p[k]:.3f}" for k in ("recall@5", "recall@10", "ndcg@10", "mrr"))
            + "   "
            + " / ".join(f"{r[k]:.3f}" for k in ("recall@5", "recall@10", "ndcg@10", "mrr"))
        )
    lines.append("")
    lines.append(f"{name.replace('MODEL', 'BIAS')} = {round(model.bias, 6)}")
    lines.append(f"{name}: dict[str, tuple[float, float, float]] = {{")
    lines.extend(f'    "{feature}": {values},' for feature, values in model.model(features).items())
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
    plain, with_intent = collect(store, state.embedder)
    measured = {}
    for name, cases, features in (
        ("MODEL", plain, rerank.names(False)),
        ("MODEL_WITH_INTENT", with_intent, rerank.names(True)),
    ):
        model = fit(np.vstack([c.rows for c in cases]), np.concatenate([c.labels for c in cases]), l2=args.l2)
        measured[name] = cross_validate(cases, l2=args.l2)
        sys.stdout.write(render(name, features, model, measured[name]) + "\n\n")
    if args.output:
        args.output.write_text(json.dumps(measured, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
