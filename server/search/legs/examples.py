"""The examples leg: recipes whose page shows an example like the query.

Every recipe page carries examples (before/after per file), stored with an embedding of their changed lines
(``recipe_examples``, read into the ranking snapshot). A query that quotes code or configuration
(``log.debug("Loaded " + count)``, ``logging.level.root ... INFO to WARN``, ``<bean id=...>``) resembles such an
example far more than the recipe's description; a query in words mostly does not, and its best example
cosines stay low.

Its evidence is the query's best cosine to one of the recipe's examples, above ``examples_floor`` (the
cosine a query in words typically reaches with unrelated examples), for the ``examples_candidates`` recipes
whose examples are nearest. Recipes without examples are never found by it.
"""

from __future__ import annotations

from typing import Literal

import numpy as np

from ..tuning import SearchTuning
from .base import Evidence, LegContext


class ExamplesLeg:
    name = "examples"
    needs_vectors = True
    always = False
    vouches = True  # an example like the query keeps a recipe whose description is far from it
    rrf_lists: Literal["per_variation", "summary"] = "per_variation"
    one_phrase = False

    def weight(self, tuning: SearchTuning, fusion: str) -> float:
        return tuning.rrf_examples_weight if fusion == "rrf" else tuning.examples_weight

    def summary(self, evidence: np.ndarray) -> float:
        """The mean over the variations, like the lexical leg: a phrasing that quotes code counts for its share."""
        return float(evidence.sum()) / len(evidence)  # = mean(), bit for bit, without its overhead

    def gather(self, ctx: LegContext) -> Evidence:
        assert ctx.vectors is not None
        snap, t = ctx.snapshot, ctx.tuning
        allowed = None if ctx.filters.is_empty() else snap.filter_mask(ctx.filters)
        if allowed is not None and not allowed[snap.example_owners].any():
            return [{} for _ in ctx.queries]  # no recipe the filters allow has examples (the Moderne-only hint)
        sims = snap.example_similarity(ctx.vectors) - t.examples_floor
        out: Evidence = []
        for row in sims:
            matched = np.flatnonzero(row > 0)
            if allowed is not None:
                matched = matched[allowed[matched]]
            top = matched[np.lexsort((matched, -row[matched]))][: t.examples_candidates]
            out.append({snap.recipe_ids[n]: float(row[n]) for n in top})
        return out
