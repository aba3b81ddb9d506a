"""One recipe page → one :class:`Recipe`.

Every page comes from one generator template (rewrite-recipe-markdown-generator):

    front matter (title, sidebar_label) and MDX imports
    # Display name
    **recipe.id**                       (``_`` escaped as ``\\_``)
    description                         (``_italic_``, a code fence, raw Markdown, or ``__`` when empty)
    ### Tags                            (optional bullet list)
    ## Recipe source                    (GitHub link first, license line)
    ## Options                          (optional table)
    ## Definition                       (composites: link list tab + "Yaml Recipe List" tab)
    ## Used by                          (links to composite pages that include this recipe)
    ## Example / ## Examples
    ## Usage                            (boilerplate and the <RunRecipe .../> component with the module)
    ## See how this recipe works ...    (Moderne callout)
    ## Data Tables                      (four default tables, sometimes recipe-specific ones)

The description is everything between the id line and ``### Tags`` or the first of the known sections,
not "up to the next heading": one raw-Markdown description (``org.openrewrite.Singleton``) has headings
of its own. Facts that need other pages (versions from the module table, "Used by" ids) are filled in
by :mod:`rewrite_assist.ingestion.parser`.
"""

from __future__ import annotations

import html
import posixpath
import re
from dataclasses import dataclass

from ..server.catalog.models import Recipe
from . import mdx
from .examples import parse_examples
from .markdown_body import clean_markdown
from .modules import license_of
from .options import parse_options
from .recipe_list import RecipeListBlock, parse_recipe_list_yaml
from .sections import (
    DEFINITION_SECTION,
    EXAMPLE_SECTIONS,
    KNOWN_SECTIONS,
    OPTIONS_SECTION,
    SOURCE_SECTION,
    USAGE_SECTION,
    USED_BY_SECTION,
)
from .source import RECIPES_DIR

DOCS_SITE = "https://docs.openrewrite.org/"

_FRONT_MATTER_FIELD = re.compile(r'^(\w+):\s*(?:"((?:[^"\\]|\\.)*)"|(.*?))\s*$')
_BOLD_LINE = re.compile(r"^\*\*(.+)\*\*\s*$")
_RECIPE_ID = re.compile(r"^[A-Za-z_][\w$-]*(?:\.[\w$-]+)*$")
_RUN_RECIPE = re.compile(r"<RunRecipe\b(.*?)/>", re.S)
_ATTRIBUTE = re.compile(r'(\w+)="([^"]*)"')
_BULLET = re.compile(r"^\s*[*-]\s+(.*)$")


class PageParseError(ValueError):
    """A page that cannot be turned into a recipe; ``reason`` says why, for the skipped-pages report."""

    def __init__(self, path: str, reason: str) -> None:
        super().__init__(f"{path}: {reason}")
        self.path = path
        self.reason = reason


@dataclass(frozen=True)
class _Layout:
    """A page's parts: its tokens, H1 text, id line, header bounds (description and tags) and ## sections."""

    tokens: list[mdx.Token]
    title_line: str | None
    header_start: int
    header_end: int
    id_line: str | None
    section_list: list[mdx.Section]

    def sections_by_title(self) -> dict[str, list[mdx.Token]]:
        return {s.title or "": s.tokens for s in self.section_list}


