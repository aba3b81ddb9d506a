"""Fit the diff search's rerank models (``server/search/by_diff/rerank.py``) on the development PR sets, and
measure each on every set with a model fitted on the others.

Data: every case of ``TRAIN_SETS`` (the fresh PR sets already read, and the pr-cases' tune half; never a set
kept blind for a reading, never the pr-cases' check half). Each PR is searched up to the rerank
(``search.diff_pool``) with its case's intent: the pick's first ``rerank.POOL`` hits and its head (the pick's
first ``rerank.HEAD``) give one row of ``rerank.FEATURES`` per pooled recipe for the plain model; the same pool plus
the intent search's recipes the pick did not place give one row of ``FEATURES`` + ``INTENT_FEATURES`` each for the
model with an intent. A row is labelled 1 when the PR's labels name its recipe.

Both models also read ``rerank.LEARNED_FEATURES``: the recipe's labelled share over the training PRs that pooled it
(``prior``), and what the training PRs whose pools overlap this one's most labelled (``neighbours``). A training row's
prior and neighbours leave out its own set's PRs, as a new PR's hold none of its own labels.

Model: gradient boosting on the log-loss (``fit``): ``TREES`` trees of depth at most ``DEPTH``, each leaf holding at
least ``MIN_LEAF`` rows, leaf values a Newton step shrunk by ``L2`` and scaled by ``RATE``. Every row weighs the same,
so a PR with a large pool and many labels counts more than a three-line bump; the measurement below is per PR, as
``eval diff-search`` reports it.

Measurement: leave one set out. Each set is ranked by a model and a prior fitted on the other sets, and its
Recall@5, Recall@10, nDCG@10 and MRR are set beside the pick's own ten. These figures are out of sample for the set
measured, but the features and the settings were chosen looking at all of them: a set read after the fit is the
real test.

    python -m rewrite_assist.evaluation.diff_rerank_train [--output cv.json] [--write]

It prints the measurement of each model; ``--write`` writes the models fitted on every set to
``rerank_models.json``, the prior's counts to ``prior.json`` and the labelled pools to ``neighbours.json``, beside
``rerank.py``, which the search ships.
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

from ..server.search.by_diff import neighbours
from ..server.search.by_diff.neighbours import Neighbours
from ..server.search.by_diff.prior import PATH as PRIOR_PATH
from ..server.search.by_diff.prior import RecipePrior, count
from ..server.search.by_diff.trees import Forest, Tree
from .pr_sets import HELDOUT_SETS

# The sets the model may learn from: the pr-cases' tune half and the first ``READ_SETS`` fresh sets, each of which
# joined only after its own blind reading (set n was read once on the fit before it joined; since round 14 the round
# that first learns from set n is checked by set n + 1; RESULTS has every reading). Fresh sets after them stay out
# until they are read.
READ_SETS = 17
TRAIN_SETS = (*list(HELDOUT_SETS)[:READ_SETS], "pr-cases")
# Boosting (measured leaving one set out, RESULTS: depth 2-4, 100-300 trees, leaves of 20-80 rows all within 0.005
# of each other in Recall@10; a logistic regression over the same features 0.014 below)
TREES = 200
DEPTH = 3
RATE = 0.05
MIN_LEAF = 40
L2 = 1.0  # added to a leaf's summed hessian: a leaf of few uncertain rows moves less


@dataclass
class CaseRows:
    """One PR's pool as training rows."""

    set: str
    id: str
    ids: list[str]  # the pool's recipes, in the pick's order
    head: list[str]  # the pick's own first rerank.HEAD
    rows: np.ndarray  # rerank.search_features: every column but the learned ones, which depend on the fold
    labels: np.ndarray
    relevant: dict[str, int]
    picked: int | None = None  # how many of ``ids`` the pick placed (the rest only the intent found); None: all

    @property
    def pool(self) -> list[str]:
        """The pick's own pool: what the neighbours compare."""
        return self.ids if self.picked is None else self.ids[: self.picked]


