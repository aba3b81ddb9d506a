"""The Moderne-only recipes: ``docs/reference/moderne-recipes.md`` → catalog entries without a page.

rewrite-docs lists every recipe that is published only through Moderne (no page under ``docs/recipes/``,
documented on docs.moderne.io, run with the Moderne CLI or platform, not with the OpenRewrite build
plugins). Agents meet these ids in older recipes and in answers about upgrades (Dropwizard, Spring Boot 4
extras, ...), so the catalog knows them, flagged ``availability="moderne-only"``, instead of calling them
unknown. The list is generated with a fixed layout::

    ## io.moderne.recipe                      <- groupId
    ### rewrite-dropwizard                    <- artifactId (module)
    * [io.moderne.java.dropwizard.MigrateToDropwizard5](https://docs.moderne.io/...)
      * **Migrate to Dropwizard 5.0.x from 4.x**
      * Apply changes required to upgrade a Dropwizard 4.x application to 5.0.x. ...

Display names and descriptions are MDX: HTML entities and ``\\{ \\} \\$`` escapes are undone here.
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterable
from dataclasses import dataclass, field

from ..server.catalog.models import MODERNE_ONLY, Recipe, SkippedPage
from .source import MODERNE_LIST_PATH

_GROUP = re.compile(r"^## (\S+)\s*$")
_MODULE = re.compile(r"^### (\S+)\s*$")
_ENTRY = re.compile(r"^\* \[([A-Za-z_][\w.$-]*)\]\((https?://[^)\s]+)\)\s*$")
_NAME = re.compile(r"^  \* \*\*(.*)\*\*\s*$")
_DESCRIPTION = re.compile(r"^  \* (.*)$")
_MDX_ESCAPE = re.compile(r"\\([{}$])")


@dataclass
class ModerneList:
    """The entries of the list in its order, and the lines that could not be read (as skipped "pages")."""

    recipes: list[Recipe] = field(default_factory=list)
    skipped: list[SkippedPage] = field(default_factory=list)


def _text(markdown: str) -> str:
    return html.unescape(_MDX_ESCAPE.sub(r"\1", markdown)).strip()


def parse_moderne_list(text: str, *, path: str = MODERNE_LIST_PATH) -> ModerneList:
    """Every ``* [id](link)`` entry with its display name, description, group and module."""
    out = ModerneList()
    seen: set[str] = set()
    group: str | None = None
    module: str | None = None
    current: Recipe | None = None
    parts = 0  # lines read of the current entry: 1 = its link line, 2 = + name, 3 = + description

    def bad(number: int, reason: str) -> None:
        out.skipped.append(SkippedPage(path=f"{path}:{number}", reason=reason))

    for number, line in enumerate(text.splitlines(), start=1):
        if (match := _GROUP.match(line)) is not None:
            group, module, current = match.group(1), None, None
        elif (match := _MODULE.match(line)) is not None:
            module, current = match.group(1), None
        elif (match := _ENTRY.match(line)) is not None:
            recipe_id, link = match.groups()
            current = None
            if group is None or module is None:
                bad(number, f"{recipe_id} is listed outside a '## group' / '### module' section")
            elif recipe_id in seen:
                bad(number, f"duplicate recipe id {recipe_id} in the Moderne recipe list")
            else:
                seen.add(recipe_id)
                current = Recipe(
                    id=recipe_id,
                    display_name=recipe_id.rsplit(".", 1)[-1],
                    group_id=group,
                    artifact_id=module,
                    doc_url=link,
                    availability=MODERNE_ONLY,
                )
                out.recipes.append(current)
                parts = 1
        elif current is not None and parts == 1 and (match := _NAME.match(line)) is not None:
            current.display_name = _text(match.group(1)) or current.display_name
            parts = 2
        elif current is not None and parts == 2 and (match := _DESCRIPTION.match(line)) is not None:
            current.description = _text(match.group(1))
            parts = 3
        elif line.startswith(("* ", "  * ")):
            bad(number, f"unexpected list line in the Moderne recipe list: {line[:80]!r}")
    return out


@dataclass
class MergedModerne:
    """Moderne-only entries to add to the catalog, and the listed ids left out because a page has them."""

    added: list[Recipe]
    with_page: list[str]


def merge_moderne(pages: Iterable[Recipe], listed: Iterable[Recipe]) -> MergedModerne:
    """The listed entries whose id has no page (the page wins: it knows options, modules and examples)."""
    page_ids = {recipe.id for recipe in pages}
    added: list[Recipe] = []
    with_page: list[str] = []
    for recipe in listed:
        if recipe.id in page_ids:
            with_page.append(recipe.id)
        else:
            added.append(recipe)
    return MergedModerne(added, with_page)
