"""The diff search's last step: the pick's pool reordered by what labelled PRs say makes a hit right.

The pick (``pick``) places each recipe by its evidence for one change and by what the diff's other changes leave
open. Whether a recipe is one a person would run on this PR depends on more than that evidence's size: what kind
of evidence found it (its own example, a listed recipe's, the hunk's words, a PR-level description, the generic
edit of a file kind), whether the pick's ten already placed it, whether the composites around it are ranked too,
how many changes it explains, whether the catalog can configure it from the PR (suggested options). Each of
these is weak alone; together they reorder the pool.

The model is a sum of small boosted trees (``trees``) over ``FEATURES``, one row per recipe of the pool: the pick's
first ``POOL`` recipes, of which the pick's own first ``HEAD`` form the head. It is fitted by
``evaluation/diff_rerank_train.py`` on the development PR sets (labelled PRs; never on a set kept blind) and
measured there set by set, each set ranked by a model fitted on the others, so the figure is out of sample for
that set. ``rerank_models.json`` is that script's output.

Told what the PR says it does (``intent``: its title and description), the search also runs that text through
``find_recipes``: its first ``INTENT_DEPTH`` recipes the pick did not place join the pool, and every pooled recipe
gets four more features (``INTENT_FEATURES``: where that search placed it). A second model (``WITH_INTENT``) is
fitted the same way on the same PRs searched with their case's intent.

Both models also read what labelled PRs say of the recipe itself (``PRIOR_FEATURES``, from ``prior``): how often the
labels named it when the search pooled it. The evidence features say how well a recipe matches this diff; the prior
says how often such a match was right, which the evidence alone does not show (a cleanup that matches any removed
import, against a dependency bump that is right nearly whenever it matches). Last, what the labelled PRs most like
this one needed (``NEIGHBOUR_FEATURES``, from ``neighbours``: PRs whose pools overlap this one's): the prior for this
kind of PR.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Collection, Sequence
from dataclasses import dataclass, replace
from functools import cache
from pathlib import Path

import numpy as np

from . import learned_files, neighbours, prior, trees
from .catalog import ExampleSnapshot
from .evidence import DiffSearchHit
from .memo import last_result
from .neighbours import Neighbours
from .prior import RecipePrior
from .trees import Forest

RERANK = True  # reorder the pick's pool by the model (False: the pick's own order, which tests of one pick rule read)
POOL = 50  # the pick's first recipes the model reorders (leaving one set out, 50 over 25: +0.008 Recall@10; RESULTS)
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

# Last, two more for both models: what labelled PRs say of the recipe itself (``prior``: how often the labels named
# it when the search pooled it). The training script computes them per fold, so they come after the rest.
PRIOR_FEATURES: tuple[str, ...] = (
    "prior_rate",  # its labelled share when pooled, smoothed toward the base rate
    "prior_seen_log",  # log(1 + labelled PRs that pooled it)
)
# And three of the labelled PRs whose pools overlap this one's most (``neighbours``), computed per fold the same way.
NEIGHBOUR_FEATURES: tuple[str, ...] = neighbours.FEATURES
LEARNED_FEATURES = PRIOR_FEATURES + NEIGHBOUR_FEATURES  # read off labelled PRs, not off this search

# The fitted models, one per kind of search (``PLAIN``, ``WITH_INTENT``), written beside this module by
# ``python -m rewrite_assist.evaluation.diff_rerank_train --write``; see its docstring for the data and the measurement.
MODELS_PATH = Path(__file__).with_name("rerank_models.json")
PLAIN, WITH_INTENT = "plain", "with_intent"


@last_result
def example_counts(snap: ExampleSnapshot) -> Counter[str]:
    """How many examples with a change each recipe has."""
    return Counter(snap.example_recipes)


@dataclass(frozen=True)
class PoolView:
    """What the rerank reads of one search's pool: its hits (the pick's order, then the recipes only the intent
    search found), the ids of the pick's own first ``HEAD``, each hunk group's recipe ids (best first), the catalog
    snapshot, the PR's size (changes searched, files) and the intent search's ranking (None: searched without one)."""

    hits: Sequence[DiffSearchHit]
    head: Sequence[str]
    groups: Sequence[Sequence[str]]
    snap: ExampleSnapshot
    segments: int
    files: int
    intent: Sequence[str] | None = None


def features(pool: PoolView) -> np.ndarray:
    """One row of ``FEATURES`` per hit of the pool (the pick's order), of ``INTENT_FEATURES`` after them when the
    search had an intent, and of ``LEARNED_FEATURES`` (the shipped prior's and neighbours') last. The training
    script joins ``search_features`` to each fold's own prior and neighbours (``learned_features``) instead."""
    ids = [h.id for h in pool.hits]
    picked = [h.id for h in pool.hits if any(not e.intent for e in h.evidence)]  # the pick's pool, not the intent's
    return np.hstack([search_features(pool), learned_features(picked, ids, prior.shipped(), neighbours.shipped())])


def prior_features(ids: Sequence[str], recipe_prior: RecipePrior) -> np.ndarray:
    """One row of ``PRIOR_FEATURES`` per recipe id."""
    rows = [[recipe_prior.rate(rid), recipe_prior.seen_log(rid)] for rid in ids]
    return np.array(rows, dtype=np.float64).reshape(len(ids), len(PRIOR_FEATURES))


def learned_features(
    pool: Sequence[str], ids: Sequence[str], recipe_prior: RecipePrior, nearby: Neighbours
) -> np.ndarray:
    """One row of ``LEARNED_FEATURES`` per recipe id, for a PR whose pick pooled ``pool`` (in its order)."""
    return np.hstack([prior_features(ids, recipe_prior), nearby.features(pool, ids)])


def search_features(pool: PoolView) -> np.ndarray:
    """``features`` but the prior's: what this search knows of each pooled recipe."""
    hits, head, groups, snap, intent = pool.hits, pool.head, pool.groups, pool.snap, pool.intent
    segments, files = pool.segments, pool.files
    counts = example_counts(snap)
    searched = FEATURES + INTENT_FEATURES if intent is not None else FEATURES
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
        rows.append([float(values[name]) for name in searched])
    return np.array(rows, dtype=np.float64).reshape(len(hits), len(searched))


def names(with_intent: bool) -> tuple[str, ...]:
    """The features a model reads: with an intent, ``INTENT_FEATURES`` after ``FEATURES``; ``LEARNED_FEATURES``
    last."""
    return (FEATURES + INTENT_FEATURES if with_intent else FEATURES) + LEARNED_FEATURES


@cache
def models() -> dict[str, Forest]:
    """The shipped models by kind of search (package data: the wheel carries the file). A model whose columns are
    not ``names`` (features changed since the fit) is refused: refit it."""
    forests = learned_files.load(MODELS_PATH, trees.loads)
    for kind, forest in forests.items():
        if forest.features != names(kind == WITH_INTENT):
            raise learned_files.unusable(
                MODELS_PATH, f"its {kind} model was fitted on other features than the search's"
            )
    return forests


def logits(rows: np.ndarray, with_intent: bool = False) -> np.ndarray:
    """The model's log-odds that each row's recipe is one a person would run on the PR."""
    return models()[WITH_INTENT if with_intent else PLAIN].logits(rows)


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


def reorder(pool: PoolView) -> list[DiffSearchHit]:
    """The pool in ``order``, each hit's ``fusion_score`` now the model's probability."""
    with_intent = pool.intent is not None and WITH_INTENT in models()
    if not pool.hits:
        return list(pool.hits)
    if not with_intent:  # no model for it: the recipes only the intent found stay out
        pool = replace(pool, hits=[h for h in pool.hits if not any(e.intent for e in h.evidence)], intent=None)
    hits = pool.hits
    odds = logits(features(pool), with_intent)
    return [
        hits[n].model_copy(update={"fusion_score": round(float(1 / (1 + math.exp(-odds[n]))), 6)})
        for n in order([h.id for h in hits], pool.head, odds)
    ]