def fit(
    rows: np.ndarray,
    labels: np.ndarray,
    *,
    trees: int = TREES,
    depth: int = DEPTH,
    rate: float = RATE,
    min_leaf: int = MIN_LEAF,
    l2: float = L2,
    names: Sequence[str] | None = None,
) -> Forest:
    """Boosted trees for the log-odds of ``labels`` given ``rows`` (``names``: the columns' names, kept with the
    model). Each tree is grown on the gradient and hessian of the log-loss at the current odds."""
    share = float(np.clip(labels.mean(), 1e-6, 1 - 1e-6))
    base = float(np.log(share / (1 - share)))
    odds = np.full(len(labels), base)
    orders = [np.argsort(rows[:, j], kind="stable") for j in range(rows.shape[1])]
    grown = []
    for _ in range(trees):
        p = 1 / (1 + np.exp(-odds))
        tree = grow(rows, p - labels, p * (1 - p), orders, depth=depth, min_leaf=min_leaf, l2=l2, rate=rate)
        odds += tree.predict(rows)
        grown.append(tree)
    columns = tuple(names) if names is not None else tuple(f"f{j}" for j in range(rows.shape[1]))
    return Forest(columns, base, tuple(grown))


def grow(
    rows: np.ndarray,
    gradient: np.ndarray,
    hessian: np.ndarray,
    orders: Sequence[np.ndarray],
    *,
    depth: int,
    min_leaf: int,
    l2: float,
    rate: float,
) -> Tree:
    """One tree, split greedily: at each node the column and threshold that most reduce the second-order loss,
    each side keeping ``min_leaf`` rows; ``orders``: each column's rows sorted by value."""
    feature: list[int] = []
    threshold: list[float] = []
    left: list[int] = []
    right: list[int] = []
    value: list[float] = []

    def node(mask: np.ndarray, level: int) -> int:
        at = len(feature)
        g, h = float(gradient[mask].sum()), float(hessian[mask].sum())
        feature.append(0)
        threshold.append(0.0)
        left.append(-1)
        right.append(-1)
        value.append(-rate * g / (h + l2))
        n = int(mask.sum())
        if level == depth or n < 2 * min_leaf:
            return at
        best_gain, best = 1e-12, None
        for j, order in enumerate(orders):
            ranked = order[mask[order]]
            x = rows[ranked, j]
            cuts = np.arange(min_leaf - 1, n - min_leaf)
            cuts = cuts[x[cuts] < x[cuts + 1]]
            if not len(cuts):
                continue
            gl, hl = np.cumsum(gradient[ranked])[cuts], np.cumsum(hessian[ranked])[cuts]
            gain = gl**2 / (hl + l2) + (g - gl) ** 2 / (h - hl + l2) - g * g / (h + l2)
            k = int(np.argmax(gain))
            if gain[k] > best_gain:
                best_gain, best = float(gain[k]), (j, float((x[cuts[k]] + x[cuts[k] + 1]) / 2))
        if best is None:
            return at
        j, cut = best
        feature[at], threshold[at] = j, cut
        left[at] = node(mask & (rows[:, j] <= cut), level + 1)
        right[at] = node(mask & (rows[:, j] > cut), level + 1)
        return at

    node(np.ones(len(rows), dtype=bool), 0)
    return Tree(
        np.array(feature, dtype=np.int64),
        np.array(threshold),
        np.array(left, dtype=np.int64),
        np.array(right, dtype=np.int64),
        np.array(value),
    )


def with_learned(case: CaseRows, recipe_prior: RecipePrior, nearby: Neighbours) -> np.ndarray:
    """The case's rows with the prior's and the neighbours' columns (``rerank.features``' full width)."""
    from ..server.search.by_diff.rerank import learned_features

    return np.hstack([case.rows, learned_features(case.pool, case.ids, recipe_prior, nearby)])


def counted(pools: Sequence[CaseRows]) -> RecipePrior:
    """The prior of these PRs' pools and labels."""
    return count((c.ids, c.relevant) for c in pools)


def neighbours_of(pools: Sequence[CaseRows]) -> Neighbours:
    """These PRs' pools and labels, as neighbours."""
    return neighbours.of((c.ids, c.relevant) for c in pools)


def fit_cases(
    cases: Sequence[CaseRows], pools: Sequence[CaseRows], *, names: Sequence[str] | None = None, **settings: Any
) -> tuple[Forest, RecipePrior, Neighbours]:
    """A model fitted on ``cases``, with the prior and the neighbours of ``pools`` (the same PRs' pick pools). Each
    case's learned columns come from the other sets' PRs. ``settings``: ``fit``'s."""
    full = counted(pools)
    learned = {
        name: (
            full.minus(counted([p for p in pools if p.set == name])),
            neighbours_of([p for p in pools if p.set != name]),
        )
        for name in {c.set for c in cases}
    }
    rows = np.vstack([with_learned(c, *learned[c.set]) for c in cases])
    model = fit(rows, np.concatenate([c.labels for c in cases]), names=names, **settings)
    return model, full, neighbours_of(pools)


