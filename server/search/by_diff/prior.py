"""How often a recipe was right when the diff search pooled it: a per-recipe prior for the rerank.

The rerank's other features describe the evidence of one search. They say little about the recipe itself: some
recipes the search pools often are rarely what a PR needs (a generic cleanup that matches any removed import),
others are what it needs nearly whenever they turn up (a dependency bump). Labelled PRs say which: of the PRs whose
pool held the recipe, in how many did the labels name it. ``rate`` is that share, pulled toward the share of all
pooled recipes that were labelled (``base``) by ``SMOOTHING`` PRs' worth, so a recipe seen in one PR moves little
and one never seen gets the base rate.

The counts come from the development PR sets (``evaluation/diff_rerank_train.py`` writes ``prior.json``): the same
PRs the rerank's models are fitted on, never a set kept blind. Where those PRs are searched again (the development
sets' own figures), the prior has read their labels: only a set left out of the counts measures it.
"""

from __future__ import annotations

import json
import math
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

from . import learned_files

SMOOTHING = 5.0  # PRs' worth of the base rate each recipe's share starts from (measured: 2, 5, 20; RESULTS)
PATH = Path(__file__).with_name("prior.json")


@dataclass(frozen=True)
class RecipePrior:
    """Per recipe: in how many labelled PRs the search pooled it (``pooled``) and the labels named it
    (``labelled``); ``base``: the share of all pooled recipes that were labelled."""

    base: float
    pooled: Mapping[str, int] = field(default_factory=dict)
    labelled: Mapping[str, int] = field(default_factory=dict)
    smoothing: float = SMOOTHING

    def rate(self, recipe_id: str) -> float:
        """The recipe's labelled share, smoothed toward ``base``."""
        seen = self.pooled.get(recipe_id, 0)
        return (self.labelled.get(recipe_id, 0) + self.smoothing * self.base) / (seen + self.smoothing)

    def seen_log(self, recipe_id: str) -> float:
        """log(1 + PRs that pooled it): how much the rate rests on."""
        return math.log1p(self.pooled.get(recipe_id, 0))

    def minus(self, other: RecipePrior) -> RecipePrior:
        """These counts without ``other``'s (a training PR's own set), the base rate kept."""
        return RecipePrior(
            self.base,
            {rid: n - other.pooled.get(rid, 0) for rid, n in self.pooled.items()},
            {rid: n - other.labelled.get(rid, 0) for rid, n in self.labelled.items()},
            self.smoothing,
        )

    def to_json(self) -> str:
        """One recipe per line, sorted, so a refit's change reads as a diff."""
        first = f'{{"smoothing": {self.smoothing}, "base": {round(self.base, 6)}, "recipes": {{'
        rows = [
            f"  {json.dumps(rid)}: [{self.pooled[rid]}, {self.labelled.get(rid, 0)}]" for rid in sorted(self.pooled)
        ]
        return "\n".join([first, ",\n".join(rows), "}}"]) + "\n"


def count(pools: Iterable[tuple[Sequence[str], Collection[str]]]) -> RecipePrior:
    """The prior of labelled pools: each a PR's pooled recipe ids and the ids its labels name."""
    pooled: dict[str, int] = {}
    labelled: dict[str, int] = {}
    rows = hits = 0
    for ids, relevant in pools:
        for rid in dict.fromkeys(ids):
            pooled[rid] = pooled.get(rid, 0) + 1
            rows += 1
            if rid in relevant:
                labelled[rid] = labelled.get(rid, 0) + 1
                hits += 1
    return RecipePrior(hits / rows if rows else 0.0, pooled, labelled)


def from_json(text: str) -> RecipePrior:
    doc = json.loads(text)
    recipes = doc["recipes"]
    return RecipePrior(
        float(doc["base"]),
        {rid: int(n) for rid, (n, _) in recipes.items()},
        {rid: int(k) for rid, (_, k) in recipes.items() if k},
        float(doc["smoothing"]),
    )


@cache
def shipped() -> RecipePrior:
    """The counts the training script wrote beside this module (package data: the wheel carries it)."""
    return learned_files.load(PATH, from_json)
