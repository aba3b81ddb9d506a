"""The module → latest version → license table of the docs.

The table lives in ``docs/reference/latest-versions-of-every-openrewrite-module.md``. Recipe pages name
their artifact but not its version; this table, regenerated on every OpenRewrite release, supplies it.
Rows look like ``| [org.openrewrite:rewrite-java](...) | [8.90.3](...) | [Apache License Version 2.0](...) |``
(the BOM and build-plugin rows put the module and version in bold).
"""

from __future__ import annotations

import re

from ..server.catalog.models import License, Module
from . import mdx

_COORDINATES = re.compile(r"^([\w.-]+):([\w.-]+)$")


def license_of(text: str) -> License:
    """The license named in a page's or table's text: ``apache``, ``moderne`` or ``unknown``."""
    if "Moderne Source Available License" in text:
        return "moderne"
    if "Apache License" in text:
        return "apache"
    return "unknown"


def parse_modules_table(text: str) -> list[Module]:
    """Every module row of the table, in table order; rows that do not name ``group:artifact`` are skipped."""
    modules: list[Module] = []
    for row in mdx.table_rows(mdx.tokenize(text)):
        cells = mdx.table_cells(row)
        if len(cells) < 2:
            continue
        match = _COORDINATES.match(_plain(cells[0]))
        if match is None:
            continue
        version = _plain(cells[1]) or None
        modules.append(
            Module(
                group_id=match.group(1),
                artifact_id=match.group(2),
                version=version,
                license=license_of(cells[2]) if len(cells) > 2 else "unknown",
            )
        )
    return modules


def _plain(cell: str) -> str:
    """A cell's visible text: link labels instead of links, bold and code markers removed."""
    found = mdx.links(cell)
    text = found[0][0] if found else cell
    return text.replace("**", "").strip("` ").strip()
