"""``analyze_diffs``: the one entry point that scores a recipe's diff against a PR's diff."""

from __future__ import annotations

import gc
import heapq
from collections.abc import Iterable, Iterator
from contextlib import contextmanager

from .globs import PathFilter
from .metrics import Comparison, compare, diff_metrics
from .models import (
    AnalysisOptions,
    DiffAnalysis,
    DiffFiles,
    DiffInputError,
    DiffInputs,
    DiffSideInfo,
    UnmatchedLine,
)
from .parse import Change, ParsedDiff, parse_diff
from .report import summarise

DEFAULT_MAX_UNMATCHED = 50


@contextmanager
def _gc_paused() -> Iterator[None]:
    """Pause the cyclic garbage collector while parsing.

    Parsing allocates a few objects per diff line, none in reference cycles (reference counting frees
    them all), so the collector's repeated passes over them are pure cost: about 15% of the run time.
    """
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def _side_info(parsed: ParsedDiff) -> DiffSideInfo:
    return DiffSideInfo(
        files=parsed.files,
        changed_lines=len(parsed.changes),
        binary_sections_removed=parsed.binary,
        duplicate_sections_removed=parsed.duplicates,
        excluded_files=parsed.excluded,
    )


def _sort_key(change: Change) -> tuple[str, int, bool]:
    """File, line, then the removed line before the added one, as a diff shows them."""
    return (change.path, -1 if change.line_no is None else change.line_no, change.kind == "add")


def _capped(changes: list[Change], limit: int) -> list[UnmatchedLine]:
    """The first ``limit`` changes in file and line order, as report lines (nsmallest: no full sort)."""
    return [
        UnmatchedLine(
            path=c.path,
            change="add" if c.kind == "add" else "remove",
            line_number=c.line_no,
            content=c.content.rstrip("\n"),
        )
        for c in heapq.nsmallest(limit, changes, key=_sort_key)
    ]


def _split_budget(budget: int, missing: int, extra: int) -> tuple[int, int]:
    """Share the cap between missing and extra lines: half each, the unused part to the other list."""
    take_missing = min(missing, max(budget // 2, budget - extra))
    return take_missing, min(extra, budget - take_missing)


def _build(
    comparison: Comparison,
    pr: ParsedDiff,
    recipe: ParsedDiff,
    files: DiffFiles,
    options: AnalysisOptions,
    max_unmatched: int,
) -> DiffAnalysis:
    metrics = diff_metrics(comparison.tp, comparison.fp, comparison.fn)
    per_file = comparison.file_metrics()
    n_missing, n_extra = _split_budget(max_unmatched, len(comparison.missing), len(comparison.extra))
    return DiffAnalysis(
        diff_files=files,
        metrics=metrics,
        summary=summarise(metrics, per_file),
        per_file=per_file,
        options=options,
        inputs=DiffInputs(pr=_side_info(pr), recipe=_side_info(recipe)),
        missing=_capped(comparison.missing, n_missing),
        extra=_capped(comparison.extra, n_extra),
        missing_omitted=len(comparison.missing) - n_missing,
        extra_omitted=len(comparison.extra) - n_extra,
    )


def analyze_diffs(
    pr_text: str | bytes,
    recipe_text: str | bytes,
    *,
    ignore_whitespace: bool = False,
    exclude: Iterable[str] = (),
    max_unmatched: int = DEFAULT_MAX_UNMATCHED,
    pr_label: str = "<PR diff text>",
    recipe_label: str = "<recipe diff text>",
) -> DiffAnalysis:
    """Score ``recipe_text`` (what a recipe run changed) against ``pr_text`` (the ground truth).

    With default options the metrics equal the anchor scorer's. ``exclude`` takes gitignore-style
    patterns; ``max_unmatched`` caps how many unmatched lines are listed (the counts stay exact).
    The labels only end up in ``diff_files``. Raises ``DiffError`` subclasses for input that is not a
    diff or is malformed; the message names which of the two diffs failed.
    """
    if max_unmatched < 0:
        raise DiffInputError(f"max_unmatched must be 0 or more, not {max_unmatched}")
    if isinstance(exclude, str):
        exclude = [exclude]
    path_filter = PathFilter(exclude)
    with _gc_paused():
        pr = parse_diff(pr_text, name="PR diff", exclude=path_filter)
        recipe = parse_diff(recipe_text, name="recipe diff", exclude=path_filter)
        comparison = compare(pr, recipe, ignore_whitespace=ignore_whitespace)
    options = AnalysisOptions(ignore_whitespace=ignore_whitespace, exclude=path_filter.patterns)
    files = DiffFiles(pr_diff=pr_label, recipe_diff=recipe_label)
    return _build(comparison, pr, recipe, files, options, max_unmatched)
