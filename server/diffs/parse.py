"""Turn preprocessed diff sections into changed lines with ``unidiff``.

Sections are parsed one at a time: ``unidiff`` resets its state at every ``diff --git`` line, so the
result equals one parse of the whole text, while peak memory stays at one section's objects and a
parse error can say which file and line it came from.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import NamedTuple

from unidiff import PatchedFile, PatchSet
from unidiff.errors import UnidiffParseError

from .globs import PathFilter
from .models import DiffParseError
from .preprocess import Preprocessed, clean_hunk_headers, preprocess

_CHANGED = frozenset("+-")
_DIFF_MARKERS = ("diff --git ", "--- ", "+++ ", "@@ ", "Binary files ")


class Change(NamedTuple):
    """One added or removed line. ``file`` keeps git's a/ or b/ prefix, as the reference keys do."""

    file: str
    kind: str  # "add" | "remove"
    line_no: int | None
    content: str  # the line after its +/- marker, line break included (the reference's ``line.value``)
    path: str  # display path: no prefix, the new name of a renamed file


@dataclass
class ParsedDiff:
    """All changed lines of one diff plus what preprocessing and parsing left out."""

    changes: list[Change]
    file_paths: dict[str, str] = field(default_factory=dict)  # prefixed file -> display path
    binary: list[str] = field(default_factory=list)
    duplicates: list[str] = field(default_factory=list)
    excluded: list[str] = field(default_factory=list)

    @property
    def files(self) -> int:
        return len({c.path for c in self.changes})


def _hint(message: str) -> str:
    if "shorter than expected" in message:
        return " (the hunk has fewer lines than its @@ header counts: truncated or hand-edited diff?)"
    if "longer than expected" in message:
        return " (the hunk has more lines than its @@ header counts: hand-edited diff?)"
    if message.startswith("Unexpected hunk"):
        return " (a hunk with no '---'/'+++' file header before it: was the diff cut at the top?)"
    return ""


def _parse_section(text: str, pre: Preprocessed, start: int, name: str) -> PatchSet:
    try:
        return PatchSet(text)
    except (UnidiffParseError, ValueError, IndexError) as exc:  # unidiff raises a few plain errors too
        where = f"the section starting at line {pre.line_number(start)}"
        message = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise DiffParseError(f"{name}: cannot parse {where}: {message}{_hint(message)}") from exc


def _looks_like_diff(text: str) -> bool:
    return any(line.startswith(_DIFF_MARKERS) for line in text.split("\n"))


def _collect(patched: PatchedFile, parsed: ParsedDiff) -> None:
    """Append one file's changed lines (comprehensions: this loop runs once per diff line)."""
    source, target, path = patched.source_file, patched.target_file, patched.path
    parsed.file_paths.setdefault(source, path)
    parsed.file_paths.setdefault(target, path)
    lines = [line for hunk in patched for line in hunk if line.line_type in _CHANGED]
    new = tuple.__new__  # Change(...) costs four times as much; this loop runs once per changed line
    parsed.changes.extend(
        new(Change, (target, "add", line.target_line_no, line.value, path))
        if line.line_type == "+"
        else new(Change, (source, "remove", line.source_line_no, line.value, path))
        for line in lines
    )


def parse_diff(raw: str | bytes, *, name: str = "diff", exclude: PathFilter | None = None) -> ParsedDiff:
    """Preprocess and parse one diff; ``name`` ("PR diff", "recipe diff") prefixes error messages.

    Raises ``DiffParseError`` for malformed sections and for non-empty text that holds no diff at all,
    so a wrong file never scores as "the recipe changed nothing".
    """
    pre = preprocess(raw, exclude)
    parsed = ParsedDiff(changes=[], binary=pre.binary, duplicates=pre.duplicates, excluded=pre.excluded)
    files_seen = 0
    for section in pre.sections:
        patch = _parse_section(clean_hunk_headers(section.text(pre.text)), pre, section.start, name)
        for patched in patch:
            files_seen += 1
            if patched.is_binary_file:
                parsed.binary.append(patched.path)
            elif exclude and exclude.matches_any((patched.source_file, patched.target_file)):
                parsed.excluded.append(patched.path)
            else:
                _collect(patched, parsed)
    dropped = parsed.binary or parsed.duplicates or parsed.excluded
    if not files_seen and not dropped and pre.text.strip() and not _looks_like_diff(pre.text):
        first = pre.text.strip().split("\n", 1)[0][:60]
        raise DiffParseError(
            f"{name} is not a unified diff: no 'diff --git', '---'/'+++' or '@@' line found "
            f"(it starts with {first!r}); pass the output of `git diff` or the path to a .diff file"
        )
    return parsed
