"""Fit the weights of the query-aware catalog evidence (``server/search/rerank.py``) on pseudo-queries the
catalog writes itself, never on a test set.

Each sampled recipe's description, cut to its first sentence, stands in for a one-phrase query whose right
answer is that recipe (unless it repeats the whole display name, see ``name_overlap``). Every such query
runs through ``find_recipes`` with the rerank weights at zero; each wrong hit ranked within the top
``--depth`` makes a training pair with the right recipe: the difference of their fused scores and of their
``rerank.FEATURES``. A logistic regression without intercept on those differences says how much each
feature is worth relative to the fused score itself: its weight divided by the score difference's weight is
the tuning value (a negative one is a penalty).

    python -m rewrite_assist.evaluation.rerank_train [--sample 600] [--seed 11] [--depth 10] [--max-name-overlap 0.99]
"""

from __future__ import annotations

import argparse
import dataclasses
import random
import re
import sys
from collections.abc import Sequence

import numpy as np

_SENTENCE_END = re.compile(r"(?<=[a-z0-9`)])\.\s")
_MARKUP = re.compile(r"\[([^\]]*)\]\([^)]*\)|[`*_]")


def pseudo_query(description: str, *, max_words: int = 14) -> str | None:
    """The first sentence of a description, links and markup removed, at most ``max_words`` words."""
    text = _MARKUP.sub(lambda m: m.group(1) or "", description).strip()
    text = _SENTENCE_END.split(text, maxsplit=1)[0].strip().rstrip(".")
    words = text.split()
    if len(words) < 3:
        return None
    return " ".join(words[:max_words])


def name_overlap(query: str, name_terms: frozenset[str]) -> float:
    """The share of a display name's terms a pseudo-query repeats. Real queries are rarely the recipe's name
    reworded; descriptions often are, and would teach the fit that repeating the name is all that counts."""
    from ..server.search.intent import terms

    return len(name_terms & set(terms(query))) / len(name_terms) if name_terms else 1.0


def fit_pairwise(margins: np.ndarray, diffs: np.ndarray, *, steps: int = 3000, l2: float = 1e-3) -> np.ndarray:
    """Logistic regression of P(right above wrong) on [score margin, feature differences], no intercept;
    returns the feature weights divided by the margin's weight."""
    x = np.column_stack([margins, diffs])
    scale = np.maximum(np.abs(x).max(axis=0), 1e-9)
    xs = x / scale
    beta = np.zeros(xs.shape[1])
    rate = 0.5
    for _ in range(steps):
        p = 1 / (1 + np.exp(-(xs @ beta)))
        grad = -(xs.T @ (1 - p)) / len(xs) + l2 * beta
        beta -= rate * grad
    beta = beta / scale
    if beta[0] <= 0:
        raise SystemExit("the fused score does not predict the right recipe on these pseudo-queries; no fit")
    return np.asarray(beta[1:] / beta[0])


def main(argv: Sequence[str] | None = None) -> int:
    from ..server.search.hybrid import DEFAULT_TUNING, find_recipes
    from ..server.search.priors import is_generated_fragment
    from ..server.search.rerank import FEATURES, features, query_intents
    from ..server.search.snapshot import snapshot_for
    from ..server.services import Services

    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sample", type=int, default=600)
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--depth", type=int, default=10)
    parser.add_argument(
        "--max-name-overlap",
        type=float,
        default=0.99,
        help="skip a pseudo-query that repeats more than this share of its recipe's display-name terms",
    )
    args = parser.parse_args(argv)

    state = Services()
    store = state.store()
    snapshot = snapshot_for(store, store.check_ready(), DEFAULT_TUNING.model_key)
    eligible = sorted(
        rid for rid, row in snapshot.rows.items() if not row.facts.republished_copy and not is_generated_fragment(rid)
    )
    random.Random(args.seed).shuffle(eligible)
    recipes = store.get_recipes(eligible[: args.sample * 2])
    base = dataclasses.replace(DEFAULT_TUNING, name_miss_weight=0.0, search_for_change_weight=0.0, against_weight=0.0)
    margins: list[float] = []
    diffs: list[list[float]] = []
    queries = found = 0
    for rid in eligible[: args.sample * 2]:
        recipe = recipes.get(rid)
        query = pseudo_query(recipe.description) if recipe else None
        if query is None or name_overlap(query, snapshot.rows[rid].facts.name_terms) > args.max_name_overlap:
            continue
        queries += 1
        hits = find_recipes(store, state.embedder, query, limit=30, tuning=base).hits
        scores = {h.id: h.fusion_score for h in hits}
        if rid not in scores:
            if queries >= args.sample:
                break
            continue
        found += 1
        intents = query_intents([query])
        copies = set(snapshot.same_class([rid])[rid])
        right = np.array(features(snapshot.rows[rid].facts, intents, snapshot.name_idf))
        for hit in hits[: args.depth]:
            if hit.id == rid or hit.id in copies:
                continue
            wrong = np.array(features(snapshot.rows[hit.id].facts, intents, snapshot.name_idf))
            margins.append(scores[rid] - scores[hit.id])
            diffs.append((right - wrong).tolist())
        if queries >= args.sample:
            break
    weights = fit_pairwise(np.array(margins), np.array(diffs))
    print(f"{queries} pseudo-queries, right recipe in the top 30 for {found}, {len(margins)} pairs", file=sys.stderr)
    for name, weight in zip(FEATURES, weights, strict=True):
        print(f"{name}_weight = {weight:.4f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
