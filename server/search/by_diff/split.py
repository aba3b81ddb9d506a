"""Split a PR diff into the units diff search compares: per file, hunk and run of changed lines.

Git puts changes less than seven lines apart into one hunk, so a hunk can bump a plugin version and move
the Java level a few lines further down; each run of changed lines is searched on its own. Binary files,
build outputs and the wrapper scripts are left out and said so; past ``MAX_SEGMENTS`` the hunks are merged
per file, then the smallest non-build files are left out, so the work stays bounded for any diff.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from unidiff import PatchSet
from unidiff.errors import UnidiffParseError

from ...diffs import features
from ...diffs.features import Change, file_kind, in_managed_section
from ...diffs.models import DiffParseError
from ...diffs.preprocess import clean_hunk_headers, preprocess
from ...diffs.words import split_type_changes
from ...errors import BadInput

# Work caps: past these, hunks are merged per file, then files are left out (and listed in ``skipped``).
MAX_SEGMENTS = 48
MAX_LINES_PER_SEGMENT = 60
MAX_DIFF_LINES = 200_000  # beyond this the input is refused: split the PR or exclude generated files
# A file's last line removed and added back unchanged (it had no newline at the end, and lines were appended
# after it) is no change: only the lines appended are.
EOF_NEWLINE_LINE = True
GENERATED_DIRS = ("build/", ".gradle/", "target/", "node_modules/", "out/", ".idea/")


@dataclass
class Segment:
    """One searched unit: a hunk, or a whole file when hunks were merged."""

    file: str
    hunk: int
    header: str
    change: Change
    context: list[str] = field(default_factory=list)  # the hunk's unchanged lines (section header first)
    above: int = 0  # how many of them come before the change (the section header included)

    @property
    def lines_above(self) -> list[str]:
        """The unchanged lines before the change (the section header first): the section a key or an element
        is in."""
        return self.context[: self.above]

    @property
    def lines_below(self) -> list[str]:
        """The unchanged lines after the change (none for a file's merged hunks: their context is not in order)."""
        return self.context[self.above :] if self.hunk else []


def split_diff(text: str, *, name: str = "PR diff") -> tuple[list[Segment], list[str], int, int]:
    """The diff's segments, what was skipped, and the counts of files and hunks seen.

    Raises ``BadInput`` for an empty diff, text that is not a diff, a diff of binary files only, and a
    diff over ``MAX_DIFF_LINES`` lines.
    """
    if not text.strip():
        raise BadInput(f"{name} is empty: pass the output of `git diff <base> <head>` or the path to a .diff file")
    lines = text.count("\n")
    if lines > MAX_DIFF_LINES:
        raise BadInput(
            f"{name} has {lines:,} lines, over the {MAX_DIFF_LINES:,}-line limit; search per file "
            "(git diff <base> <head> -- <path>) or exclude generated files (git diff -- . ':!build')"
        )
    pre = preprocess(text)
    skipped = [f"{path}: binary" for path in pre.binary]
    skipped += [f"{path}: generated wrapper script" for path in pre.excluded]
    by_file: dict[str, list[Segment]] = {}
    files = hunks = 0
    for section in pre.sections:
        try:
            patch = PatchSet(clean_hunk_headers(section.text(pre.text)))
        except (UnidiffParseError, ValueError, IndexError) as exc:
            first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
            raise DiffParseError(
                f"{name}: cannot parse the section starting at line {pre.line_number(section.start)}: {first}"
            ) from exc
        for patched in patch:
            files += 1
            path = patched.path
            if patched.is_binary_file:
                skipped.append(f"{path}: binary")
                continue
            if any(path.startswith(d) or f"/{d}" in path for d in GENERATED_DIRS):
                skipped.append(f"{path}: build output")
                continue
            for number, hunk in enumerate(patched, start=1):
                hunks += 1
                for header, removed, added, context, above in _blocks(hunk):
                    change = Change(
                        _kind(path, removed + added),
                        removed,
                        added,
                        deleted_file=patched.is_removed_file,
                        new_file=patched.is_added_file,
                    )
                    if change.is_empty or (removed == added and not patched.is_removed_file):
                        continue  # the same lines taken out and put back (a newline added at the end): no change
                    managed = change.kind == "maven" and in_managed_section(context[:above], added)
                    if features.MANAGED_SHAPES and managed:
                        change.shapes.add(features.MANAGED_SHAPE)
                    # A hunk changing several types is searched once per type: each is another recipe's change.
                    for part in split_type_changes(change):
                        by_file.setdefault(path, []).append(Segment(path, number, header, part, context, above))
    if not files and not pre.binary and not pre.excluded:
        first = text.strip().split("\n", 1)[0][:60]
        raise BadInput(
            f"{name} is not a unified diff: no 'diff --git', '---'/'+++' or '@@' line found (it starts with "
            f"{first!r}); pass the output of `git diff` or the path to a .diff file"
        )
    if not by_file:
        reason = "binary files" if pre.binary or any("binary" in s for s in skipped) else "no changed text lines"
        raise BadInput(f"{name} has nothing to search: {reason} only ({'; '.join(skipped[:5]) or 'empty hunks'})")
    return _cap(by_file, skipped), skipped, files, hunks


def _blocks(hunk: Any) -> list[tuple[str, list[str], list[str], list[str], int]]:
    """The hunk's separate changes: runs of removed/added lines apart from each other by unchanged code.

    Git merges changes less than seven lines apart into one hunk, so a hunk can bump a plugin version and
    move the Java level a few lines further down; each is searched on its own. Each block comes with its
    header (its own line numbers) and the unchanged lines around it (the section header first)."""
    lines = list(hunk)
    runs: list[list[int]] = []
    for i, line in enumerate(lines):
        if line.line_type not in "+-":
            continue
        gap = [lines[j] for j in range(runs[-1][-1] + 1, i)] if runs else []
        if runs and not any(g.line_type == " " and g.value.strip() for g in gap):  # "\ No newline ..." is no gap
            runs[-1].append(i)
        else:
            runs.append([i])
    out = []
    for run in runs:
        first, last = run[0], run[-1]
        removed = [lines[i].value.rstrip("\n") for i in range(first, last + 1) if lines[i].line_type == "-"]
        added = [lines[i].value.rstrip("\n") for i in range(first, last + 1) if lines[i].line_type == "+"]
        if EOF_NEWLINE_LINE and removed and _no_newline_after(lines, first, last) and removed[-1] in added:
            # The file's last line taken out and put back only to end it with a newline (lines appended
            # after it): the same line, no change of its own.
            added.remove(removed[-1])
            removed = removed[:-1]
        source = next((ln.source_line_no for ln in lines[first:] if ln.source_line_no), hunk.source_start)
        target = next((ln.target_line_no for ln in lines[first:] if ln.target_line_no), hunk.target_start)
        header = f"@@ -{source},{len(removed)} +{target},{len(added)} @@"
        before = [ln.value.rstrip("\n") for ln in lines[max(0, first - 8) : first] if ln.line_type == " "]
        after = [ln.value.rstrip("\n") for ln in lines[last + 1 : last + 4] if ln.line_type == " "]
        above = ([hunk.section_header] if hunk.section_header else []) + before
        out.append((header, removed, added, above + after, len(above)))
    return out


def _no_newline_after(lines: Sequence[Any], first: int, last: int) -> bool:
    """The run's last removed line is followed by git's "\\ No newline at end of file" marker."""
    removed = [i for i in range(first, last + 1) if lines[i].line_type == "-"]
    after = removed[-1] + 1 if removed else last + 1
    return after < len(lines) and lines[after].line_type == "\\"


def _kind(path: str, lines: Sequence[str]) -> str:
    return file_kind(path, None, "\n".join(lines[:20]))


def _cap(by_file: dict[str, list[Segment]], skipped: list[str]) -> list[Segment]:
    """Keep the work bounded: hunks beyond the budget are merged per file, then whole files left out."""
    segments = [s for segs in by_file.values() for s in segs]
    if len(segments) > MAX_SEGMENTS:
        segments = []
        for path, segs in by_file.items():
            if len(segs) == 1:
                segments.append(segs[0])
                continue
            removed = [line for s in segs for line in s.change.removed]
            added = [line for s in segs for line in s.change.added]
            first = segs[0].change
            merged = Change(first.kind, removed, added, deleted_file=first.deleted_file, new_file=first.new_file)
            _keep_marks(merged, [s.change for s in segs])
            context = [line for s in segs for line in s.context]
            segments.append(Segment(path, 0, f"{len(segs)} hunks merged", merged, context))
        if len(by_file) < len(segments) + 1 and any(len(s) > 1 for s in by_file.values()):
            skipped.append(f"hunks merged per file ({sum(len(s) for s in by_file.values())} hunks > {MAX_SEGMENTS})")
    if len(segments) > MAX_SEGMENTS:
        # Build and configuration files first (they carry the coordinates and versions), then by size.
        order = {"gradle": 0, "maven": 0, "properties": 1, "yaml": 1, "dockerfile": 1, "xml": 2}
        segments.sort(key=lambda s: (order.get(s.change.kind, 3), -len(s.change.removed) - len(s.change.added)))
        for left_out in segments[MAX_SEGMENTS:]:
            skipped.append(f"{left_out.file}: not searched (over {MAX_SEGMENTS} files)")
        segments = segments[:MAX_SEGMENTS]
    for seg in segments:
        change = seg.change
        if len(change.removed) + len(change.added) > MAX_LINES_PER_SEGMENT:
            half = MAX_LINES_PER_SEGMENT // 2
            seg.change = Change(
                change.kind,
                change.removed[:half],
                change.added[:half],
                deleted_file=change.deleted_file,
                new_file=change.new_file,
            )
            _keep_marks(seg.change, [change])
    return segments


def _keep_marks(rebuilt: Change, sources: list[Change]) -> None:
    """A change rebuilt from lines loses what the split learned from the hunk's context (a Maven change inside
    ``<dependencyManagement>``); carry it over, so a capped diff is read like an uncapped one."""
    if any(features.MANAGED_SHAPE in source.shapes for source in sources):
        rebuilt.shapes.add(features.MANAGED_SHAPE)
