"""Filter values checked against the catalog before a search runs.

A filter naming a module or tag the catalog does not have matches nothing, and an empty result reads as
"rephrase your intent" when the real fix is the filter. So ``find_recipes`` checks the values first, and
an unknown one fails with the closest known values; the CLI and the MCP tool both get that one message.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable

from ..errors import BadInput
from .models import SearchFilters
from .snapshot import RankingSnapshot

CLOSEST = 5


class UnknownFilterValue(BadInput):
    """A filter value the catalog does not have; the message lists the closest values it does have."""


def closest(value: str, known: Iterable[str], n: int = CLOSEST) -> list[str]:
    """Known values most like ``value``: same text in another case first, then those containing it or
    contained in it, then spelling neighbours."""
    values = sorted(set(known))
    lowered = value.lower()
    by_lower = {v.lower(): v for v in values}
    found: list[str] = []

    def add(candidates: Iterable[str]) -> None:
        for candidate in candidates:
            if candidate not in found and len(found) < n:
                found.append(candidate)

    add([by_lower[lowered]] if lowered in by_lower else [])
    add(sorted((v for v in values if lowered in v.lower() or v.lower() in lowered), key=len) if lowered else [])
    add(by_lower[m] for m in difflib.get_close_matches(lowered, list(by_lower), n=n, cutoff=0.6))
    return found


def _unknown(what: str, value: str, known: Iterable[str], example: str) -> UnknownFilterValue:
    near = closest(value, known)
    hint = f" Closest: {', '.join(near)}." if near else f" {example}"
    return UnknownFilterValue(f"No recipe in the catalog has {what} {value!r}.{hint} Or leave the filter out.")


def check_filters(snapshot: RankingSnapshot, filters: SearchFilters) -> None:
    """Raise ``UnknownFilterValue`` when ``filters`` names a module or tag no recipe in ``snapshot`` has."""
    rows = snapshot.rows.values()
    if filters.module is not None:
        modules = {r.artifact_id for r in rows if r.artifact_id}
        if filters.module not in modules:
            raise _unknown("module", filters.module, modules, "Modules are artifact ids such as rewrite-spring.")
    if filters.tag is not None:
        tags = {t for r in rows for t in r.tags}
        if filters.tag not in tags:
            raise _unknown("tag", filters.tag, tags, "Tags are words such as spring, junit or security.")
    if filters.license is not None and not any(r.license == filters.license for r in rows):
        raise _unknown("license", filters.license, {r.license for r in rows}, "")
