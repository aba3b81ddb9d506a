"""The example-terms leg: recipes whose page examples change the code words the query quotes.

A query that names code or configuration (``<exclusions>``, ``@Rule``, ``server.port``, ``testCompile``)
often uses a word the recipe's description never says but its example shows: ``ExcludeDependency`` is
described as "exclude a dependency", and only its example adds ``<exclusions>``. The examples leg compares
embeddings, in which one such word among many is drowned out; this leg matches the words themselves.

The query's code words (those ``intent.looks_like_code`` takes for code, or quoted in backticks) are split the
way the catalog splits an example's changed lines (``diffs.features.words``: dotted names whole and in
parts, camel-case parts); each recipe's evidence is the IDF-weighted share of those tokens its examples'
changed lines contain (IDF among the recipes with examples; tokens in more than ``example_terms_max_df``
of them say little and are skipped). Plain words are not matched: "entry" or "logging" occur in hundreds
of examples for reasons of their own.

The changed tokens of every example are read once per catalog revision (one statement, on the first
search that has a cursor) and kept beside the ranking snapshot.
"""

from __future__ import annotations

import math
import re
import threading
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np

from ...diffs.features import words
from ..intent import direction, looks_like_code, phrase_words, terms
from ..snapshot import RankingSnapshot
from ..tuning import SearchTuning
from .base import Evidence, LegContext

_QUOTED = re.compile(r"`([^`]+)`")


def code_tokens(text: str) -> set[str]:
    """The example-vocabulary tokens (``diffs.features.words``) of the code words of ``text``."""
    return {token for word in code_words(text) for token in words(word)}


REMOVED, ADDED = 1, 2  # the sides of a change a token is on, as bits


def code_words(text: str) -> list[str]:
    """The words of ``text`` that look like code, as written (punctuation at a word's edge trimmed), and
    the backtick-quoted passages."""
    return _QUOTED.findall(text) + [w for w in phrase_words(_QUOTED.sub(" ", text)) if looks_like_code(w)]


def sided_tokens(text: str) -> dict[str, int]:
    """``code_tokens`` of ``text``, each with the side of the change the query puts it on (``intent.direction``):
    ``ADDED`` for what it wants afterwards, ``REMOVED`` for what it wants gone, both bits when it does not say
    (a phrase of no shape, or a word on both sides). In "``fetchAll()`` renamed to ``findAll()``" the first is
    removed, the second added."""
    said = direction(text)
    out: dict[str, int] = {}
    for word in code_words(text):
        parts = set(terms(word))
        target = bool(parts) and parts <= said.target and not parts <= said.source
        source = bool(parts) and parts <= said.source and not parts <= said.target
        side = REMOVED | ADDED if said.plain else ADDED if target else REMOVED if source else REMOVED | ADDED
        for token in words(word):
            out[token] = out.get(token, 0) | side
    return out


@dataclass(frozen=True)
class ExampleTerms:
    """Changed tokens of the recipe pages' examples, by recipe (in the ranking snapshot's numbering) and side."""

    # token → (numbers of the recipes whose examples change it, on which sides: ``REMOVED``/``ADDED`` bits)
    postings: dict[str, tuple[np.ndarray, np.ndarray]]
    recipes: int  # how many recipes have examples

    def idf(self, token: str) -> float:
        return math.log(1 + self.recipes / len(self.postings[token][0]))


_LOCK = threading.Lock()
_CACHE: dict[tuple[str, str], ExampleTerms] = {}


def example_terms(cur: Any, snapshot: RankingSnapshot) -> ExampleTerms | None:
    """The example tokens of ``snapshot``'s catalog revision, read on first use (``None`` without a cursor
    before they were read)."""
    key = (snapshot.revision, snapshot.model_key)
    with _LOCK:
        cached = _CACHE.get(key)
    if cached is not None or cur is None:
        return cached
    cur.execute("SELECT to_regclass('recipe_examples') IS NOT NULL")
    rows: list[tuple[str, str, str]] = []
    if cur.fetchone()[0]:
        cur.execute("SELECT recipe_id, removed, added FROM recipe_examples")
        rows = cur.fetchall()
    sides: dict[str, dict[int, int]] = {}  # token → recipe number → side bits
    owners: set[int] = set()
    for rid, removed, added in rows:
        number = snapshot.index.get(rid)
        if number is None:
            continue
        owners.add(number)
        for text, side in ((removed, REMOVED), (added, ADDED)):
            for line in (text or "").splitlines():
                for token in words(line):
                    found = sides.setdefault(token, {})
                    found[number] = found.get(number, 0) | side
    postings = {
        token: (np.array(sorted(found), dtype=np.int64), np.array([found[n] for n in sorted(found)], dtype=np.int8))
        for token, found in sides.items()
    }
    terms = ExampleTerms(postings, len(owners))
    with _LOCK:
        _CACHE.clear()  # one revision at a time: a new ingest replaces the old tokens
        _CACHE[key] = terms
    return terms


def example_terms_leg(
    terms: ExampleTerms, snapshot: RankingSnapshot, queries: list[str], allowed: np.ndarray | None, tuning: SearchTuning
) -> Evidence:
    """Per variation, the ``example_terms_candidates`` recipes whose examples change the largest IDF-weighted
    share of the query's code tokens on the side the query puts them (see the module docstring)."""
    out: Evidence = []
    limit = tuning.example_terms_max_df * max(terms.recipes, 1)
    for text in queries:
        wanted = sided_tokens(text)
        tokens = sorted(t for t in wanted if t in terms.postings and len(terms.postings[t][0]) <= limit)
        if not tokens:
            out.append({})
            continue
        idf = [terms.idf(t) for t in tokens]
        scores = np.zeros(len(snapshot.recipe_ids))
        for token, weight in zip(tokens, idf, strict=True):
            numbers, sides = terms.postings[token]
            on_side = numbers[(sides & wanted[token]) != 0]
            scores[on_side] += weight
        scores /= sum(idf)
        matched = np.flatnonzero(scores)
        if allowed is not None:
            matched = matched[allowed[matched]]
        top = matched[np.lexsort((matched, -scores[matched]))][: tuning.example_terms_candidates]
        out.append({snapshot.recipe_ids[n]: float(scores[n]) for n in top})
    return out


class ExampleTermsLeg:
    name = "example_terms"
    needs_vectors = False
    always = False
    vouches = True  # an example changing the very word the query quotes keeps a recipe whatever its cosine
    rrf_lists: Literal["per_variation", "summary"] = "per_variation"
    # Several phrasings already agree on the recipe an intent needs; beside them this evidence measured
    # lower on the dev set's multi mode (README), so it serves one-phrase searches, like ``rerank.py``.
    one_phrase = True

    def weight(self, tuning: SearchTuning, fusion: str) -> float:
        return 0.0 if fusion == "rrf" else tuning.example_terms_weight

    def summary(self, evidence: np.ndarray) -> float:
        """The mean over the variations, like the lexical leg."""
        return float(evidence.sum()) / len(evidence)

    def gather(self, ctx: LegContext) -> Evidence:
        terms = example_terms(ctx.cur, ctx.snapshot)
        if terms is None:
            return [{} for _ in ctx.queries]
        allowed = None if ctx.filters.is_empty() else ctx.snapshot.filter_mask(ctx.filters)
        return example_terms_leg(terms, ctx.snapshot, ctx.queries, allowed, ctx.tuning)