def parse_page(path: str, text: str) -> Recipe:
    """Parse one recipe page; ``path`` is relative to the docs root (``docs/recipes/java/x.md``).

    ``used_by`` comes back as the doc paths of the linking pages (``docs/recipes/...md``), because ids
    are only known once every page is parsed; :func:`rewrite_assist.ingestion.parser.resolve_used_by`
    swaps them for ids. ``version`` stays empty until the module table is applied.
    """
    front, body = split_front_matter(text)
    layout = _layout(body)
    sections = layout.sections_by_title()
    component = _run_recipe_attributes(sections.get(USAGE_SECTION), body)
    recipe_id = _recipe_id(path, component, layout.id_line)
    display_name = html.unescape(front.get("title") or layout.title_line or component.get("displayName") or "").strip()
    if not display_name:
        raise PageParseError(path, "no display name: neither front matter 'title' nor a '# ' heading")
    description_tokens, tags = _description_and_tags(layout.tokens[layout.header_start : layout.header_end])
    source_tokens = sections.get(SOURCE_SECTION, [])
    definition = _definition(sections.get(DEFINITION_SECTION, []))
    examples = next((sections[t] for t in EXAMPLE_SECTIONS if t in sections), [])
    return Recipe(
        id=recipe_id,
        display_name=display_name,
        description=_description(description_tokens),
        tags=tags,
        options=parse_options(sections.get(OPTIONS_SECTION, [])),
        recipe_list=definition.recipe_list,
        preconditions=definition.preconditions,
        group_id=component.get("groupId") or None,
        artifact_id=component.get("artifactId") or None,
        npm_package=component.get("npmPackage") or None,
        license=license_of(_license_line(source_tokens)),
        source_url=_first_link(source_tokens),
        doc_path=path,
        doc_url=doc_url(path),
        used_by=linked_pages(path, sections.get(USED_BY_SECTION, [])),
        examples=parse_examples(examples),
        category=category(path),
        markdown=clean_markdown(
            display_name,
            layout.id_line,
            layout.tokens[layout.header_start : layout.header_end],
            layout.section_list,
        ),
    )


def split_front_matter(text: str) -> tuple[dict[str, str], str]:
    """The ``---`` front matter as a flat dict of strings, and the page body after it."""
    if not text.startswith("---\n"):
        return {}, text
    end = text.find("\n---", 3)
    if end < 0:
        return {}, text
    fields: dict[str, str] = {}
    for line in text[4:end].split("\n"):
        match = _FRONT_MATTER_FIELD.match(line)
        if match is None:
            continue
        quoted, plain = match.group(2), match.group(3)
        fields[match.group(1)] = re.sub(r"\\(.)", r"\1", quoted) if quoted is not None else plain or ""
    body_start = text.find("\n", end + 4)
    return fields, text[body_start + 1 :] if body_start >= 0 else ""


def _layout(body: str) -> _Layout:
    tokens = mdx.tokenize(body)
    h1_at: int | None = None
    title_line: str | None = None
    for index, token in enumerate(tokens):
        found = mdx.heading(token)
        if found is not None and found[0] == 1:
            h1_at, title_line = index, found[1]
            break
    start = 0 if h1_at is None else h1_at + 1
    id_line: str | None = None
    for index in range(start, len(tokens)):
        token = tokens[index]
        if isinstance(token, str) and not token.strip():
            continue
        if isinstance(token, str) and (bold := _BOLD_LINE.match(token.strip())) is not None:
            id_line, start = bold.group(1), index + 1
        break
    end = next(
        (
            index
            for index in range(start, len(tokens))
            if (found := mdx.heading(tokens[index])) is not None and found[0] == 2 and found[1] in KNOWN_SECTIONS
        ),
        len(tokens),
    )
    return _Layout(tokens, title_line, start, end, id_line, mdx.split_sections(tokens[end:], 2)[1:])


def _run_recipe_attributes(usage: list[mdx.Token] | None, body: str) -> dict[str, str]:
    """Attributes of the ``<RunRecipe .../>`` component: recipeName, groupId, artifactId, npmPackage."""
    haystack = mdx.render(mdx.text_lines(usage)) if usage else body
    match = _RUN_RECIPE.search(haystack) or _RUN_RECIPE.search(body)
    if match is None:
        return {}
    return {name: html.unescape(value) for name, value in _ATTRIBUTE.findall(match.group(1))}


