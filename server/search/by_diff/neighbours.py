"""What the labelled PRs most like this one needed: neighbour features for the rerank.

The prior (``prior``) says how often a recipe was right wherever the search pooled it. Whether it is right for this
PR depends on what kind of PR it is: ``ChangePropertyValue`` is labelled in most configuration PRs and few framework
migrations. The search's own pool says what kind of PR it is: two PRs whose picks lead with the same recipes make
similar changes. So each labelled development PR is kept as its pool (the pick's first ``SIGNATURE`` recipes) and its
labels; for a new PR, the ``NEIGHBOURS`` labelled PRs whose pools overlap its own most (``similarity``: a weighted
Jaccard overlap in which a shared first place counts more than a shared fortieth) say, for each pooled recipe, how
much of their weight labelled it (``features``).

Like the prior, the PRs come from the development sets (``evaluation/diff_rerank_train.py`` writes
``neighbours.json``), never from a set kept blind; a training row's neighbours leave out its own set, as a new PR has
no neighbour from its own labeller's batch.
"""

from __future__ import annotations

import json
import math
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import numpy as np

from . import learned_files

SIGNATURE = 50  # the pick's first recipes that stand for a PR (the rerank's pool)
NEIGHBOURS = 25  # labelled PRs consulted (measured leaving one set out: 10 and 25, signatures of 20 and 50; RESULTS)
SMOOTHING = 1.0  # neighbour weight of the base rate a recipe's rate among its neighbours starts from
PATH = Path(__file__).with_name("neighbours.json")
FEATURES: tuple[str, ...] = (
    "neighbour_share",  # the neighbours' weight whose labels name it, over all the neighbours' weight
    "neighbour_rate",  # of the neighbours' weight that pooled it, the share that labelled it (smoothed)
    "neighbour_labels_log",  # log(1 + neighbours whose labels name it)
)


def signature(ids: Sequence[str]) -> dict[str, float]:
    """A pool as weights: the first place 1, place n 1/sqrt(n), so the pick's lead says most of what a PR is."""
    weights: dict[str, float] = {}
    for place, rid in enumerate(ids[:SIGNATURE]):
        weights.setdefault(rid, 1.0 / math.sqrt(1 + place))
    return weights


def similarity(a: dict[str, float], b: dict[str, float]) -> float:
    """Weighted Jaccard overlap of two signatures: 1 for the same pool, 0 for pools sharing no recipe."""
    common = a.keys() & b.keys()
    if not common:
        return 0.0
    shared = sum(min(a[rid], b[rid]) for rid in common)
    return shared / (sum(a.values()) + sum(b.values()) - shared)


@dataclass(frozen=True)
class LabelledPr:
    """One development PR: its pool's signature and the recipe ids its labels name."""

    signature: dict[str, float]
    labels: frozenset[str]


@dataclass(frozen=True)
class Neighbours:
    """The labelled PRs the rerank may consult; ``base``: the share of their pooled recipes that were labelled."""

    prs: tuple[LabelledPr, ...]
    base: float

    def features(self, pool: Sequence[str], ids: Sequence[str]) -> np.ndarray:
        """One row of ``FEATURES`` per id of ``ids``, for a PR whose pick's order is ``pool``."""
        mine = signature(pool)
        scored = sorted(((similarity(mine, pr.signature), n) for n, pr in enumerate(self.prs)), reverse=True)
        nearest = [(weight, self.prs[n]) for weight, n in scored[:NEIGHBOURS] if weight > 0]
        total = sum(weight for weight, _ in nearest) or 1.0
        rows = []
        for rid in ids:
            named = sum(weight for weight, pr in nearest if rid in pr.labels)
            pooled = sum(weight for weight, pr in nearest if rid in pr.signature)
            rows.append(
                [
                    named / total,
                    (named + SMOOTHING * self.base) / (pooled + SMOOTHING),
                    math.log1p(sum(1 for _, pr in nearest if rid in pr.labels)),
                ]
            )
        return np.array(rows, dtype=np.float64).reshape(len(ids), len(FEATURES))

    def to_json(self) -> str:
        """Recipe ids once, each PR as indices into them: one PR per line (``base`` is derived again on load)."""
        recipes = sorted({rid for pr in self.prs for rid in (*pr.signature, *pr.labels)})
        index = {rid: n for n, rid in enumerate(recipes)}
        rows = [
            json.dumps(
                {
                    "pool": [index[rid] for rid in sorted(pr.signature, key=lambda r: -pr.signature[r])],
                    "labels": sorted(index[rid] for rid in pr.labels),
                }
            )
            for pr in self.prs
        ]
        head = f'{{"recipes": {json.dumps(recipes)},\n"prs": [\n'
        return head + ",\n".join(rows) + "\n]}\n"


def of(prs: Iterable[tuple[Sequence[str], Collection[str]]]) -> Neighbours:
    """The neighbours of labelled pools: each a PR's pooled recipe ids (the pick's order) and its labels' ids."""
    kept = [LabelledPr(signature(ids), frozenset(labels)) for ids, labels in prs]
    pooled = sum(len(pr.signature) for pr in kept)
    labelled = sum(len(pr.signature.keys() & pr.labels) for pr in kept)
    return Neighbours(tuple(kept), labelled / pooled if pooled else 0.0)


def from_json(text: str) -> Neighbours:
    doc = json.loads(text)
    recipes = doc["recipes"]
    return of(([recipes[n] for n in pr["pool"]], [recipes[n] for n in pr["labels"]]) for pr in doc["prs"])


@cache
def shipped() -> Neighbours:
    """The PRs the training script wrote beside this module (package data: the wheel carries it)."""
    return learned_files.load(PATH, from_json)
