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

Told what the PR says it does (``intent``: its title and description), the search also runs that text through
``find_recipes``: its first ``INTENT_DEPTH`` recipes the pick did not place join the pool, and every pooled recipe
gets four more features (``INTENT_FEATURES``: where that search placed it). ``MODEL_WITH_INTENT`` is fitted the same
way on the same PRs searched with their case's intent.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Collection, Sequence

import numpy as np

from .catalog import ExampleSnapshot
from .evidence import DiffSearchHit
from .memo import last_result

RERANK = True  # reorder the pick's pool by ``MODEL`` (False: the pick's own order, which tests of one pick rule read)
POOL = 25  # the pick's first recipes the model reorders (a label beyond them is rarely worth a place)
HEAD = 10  # the pick's own first recipes: whether and where it placed a recipe is one of the features
UNRANKED = 12  # the head rank given a recipe the head does not hold (just below its last place)
GROUP_SIZE = 5  # recipes per hunk group; a recipe in none counts as one place below them
# A pooled recipe outside the head replaces the head's weakest only when its log-odds are this much higher (odds
# about 2.7 times): the model reorders freely but changes the ten's membership only where it is sure. Measured
# leaving one development set out (RESULTS): membership changed at any margin lost Recall@10 on three sets.
SWAP_MARGIN = 1.0
INTENT_DEPTH = 10  # with an intent: that search's first recipes join the pool (the ones the pick did not place)

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
# With an intent, four more: where searching the PR's description placed the recipe.
INTENT_FEATURES: tuple[str, ...] = (
    "intent_rank_log",  # log(1 + its place in the intent search; INTENT_DEPTH + 2 where absent)
    "in_intent",  # that search holds it
    "in_intent_top3",
    "intent_only",  # only that search found it: no evidence in the diff
)

# Fitted by ``python -m rewrite_assist.evaluation.diff_rerank_train`` (feature: mean, scale, weight); see its
# docstring for the data and the measurement.
BIAS = -1.383128
MODEL: dict[str, tuple[float, float, float]] = {
    "rank_log": (2.320144, 0.817415, -0.121999),
    "in_first_ten": (0.4, 0.489898, 0.109581),
    "score_share": (0.401764, 0.251831, 0.400015),
    "segment_share": (0.587246, 0.321419, -0.045322),
    "matched_log": (1.709786, 0.630725, 0.048051),
    "composite": (0.319188, 0.466162, -0.12044),
    "steps_log": (0.637245, 1.123863, 0.089104),
    "used_by_log": (1.028332, 1.13588, -0.000158),
    "generic": (0.013198, 0.114122, 0.180375),
    "described": (0.647716, 0.477682, 0.214202),
    "summed_up": (0.061929, 0.241026, 0.103837),
    "example": (0.728528, 0.444719, 0.047568),
    "inherited": (0.101726, 0.302287, 0.156147),
    "evidence_share": (0.462368, 0.210456, -0.016416),
    "file_share": (0.549421, 0.303639, -0.097077),
    "tokens_log": (0.82945, 0.780381, 0.224204),
    "suggested": (0.175431, 0.380336, 0.568727),
    "has_options": (0.443249, 0.496769, 0.350157),
    "search_only": (0.001624, 0.040271, -0.039322),
    "copy": (0.007919, 0.088635, -0.112133),
    "cleanup": (0.005076, 0.071066, -0.143083),
    "examples_log": (0.622281, 0.473199, -0.157371),
    "no_examples": (0.265381, 0.441536, 0.191992),
    "segments_log": (2.338194, 0.610495, 0.129931),
    "group_rank_log": (0.996645, 0.770929, -0.220684),
    "group_first": (0.289949, 0.453739, -0.012083),
    "group_share": (0.146246, 0.178205, -0.021279),
    "firsts_log": (0.249584, 0.426408, 0.061082),
    "parents_in_log": (0.394078, 0.559199, 0.314921),
    "kids_in_log": (0.284344, 0.607552, 0.258604),
    "has_kids_in": (0.229442, 0.420474, 0.097609),
    "has_parents_in": (0.379086, 0.48516, 0.171527),
    "head_rank": (0.75, 0.341565, -0.148463),
    "in_head": (0.4, 0.489898, 0.269505),
    "in_head_top3": (0.12, 0.324962, 0.023193),
    "rank_by_size": (5.424948, 2.4307, 0.072186),
    "composite_by_size": (0.748089, 1.152422, -0.020379),
    "generic_by_size": (0.030353, 0.270492, -0.040213),
}

