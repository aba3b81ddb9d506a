"""The exact-name leg: recipes whose id or class name is written in the query (parsed here, looked up in
the ranking snapshot). An agent that already knows a recipe's name should get that recipe first."""

from __future__ import annotations

import re
from typing import Literal

import numpy as np

from ..snapshot import exact_matches
from ..tuning import SearchTuning
from .base import Evidence, LegContext

_ID_TOKEN = re.compile(r"\b(?:[a-z][\w-]*\.)+[A-Z][\w$]*\b")
_CLASS_TOKEN = re.compile(r"\b[A-Z][a-z0-9]+(?:[A-Z][A-Za-z0-9_]*)+\b")
MIN_CLASS_NAME = 7  # shorter CamelCase words ("JUnit", "GitHub") are vocabulary, not recipe names


def named_in(text: str) -> tuple[list[str], list[str]]:
    """Full ids and class names written in ``text`` (lower-cased)."""
    ids = [i.lower() for i in _ID_TOKEN.findall(text)]
    classes = [c.lower() for c in _CLASS_TOKEN.findall(text) if len(c) >= MIN_CLASS_NAME]
    classes += [i.rsplit(".", 1)[-1] for i in ids]
    return ids, classes


class ExactLeg:
    name = "exact"
    needs_vectors = False
    always = False
    vouches = True
    rrf_lists: Literal["per_variation", "summary"] = "summary"  # one shared list: a name is a name
    one_phrase = False

    def weight(self, tuning: SearchTuning, fusion: str) -> float:
        return tuning.rrf_exact_weight if fusion == "rrf" else tuning.exact_weight

    def summary(self, evidence: np.ndarray) -> float:
        """The best over the variations: 1.0 for a full id, 0.5 for a class name."""
        return float(evidence.max())

    def gather(self, ctx: LegContext) -> Evidence:
        out: Evidence = []
        for text in ctx.queries:
            named = exact_matches(ctx.snapshot, *named_in(text))
            out.append({rid: named[rid] for rid in ctx.snapshot.passing(named, ctx.filters)})
        return out
