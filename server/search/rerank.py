"""Query-aware evidence from the catalog's own names: is the recipe the canonical one for what the query
says, does it change code when the query asks for a change, does it go the query's way?

Three features per candidate, averaged over the query variations, each in [0, 1]:

- ``name_miss``: the share (weighted by how rare each term is among display names) of the recipe's
  display name the query does not mention. A framework-specific variant carries the framework's name
  ("Use Arquillian JUnit 5 Extension", "Upgrade MyBatis to Spring Boot 3.2"); the canonical recipe's name is
  mostly what the query says. A query that names the framework covers that term, so the variant is not
  held back then.
- ``search_for_change``: the recipe only finds things (``Find*``, ``*.search.*``) and the query does not ask
  to find anything.
- ``against``: the recipe gets rid of what the query wants (the query's target terms are the recipe's
  source), or the query says outright what it wants gone and the recipe adds it (``intent.py``).

Four more come from the examples leg and the catalog graph (``CandidatePool.rerank_features``):

- ``examples_code``: the examples leg's evidence (``legs/examples.py``) times how much the query looks like
  code or configuration (``code_share``): a quoted ``log.debug("Loaded " + count)`` is matched by the
  examples it resembles, a query in words hardly by any.
- ``composite``: the recipe runs other recipes (a migration, a best-practices bundle): the canonical entry
  point rather than one of its steps.
- ``popularity``: ``log(1 + used_by)``: how many composites include it (a well-trodden building block).
- ``popularity_code``: ``popularity`` times ``code_share``: a query that quotes one concrete edit
  ("logging.level.root ... changed from INFO to WARN") is mostly served by a building block composites use for
  such edits (change a property, upgrade a dependency), not by a migration that happens to make it.

Each feature's weight is a ``SearchTuning`` field, fitted on pseudo-queries the catalog writes itself
(``evaluation/rerank_train.py``); the adjustment applies to score fusion of one-phrase searches
(``fusion.py`` says why).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from .intent import Direction, direction, looks_like_code, phrase_words, terms
from .priors import RecipeFacts
from .tuning import SearchTuning

NAME_FEATURES = ("name_miss", "search_for_change", "against")
EVIDENCE_FEATURES = ("examples_code", "composite", "popularity", "popularity_code")
FEATURES = NAME_FEATURES + EVIDENCE_FEATURES


def code_share(text: str) -> float:
    """The share of the words of ``text`` that look like code (``intent.looks_like_code``)."""
    words = phrase_words(text)
    return sum(1 for w in words if looks_like_code(w)) / len(words) if words else 0.0


@dataclass(frozen=True)
class QueryIntent:
    terms: frozenset[str]
    direction: Direction


def query_intents(queries: Sequence[str]) -> list[QueryIntent]:
    return [QueryIntent(frozenset(terms(q)), direction(q)) for q in queries]


def _mass(found: frozenset[str], idf: Mapping[str, float], default: float) -> float:
    return sum(idf.get(t, default) for t in found)


def features(
    facts: RecipeFacts, intents: Sequence[QueryIntent], idf: Mapping[str, float], rare: float | None = None
) -> tuple[float, ...]:
    """``NAME_FEATURES`` of one candidate, averaged over the variations. ``rare`` is the weight of a term no display
    name has (the highest IDF: as rare as it gets); pass it when scoring many candidates."""
    if not intents:
        return (0.0,) * len(NAME_FEATURES)
    if rare is None:
        rare = max(idf.values(), default=1.0)
    name = facts.name_terms
    whole = _mass(name, idf, rare)
    recipe = facts.direction
    sums = [0.0, 0.0, 0.0]
    for q in intents:
        if whole > 0:
            sums[0] += _mass(name - q.terms, idf, rare) / whole
        if facts.search_only and not q.direction.search:
            sums[1] += 1.0
        if recipe is not None:
            # A term on both sides of a change ("http" in "from http:// to https://") says nothing of its
            # direction, on either side.
            target, source = q.direction.target - q.direction.source, q.direction.source - q.direction.target
            against = 0.0
            if recipe.strong and target:
                removed = _mass(target & (recipe.source - recipe.target), idf, rare)
                against = removed / max(_mass(target, idf, rare), 1e-9)
            if q.direction.strong and source:
                added = _mass(source & (recipe.target - recipe.source), idf, rare)
                against = max(against, added / max(_mass(source, idf, rare), 1e-9))
            sums[2] += against
    return tuple(s / len(intents) for s in sums)


def weights(tuning: SearchTuning) -> tuple[float, ...]:
    """The weight of each of ``FEATURES``, in that order."""
    return (
        tuning.name_miss_weight,
        tuning.search_for_change_weight,
        tuning.against_weight,
        tuning.examples_code_weight,
        tuning.composite_weight,
        tuning.popularity_weight,
        tuning.popularity_code_weight,
    )


def adjustment(values: Sequence[float], tuning: SearchTuning) -> float:
    """The amount added to a candidate's score fusion relevance (a negative weight is a penalty)."""
    return sum(w * v for w, v in zip(weights(tuning), values, strict=True))