# The same fit over FEATURES + INTENT_FEATURES, on the PRs searched with their description as the intent.
BIAS_WITH_INTENT = -1.689885
MODEL_WITH_INTENT: dict[str, tuple[float, float, float]] = {
    "rank_log": (2.522557, 0.842346, -0.112296),
    "in_first_ten": (0.322317, 0.467364, 0.110991),
    "score_share": (0.323738, 0.276337, 0.398359),
    "segment_share": (0.473198, 0.370424, -0.063195),
    "matched_log": (1.377732, 0.882064, 0.000192),
    "composite": (0.366819, 0.481937, -0.169679),
    "steps_log": (0.726836, 1.157833, 0.086962),
    "used_by_log": (0.99892, 1.079615, -0.017081),
    "generic": (0.010635, 0.102575, 0.190031),
    "described": (0.521924, 0.499519, 0.220864),
    "summed_up": (0.049902, 0.217742, 0.098023),
    "example": (0.587042, 0.492365, 0.096838),
    "inherited": (0.08197, 0.274319, 0.136666),
    "evidence_share": (0.372573, 0.262955, -0.052064),
    "file_share": (0.442719, 0.348612, -0.119725),
    "tokens_log": (0.668364, 0.773555, 0.170158),
    "suggested": (0.141361, 0.348394, 0.573525),
    "has_options": (0.404123, 0.490722, 0.331226),
    "search_only": (0.002618, 0.051097, -0.071193),
    "copy": (0.022251, 0.1475, -0.172538),
    "cleanup": (0.00409, 0.063825, -0.13138),
    "examples_log": (0.58625, 0.489382, -0.183827),
    "no_examples": (0.315609, 0.464758, 0.183961),
    "segments_log": (2.343054, 0.609485, 0.166607),
    "group_rank_log": (1.161586, 0.779245, -0.311745),
    "group_first": (0.234293, 0.423556, -0.030269),
    "group_share": (0.12065, 0.169288, -0.068139),
    "firsts_log": (0.201566, 0.395465, 0.022909),
    "parents_in_log": (0.489958, 0.612064, 0.345779),
    "kids_in_log": (0.346345, 0.675222, 0.297435),
    "has_kids_in": (0.269306, 0.443599, 0.109489),
    "has_parents_in": (0.449771, 0.497471, 0.141042),
    "head_rank": (0.798552, 0.322164, -0.142618),
    "in_head": (0.322317, 0.467364, 0.266934),
    "in_head_top3": (0.096695, 0.295542, 0.031014),
    "rank_by_size": (5.914641, 2.562945, 0.101998),
    "composite_by_size": (0.863737, 1.198726, -0.001837),
    "generic_by_size": (0.024458, 0.243106, -0.05681),
    "intent_rank_log": (2.225064, 0.631474, -0.219876),
    "in_intent": (0.322317, 0.467364, 0.109006),
    "in_intent_top3": (0.096695, 0.295542, 0.119075),
    "intent_only": (0.194208, 0.39559, -0.027677),
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
    intent: Sequence[str] | None = None,
) -> np.ndarray:
    """One row of ``FEATURES`` per hit of the pool (the pick's order), and of ``INTENT_FEATURES`` after them when
    the search had an intent. ``head``: the ids of the pick's own first ``HEAD``; ``groups``: each hunk group's
    recipe ids, best first; ``segments``/``files``: the PR's size; ``intent``: the intent search's ranking."""
    counts = example_counts(snap)
    ids = [h.id for h in hits]
    top = hits[0].fusion_score if hits and hits[0].fusion_score > 0 else 1.0
    size = math.log1p(segments)
    rows = []
    for rank, h in enumerate(hits):
        ev = [e for e in h.evidence if not e.intent]  # the diff's evidence
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
        if intent is not None:
            place = intent.index(h.id) if h.id in intent else INTENT_DEPTH + 2
            values |= {
                "intent_rank_log": math.log1p(place),
                "in_intent": place < INTENT_DEPTH + 2,
                "in_intent_top3": place < 3,
                "intent_only": not ev,
            }
        rows.append([float(values[name]) for name in names(intent is not None)])
    width = len(names(intent is not None))
    return np.array(rows, dtype=np.float64).reshape(len(hits), width)


def names(with_intent: bool) -> tuple[str, ...]:
    """The features a model reads: with an intent, ``INTENT_FEATURES`` after ``FEATURES``."""
    return FEATURES + INTENT_FEATURES if with_intent else FEATURES


def model_for(with_intent: bool) -> tuple[float, dict[str, tuple[float, float, float]]]:
    """The fitted bias and model for a search with or without an intent."""
    return (BIAS_WITH_INTENT, MODEL_WITH_INTENT) if with_intent else (BIAS, MODEL)


def logits(rows: np.ndarray, with_intent: bool = False) -> np.ndarray:
    """The model's log-odds that each row's recipe is one a person would run on the PR."""
    bias, model = model_for(with_intent)
    fitted = [model.get(name, (0.0, 1.0, 0.0)) for name in names(with_intent)]
    mean, scale, weight = (np.array(column) for column in zip(*fitted, strict=True))
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
    intent: Sequence[str] | None = None,
) -> list[DiffSearchHit]:
    """The pool in ``order``, each hit's ``fusion_score`` now the model's probability. Without a fitted model,
    the pool as it came."""
    with_intent = intent is not None and bool(MODEL_WITH_INTENT)
    if not model_for(with_intent)[1] or not hits:
        return list(hits)
    if not with_intent:  # no model for it: the recipes only the intent found stay out
        hits = [h for h in hits if not any(e.intent for e in h.evidence)]
    odds = logits(
        features(hits, list(head), groups, snap, segments, files, intent if with_intent else None), with_intent
    )
    return [
        hits[n].model_copy(update={"fusion_score": round(float(1 / (1 + math.exp(-odds[n]))), 6)})
        for n in order([h.id for h in hits], head, odds)
    ]
