"""The whole-diff pick of the diff search: recipes chosen greedily so the hits cover the diff's different
changes (a small ``FROM`` line or a deleted file included) rather than repeating the recipes of its largest
file: each segment's scores lifted toward the best segment's, a covered segment's weight decayed, a little
credit for matching other segments well (spread), and a PR-level description's hit covering the segments it
sums up. The generic edit recipes of the segments' file kinds (``generic``) follow the recipes that were best
for some change, ahead of the runners-up and of any weak pick.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Collection, Mapping, Sequence

from .build_edits import BUILD_DECAY
from .scoring import Match, best_first, top_score

# Tuned on the tune half of the labelled pr-cases (repositories 1, 3, 5, ... alphabetically; the other
# half is held out): figures on the tune half are in-sample, see the README.
W_SPREAD = 0.15  # in the whole-diff pick: share of a recipe's matches in other segments
SPREAD_MIN = 0.85  # ... counted where the recipe is among a segment's best (share of that segment's top)
SEGMENT_LIFT = 0.5  # in the pick: how far each segment's scores are lifted toward the diff's best segment
UNWORDED = 0.7  # in the pick: a segment without any phrase (its scores' share)
WIDE_COVER = 1.0  # in the pick: what a recipe a PR-level description found leaves of the segments it sums up
WIDE_LIFTED = True  # the PR-level unit's scores are lifted toward the best segment like a small hunk's
COVERAGE_DECAY = 0.55
# A picked composite covers its segments for other recipes, not for the ones it runs: those are the precise
# steps that make its changes (``UpgradeToJava17`` picked, ``UpdateJavaCompatibility`` still names the
# toolchain hunk).
MEMBERS_KEEP = True
# The generic edit recipes (``generic``) of the segments go after the leading run of recipes that were best
# for some segment when picked, before the runners-up; at most this many (the first segments' first) ...
FALLBACK = 3
# ... and before the first pick valued under this share of the first one's below the list's first third, even
# inside that run: a generic recipe told a changed line's options writes a line of the PR, which a weak pick of
# a long run (a recipe sharing a big file's words) mostly does not. Measured: 0.5 kept the tune half (a run
# filling the list yielding its last places regardless cost it 0.871 -> 0.815 R@10).
WEAK_PICK = 0.5
# ... a generic recipe the pick already placed among the runners-up moves up to that place too (False: it
# stayed where the runners-up had it, below recipes no better than it).
RUNNERS_UP_STAY = False
DEPTH = 25  # each unit's best recipes the pick weighs; none deeper in a unit reaches the ten


def pick(
    per_segment: list[dict[str, Match]],
    limit: int,
    worded: Sequence[bool] | None = None,
    covers: Sequence[Sequence[int]] | None = None,
    ancestors: Mapping[str, frozenset[str]] | None = None,
    fallbacks: Sequence[Sequence[str]] | None = None,
    offered: Collection[tuple[int, str]] = (),
) -> list[tuple[str, float]]:
    """Greedy selection over the whole diff (``greedy``), cut to ``limit`` with the generic recipes in (``finish``).
    ``fallbacks`` (per unit: the generic recipes that can make its edit) go in by ``with_fallbacks``."""
    return finish(*greedy(per_segment, limit, worded, covers, ancestors, offered), fallbacks, limit)


def greedy(
    per_segment: list[dict[str, Match]],
    limit: int,
    worded: Sequence[bool] | None = None,
    covers: Sequence[Sequence[int]] | None = None,
    ancestors: Mapping[str, frozenset[str]] | None = None,
    offered: Collection[tuple[int, str]] = (),
) -> tuple[list[tuple[str, float]], list[bool]]:
    """Greedy selection over the whole diff: a recipe's value is its best segment score weighted by how
    much of that segment is still uncovered, plus a little for every other segment it matches well. Returns the
    first ``limit`` picks with their values, and per pick whether it was among the best of a segment it decayed.

    ``covers`` says which segments each unit stands for: a segment itself, or for a PR-level description
    the segments it sums up, which a recipe it finds covers too (``WIDE_COVER``). ``ancestors`` (recipe →
    the composites that run it) exempts a picked composite's members from the decay it caused.
    ``offered``: (segment, recipe) pairs whose score the segment's build edit gave (``build_edits.offer``):
    picking such a recipe decays that segment by ``BUILD_DECAY`` only."""
    weights = [1.0] * len(per_segment)
    # per segment: the composites picked that decayed it (a member of one is not covered by it)
    decayed_by: list[list[str]] = [[] for _ in per_segment]
    tops = [top_score(scores) for scores in per_segment]
    best = max(tops, default=0.0)
    # A small hunk's best recipe (a FROM line, a deleted file) scores lower than a big hunk's; lifting each
    # segment part of the way toward the best one keeps it from being starved by the big hunks' runners-up.
    lift = [(1 - SEGMENT_LIFT) + SEGMENT_LIFT * best / top if top > 0 else 1.0 for top in tops]
    if covers is not None and not WIDE_LIFTED:
        lift = [1.0 if len(covers[n]) > 1 else f for n, f in enumerate(lift)]
    if worded is not None:
        # A segment the words bridge cannot name (hand-written code) has only weak, scattered evidence.
        lift = [f if worded[n] else f * UNWORDED for n, f in enumerate(lift)]
    candidates: dict[str, list[tuple[int, float]]] = defaultdict(list)
    for n, scores in enumerate(per_segment):
        for rid, m in best_first(scores, DEPTH):
            candidates[rid].append((n, m.score * lift[n]))
    tops = [top * lift[n] for n, top in enumerate(tops)]
    chosen: list[tuple[str, float]] = []
    best_for_some: list[bool] = []  # per pick: was it among the best of a segment it decayed
    while candidates and len(chosen) < limit:

        def weight(rid: str, n: int, s: float) -> float:
            if not decayed_by[n] or ancestors is None or s < tops[n]:
                return weights[n]
            above = ancestors.get(rid, frozenset())
            kept = sum(1 for c in decayed_by[n] if c in above)
            return weights[n] / COVERAGE_DECAY**kept

        def value(rid: str) -> float:
            parts = sorted((weight(rid, n, s) * s for n, s in candidates[rid]), reverse=True)
            spread = sorted(
                (weight(rid, n, s) * s for n, s in candidates[rid] if s >= SPREAD_MIN * tops[n]), reverse=True
            )
            return parts[0] + W_SPREAD * sum(spread[1:4])

        rid = max(candidates, key=lambda r: (value(r), r))
        chosen.append((rid, value(rid)))
        best_for_some.append(False)
        for n, s in candidates.pop(rid):
            if s >= 0.85 * tops[n]:
                best_for_some[-1] = True
                weights[n] *= BUILD_DECAY if (n, rid) in offered else COVERAGE_DECAY
                if MEMBERS_KEEP:
                    decayed_by[n].append(rid)
                if covers is not None and len(covers[n]) > 1:
                    for covered in covers[n]:
                        weights[covered] *= WIDE_COVER
    return chosen, best_for_some


def finish(
    chosen: list[tuple[str, float]], best_for_some: list[bool], fallbacks: Sequence[Sequence[str]] | None, limit: int
) -> list[tuple[str, float]]:
    """The greedy picks cut to ``limit`` with the generic recipes in (``with_fallbacks``). The greedy order does not
    depend on the limit, only where it stops: one run to the deepest limit serves every shorter one."""
    chosen, best_for_some = chosen[:limit], best_for_some[:limit]
    if fallbacks is not None and FALLBACK > 0:
        chosen = with_fallbacks(chosen, best_for_some, fallbacks, limit)
    return chosen


def with_fallbacks(
    chosen: list[tuple[str, float]], best_for_some: list[bool], fallbacks: Sequence[Sequence[str]], limit: int
) -> list[tuple[str, float]]:
    """The generic recipes inserted after the leading run of picks that were best for some segment: where
    the specific evidence ends and the runners-up of covered segments begin, or where the picks grow weak
    (``WEAK_PICK``)."""
    run = next((i for i, best in enumerate(best_for_some) if not best), len(chosen))
    first = chosen[0][1] if chosen else 0.0
    # a weak pick counts below the list's first third: that third is the specific evidence's
    weak = next((i for i in range(limit // 3, len(chosen)) if chosen[i][1] < WEAK_PICK * first), len(chosen))
    at = min(run, weak)
    # A generic recipe already among the runners-up moves up to its place (unless RUNNERS_UP_STAY).
    head = {rid for rid, _ in (chosen if RUNNERS_UP_STAY else chosen[:at])}
    extra: list[str] = []
    for rids in fallbacks:
        for rid in rids:
            if rid not in head and rid not in extra and len(extra) < FALLBACK:
                extra.append(rid)
    if not extra or at >= limit:
        return chosen
    rest = [(rid, score) for rid, score in chosen[at:] if rid not in extra]
    # scored between their neighbours: below every specific hit, above the runners-up
    above = chosen[at - 1][1] if at > 0 else 0.0
    value = (above + rest[0][1]) / 2 if rest else above
    return (chosen[:at] + [(rid, value) for rid in extra] + rest)[:limit]
