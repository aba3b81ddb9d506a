"""The candidate pool of one search: every recipe some leg found, its cosine to every variation, the
evidence each leg gave it, its catalog facts and, once a fusion has run, its score."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from .legs import Leg
from .models import SearchFilters
from .priors import RecipeFacts, prior
from .rerank import code_share, features, query_intents
from .snapshot import RankingSnapshot
from .tuning import SearchTuning


def soft_max_rows(matrix: np.ndarray, softness: float) -> np.ndarray:
    """Per row, ``log(mean(exp(T·x))) / T``: the mean for T → 0, the maximum for T → ∞."""
    if softness <= 0:
        return np.asarray(matrix.mean(axis=1), dtype=np.float64)
    top = matrix.max(axis=1)
    return np.asarray(top + np.log(np.mean(np.exp(softness * (matrix - top[:, None])), axis=1)) / softness)


def soft_max(values: np.ndarray, softness: float) -> float:
    """``soft_max_rows`` of one vector."""
    return float(soft_max_rows(np.asarray(values, dtype=np.float64)[None, :], softness)[0])


@dataclass
class Candidate:
    cosines: np.ndarray
    best: float  # the highest of ``cosines``
    facts: RecipeFacts
    evidence: dict[str, np.ndarray] = field(default_factory=dict)  # leg name → evidence per variation
    matched: set[int] = field(default_factory=set)  # the variations some leg found it for
    score: float = 0.0


class CandidatePool:
    """The candidates of one search and what every fusion needs to know about them."""

    def __init__(
        self,
        snapshot: RankingSnapshot,
        queries: list[str],
        filters: SearchFilters,
        tuning: SearchTuning,
        legs: Sequence[Leg],
        asked: int | None = None,
    ):
        self.snapshot, self.queries, self.filters, self.tuning = snapshot, queries, filters, tuning
        # The phrases the caller sent: the first ``asked`` queries; the rest were written by ``rewrite.py``.
        self.asked = asked or len(queries)
        self.legs = tuple(legs)  # the legs that ran
        self.vectors = np.zeros((0, 0))
        self.candidates: dict[str, Candidate] = {}
        own = queries[: self.asked]  # the rerank reads what the caller said, not the rewritten phrasings
        self.intents = query_intents(own)
        self._rarest = max(snapshot.name_idf.values(), default=1.0)
        self._code_share = float(np.mean([code_share(q) for q in own])) if own else 0.0

    def rerank_features(self, rid: str) -> tuple[float, ...]:
        """``rerank.FEATURES`` of candidate ``rid`` for this search's queries."""
        cand = self.candidates[rid]
        named = features(cand.facts, self.intents, self.snapshot.name_idf, self._rarest)
        examples = next((self.summary(leg, rid) for leg in self.legs if leg.name == "examples"), 0.0)
        popularity = float(np.log1p(cand.facts.used_by_count))
        return (
            *named,
            examples * self._code_share,
            1.0 if cand.facts.is_composite else 0.0,
            popularity,
            popularity * self._code_share,
        )

    def add(self, found: dict[str, set[int]]) -> list[str]:
        """Make candidates of ``found`` (id → variations that found it); ids the snapshot lacks (written
        by an ingest that committed after this search began) are skipped."""
        new = [rid for rid in found if rid not in self.candidates and rid in self.snapshot.rows]
        sims = self.snapshot.cosines(new, self.vectors)
        for rid in new:
            self.candidates[rid] = Candidate(
                cosines=sims[rid], best=max(sims[rid].tolist()), facts=self.snapshot.rows[rid].facts, matched=found[rid]
            )
        return new

    def prior(self, cand: Candidate) -> float:
        t = self.tuning
        return prior(
            cand.facts, copy_penalty=t.copy_penalty, fragment_penalty=t.fragment_penalty, popularity=t.popularity
        )

    def fused_similarity(self, ids: Sequence[str]) -> np.ndarray:
        """The soft maximum of each candidate's cosines over the variations (one vectorized pass)."""
        if not ids:
            return np.zeros(0)
        return soft_max_rows(np.stack([self.candidates[rid].cosines for rid in ids]), self.tuning.softness)

    def summary(self, leg: Leg, rid: str) -> float:
        """``leg``'s evidence for candidate ``rid`` summed up over the variations (0 if it did not find it)."""
        evidence = self.candidates[rid].evidence.get(leg.name)
        return 0.0 if evidence is None else leg.summary(evidence)