def ranking(case: CaseRows, model: Forest, recipe_prior: RecipePrior, nearby: Neighbours) -> list[str]:
    """The case's pool as the search returns it (``rerank.order``) under ``model``, ``recipe_prior`` and
    ``nearby``."""
    from ..server.search.by_diff.rerank import order

    return [case.ids[n] for n in order(case.ids, case.head, model.logits(with_learned(case, recipe_prior, nearby)))]


def cross_validate(
    cases: Sequence[CaseRows], pools: Sequence[CaseRows] | None = None, **settings: Any
) -> dict[str, dict[str, dict[str, float]]]:
    """Per set: the pick's head and the reranked pool, scored by ``eval diff-search``'s metrics, each set
    ranked by a model and a prior fitted on the other sets (``pools``: the prior's PRs, ``cases`` if not given;
    ``settings``: ``fit``'s)."""
    from .diff_search_eval import rounded_mean, score

    pools = cases if pools is None else pools
    out: dict[str, dict[str, dict[str, float]]] = {}
    for name in dict.fromkeys(c.set for c in cases):
        train = [c for c in cases if c.set != name]
        model, recipe_prior, nearby = fit_cases(train, [p for p in pools if p.set != name], **settings)
        measured = [c for c in cases if c.set == name]
        out[name] = {
            "cases": {"n": float(len(measured))},
            "pick": rounded_mean([score(c.head, c.relevant) for c in measured]),
            "reranked": rounded_mean(
                [score(ranking(c, model, recipe_prior, nearby)[:10], c.relevant) for c in measured]
            ),
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
            for view, out in ((pool.view(plain=True), plain), (pool.view(), with_intent)):
                rows = rerank.search_features(view)
                ids = [h.id for h in view.hits]
                labels = np.array([1.0 if rid in case.relevant else 0.0 for rid in ids])
                out.append(CaseRows(name, case.id, ids, pool.head, rows, labels, dict(case.relevant), pool.picked))
    return plain, with_intent


def render(measured: dict[str, dict[str, dict[str, float]]]) -> str:
    """The measurement table: per set, the pick's ten and the reranked ten."""
    lines = ["set            PRs   pick R@5/R@10/nDCG@10/MRR        reranked (model fitted on the other sets)"]
    for set_name, m in measured.items():
        p, r = m["pick"], m["reranked"]
        lines.append(
            f"{set_name:14s} {int(m['cases']['n']):3d}   "
            + " / ".join(f"{p[k]:.3f}" for k in ("recall@5", "recall@10", "ndcg@10", "mrr"))
            + "   "
            + " / ".join(f"{r[k]:.3f}" for k in ("recall@5", "recall@10", "ndcg@10", "mrr"))
        )
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    from ..server.search.by_diff import rerank, trees
    from ..server.services import Services

    parser = argparse.ArgumentParser(prog="diff_rerank_train", description=__doc__.split("\n\n")[0])
    parser.add_argument("--output", type=Path, help="write the per-set measurement here as JSON")
    parser.add_argument(
        "--write",
        action="store_true",
        help=f"write the models, the prior and the neighbours beside {rerank.MODELS_PATH}",
    )
    args = parser.parse_args(argv)
    state = Services()
    store = state.store()
    store.check_ready()
    plain, with_intent = collect(store, state.embedder)
    # The rows' values depend on the embedding backend in the last decimals (torch and ONNX differ by ~1e-4), enough
    # to move a split: say which one this fit used, so a refit can be run on the same.
    sys.stdout.write(f"embedding backend {state.embedder.backend_name}\n\n")
    measured: dict[str, Any] = {"embedding_backend": state.embedder.backend_name}
    models = {}
    for kind, cases in ((rerank.PLAIN, plain), (rerank.WITH_INTENT, with_intent)):
        models[kind], recipe_prior, nearby = fit_cases(cases, plain, names=rerank.names(kind == rerank.WITH_INTENT))
        measured[kind] = cross_validate(cases, plain)
        sys.stdout.write(f"{kind}\n{render(measured[kind])}\n\n")
    if args.write:
        rerank.MODELS_PATH.write_text(trees.dumps(models))
        PRIOR_PATH.write_text(recipe_prior.to_json())
        neighbours.PATH.write_text(nearby.to_json())
    if args.output:
        args.output.write_text(json.dumps(measured, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
