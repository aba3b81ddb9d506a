"""The ``## Options`` table: ``| Type | Name | Description | Example |``, one row per option.

Table quirks the generator produces:

* the Description cell escapes ``|`` as ``\\|`` but the Example cell does not (regexes such as
  ``(CVE-\\d|GHSA-...)``), so a row is split at unescaped pipes and everything after the third cell is
  the example;
* multi-line text is written with ``<br />`` and code samples as ``<pre>...</pre>`` with ``<`` escaped
  as ``\\<``;
* an option is optional exactly when its description starts with ``*Optional*.``;
* enumerations end the description with ``Valid options: `A`, `B` `` (quoted ``""`` for the empty
  string and ``" "`` for a space occur too).
"""

from __future__ import annotations

import re

from ..server.catalog.models import RecipeOption
from . import mdx

_OPTIONAL = "*Optional*."
_VALID_OPTIONS = re.compile(r"Valid options:\s*((?:(?:`[^`]*`|\"[^\"]*\")\s*,?\s*)+)\s*$")
_VALID_ITEM = re.compile(r"`([^`]*)`|\"([^\"]*)\"")
_BR = re.compile(r"<br\s*/?>")


def parse_options(tokens: list[mdx.Token]) -> list[RecipeOption]:
    """Every option row of the section's table, in page order."""
    return [option for row in mdx.table_rows(tokens) if (option := _parse_row(row)) is not None]


def _parse_row(row: str) -> RecipeOption | None:
    cells = mdx.table_cells(row)
    if len(cells) < 3:
        return None
    type_cell, name, description = cells[0], cells[1], cells[2]
    example = "|".join(cells[3:]).strip() if len(cells) > 3 else ""
    description = _cell_text(description)
    required = not description.startswith(_OPTIONAL)
    description = description.removeprefix(_OPTIONAL).strip()
    return RecipeOption(
        name=_unquote_code(name),
        type=_unquote_code(type_cell),
        required=required,
        description=description,
        example=_example_text(example) or None,
        valid_values=valid_values(description),
    )


def valid_values(description: str) -> list[str]:
    """The values listed after ``Valid options:`` at the end of a description, in page order."""
    match = _VALID_OPTIONS.search(description)
    if match is None:
        return []
    return [
        item.group(1) if item.group(1) is not None else item.group(2) for item in _VALID_ITEM.finditer(match.group(1))
    ]


def _cell_text(cell: str) -> str:
    """A description cell as plain Markdown: line breaks back, ``\\|`` and ``\\<`` unescaped."""
    return _BR.sub("\n", cell).replace("\\|", "|").replace("\\<", "<").strip()


def _example_text(cell: str) -> str:
    """An example cell as the literal value.

    ``<pre>`` blocks are MDX (``<br />`` line breaks, ``\\<``, ``\\{`` and ``\\}`` escaped); a code
    span is taken verbatim, since the generator does not escape anything in it.
    """
    text = cell.strip()
    pre = re.fullmatch(r"<pre>(.*)</pre>", text, flags=re.S)
    if pre is None:
        return _unquote_code(text)
    return re.sub(r"\\([<{}|])", r"\1", _BR.sub("\n", pre.group(1)))


def _unquote_code(text: str) -> str:
    """`` `value` `` -> ``value``; text without surrounding backticks is returned as is."""
    text = text.strip()
    match = re.fullmatch(r"(`+)(.*)\1", text, flags=re.S)
    return match.group(2) if match else text
