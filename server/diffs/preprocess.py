"""Clean a diff the way the reference scorer does before it reaches ``unidiff``.

The anchor scorer ran four regular-expression passes over the whole text: drop binary sections, keep
the first section per file, strip text after the closing ``@@`` of hunk headers, drop ``gradlew``,
``gradlew.bat`` and ``rewrite.gradle``. Here the same rules run over section offsets found once, so
the work is linear and the sections can be parsed one by one (bounded memory, errors that name the
file). The passes are order-sensitive: a binary section removed first never counts as "seen" for
deduplication, and lines after a ``Binary files`` line join the preceding section, as they did when
the reference re-split its edited text.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from itertools import pairwise

from .globs import PathFilter

# Files the reference never scores: the wrapper scripts and the anchor's temporary build script.
EXCLUDED_FILES = frozenset({"gradlew", "gradlew.bat", "rewrite.gradle"})

_HEADER = "diff --git "
_KEY = re.compile(r"diff --git a/(.*?) b/")
_GIT_PATHS = re.compile(r'diff --git ("?a/.*?) ("?b/.*)$')
_HUNK_TAIL = re.compile(r"^(@@ -\d+(?:,\d+)? \+\d+(?:,\d+)? @@).*$", re.MULTILINE)


def normalise_text(raw: str | bytes) -> str:
    """Decode as UTF-8 (bad bytes become U+FFFD), turn CRLF and CR into LF, end with a newline.

    The final newline is the one deliberate addition to the reference: diff text that lost its last
    line break in transport (an agent passing it as a string) would otherwise make its last changed
    line differ from the same line elsewhere.
    """
    text = raw.decode("utf-8", errors="replace") if isinstance(raw, bytes) else raw
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    if text and not text.endswith("\n"):
        text += "\n"
    return text


def clean_hunk_headers(text: str) -> str:
    """Remove what follows the closing ``@@`` (OpenRewrite writes recipe names there)."""
    return _HUNK_TAIL.sub(r"\1", text)


@dataclass
class Section:
    """One file's part of the diff (or the text before the first ``diff --git``), as spans of the text."""

    spans: list[tuple[int, int]]
    key: str | None = None  # the a/ path of the header, the reference's identity for a file
    paths: tuple[str, ...] = ()  # both header paths, for exclude patterns

    @property
    def start(self) -> int:
        return self.spans[0][0]

    def text(self, source: str) -> str:
        return "".join(source[a:b] for a, b in self.spans)


@dataclass
class Preprocessed:
    """The kept sections and what was dropped, by file path."""

    text: str
    sections: list[Section]
    binary: list[str] = field(default_factory=list)
    duplicates: list[str] = field(default_factory=list)
    excluded: list[str] = field(default_factory=list)

    def line_number(self, offset: int) -> int:
        """1-based line of ``offset`` in the normalised text, for error messages."""
        return self.text.count("\n", 0, offset) + 1


def _header_info(text: str, start: int, end: int) -> tuple[str | None, tuple[str, ...]]:
    line = text[start:end]
    key_match = _KEY.match(line)
    key = key_match.group(1) if key_match else None
    paths_match = _GIT_PATHS.match(line)
    paths = paths_match.groups() if paths_match else tuple(line[len("diff --git ") :].split(" ", 1))
    return key, tuple(p for p in paths if p)


def _label(key: str | None, paths: tuple[str, ...], text: str, start: int) -> str:
    if key is not None:
        return key
    if paths:
        return paths[0]
    return text[start : text.find("\n", start)]


def _line_starts(text: str, prefix: str, start: int, end: int) -> list[int]:
    """Offsets of the lines in ``text[start:end]`` that begin with ``prefix`` (str.find: C speed)."""
    found = [start] if text.startswith(prefix, start) else []
    needle = "\n" + prefix
    at = text.find(needle, start, end)
    while at >= 0:
        found.append(at + 1)
        at = text.find(needle, at + 1, end)
    return found


def _first_line_start(text: str, prefix: str, start: int, end: int) -> int:
    """Offset of the first line in ``text[start:end]`` beginning with ``prefix``, or -1."""
    if text.startswith(prefix, start, end):
        return start
    at = text.find("\n" + prefix, start, end)
    return at + 1 if at >= 0 else -1


def split_sections(text: str) -> tuple[list[Section], list[str]]:
    """Split at ``diff --git`` lines and drop binary sections; returns (sections, binary labels)."""
    starts = _line_starts(text, _HEADER, 0, len(text))
    sections: list[Section] = []
    binary: list[str] = []
    first = starts[0] if starts else len(text)
    if text[:first].strip():
        sections.append(Section([(0, first)]))
    bounds = [*starts, len(text)]
    for start, end in pairwise(bounds):
        header_end = text.find("\n", start, end) + 1 or end
        key, paths = _header_info(text, start, header_end - 1)
        # The reference's lazy match ends at the first line starting "Binary files" and gives up at a
        # line starting "diff --git" (only "diff --gitX" can be left inside a section).
        binary_at = _first_line_start(text, "Binary files", header_end, end)
        stop_at = _first_line_start(text, "diff --git", header_end, end)
        if binary_at < 0 or 0 <= stop_at < binary_at:
            sections.append(Section([(start, end)], key, paths))
            continue
        binary.append(_label(key, paths, text, start))
        line_end = text.find("\n", binary_at, end)
        rest = end if line_end == -1 else line_end + 1
        if rest < end:  # lines after "Binary files": the reference left them to the previous section
            if sections:
                sections[-1].spans.append((rest, end))
            else:
                sections.append(Section([(rest, end)]))
    return sections, binary


def preprocess(raw: str | bytes, extra_exclude: PathFilter | None = None) -> Preprocessed:
    """Run the reference's preprocessing (plus the optional exclude patterns) on one diff."""
    text = normalise_text(raw)
    sections, binary = split_sections(text)
    result = Preprocessed(text=text, sections=[], binary=binary)
    seen: set[str] = set()
    for section in sections:
        if section.key is not None:
            if section.key in seen:
                result.duplicates.append(section.key)
                continue
            seen.add(section.key)
            if section.key in EXCLUDED_FILES:
                result.excluded.append(section.key)
                continue
        if extra_exclude and section.paths and extra_exclude.matches_any(section.paths):
            result.excluded.append(_label(section.key, section.paths, text, section.start))
            continue
        result.sections.append(section)
    return result
