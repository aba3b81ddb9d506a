"""The cleaned Markdown body stored as ``Recipe.markdown``: what an agent reads about one recipe.

Kept: the title, the id, the description, tags, the GitHub source and license lines, the options
table, the definition (as its YAML recipe list, which carries the options each sub-recipe is given),
"Used by", examples and recipe-specific data tables. Dropped: front matter and imports, MDX components
(``<Tabs>``, ``<TabItem>``, ``<RunRecipe>``), the "Usage" boilerplate, the Moderne callout, the
composite ``:::info`` note and the four data tables every recipe shares. Code blocks are never edited.
"""

from __future__ import annotations

import re

from . import mdx
from .sections import (
    CALLOUT_SECTION,
    DATA_TABLES_SECTION,
    DEFAULT_DATA_TABLES,
    DEFINITION_SECTION,
    USAGE_SECTION,
)

_DROPPED_SECTIONS = frozenset({USAGE_SECTION, CALLOUT_SECTION})
_BOLD_LINE = re.compile(r"^\*\*(.+)\*\*\s*$")


def clean_markdown(
    display_name: str,
    id_line: str | None,
    header: list[mdx.Token],
    sections: list[mdx.Section],
) -> str:
    """Rebuild the page from its parts, without the boilerplate (see the module docstring)."""
    out: list[mdx.Token] = [f"# {display_name}", ""]
    if id_line:
        out += [f"**{id_line}**", ""]
    out += header  # description and tags: content, kept verbatim
    for section in sections:
        body = _section_body(section)
        if body is None:
            continue
        out += ["", f"## {section.title}", "", *body]
    return mdx.render(mdx.squeeze_blank_lines(out)) + "\n"


def _section_body(section: mdx.Section) -> list[mdx.Token] | None:
    """The tokens to keep for one ``##`` section, or ``None`` to drop the section."""
    if section.title in _DROPPED_SECTIONS:
        return None
    if section.title == DATA_TABLES_SECTION:
        return _custom_data_tables(section.tokens) or None
    if section.title == DEFINITION_SECTION:
        yaml_block = next((f for f in mdx.fences(section.tokens) if f.language == "yaml"), None)
        if yaml_block is not None:
            return [yaml_block]
    return _without_components(section.tokens)


def _without_components(tokens: list[mdx.Token]) -> list[mdx.Token]:
    """Tokens minus MDX component lines and ``:::`` admonition blocks (code blocks untouched)."""
    kept: list[mdx.Token] = []
    in_admonition = False
    for token in tokens:
        if isinstance(token, str):
            if token.startswith(":::"):
                in_admonition = not in_admonition
                continue
            if in_admonition or mdx.is_component_line(token):
                continue
        kept.append(token)
    return kept


def _custom_data_tables(tokens: list[mdx.Token]) -> list[mdx.Token]:
    """The ``###`` data-table entries that are not one of the four every recipe has."""
    kept: list[mdx.Token] = []
    for table in mdx.split_sections(tokens, 3)[1:]:
        table_id = next(
            (bold.group(1) for line in mdx.text_lines(table.tokens) if (bold := _BOLD_LINE.match(line))),
            None,
        )
        if table_id in DEFAULT_DATA_TABLES:
            continue
        kept += [f"### {table.title}", *_without_components(table.tokens), ""]
    return kept