def _recipe_id(path: str, component: dict[str, str], id_line: str | None) -> str:
    """The id from ``<RunRecipe recipeName=...>``, else from the bold line under the H1 (``\\_`` → ``_``)."""
    candidate = component.get("recipeName") or (re.sub(r"\\(.)", r"\1", id_line) if id_line else "")
    candidate = candidate.strip()
    if not candidate:
        raise PageParseError(path, "no recipe id: no <RunRecipe recipeName=...> and no bold id under the title")
    if not _RECIPE_ID.match(candidate):
        raise PageParseError(path, f"recipe id {candidate!r} is not a dotted name")
    return candidate


def _description_and_tags(header: list[mdx.Token]) -> tuple[list[mdx.Token], list[str]]:
    """Split the header at ``### Tags``: the description before it, tag names from the bullets after."""
    tags_at = next(
        (i for i, token in enumerate(header) if mdx.heading(token) == (3, "Tags")),
        None,
    )
    if tags_at is None:
        return header, []
    tags: list[str] = []
    for line in mdx.text_lines(header[tags_at + 1 :]):
        bullet = _BULLET.match(line)
        if bullet is None:
            continue
        found = mdx.links(bullet.group(1))
        tag = html.unescape(found[0][0] if found else bullet.group(1)).strip()
        if tag and tag not in tags:
            tags.append(tag)
    return header[:tags_at], tags


def _description(tokens: list[mdx.Token]) -> str:
    """The description text in its four page styles: ``_italic_``, a fence, raw Markdown, empty ``__``."""
    content = mdx.squeeze_blank_lines(tokens)
    while content and content[0] == "":
        content.pop(0)
    if len(content) == 1:
        only = content[0]
        if isinstance(only, mdx.Fence):
            return only.body.strip()
        line = only.strip()
        if line == "__":
            return ""
        if len(line) >= 2 and line.startswith("_") and line.endswith("_"):
            return line[1:-1].strip()
    return mdx.render(content).strip()


def _definition(tokens: list[mdx.Token]) -> RecipeListBlock:
    """Sub-recipes and preconditions from the YAML block of the Definition section."""
    block = next((f for f in mdx.fences(tokens) if f.language == "yaml"), None)
    return parse_recipe_list_yaml(block.body) if block is not None else RecipeListBlock()


def _license_line(tokens: list[mdx.Token]) -> str:
    return next((line for line in mdx.text_lines(tokens) if "available under" in line), "")


def _first_link(tokens: list[mdx.Token]) -> str | None:
    found = mdx.links("\n".join(mdx.text_lines(tokens)))
    return found[0][1] if found else None


def linked_pages(page_path: str, tokens: list[mdx.Token]) -> list[str]:
    """Doc paths (``docs/recipes/...md``) of the recipe pages linked from a section, in order, unique.

    Links are site-absolute (``/recipes/java/x.md``) or relative (``../core/singleton``); links to
    other sites (Moderne-only recipes on docs.moderne.io) have no page here and are left out.
    """
    paths: list[str] = []
    for _label, target in mdx.links("\n".join(mdx.text_lines(tokens))):
        resolved = _doc_path_of_link(page_path, target)
        if resolved is not None and resolved not in paths:
            paths.append(resolved)
    return paths


def _doc_path_of_link(page_path: str, target: str) -> str | None:
    target = target.split("#", 1)[0]
    if not target or "://" in target or target.startswith("mailto:"):
        return None
    if target.startswith("/"):
        resolved = "docs" + target
    else:
        resolved = posixpath.normpath(posixpath.join(posixpath.dirname(page_path), target))
    if not resolved.endswith(".md"):
        resolved += ".md"
    return resolved if resolved.startswith(RECIPES_DIR) else None


def doc_url(path: str) -> str:
    """``docs/recipes/java/orderimports.md`` → ``https://docs.openrewrite.org/recipes/java/orderimports``."""
    return DOCS_SITE + path.removeprefix("docs/").removesuffix(".md")


def category(path: str) -> list[str]:
    """The folders between ``docs/recipes/`` and the page: ``["java", "migrate"]``."""
    return path.removeprefix(RECIPES_DIR).split("/")[:-1]
