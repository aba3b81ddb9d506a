"""The SQL legs of recipe search: each finds candidates for the query variations in its own way.

- dense: nearest neighbours of each variation's embedding (pgvector HNSW), then the cosine of every
  candidate against *every* variation, so fusion sees the whole picture, not just per-list ranks;
- lexical: full-text matches weighted by inverse document frequency, so a rare word of the intent
  ("workflow_dispatch", "Temurin") outweighs words every recipe shares ("java", "recipe");
- exact: recipes whose id or class name is written in the query.

Every leg applies the same ``SearchFilters`` inside its SQL, so filters never silently shrink a result.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from rewrite_assist.server.search.models import SearchFilters

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
    return ("".join(f" AND {c}" for c in clauses), params)


# ------------------------------------------------------------------------------------------------- dense
def dense_candidates(
    cur: Any, vectors: np.ndarray, filters: SearchFilters, *, model_key: str, depth: int
) -> dict[str, set[int]]:
    """The ``depth`` nearest recipes of each variation: recipe id → the variations that found it.

    ORDER BY the distance operator itself so the partial HNSW index on this model key is used.
    """
    where, params = filter_sql(filters)
    found: dict[str, set[int]] = {}
    for n, vector in enumerate(vectors):
        cur.execute(
            "SELECT e.recipe_id FROM recipe_embeddings e JOIN recipes r ON r.id = e.recipe_id "
            f"WHERE e.model = %(model)s{where} ORDER BY e.embedding <=> %(q)s LIMIT %(n)s",
            {**params, "q": vector, "model": model_key, "n": depth},
        )
        for (rid,) in cur.fetchall():
            found.setdefault(rid, set()).add(n)
    return found


def cosines(cur: Any, vectors: np.ndarray, ids: Sequence[str], *, model_key: str) -> dict[str, np.ndarray]:
    """Cosine similarity of each recipe in ``ids`` to every variation (one row of V values per recipe)."""
    if not ids:
        return {}
    columns = ", ".join(f"1 - (embedding <=> %(q{n})s)" for n in range(len(vectors)))
    params: dict[str, Any] = {f"q{n}": v for n, v in enumerate(vectors)}
    params.update(model=model_key, ids=list(ids))
    cur.execute(
        f"SELECT recipe_id, {columns} FROM recipe_embeddings WHERE model = %(model)s AND recipe_id = ANY(%(ids)s)",
        params,
    )
    return {row[0]: np.asarray(row[1:], dtype=np.float64) for row in cur.fetchall()}


# ----------------------------------------------------------------------------------------------- lexical
@dataclass(frozen=True)
class LexicalTerms:
    """The query's lexemes (stemmed as the catalog's ``search_tsv`` is) with their IDF weights."""

    lexemes: list[str]
    idf: list[float]


def lexical_terms(cur: Any, texts: Sequence[str]) -> list[LexicalTerms]:
    """Lexemes of every variation and their BM25-style IDF, in two round trips for all variations."""
    cur.execute(
        "SELECT n, array(SELECT DISTINCT unnest(tsvector_to_array(to_tsvector('english', t)))) "
        "FROM unnest(%s::text[]) WITH ORDINALITY AS q(t, n) ORDER BY n",
        (list(texts),),
    )
    per_text = [[lx for lx in row[1] if "'" not in lx and "\\" not in lx] for row in cur.fetchall()]
    vocabulary = sorted({lx for lexemes in per_text for lx in lexemes})
    df: dict[str, int] = {}
    total = 0
    if vocabulary:
        cur.execute(
            "SELECT t.lex, (SELECT count(*) FROM recipes r WHERE r.search_tsv @@ quote_literal(t.lex)::tsquery), "
            "(SELECT count(*) FROM recipes) FROM unnest(%s::text[]) AS t(lex)",
            (vocabulary,),
        )
        for lex, count, n_docs in cur.fetchall():
            df[lex] = int(count)
            total = int(n_docs)
    out = []
    for lexemes in per_text:
        kept = [lx for lx in lexemes if df.get(lx, 0) > 0]
        out.append(LexicalTerms(kept, [math.log(1 + (total - df[lx] + 0.5) / (df[lx] + 0.5)) for lx in kept]))
    return out


def lexical_leg(cur: Any, terms: LexicalTerms, filters: SearchFilters, *, depth: int) -> dict[str, float]:
    """Top ``depth`` recipes by Σ idf(term) · ts_rank(term), scaled so the best match scores 1.

    ``ts_rank`` weighs where a term occurs (id and display name > tags > description); the IDF
    weighting is what plain ``ts_rank_cd`` over an OR-query lacks, and it is the larger gain.
    """
    if not terms.lexemes:
        return {}
    where, params = filter_sql(filters)
    params.update(lex=terms.lexemes, idf=terms.idf, n=depth)
    cur.execute(
        "SELECT r.id, sum(t.idf * ts_rank(r.search_tsv, quote_literal(t.lex)::tsquery, 1)) AS s "
        "FROM recipes r JOIN unnest(%(lex)s::text[], %(idf)s::float8[]) AS t(lex, idf) "
        f"ON r.search_tsv @@ quote_literal(t.lex)::tsquery WHERE true{where} "
        "GROUP BY r.id ORDER BY s DESC, r.id LIMIT %(n)s",
        params,
    )
    rows = [(rid, float(score)) for rid, score in cur.fetchall()]
    best = rows[0][1] if rows and rows[0][1] > 0 else 1.0
    return {rid: score / best for rid, score in rows}


# ------------------------------------------------------------------------------------------------- exact
def named_in(text: str) -> tuple[list[str], list[str]]:
    """Full ids and class names written in ``text`` (lower-cased)."""
    ids = [i.lower() for i in _ID_TOKEN.findall(text)]
    classes = [c.lower() for c in _CLASS_TOKEN.findall(text) if len(c) >= MIN_CLASS_NAME]
    classes += [i.rsplit(".", 1)[-1] for i in ids]
    return ids, classes


def exact_leg(cur: Any, text: str, filters: SearchFilters) -> dict[str, float]:
    """Recipes whose full id (score 1.0) or class name (0.5) is written in the query."""
    ids, classes = named_in(text)
    if not ids and not classes:
        return {}
    where, params = filter_sql(filters)
    params.update(ids=ids, classes=classes)
    cur.execute(
        "SELECT r.id, lower(r.id) = ANY(%(ids)s) FROM recipes r WHERE (lower(r.id) = ANY(%(ids)s) "
        f"OR lower(split_part(r.id, '.', -1)) = ANY(%(classes)s)){where} LIMIT 50",
        params,
    )
    return {rid: 1.0 if full else 0.5 for rid, full in cur.fetchall()}
