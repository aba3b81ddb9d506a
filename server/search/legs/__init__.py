"""The legs of recipe search, each one module implementing ``base.Leg`` (per variation: recipe id →
evidence), registered here:

- ``lexical``: IDF-weighted PostgreSQL full-text matches;
- ``exact``: recipes whose id or class name is written in the query;
- ``dense``: nearest neighbours of each variation's embedding (pgvector HNSW);
- ``examples``: recipes whose page examples are nearest to each variation's embedding (in memory);
- ``example_terms``: recipes whose page examples change the code words the query quotes.

Adding a leg: one module with a class like these, and one entry in ``LEGS``. Legs that need no vectors run
first, in this order, while the query embedding is computed; the others follow once it is ready.
"""

from __future__ import annotations

from .base import Evidence, Leg, LegContext
from .dense import DenseLeg, dense_candidates, dense_statement, vector_literal
from .exact import MIN_CLASS_NAME, ExactLeg, named_in
from .example_terms import ExampleTermsLeg, code_tokens
from .examples import ExamplesLeg
from .lexical import LexicalLeg, LexicalTerms, lexical_leg, lexical_terms, parse_tsquery
from .sql import filter_sql

LEGS: tuple[Leg, ...] = (LexicalLeg(), ExactLeg(), ExampleTermsLeg(), DenseLeg(), ExamplesLeg())

__all__ = [
    "LEGS",
    "MIN_CLASS_NAME",
    "DenseLeg",
    "Evidence",
    "ExactLeg",
    "ExampleTermsLeg",
    "ExamplesLeg",
    "Leg",
    "LegContext",
    "LexicalLeg",
    "LexicalTerms",
    "code_tokens",
    "dense_candidates",
    "dense_statement",
    "filter_sql",
    "lexical_leg",
    "lexical_terms",
    "named_in",
    "parse_tsquery",
    "vector_literal",
]
