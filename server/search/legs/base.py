"""What every leg of recipe search is: a way to find candidates for each query variation.

A leg answers, per variation, *recipe id → evidence* (a positive number: how strongly this leg vouches for
the recipe for that variation). It says how its per-variation evidence sums up into one number and how much
that number weighs in each fusion strategy (``fusion.py``); it never ranks by itself. Every leg applies the
same ``SearchFilters`` (in SQL, or through ``RankingSnapshot.passing`` in memory), so filters never
silently shrink a result.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal, Protocol

import numpy as np

from ..models import SearchFilters
from ..snapshot import RankingSnapshot
from ..tuning import SearchTuning

Evidence = list[dict[str, float]]  # per variation (0-based): recipe id → evidence > 0


@dataclass(frozen=True)
class LegContext:
    """What a leg may use: the open cursor, the ranking snapshot, the queries and, for legs that need them,
    the query vectors (one row per variation, normalized)."""

    cur: Any
    snapshot: RankingSnapshot
    queries: list[str]
    filters: SearchFilters
    tuning: SearchTuning
    vectors: np.ndarray | None = None
    # Nearest neighbours by exact cosine over the filtered recipes in memory instead of the HNSW index (for
    # a small filtered subset, such as the Moderne-only entries of the hint, where a filtered index scan
    # is the slow part of the search).
    exact: bool = False
    # What the legs of one search call share between its passes (the main search and the Moderne-only
    # hint run the same phrases): name → a dict a leg fills.
    memo: dict[str, Any] = field(default_factory=dict)


class Leg(Protocol):
    """One way of finding candidates. Register an instance in ``legs/__init__.py`` ``LEGS``."""

    name: str
    # Legs without vectors run first, while the query embedding is still being computed in another thread.
    needs_vectors: bool
    # A leg that must run whatever the weights (the dense leg: its candidates are what similarity ranks).
    always: bool
    # A match of this leg is evidence of another kind than similarity: it keeps a candidate whose best
    # cosine is under ``min_score``.
    vouches: bool
    # How the leg enters RRF: one ranked list per variation, or one list ranked by ``summary``.
    rrf_lists: Literal["per_variation", "summary"]
    # Run only for a one-phrase search (the caller sent one phrase; ``rewrite.py`` may have added some).
    one_phrase: bool

    def weight(self, tuning: SearchTuning, fusion: str) -> float:
        """How much this leg's evidence weighs in fusion ``fusion`` (``score`` or ``rrf``); 0 = not run."""
        ...

    def summary(self, evidence: np.ndarray) -> float:
        """One number from the per-variation evidence (zeros where a variation did not find the recipe)."""
        ...

    def gather(self, ctx: LegContext) -> Evidence:
        """Per variation: recipe id → evidence."""
        ...
