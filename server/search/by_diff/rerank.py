"""The diff search's last step: the pick's pool reordered by what labelled PRs say makes a hit right.

The pick (``pick``) places each recipe by its evidence for one change and by what the diff's other changes leave
open. Whether a recipe is one a person would run on this PR depends on more than that evidence's size: what kind
of evidence found it (its own example, a listed recipe's, the hunk's words, a PR-level description, the generic
edit of a file kind), whether the pick's ten already placed it, whether the composites around it are ranked too,
how many changes it explains, whether the catalog can configure it from the PR (suggested options). Each of
these is weak alone; together they reorder the pool.

The model is a logistic regression over ``FEATURES`` (standardized), one row per recipe of the pool: the pick's
first ``POOL`` recipes, of which the pick's own first ``HEAD`` form the head. It is fitted by
``evaluation/diff_rerank_train.py`` on the development PR sets (labelled PRs; never on a set kept blind) and
measured there set by set, each set ranked by a model fitted on the others, so the figure is out of sample for
that set. ``MODEL`` below is that script's output.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Collection, Sequence

import numpy as np

from .catalog import ExampleSnapshot
from .evidence import DiffSearchHit
from .memo import last_result

RERANK = True  # reorder the pick's pool by ``MODEL`` (False: the pick's order, as the training script reads it)
POOL = 25  # the pick's first recipes the model reorders (a label beyond them is rarely worth a place)
HEAD = 10  # the pick's own first recipes: whether and where it placed a recipe is one of the features
UNRANKED = 12  # the head rank given a recipe the head does not hold (just below its last place)
GROUP_SIZE = 5  # recipes per hunk group; a recipe in none counts as one place below them
# A pooled recipe outside the head replaces the head's weakest only when its log-odds are this much higher (odds
# about 2.7 times): the model reorders freely but changes the ten's membership only where it is sure. Measured
# leaving one development set out (RESULTS): membership changed at any margin lost Recall@10 on three sets.
SWAP_MARGIN = 1.0

FEATURES: tuple[str, ...] = (
    "rank_log",  # log(1 + its place in the pool)
    "in_first_ten",  # among the pool's first ten
    "score_share",  # the pick's value over the first recipe's
    "segment_share",  # changes it matched over the changes searched
    "matched_log",  # log(1 + changes it matched)
    "composite",  # it runs other recipes
    "steps_log",  # log(1 + recipes it runs)
    "used_by_log",  # log(1 + composites that list it)
    "generic",  # offered as a file kind's generic edit
    "described",  # the hunk's words found it
    "summed_up",  # a PR-level description found it
    "example",  # an example on its own page or a listed recipe's matched
    "inherited",  # a listed recipe's example matched (a composite's evidence)
    "evidence_share",  # its best evidence's score over the first recipe's value
    "file_share",  # PR files its evidence cites over the PR's files
    "tokens_log",  # log(1 + changed tokens its best-sharing example shares with the PR)
    "suggested",  # options read off the PR
    "has_options",  # it takes options at all
    "search_only",  # it finds or reports instead of changing
    "copy",  # a republished copy or a generated fragment
    "cleanup",  # its examples only remove imports
    "examples_log",  # log(1 + its examples with a change)
    "no_examples",  # none
    "segments_log",  # log(1 + changes searched): the PR's size
    "group_rank_log",  # log(1 + its best place in a hunk's group)
    "group_first",  # first in some hunk's group
    "group_share",  # groups holding it over all groups
    "firsts_log",  # log(1 + groups it leads)
    "parents_in_log",  # log(1 + composites in the pool that run it)
    "kids_in_log",  # log(1 + pool recipes it runs)
    "has_kids_in",
    "has_parents_in",
    "head_rank",  # its place in the head over UNRANKED (1: not in the head)
    "in_head",
    "in_head_top3",
    "rank_by_size",  # rank_log x segments_log: a place counts less in a large PR
    "composite_by_size",  # composite x segments_log: a large PR is more often a migration
    "generic_by_size",  # generic x segments_log
)

# Fitted by ``python -m rewrite_assist.evaluation.diff_rerank_train`` (feature: mean, scale, weight); see its
# docstring for the data and the measurement.
BIAS = -1.360267
MODEL: dict[str, tuple[float, float, float]] = {
    "rank_log": (2.320144, 0.817415, -0.126002),
    "in_first_ten": (0.4, 0.489898, 0.125563),
    "score_share": (0.400579, 0.25056, 0.40842),
    "segment_share": (0.593464, 0.320759, -0.05561),
    "matched_log": (1.718801, 0.630542, 0.06443),
    "composite": (0.317966, 0.465686, -0.108169),
    "steps_log": (0.63551, 1.124262, 0.083961),
    "used_by_log": (1.026018, 1.134688, 0.005344),
    "generic": (0.013107, 0.113735, 0.16611),
    "described": (0.651977, 0.476343, 0.210675),
    "summed_up": (0.063955, 0.244672, 0.101006),
    "example": (0.730621, 0.443637, 0.049193),
    "inherited": (0.103955, 0.305202, 0.165563),
    "evidence_share": (0.45835, 0.206125, -0.009193),
    "file_share": (0.553404, 0.302939, -0.12293),
    "tokens_log": (0.839665, 0.782867, 0.19533),
    "suggested": (0.177853, 0.382389, 0.57183),
    "has_options": (0.443164, 0.496759, 0.317076),
    "search_only": (0.001582, 0.039742, -0.035826),
    "copy": (0.008588, 0.09227, -0.11452),
    "cleanup": (0.005198, 0.071908, -0.14401),
    "examples_log": (0.622598, 0.471579, -0.146784),
    "no_examples": (0.264633, 0.441137, 0.220779),
    "segments_log": (2.336538, 0.612353, 0.142722),
    "group_rank_log": (0.997058, 0.770288, -0.221751),
    "group_first": (0.289266, 0.453421, -0.016719),
    "group_share": (0.147103, 0.179527, -0.021699),
    "firsts_log": (0.249026, 0.425732, 0.064732),
    "parents_in_log": (0.396661, 0.561121, 0.295102),
    "kids_in_log": (0.286302, 0.609451, 0.250719),
    "has_kids_in": (0.231186, 0.421591, 0.082292),
    "has_parents_in": (0.381017, 0.485637, 0.184053),
    "head_rank": (0.75, 0.341565, -0.144404),
    "in_head": (0.4, 0.489898, 0.257619),
    "in_head_top3": (0.12, 0.324962, 0.050363),
    "rank_by_size": (5.421106, 2.432462, 0.056015),
    "composite_by_size": (0.746062, 1.153222, -0.020056),
    "generic_by_size": (0.030513, 0.272874, -0.040929),
}


@last_result
def example_counts(snap: ExampleSnapshot) -> Counter[str]:
    """How many examples with a change each recipe has."""
    return Counter(snap.example_recipes)


def features(
    hits: Sequence[DiffSearchHit],
    head: Sequence[str],
    groups: Sequence[Sequence[str]],
    snap: ExampleSnapshot,
    segments: int,
    files: int,
) -> np.ndarray:
    """One row of ``FEATURES`` per hit of the pool (the pick's order). ``head``: the ids of the pick's own first
    ``HEAD``; ``groups``: each hunk group's recipe ids, best first; ``segments``/``files``: the PR's size."""
    counts = example_counts(snap)
    ids = [h.id for h in hits]
    top = hits[0].fusion_score if hits and hits[0].fusion_score > 0 else 1.0
    size = math.log1p(segments)
    rows = []
    for rank, h in enumerate(hits):
        ev = h.evidence
        places = [g.index(h.id) for g in groups if h.id in g]
        group_rank = min(places) if places else GROUP_SIZE + 1
        above = snap.ancestors.get(h.id, frozenset())
        parents_in = sum(1 for o in ids if o in above)
        kids_in = sum(1 for o in ids if h.id in snap.ancestors.get(o, frozenset()))
        at = head.index(h.id) if h.id in head else UNRANKED
        examples = counts.get(h.id, 0)
        generic = any(e.generic for e in ev)
        values = {
            "rank_log": math.log1p(rank),
            "in_first_ten": rank < 10,
            "score_share": h.fusion_score / top,
            "segment_share": h.matched_variations / max(1, segments),
            "matched_log": math.log1p(h.matched_variations),
            "composite": h.is_composite,
            "steps_log": math.log1p(h.sub_recipe_count),
            "used_by_log": math.log1p(len(snap.parents.get(h.id, []))),
            "generic": generic,
            "described": any(e.described_as for e in ev),
            "summed_up": any(e.summed_up for e in ev),
            "example": any(e.example is not None for e in ev),
            "inherited": any(e.example_recipe for e in ev),
            "evidence_share": max((e.score for e in ev), default=0.0) / top,
            "file_share": len({e.file for e in ev}) / max(1, files),
            "tokens_log": math.log1p(max((len(e.matched_tokens) for e in ev), default=0)),
            "suggested": bool(h.suggested_options),
            "has_options": bool(h.options),
            "search_only": h.id in snap.search_only,
            "copy": h.id in snap.copies,
            "cleanup": h.id in snap.cleanups,
            "examples_log": math.log1p(examples),
            "no_examples": examples == 0,
            "segments_log": size,
            "group_rank_log": math.log1p(group_rank),
            "group_first": group_rank == 0,
            "group_share": len(places) / max(1, len(groups)),
            "firsts_log": math.log1p(sum(1 for p in places if p == 0)),
            "parents_in_log": math.log1p(parents_in),
            "kids_in_log": math.log1p(kids_in),
            "has_kids_in": kids_in > 0,
            "has_parents_in": parents_in > 0,
            "head_rank": at / UNRANKED,
            "in_head": at < UNRANKED,
            "in_head_top3": at < 3,
            "rank_by_size": math.log1p(rank) * size,
            "composite_by_size": h.is_composite * size,
            "generic_by_size": generic * size,
        }
        rows.append([float(values[name]) for name in FEATURES])
    return np.array(rows, dtype=np.float64).reshape(len(hits), len(FEATURES))


def logits(
    rows: np.ndarray, model: dict[str, tuple[float, float, float]] | None = None, bias: float | None = None
) -> np.ndarray:
    """The model's log-odds that each row's recipe is one a person would run on the PR."""
    model = MODEL if model is None else model
    bias = BIAS if bias is None else bias
    mean = np.array([model.get(name, (0.0, 1.0, 0.0))[0] for name in FEATURES])
    scale = np.array([model.get(name, (0.0, 1.0, 0.0))[1] for name in FEATURES])
    weight = np.array([model.get(name, (0.0, 1.0, 0.0))[2] for name in FEATURES])
    return np.asarray(bias + ((rows - mean) / scale) @ weight)


def order(ids: Sequence[str], head: Collection[str], odds: np.ndarray) -> list[int]:
    """The pool's places (indices into ``ids``) as the search returns them: the pick's head kept, except that a
    pooled recipe whose odds beat the weakest kept one's by more than ``SWAP_MARGIN`` takes its place; the kept
    ones by their odds, then the rest by theirs (ties keep the pick's order)."""
    kept = [n for n, rid in enumerate(ids) if rid in head]
    rest = sorted((n for n, rid in enumerate(ids) if rid not in head), key=lambda n: (-odds[n], n))
    for n in rest:
        if len(kept) < HEAD:
            kept.append(n)
            continue
        weakest = min(kept, key=lambda k: (odds[k], -k))
        if odds[n] <= odds[weakest] + SWAP_MARGIN:
            break  # the rest are no likelier, and the weakest kept one only grows stronger
        kept[kept.index(weakest)] = n
    first = sorted(kept, key=lambda n: (-odds[n], n))
    return first + sorted((n for n in range(len(ids)) if n not in kept), key=lambda n: (-odds[n], n))


def reorder(
    hits: Sequence[DiffSearchHit],
    head: Collection[str],
    groups: Sequence[Sequence[str]],
    snap: ExampleSnapshot,
    segments: int,
    files: int,
) -> list[DiffSearchHit]:
    """The pool in ``order``, each hit's ``fusion_score`` now the model's probability. Without a fitted model,
    the pool as it came."""
    if not MODEL or not hits:
        return list(hits)
    odds = logits(features(hits, list(head), groups, snap, segments, files))
    return [
        hits[n].model_copy(update={"fusion_score": round(float(1 / (1 + math.exp(-odds[n]))), 6)})
        for n in order([h.id for h in hits], head, odds)
    ]
