"""The legs of recipe search: each finds candidates for the query variations in its own way.

- dense: nearest neighbours of each variation's embedding (pgvector HNSW, one statement for all
  variations);
- lexical: PostgreSQL full-text matches (its stemming, its ``ts_rank``, read into the ranking snapshot)
  weighted by inverse document frequency, so a rare word of the intent ("workflow_dispatch", "Temurin")
  outweighs words every recipe shares ("java", "recipe");
- exact: recipes whose id or class name is written in the query (parsed here, looked up in the ranking
  snapshot).

Every leg applies the same ``SearchFilters`` (in SQL, or through ``RankingSnapshot.passing`` in memory),
so filters never silently shrink a result.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .models import SearchFilters
from .snapshot import RankingSnapshot

_ID_TOKEN = re.compile(r"\b(?:[a-z][\w-]*\.)+[A-Z][\w$]*\b")
_CLASS_TOKEN = re.compile(r"\b[A-Z][a-z0-9]+(?:[A-Z][A-Za-z0-9_]*)+\b")
MIN_CLASS_NAME = 7  # shorter CamelCase words ("JUnit", "GitHub") are vocabulary, not recipe names


def filter_sql(filters: SearchFilters, alias: str = "r") -> tuple[str, dict[str, Any]]:
    """``AND ...`` clauses (on the ``recipes`` alias) and their parameters for ``filters``."""
    clauses: list[str] = []
    params: dict[str, Any] = {}
    if filters.module:
        clauses.append(f"{alias}.artifact_id = %(f_module)s")
        params["f_module"] = filters.module
    if filters.tag:
        clauses.append(f"%(f_tag)s = ANY({alias}.tags)")
        params["f_tag"] = filters.tag
    if filters.license:
        clauses.append(f"{alias}.license = %(f_license)s")
        params["f_license"] = filters.license
    if filters.composite is not None:
        clauses.append(f"{alias}.is_composite = %(f_composite)s")
        params["f_composite"] = filters.composite
    if filters.availability:
        clauses.append(f"{alias}.availability = %(f_availability)s")
        params["f_availability"] = filters.availability
    return ("".join(f" AND {c}" for c in clauses), params)


# ------------------------------------------------------------------------------------------------- dense
def dense_statement(
    vectors: np.ndarray, filters: SearchFilters, *, model_key: str, depth: int
) -> tuple[str, dict[str, Any]]:
    """The dense leg's SQL: one statement for all variations (a LATERAL subquery per vector), each
    ordered by the distance operator itself so the partial HNSW index on this model key is used."""
    where, params = filter_sql(filters)
    join = " JOIN recipes r ON r.id = e.recipe_id" if where else ""  # the recipes row only serves filters
    sql = (
        "SELECT q.n, d.recipe_id FROM unnest(%(qs)s::vector[]) WITH ORDINALITY AS q(v, n) CROSS JOIN LATERAL ("
        f"SELECT e.recipe_id FROM recipe_embeddings e{join} "
        f"WHERE e.model = %(model)s{where} ORDER BY e.embedding <=> q.v LIMIT %(n)s) d"
    )
    return sql, {**params, "qs": [vector_literal(v) for v in vectors], "model": model_key, "n": depth}


def vector_literal(vector: np.ndarray) -> str:
    """pgvector's text form with 9 significant digits (exact for float32): half the time of the adapter's
    full ``repr`` of every float, which showed in the latency of a 5-variation search."""
    return "[" + ",".join(map("{:.9g}".format, np.asarray(vector, dtype=np.float32).tolist())) + "]"


def dense_candidates(
    cur: Any, vectors: np.ndarray, filters: SearchFilters, *, model_key: str, depth: int
) -> dict[str, set[int]]:
    """The ``depth`` nearest recipes of each variation: recipe id → the variations (0-based) that found it."""
    cur.execute(*dense_statement(vectors, filters, model_key=model_key, depth=depth))
    found: dict[str, set[int]] = {}
    for n, rid in cur.fetchall():
        found.setdefault(rid, set()).add(int(n) - 1)
    return found


# ----------------------------------------------------------------------------------------------- lexical
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
    cur: Any, texts: Sequence[str], doc_freq: Callable[[str], int], total: int, *, max_df: float = 1.0
) -> list[LexicalTerms]:
    """Lexemes of every variation, parsed by PostgreSQL's ``websearch_to_tsquery`` (its stemming, and web
    search syntax: ``-word`` excludes, ``or`` and quotes are accepted) in one round trip, with their
    BM25-style IDF from the catalog's document frequencies. Lexemes no recipe contains are dropped, and so
    are those in more than ``max_df`` of all recipes ("migrate", "replace"): they carry little weight and
    mostly add noise (measured on the dev set)."""
    cur.execute(
        "SELECT n, websearch_to_tsquery('english', t)::text FROM unnest(%s::text[]) WITH ORDINALITY AS q(t, n) "
        "ORDER BY n",
        (list(texts),),
    )
    out = []
    for _n, query in cur.fetchall():
        wanted, excluded = parse_tsquery(query)
        kept = sorted(lx for lx in wanted if "'" not in lx and "\\" not in lx and 0 < doc_freq(lx) <= max_df * total)
        idf = [math.log(1 + (total - doc_freq(lx) + 0.5) / (doc_freq(lx) + 0.5)) for lx in kept]
        out.append(LexicalTerms(kept, idf, [lx for lx in excluded if doc_freq(lx) > 0]))
    return out


def lexical_leg(
    snapshot: RankingSnapshot, terms: Sequence[LexicalTerms], filters: SearchFilters, *, depth: int
) -> list[dict[str, float]]:
    """Per variation, the top ``depth`` recipes by Σ idf(term) · ts_rank(term), scaled so its best match
    scores 1.

    ``ts_rank`` (computed by PostgreSQL for every term and recipe when the snapshot is read) weighs where a
    term occurs (id and display name > tags > description); the IDF weighting is what plain
    ``ts_rank_cd`` over an OR-query lacks, and it is the larger gain. The sums run in memory: ranking a
    term's matches in SQL on every search cost ~7 ms of a ~30 ms search.
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


# ------------------------------------------------------------------------------------------------- exact
def named_in(text: str) -> tuple[list[str], list[str]]:
    """Full ids and class names written in ``text`` (lower-cased)."""
    ids = [i.lower() for i in _ID_TOKEN.findall(text)]
    classes = [c.lower() for c in _CLASS_TOKEN.findall(text) if len(c) >= MIN_CLASS_NAME]
    classes += [i.rsplit(".", 1)[-1] for i in ids]
    return ids, classes
