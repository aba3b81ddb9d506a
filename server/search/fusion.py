"""Fusion strategies: how the similarities and the legs' evidence become one score per candidate.

- ``score`` (the default): the soft maximum of each candidate's cosines over the variations
  (``log mean exp``), plus each leg's weighted evidence, plus the catalog prior, plus (for a one-phrase
  search) the query-aware catalog evidence of ``rerank.py``. A recipe several phrasings agree on ranks
  first, yet one phrasing that misses it does not sink it the way a plain mean would; and how close the
  similarities are is kept.
- ``rrf``: Reciprocal Rank Fusion (1-based ranks, k = ``rrf_k``) over a similarity list per variation,
  each leg's lists, and a joint similarity list. Rank fusion is the classic choice, but it discards how close
  the similarities are, which measured worse on the dev set (README, Benchmarks); it stays selectable
  (``REWRITE_ASSIST_FUSION=rrf``) and measured side by side.

Both implement ``Fusion``; register a new one in ``FUSIONS``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from .candidates import CandidatePool
from .rerank import adjustment, weights


class Fusion(Protocol):
    name: str

    def score(self, pool: CandidatePool) -> None:
        """Set ``score`` of every candidate in the pool."""
        ...

    def score_newcomers(self, pool: CandidatePool, ids: Sequence[str]) -> None:
        """Set ``score`` of candidates the graph expansion brought in (found by no leg)."""
        ...

    def expand_lift(self, pool: CandidatePool, top_score: float) -> float:
        """The most a neighbour of a best hit may rise above its own score, on this fusion's scale."""
        ...


class ScoreFusion:
    name = "score"

    def relevance(self, pool: CandidatePool, ids: Sequence[str]) -> dict[str, float]:
        """Fused similarity + each leg's weighted evidence + the catalog prior (+ the one-phrase rerank)."""
        weighted = [(leg, w) for leg in pool.legs if (w := leg.weight(pool.tuning, self.name)) > 0]
        # Several phrasings already separate the canonical recipe from a niche one by agreeing on it; the
        # weights were fitted on one-phrase queries, so the rerank serves one-phrase searches.
        # A one-phrase search keeps its rerank when ``rewrite.py`` added phrasings to it.
        one = pool.asked == 1 and (len(pool.queries) == 1 or pool.tuning.rewrite_rerank > 0)
        rerank = one and any(w != 0 for w in weights(pool.tuning))
        fused = pool.fused_similarity(ids)
        out = {}
        for n, rid in enumerate(ids):
            value = float(fused[n])
            for leg, w in weighted:
                value += w * pool.summary(leg, rid)
            value += pool.prior(pool.candidates[rid])
            if rerank:
                value += adjustment(pool.rerank_features(rid), pool.tuning)
            out[rid] = value
        return out

    def score(self, pool: CandidatePool) -> None:
        for rid, value in self.relevance(pool, list(pool.candidates)).items():
            pool.candidates[rid].score = value

    def score_newcomers(self, pool: CandidatePool, ids: Sequence[str]) -> None:
        for rid, value in self.relevance(pool, ids).items():
            pool.candidates[rid].score = value

    def expand_lift(self, pool: CandidatePool, top_score: float) -> float:
        return pool.tuning.expand_lift


class RRFFusion:
    """A recipe's score is ``sum(weight / (k + rank))`` over the lists it appears in.

    Per variation, the similarity list ranks the whole candidate pool by that variation's cosine (plus the
    catalog prior), and each per-variation leg ranks its own matches; the joint list ranks the pool by the
    soft maximum over all variations (plus the prior); each summary leg contributes one shared list.
    """

    name = "rrf"

    def score(self, pool: CandidatePool) -> None:
        t, cands = pool.tuning, pool.candidates
        scores = dict.fromkeys(cands, 0.0)

        def add(ranked: list[str], weight: float) -> None:
            for rank, rid in enumerate(ranked, start=1):
                scores[rid] += weight / (t.rrf_k + rank)

        weighted = [(leg, w) for leg in pool.legs if (w := leg.weight(t, self.name)) > 0]
        priors = {rid: pool.prior(c) for rid, c in cands.items()}
        for n in range(len(pool.queries)):
            add(sorted(cands, key=lambda r: (-(cands[r].cosines[n] + priors[r]), r)), 1.0)
            for leg, w in weighted:
                if leg.rrf_lists != "per_variation":
                    continue
                values = {
                    rid: float(c.evidence[leg.name][n])
                    for rid, c in cands.items()
                    if leg.name in c.evidence and c.evidence[leg.name][n] > 0
                }
                add(sorted(values, key=lambda r: (-values[r], r)), w)
        if t.rrf_joint_weight > 0:
            ids = list(cands)
            joint = {rid: float(v) + priors[rid] for rid, v in zip(ids, pool.fused_similarity(ids), strict=True)}
            add(sorted(joint, key=lambda r: (-joint[r], r)), t.rrf_joint_weight)
        for leg, w in weighted:
            if leg.rrf_lists != "summary":
                continue
            summary = {rid: s for rid in cands if (s := pool.summary(leg, rid)) > 0}
            add(sorted(summary, key=lambda r: (-summary[r], r)), w)
        for rid, cand in cands.items():
            cand.score = scores[rid]

    def score_newcomers(self, pool: CandidatePool, ids: Sequence[str]) -> None:
        for rid in ids:  # in no list: they rise only by the expansion's pull
            pool.candidates[rid].score = 0.0

    def expand_lift(self, pool: CandidatePool, top_score: float) -> float:
        return pool.tuning.rrf_expand_lift * top_score


FUSIONS: dict[str, Fusion] = {f.name: f for f in (ScoreFusion(), RRFFusion())}
