"""The diff's words searched with the hybrid ``find_recipes``: the segments' phrases (``server.diffs.words.describe``)
within a budget per diff (``budget_phrases``), the PR-level descriptions (``server.diffs.words.describe_pr``), both
a few at a time beside the example scoring, and their hits turned into per-segment and per-description
scores.
"""

from __future__ import annotations

import dataclasses
from collections import defaultdict
from collections.abc import Iterable, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any

from ...catalog.store import CatalogStore
from ...diffs.words import Wide
from ...embedding import Embedder
from .catalog import ExampleSnapshot
from .scoring import Match, best_first, demotion, version_factor

TEXT_HITS = 10  # find_recipes hits kept per phrase
MAX_PHRASES = 24  # distinct phrases searched per diff: every segment's first, then the later ones (``budget_phrases``)
# Tuned on the tune half of the labelled pr-cases (repositories 1, 3, 5, ... alphabetically; the other
# half is held out): figures on the tune half are in-sample, see the README.
PHRASE_DECAY = 0.1  # later phrases of a hunk are less specific
W_WIDE = 2.0  # a PR-level description (the same move in several files), searched with find_recipes
WIDE_MIN = 0.6  # ... its hits below this fusion score are left out (the words met no recipe's own words)
# ... a hit gains W_EXPLAIN times the share of the summed-up segments that it, or a recipe it lists, is
# among the EXPLAIN_TOP best of
W_EXPLAIN = 1.0
EXPLAIN_TOP = 10


_PHRASE_POOL = ThreadPoolExecutor(max_workers=4, thread_name_prefix="diff-phrases")


def start_searches(store: CatalogStore, embedder: Embedder, phrases: Iterable[str]) -> dict[str, Future[Any]]:
    """Start searching each distinct phrase with the hybrid ``find_recipes``, a few at a time: each call
    waits mostly on the database, so they run beside the example scoring. The phrases are already in the
    catalog's vocabulary (``server.diffs.words``), so no rewritten phrasings are added to them. Nor does the
    example-terms leg run on them: the diff search matches each hunk's changed tokens against the examples
    itself (``scoring.py``), and the leg counted that evidence twice (on the pr-cases' check half it lowered
    Recall@10 from 0.593 to 0.538)."""
    from ..hybrid import configured_tuning, find_recipes

    tuning = dataclasses.replace(configured_tuning(), query_rewrite=0, example_terms_weight=0.0)

    def one(phrase: str) -> dict[str, float]:
        return {
            h.id: float(h.fusion_score)
            for h in find_recipes(store, embedder, phrase, limit=TEXT_HITS, tuning=tuning).hits
        }

    return {phrase: _PHRASE_POOL.submit(one, phrase) for phrase in dict.fromkeys(phrases)}


def budget_phrases(phrases: Sequence[list[str]], kinds: Sequence[str]) -> list[str]:
    """The distinct phrases to search, at most ``MAX_PHRASES``: every segment's first (most specific)
    phrase, in diff order, then the later phrases taking turns by file kind (a Gradle segment's, a
    Dockerfile's, a workflow's, then each kind's next segment; second phrases before third ones). Each kind
    of file has its own family of recipes; taken in diff order, the spare slots would all go to the diff's
    first files (``.github``, ``Dockerfile``) and none to a later build or properties file."""
    out = list(dict.fromkeys(own[0] for own in phrases if own))
    turn: dict[int, int] = {}
    taken: dict[str, int] = defaultdict(int)
    for n, own in enumerate(phrases):
        if len(own) > 1:
            turn[n] = taken[kinds[n]]
            taken[kinds[n]] += 1
    later = sorted(turn, key=lambda n: (turn[n], n))
    for position in range(1, max((len(own) for own in phrases), default=1)):
        out += [phrases[n][position] for n in later if position < len(phrases[n])]
    return list(dict.fromkeys(out))[:MAX_PHRASES]


def search_wide(store: CatalogStore, embedder: Embedder, wide: Sequence[Wide]) -> dict[str, Future[Any]]:
    """Start searching the PR-level phrases (a few per diff) the same way as the segments' phrases."""
    return start_searches(store, embedder, (phrase for w in wide for phrase in w.phrases))


def wide_scores(
    wide: Sequence[Wide], pending: dict[str, Future[Any]], per_segment: list[dict[str, Match]], snap: ExampleSnapshot
) -> list[dict[str, Match]]:
    """Per PR-level description: the recipes its phrases found, weighed like a segment's words evidence
    (and by the version it moves to); no example evidence, a whole project's move has no one example.
    A hit that explains the segments the description sums up (it, or a recipe it lists, is among each
    one's best) gains: that is the umbrella migration, not one of its siblings."""
    found = {phrase: future.result() for phrase, future in pending.items()}
    out: list[dict[str, Match]] = []
    for w in wide:
        explains: dict[str, int] = defaultdict(int)
        for n in w.segments:
            best = best_first(per_segment[n], EXPLAIN_TOP)
            for rid in {r for r, _ in best} | {p for r, _ in best for p in snap.parents.get(r, ())}:
                explains[rid] += 1
        scores: dict[str, Match] = {}
        added = [w.version] if w.version else []
        for position, phrase in enumerate(w.phrases):
            weight = W_WIDE * (1.0 - PHRASE_DECAY * position)
            for rid, value in found.get(phrase, {}).items():
                if value < WIDE_MIN:
                    continue
                share = explains.get(rid, 0) / len(w.segments)
                score = weight * value * (1 + W_EXPLAIN * share) * version_factor(rid, added)
                score *= demotion(rid, snap)
                if rid not in scores or score > scores[rid].score:
                    scores[rid] = Match(score, 0.0, None, [], phrase)
        out.append(scores)
    return out


def text_scores(phrases: Sequence[list[str]], pending: dict[str, Future[Any]]) -> list[dict[str, tuple[float, str]]]:
    """Per segment: the recipes its phrases found, by fusion score (later phrases of a segment count less),
    with the phrase that found each."""
    found = {phrase: future.result() for phrase, future in pending.items()}
    out: list[dict[str, tuple[float, str]]] = []
    for own in phrases:
        scores: dict[str, tuple[float, str]] = {}
        for position, phrase in enumerate(own):
            weight = 1.0 - PHRASE_DECAY * position
            for rid, value in found.get(phrase, {}).items():
                if weight * value > scores.get(rid, (0.0, ""))[0]:
                    scores[rid] = (weight * value, phrase)
        out.append(scores)
    return out
