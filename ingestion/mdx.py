"""Fence-aware structure of the Docusaurus MDX recipe pages: tokens, headings, sections, tables, links.

Code blocks on these pages hold lines that look like Markdown (``# comment`` in YAML and shell, ``## ``
inside Markdown examples, ``import`` lines in Java), so every structural question is asked of a token
stream in which each fenced block is one opaque :class:`Fence`. The rules follow CommonMark closely
enough for the generator's output: a fence opens with three or more backticks or tildes (indented at
most three spaces) and closes with a line of at least as many of the same character and nothing else;
an unclosed fence runs to the end of the page.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

_FENCE_OPEN = re.compile(r"^ {0,3}(`{3,}|~{3,})(.*)$")
_HEADING = re.compile(r"^(#{1,6})[ \t]+(.*?)[ \t#]*$")
_TITLE_ATTR = re.compile(r'\btitle="([^"]*)"')
_LINK = re.compile(r"\[((?:[^\[\]]|\[[^\]]*\])*)\]\(([^)\s]+)\)")
_UNESCAPED_PIPE = re.compile(r"(?<!\\)\|")


@dataclass(frozen=True)
class Fence:
    """One fenced code block, kept whole so nothing inside it is read as page structure."""

    info: str
    body: str
    raw: tuple[str, ...]

    @property
    def language(self) -> str | None:
        """The first word of the info string (``java``, ``diff``, ``mavenProject``)."""
        word = self.info.split(maxsplit=1)[0] if self.info.strip() else ""
        return word or None

    @property
    def title(self) -> str | None:
        """The ``title="..."`` attribute Docusaurus uses to name the file a block shows."""
        match = _TITLE_ATTR.search(self.info)
        return match.group(1) if match else None


Token = str | Fence


@dataclass(frozen=True)
class Section:
    """A heading (``None`` for the text before the first one) and the tokens up to the next heading."""

    title: str | None
    tokens: list[Token]


def tokenize(text: str) -> list[Token]:
    """Split Markdown into lines, with each fenced code block folded into one :class:`Fence`."""
    lines = text.split("\n")
    tokens: list[Token] = []
    i = 0
    count = len(lines)
    while i < count:
        line = lines[i]
        stripped = line.lstrip(" ")
        opener = _FENCE_OPEN.match(line) if stripped[:3] in ("```", "~~~") else None
        if opener is None or (opener.group(1)[0] == "`" and "`" in opener.group(2)):
            tokens.append(line)
            i += 1
            continue
        marker = opener.group(1)
        end = i + 1
        while end < count and not _closes(lines[end], marker):
            end += 1
        raw = lines[i : end + 1]
        tokens.append(Fence(info=opener.group(2).strip(), body="\n".join(lines[i + 1 : end]), raw=tuple(raw)))
        i = end + 1
    return tokens


def _closes(line: str, marker: str) -> bool:
    stripped = line.strip()
    return (
        len(line) - len(line.lstrip(" ")) <= 3
        and len(stripped) >= len(marker)
        and stripped == marker[0] * len(stripped)
    )


def heading(token: Token) -> tuple[int, str] | None:
    """``(level, title)`` when the token is an ATX heading line (never one inside a fence)."""
    if isinstance(token, Fence) or token[:1] != "#":
        return None
    match = _HEADING.match(token)
    return (len(match.group(1)), match.group(2)) if match else None


def split_sections(tokens: Sequence[Token], level: int) -> list[Section]:
    """Cut the tokens at every heading of exactly ``level``; the first section holds what precedes them."""
    sections = [Section(None, [])]
    for token in tokens:
        found = heading(token)
        if found is not None and found[0] == level:
            sections.append(Section(found[1], []))
        else:
            sections[-1].tokens.append(token)
    return sections


def render(tokens: Iterable[Token]) -> str:
    """Markdown text back from tokens, byte-identical to the lines they came from."""
    out: list[str] = []
    for token in tokens:
        if isinstance(token, Fence):
            out.extend(token.raw)
        else:
            out.append(token)
    return "\n".join(out)


def text_lines(tokens: Iterable[Token]) -> list[str]:
    """Only the lines outside code blocks."""
    return [token for token in tokens if isinstance(token, str)]


def fences(tokens: Iterable[Token]) -> list[Fence]:
    return [token for token in tokens if isinstance(token, Fence)]


def table_cells(row: str) -> list[str]:
    """The stripped cells of one ``| a | b |`` row, split at pipes not escaped as ``\\|``."""
    inner = row.strip()
    inner = inner.removeprefix("|")
    if inner.endswith("|") and not inner.endswith("\\|"):
        inner = inner[:-1]
    return [cell.strip() for cell in _UNESCAPED_PIPE.split(inner)]


def table_rows(tokens: Iterable[Token]) -> list[str]:
    """The body rows of the first pipe table in the tokens (header and ``| --- |`` separator skipped)."""
    rows: list[str] = []
    seen_separator = False
    for line in text_lines(tokens):
        if not line.startswith("|"):
            if seen_separator:
                break
            continue
        if not seen_separator:
            seen_separator = bool(re.match(r"^\|\s*:?-{3,}", line))
            continue
        rows.append(line)
    return rows


def links(text: str) -> list[tuple[str, str]]:
    """``(label, target)`` of every inline Markdown link, in order."""
    return [(m.group(1), m.group(2)) for m in _LINK.finditer(text)]


_IMPORT = re.compile(r"""^import\s+[\w{}\s,*]+\s+from\s+['"][^'"]+['"];?\s*$""")
# The components the recipe template uses; other HTML in descriptions (``<strong>``) is content.
_COMPONENT = re.compile(r"^</?(?:Tabs|TabItem|RunRecipe|RecipeCallout)\b")


def is_component_line(line: str) -> bool:
    """MDX lines the renderer turns into widgets (``<Tabs>``, ``<TabItem ...>``, closers) or ES imports."""
    stripped = line.strip()
    return bool(_COMPONENT.match(stripped) or _IMPORT.match(stripped))


def squeeze_blank_lines(tokens: Iterable[Token]) -> list[Token]:
    """Drop blank lines that follow another blank line (outside code blocks), and leading/trailing ones.

    Removing components leaves gaps; code blocks keep their blank lines untouched.
    """
    out: list[Token] = []
    for token in tokens:
        blank = isinstance(token, str) and not token.strip()
        if blank and (not out or (isinstance(out[-1], str) and not out[-1].strip())):
            continue
        out.append("" if blank else token)
    while out and isinstance(out[-1], str) and not out[-1].strip():
        out.pop()
    return out
