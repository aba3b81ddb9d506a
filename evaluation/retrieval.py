"""Run a retrieval test set through a search system and score it (``rewrite-assist eval retrieval``).

A *system* is anything that maps the queries of one case to a ranked list of recipe ids. Ours is
``find_recipes`` itself, the function the MCP tool calls, so the numbers describe what agents get; the
reference system (``baseline.py``) runs on the same catalog in the same process for a fair comparison.
"""

from __future__ import annotations

import time
from collections import Counter, defaultdict
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from ..server.catalog.store import CatalogStore
from ..server.embedding import Embedder
from .cases import Mode, RetrievalCase
from .metrics import case_metrics, mean_metrics, percentile

SearchFn = Callable[[list[str], int], list[str]]

OURS = "rewrite-assist"
REFERENCE = "reference"


@dataclass
class System:
    """A named search function plus the settings it ran with (recorded in the JSON)."""

    name: str
    search: SearchFn
    config: dict[str, Any] = field(default_factory=dict)


@dataclass
class CaseResult:
    id: str
    category: str
    kind: str
    half: str
    # Counts, not the test set's text or labels: a report is committed, the dev set stays in ../shared.
    query_count: int
    ranking: list[str]
    latency_ms: float
    metrics: dict[str, float]
    missed_by_grade: dict[str, int]

    def as_json(self) -> dict[str, Any]:
        return asdict(self)


@dataclass
class SystemRun:
    system: System
    cases: list[CaseResult]

    def overall(self) -> dict[str, float]:
        out = mean_metrics([c.metrics for c in self.cases])
        latencies = [c.latency_ms for c in self.cases]
        out["latency_p50_ms"] = percentile(latencies, 50)
        out["latency_p95_ms"] = percentile(latencies, 95)
        return out

    def grouped(self, key: Callable[[CaseResult], str]) -> dict[str, dict[str, float]]:
        """Mean metrics per group, plus the group's case count under ``cases``."""
        groups: dict[str, list[CaseResult]] = defaultdict(list)
        for case in self.cases:
            groups[key(case)].append(case)
        out = {}
        for name in sorted(groups):
            metrics: dict[str, float] = mean_metrics([c.metrics for c in groups[name]])
            metrics["cases"] = len(groups[name])
            out[name] = metrics
        return out

    def as_json(self) -> dict[str, Any]:
        return {
            "config": self.system.config,
            "overall": self.overall(),
            "by_category": self.grouped(lambda c: c.category),
            "by_kind": self.grouped(lambda c: c.kind),
            "by_half": self.grouped(lambda c: c.half),
            "cases": [c.as_json() for c in self.cases],
        }


def run_system(system: System, cases: Sequence[RetrievalCase], *, mode: Mode, limit: int) -> SystemRun:
    """Search every case once, timing each call end to end (query embedding included)."""
    results = []
    for case in cases:
        queries = case.queries(mode)
        started = time.perf_counter()
        ranking = system.search(queries, limit)
        latency = (time.perf_counter() - started) * 1000
        returned = set(ranking)
        missed = Counter(str(g) for rid, g in case.relevant.items() if g > 0 and rid not in returned)
        results.append(
            CaseResult(
                id=case.id,
                category=case.category,
                kind=case.kind,
                half=case.half,
                query_count=len(queries),
                ranking=ranking,
                latency_ms=round(latency, 2),
                metrics=case_metrics(ranking, case.relevant),
                missed_by_grade=dict(sorted(missed.items(), reverse=True)),
            )
        )
    return SystemRun(system, results)


def our_system(store: CatalogStore, embedder: Embedder, **overrides: Any) -> System:
    """``find_recipes`` as configured (``REWRITE_ASSIST_FUSION`` included), or with ``overrides``
    (``min_score``, ``tuning``) for experiments."""
    from ..server.search.hybrid import DEFAULT_MIN_SCORE, configured_tuning, find_recipes

    min_score = overrides.get("min_score", DEFAULT_MIN_SCORE)
    tuning = overrides.get("tuning") or configured_tuning()

    def search(queries: list[str], limit: int) -> list[str]:
        result = find_recipes(store, embedder, queries, limit=limit, min_score=min_score, tuning=tuning)
        return [hit.id for hit in result.hits]

    return System(OURS, search, {"min_score": min_score, "tuning": asdict(tuning)})


def reference_system(store: CatalogStore, embedder: Embedder) -> System:
    """The reference system on the same catalog (embeds its text first if needed)."""
    from . import baseline

    baseline.ensure_reference_embeddings(store, embedder)

    def search(queries: list[str], limit: int) -> list[str]:
        return baseline.reference_search(store, embedder, queries, limit)

    config = {
        "embedded_text": "Recipe: {display name}\\nDescription: {description}\\nTags: {tags}\\nFull name: {id}",
        "legs": "cosine only (exact scan)",
        "min_score": baseline.REFERENCE_MIN_SCORE,
        "candidates_per_variation": f"limit*{baseline.REFERENCE_CANDIDATE_FACTOR}",
        "rrf_k": baseline.REFERENCE_RRF_K,
        "model_key": baseline.REFERENCE_MODEL_KEY,
    }
    return System(REFERENCE, search, config)


def evaluate(
    systems: Sequence[System],
    cases: Sequence[RetrievalCase],
    *,
    mode: Mode,
    limit: int,
    warm_up: Callable[[], Any] | None = None,
) -> list[SystemRun]:
    """Run every system on every case; ``warm_up`` (e.g. loading the model) runs first, untimed."""
    if warm_up is not None:
        warm_up()
    for system in systems:  # one untimed call each: connection pools and caches warm, latencies comparable
        system.search(cases[0].queries(mode), limit)
    return [run_system(system, cases, mode=mode, limit=limit) for system in systems]
