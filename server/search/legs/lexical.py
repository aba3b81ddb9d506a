"""The lexical leg: PostgreSQL full-text matches (its stemming, its ``ts_rank``, read into the ranking
snapshot) weighted by inverse document frequency, so a rare word of the intent ("workflow_dispatch",
"Temurin") outweighs words every recipe shares ("java", "recipe")."""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

import numpy as np

from ..models import SearchFilters
from ..snapshot import RankingSnapshot
from ..tuning import SearchTuning
from .base import Evidence, LegContext


@dataclass(frozen=True)
class LexicalTerms:
    """The query's lexemes (stemmed as the catalog's ``search_tsv`` is) with their IDF weights, and the
    lexemes it excludes (``-word``)."""

    lexemes: list[str]
    idf: list[float]
    excluded: list[str] = field(default_factory=list)


_TSQUERY_LEXEME = re.compile(r"(!?)'((?:[^']|'')*)'")


def parse_tsquery(text: str) -> tuple[list[str], list[str]]:
    """The lexemes of a tsquery's text form, split into wanted and excluded (``!'word'``).

    The query's AND/OR/phrase structure is dropped on purpose: the leg scores every wanted lexeme on its
    own (an AND of a natural-language intent's words matches almost nothing).
    """
    wanted: dict[str, None] = {}
    excluded: dict[str, None] = {}
    for negated, quoted in _TSQUERY_LEXEME.findall(text):
        (excluded if negated else wanted)[quoted.replace("''", "'")] = None
    return [lx for lx in wanted if lx not in excluded], list(excluded)


def lexical_terms(
    cur: Any,
    texts: Sequence[str],
    doc_freq: Callable[[str], int],
    total: int,
    *,
    max_df: float = 1.0,
    memo: dict[str, str] | None = None,
) -> list[LexicalTerms]:
    """Lexemes of every variation, parsed by PostgreSQL's ``websearch_to_tsquery`` (its stemming, and web
    search syntax: ``-word`` excludes, ``or`` and quotes are accepted) in one round trip, with their
    BM25-style IDF from the catalog's document frequencies. Lexemes no recipe contains are dropped, and so
    are those in more than ``max_df`` of all recipes ("migrate", "replace"): they carry little weight and
    mostly add noise (measured on the dev set)."""
    out = []
    for query in parsed_queries(cur, texts, memo):
        wanted, excluded = parse_tsquery(query)
        kept = sorted(lx for lx in wanted if "'" not in lx and "\\" not in lx and 0 < doc_freq(lx) <= max_df * total)
        idf = [math.log(1 + (total - doc_freq(lx) + 0.5) / (doc_freq(lx) + 0.5)) for lx in kept]
        out.append(LexicalTerms(kept, idf, [lx for lx in excluded if doc_freq(lx) > 0]))
    return out


def parsed_queries(cur: Any, texts: Sequence[str], memo: dict[str, str] | None = None) -> list[str]:
    """``websearch_to_tsquery('english', text)::text`` of every text, in one round trip for those ``memo``
    (text → parsed, filled here) does not already hold: one search call parses its phrases once, though
    its Moderne-only hint runs the leg a second time."""
    memo = {} if memo is None else memo
    missing = list(dict.fromkeys(t for t in texts if t not in memo))
    if missing:
        if cur is None:
            raise RuntimeError("lexical leg run without a cursor before its phrases were parsed")
        cur.execute(
            "SELECT n, websearch_to_tsquery('english', t)::text FROM unnest(%s::text[]) WITH ORDINALITY AS q(t, n) "
            "ORDER BY n",
            (missing,),
        )
        for n, query in cur.fetchall():
            memo[missing[int(n) - 1]] = query
    return [memo[t] for t in texts]


def lexical_leg(
    snapshot: RankingSnapshot, terms: Sequence[LexicalTerms], filters: SearchFilters, *, depth: int
) -> list[dict[str, float]]:
    """Per variation, the top ``depth`` recipes by Σ idf(term) · ts_rank(term), scaled so its best match
    scores 1.

    ``ts_rank`` (computed by PostgreSQL for every term and recipe when the snapshot is read) weighs where a
    term occurs (id and display name > tags > description); the IDF weighting is what plain
    ``ts_rank_cd`` over an OR-query lacks, and it is the larger gain. The sums run in memory: ranking a
    term's matches in SQL on every search was a large share of a warm search's time.
    """
    allowed = None if filters.is_empty() else snapshot.filter_mask(filters)
    out: list[dict[str, float]] = []
    for variation in terms:
        scores = np.zeros(len(snapshot.recipe_ids))
        for lexeme, idf in zip(variation.lexemes, variation.idf, strict=True):
            numbers, ranks = snapshot.postings[lexeme]
            scores[numbers] += idf * ranks
        for lexeme in variation.excluded:  # ``-word``: recipes containing it are no full-text match
            scores[snapshot.postings[lexeme][0]] = 0.0
        matched = np.flatnonzero(scores)
        if allowed is not None:
            matched = matched[allowed[matched]]
        # best first; equal scores by id, which is the numbering's order
        top = matched[np.lexsort((matched, -scores[matched]))][:depth]
        best = float(scores[top[0]]) if len(top) else 1.0
        out.append({snapshot.recipe_ids[n]: float(scores[n]) / best for n in top})
    return out


class LexicalLeg:
    name = "lexical"
    needs_vectors = False
    always = False
    vouches = True  # a full-text match on a rare word keeps a recipe whatever its cosine
    rrf_lists: Literal["per_variation", "summary"] = "per_variation"
    one_phrase = False

    def weight(self, tuning: SearchTuning, fusion: str) -> float:
        return tuning.rrf_lexical_weight if fusion == "rrf" else tuning.lexical_weight

    def summary(self, evidence: np.ndarray) -> float:
        """The mean over the variations: a term only one phrasing uses counts for that phrasing's share."""
        return float(evidence.sum()) / len(evidence)  # = mean(), bit for bit, without its overhead

    def gather(self, ctx: LegContext) -> Evidence:
        snap, t = ctx.snapshot, ctx.tuning
        freq, total = snap.term_stats(ctx.filters)  # IDF among the recipes the filters allow (see term_stats)
        parsed = ctx.memo.setdefault("tsquery", {})
        terms = lexical_terms(ctx.cur, ctx.queries, freq, total, max_df=t.lexical_max_df, memo=parsed)
        return lexical_leg(snap, terms, ctx.filters, depth=t.lexical_candidates)
