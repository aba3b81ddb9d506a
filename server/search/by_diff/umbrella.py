"""Umbrella recipes: a composite several of whose steps each make one of the PR's changes.

A PR that replaces ``System.out.println`` in one place, ``System.err.println`` in another and an
``e.printStackTrace()`` in a third matches three leaf recipes, one per change; the catalog's composite that lists
all three (its ``recipe_list``) is the one recipe that makes the whole PR. A listed recipe that is a composite
itself, listed by few, counts as the step of the composites listing it when one of its own steps is among a
change's best (``NESTED``: ``JUnit5BestPractices`` lists ``JUnit4to5Migration`` and ``JupiterBestPractices``,
whose steps make a JUnit 4 test's changes). Per-segment evidence only lets a
composite inherit half of a step's match, so it never reaches the top. Here a composite that lists at least
``MIN_STEPS`` different recipes, each among the best of a different change, becomes one more unit of the pick
standing for those changes, scored just below its best step: the leaf that makes the change first, the
composite that makes them all right after.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass

from .catalog import ExampleSnapshot
from .memo import last_result
from .scoring import Match, best_first, demotion, top_score

UMBRELLA = True  # rank the PR's umbrella composites (``umbrellas``)
MIN_STEPS = 2  # different listed recipes, each best for some change, that make a composite the PR's umbrella
MIN_SHARE = 0.5  # ... and at least this share of all the recipes it lists
# A step's own composite, listed by few composites, counts as the step of the composites listing it
# (``JUnit5BestPractices`` lists ``JupiterBestPractices``, which lists ``TestsShouldNotBePublic``).
NESTED = True
# A recipe many composites list (a generic plugin bump, a Java version step) says nothing about which of them the
# PR is: only the steps listed by at most this many composites count.
MAX_LISTED_BY = 3
BEST_SHARE = 0.85  # a recipe is among a segment's best within this share of its top score ...
BEST_TOP = 5  # ... and among its first this many
BELOW = 0.99  # an umbrella's score: its best step's, times this
MAX_UMBRELLAS = 3  # most steps first (then most changes covered, then id)


@dataclass
class Umbrella:
    """A composite, the steps it lists that were best for some change, and those changes (segment indices)."""

    recipe: str
    steps: list[str]
    segments: tuple[int, ...]
    match: Match


def umbrellas(per_segment: Sequence[dict[str, Match]], snap: ExampleSnapshot, known: set[str]) -> list[Umbrella]:
    """The composites (with a docs page: ``known``) that list ``MIN_STEPS`` or more recipes each among the best of
    a segment, over at least as many segments."""
    # composite → listed recipe → the segments where that recipe is among the best, with its match there
    found: dict[str, dict[str, list[tuple[int, Match]]]] = defaultdict(lambda: defaultdict(list))
    for n, scores in enumerate(per_segment):
        top = top_score(scores)
        if top <= 0:
            continue
        for rid, match in best_first(scores, BEST_TOP):
            parents = snap.parents.get(rid, ())
            if match.score < BEST_SHARE * top or len(parents) > MAX_LISTED_BY:
                continue
            for parent in parents:
                found[parent][rid].append((n, match))
                grandparents = snap.parents.get(parent, ()) if NESTED else ()
                if len(grandparents) <= MAX_LISTED_BY:
                    for grand in grandparents:
                        found[grand][parent].append((n, match))
    sizes = list_sizes(snap)
    out: list[Umbrella] = []
    for parent, steps in found.items():
        segments = {n for hits in steps.values() for n, _ in hits}
        if len(steps) < MIN_STEPS or len(segments) < MIN_STEPS or parent not in known:
            continue
        if len(steps) < MIN_SHARE * sizes.get(parent, 0):
            continue
        best = max((m for hits in steps.values() for _, m in hits), key=lambda m: m.score)
        score = best.score * BELOW * demotion(parent, snap)
        match = Match(score, best.cosine, best.example, best.tokens, best.phrase)
        out.append(Umbrella(parent, sorted(steps), tuple(sorted(segments)), match))
    out.sort(key=lambda u: (-len(u.steps), -len(u.segments), u.recipe))
    return out[:MAX_UMBRELLAS]


@last_result
def list_sizes(snap: ExampleSnapshot) -> dict[str, int]:
    """How many recipes each composite lists (``parents`` read the other way), once per snapshot."""
    sizes: dict[str, int] = defaultdict(int)
    for composites in snap.parents.values():
        for parent in set(composites):
            sizes[parent] += 1
    return dict(sizes)
