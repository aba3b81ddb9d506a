"""SQL shared by the legs that run in PostgreSQL."""

from __future__ import annotations

from typing import Any

from ..models import SearchFilters


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
