"""Ranking metrics for graded relevance, as IR evaluations define them.

Every function takes the system's ranking (recipe ids, best first) and the judged relevance
(``{recipe id: grade}``, grades 1-2; anything absent is grade 0). A ranking may repeat an id; a repeat
keeps its slot (the reader still sees it) but earns nothing, so a system cannot gain twice for one recipe.
Ties between equally graded recipes need no special handling: swapping them leaves every metric
unchanged, which the tests check.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

Judgments = Mapping[str, int]


def grades(ranking: Sequence[str], judgments: Judgments, k: int | None = None) -> list[int]:
    """The grade at each of the first ``k`` positions; a repeated id is grade 0 after its first occurrence."""
    seen: set[str] = set()
    out = []
    for rid in ranking[:k]:
        out.append(0 if rid in seen else max(judgments.get(rid, 0), 0))
        seen.add(rid)
    return out


def _relevant(judgments: Judgments) -> set[str]:
    return {rid for rid, grade in judgments.items() if grade > 0}


def recall_at(ranking: Sequence[str], judgments: Judgments, k: int) -> float:
    """Fraction of the relevant recipes (grade ≥ 1) found in the top ``k``."""
    relevant = _relevant(judgments)
    if not relevant:
        return 0.0
    return sum(1 for g in grades(ranking, judgments, k) if g > 0) / len(relevant)


def capped_recall_at(ranking: Sequence[str], judgments: Judgments, k: int) -> float:
    """Relevant recipes found in the top ``k`` over the most that fit there (``min(k, relevant)``): 1.0 is
    reachable even when more than ``k`` recipes are judged relevant, so a long label list does not cap it."""
    relevant = _relevant(judgments)
    if not relevant:
        return 0.0
    return sum(1 for g in grades(ranking, judgments, k) if g > 0) / min(k, len(relevant))


def hit_at(ranking: Sequence[str], judgments: Judgments, k: int) -> float:
    """1.0 when at least one relevant recipe is in the top ``k``, else 0.0."""
    return 1.0 if any(g > 0 for g in grades(ranking, judgments, k)) else 0.0


def reciprocal_rank(ranking: Sequence[str], judgments: Judgments) -> float:
    """1 / rank of the first relevant recipe (1-based); 0.0 when none was returned."""
    for rank, g in enumerate(grades(ranking, judgments), start=1):
        if g > 0:
            return 1.0 / rank
    return 0.0


def gain(grade: int) -> float:
    """Exponential gain 2^grade − 1: a grade-2 recipe is worth three grade-1 ones."""
    return float(2**grade - 1) if grade > 0 else 0.0


def dcg(grades: Sequence[int]) -> float:
    """Discounted cumulative gain of grades listed in rank order (discount log2(rank + 1))."""
    return sum(gain(g) / math.log2(rank + 1) for rank, g in enumerate(grades, start=1))


def ndcg_at(ranking: Sequence[str], judgments: Judgments, k: int) -> float:
    """DCG of the top ``k`` divided by the DCG of the ideal top ``k`` (all judged recipes, best grade first)."""
    ideal = dcg(sorted((g for g in judgments.values() if g > 0), reverse=True)[:k])
    if ideal == 0:
        return 0.0
    actual = dcg(grades(ranking, judgments, k))
    return actual / ideal


def percentile(values: Sequence[float], q: float) -> float:
    """The ``q``-th percentile (0-100) with linear interpolation between order statistics (numpy's default)."""
    if not values:
        return 0.0
    ordered = sorted(values)
    position = (len(ordered) - 1) * q / 100.0
    low = math.floor(position)
    high = math.ceil(position)
    return ordered[low] + (ordered[high] - ordered[low]) * (position - low)


RECALL_KS = (1, 3, 5, 10)
NDCG_KS = (5, 10)


def case_metrics(ranking: Sequence[str], judgments: Judgments) -> dict[str, float]:
    """All per-case metrics the report aggregates, keyed like ``recall@5``."""
    out = {f"recall@{k}": recall_at(ranking, judgments, k) for k in RECALL_KS}
    out.update({f"ndcg@{k}": ndcg_at(ranking, judgments, k) for k in NDCG_KS})
    out["mrr"] = reciprocal_rank(ranking, judgments)
    out["hit@5"] = hit_at(ranking, judgments, 5)
    return out


METRIC_NAMES = tuple(case_metrics([], {"x": 1}))


def mean_metrics(per_case: Sequence[Mapping[str, float]]) -> dict[str, float]:
    """Macro average over cases (each case weighs the same, however many recipes it judged)."""
    if not per_case:
        return dict.fromkeys(METRIC_NAMES, 0.0)
    return {name: sum(m[name] for m in per_case) / len(per_case) for name in METRIC_NAMES}
