"""Match changed lines of two diffs and score them (step 4-5 of the reference algorithm).

Lines are compared as ``(file, kind, content)`` with line numbers dropped: a recipe that makes the
right edit a few lines off still counts. Identical keys are a multiset, so a line the PR adds three
times and the recipe twice gives 2 TP and 1 FN. Line numbers come back only to say *which* instances
stayed unmatched, which the score does not depend on.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from operator import itemgetter
from typing import TypedDict

from .models import DiffMetrics, FileMetrics
from .parse import Change, ParsedDiff

Key = tuple[str, str, str]
KeyFn = Callable[[Change], Key]

_plain_key: KeyFn = itemgetter(0, 1, 3)
_file_of: Callable[[Change], str] = itemgetter(0)


def _whitespace_key(change: Change) -> Key:
    return (change.file, change.kind, " ".join(change.content.split()))


def key_function(ignore_whitespace: bool) -> KeyFn:
    """The comparison key: exact content, or content with whitespace runs collapsed and ends stripped."""
    return _whitespace_key if ignore_whitespace else _plain_key


def _ratio(numerator: int, denominator: int) -> float:
    return 0.0 if denominator == 0 else numerator / denominator


def scores(tp: int, fp: int, fn: int) -> tuple[float, float, float]:
    """Precision, recall, F1 rounded to 4 places; each 0.0 when its denominator is 0 (as the reference)."""
    precision = _ratio(tp, tp + fp)
    recall = _ratio(tp, tp + fn)
    f1 = 0.0 if precision + recall == 0 else 2 * precision * recall / (precision + recall)
    return round(precision, 4), round(recall, 4), round(f1, 4)


class _Scored(TypedDict):
    """The fields DiffMetrics and FileMetrics share."""

    true_positives: int
    false_positives: int
    false_negatives: int
    precision: float
    recall: float
    f1_score: float


def _scored(tp: int, fp: int, fn: int) -> _Scored:
    precision, recall, f1 = scores(tp, fp, fn)
    return _Scored(
        true_positives=tp, false_positives=fp, false_negatives=fn, precision=precision, recall=recall, f1_score=f1
    )


def diff_metrics(tp: int, fp: int, fn: int) -> DiffMetrics:
    return DiffMetrics(
        total_expected_changes=tp + fn,
        total_resulting_changes=tp + fp,
        is_perfect_match=fp == 0 and fn == 0,
        **_scored(tp, fp, fn),
    )


def file_metrics(path: str, tp: int, fp: int, fn: int) -> FileMetrics:
    return FileMetrics(path=path, expected=tp + fn, resulting=tp + fp, **_scored(tp, fp, fn))


@dataclass
class Comparison:
    """Counts overall and per display path, plus every unmatched change (FN: missing, FP: extra)."""

    tp: int = 0
    fp: int = 0
    fn: int = 0
    per_file: dict[str, list[int]] = field(default_factory=lambda: defaultdict(lambda: [0, 0, 0]))
    missing: list[Change] = field(default_factory=list)
    extra: list[Change] = field(default_factory=list)

    def file_metrics(self) -> list[FileMetrics]:
        """Per-file scores, the files with most missing + extra lines first."""
        rows = [file_metrics(path, tp, fp, fn) for path, (tp, fp, fn) in self.per_file.items()]
        rows.sort(key=lambda r: (-(r.false_positives + r.false_negatives), r.path))
        return rows


def _order(change: Change) -> int:
    return -1 if change.line_no is None else change.line_no


def _unpaired(mine: list[Change], theirs: list[Change]) -> list[Change]:
    """Instances of one key left over after pairing: equal line numbers first, then in file order."""
    if not theirs:
        return mine
    their_lines = Counter(c.line_no for c in theirs)
    rest_mine = []
    for change in sorted(mine, key=_order):
        if their_lines[change.line_no] > 0:
            their_lines[change.line_no] -= 1
        else:
            rest_mine.append(change)
    rest_theirs = len(theirs) - (len(mine) - len(rest_mine))
    return rest_mine[max(rest_theirs, 0) :]


def _instances(changes: Iterable[Change], key: KeyFn, wanted: set[Key]) -> dict[Key, list[Change]]:
    found: dict[Key, list[Change]] = defaultdict(list)
    for change in changes:
        k = key(change)
        if k in wanted:
            found[k].append(change)
    return found


def compare(pr: ParsedDiff, recipe: ParsedDiff, *, ignore_whitespace: bool = False) -> Comparison:
    """Multiset-match the changed lines of the PR (expected) and the recipe (resulting)."""
    key = key_function(ignore_whitespace)
    expected = Counter(map(key, pr.changes))
    resulting = Counter(map(key, recipe.changes))
    # Keys whose counts differ, found by comparing (key, count) pairs as sets: that runs in C, so the
    # Python loops below only visit keys that contribute FN or FP.
    unbalanced = {k for k, _ in expected.items() ^ resulting.items()}
    result = Comparison()
    for file, n in Counter(map(_file_of, pr.changes)).items():
        result.per_file[pr.file_paths.get(file, file)][0] += n  # expected; FN is subtracted below
    for k in unbalanced:
        surplus = expected.get(k, 0) - resulting.get(k, 0)
        if surplus > 0:
            counts = result.per_file[pr.file_paths.get(k[0], k[0])]
            counts[0] -= surplus
            counts[2] += surplus
            result.fn += surplus
        else:
            result.per_file[recipe.file_paths.get(k[0], k[0])][1] -= surplus
            result.fp -= surplus
    result.tp = len(pr.changes) - result.fn
    if unbalanced:
        pr_instances = _instances(pr.changes, key, unbalanced)
        recipe_instances = _instances(recipe.changes, key, unbalanced)
        for k in unbalanced:
            mine, theirs = pr_instances.get(k, []), recipe_instances.get(k, [])
            if len(mine) > len(theirs):
                result.missing.extend(_unpaired(mine, theirs))
            else:
                result.extra.extend(_unpaired(theirs, mine))
    return result
