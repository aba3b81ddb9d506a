"""Human-readable views of a ``DiffAnalysis``: the one-sentence summary and the CLI table."""

from __future__ import annotations

from .metrics import file_metrics
from .models import DiffAnalysis, DiffMetrics, FileMetrics, UnmatchedLine


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def summarise(metrics: DiffMetrics, per_file: list[FileMetrics]) -> str:
    """One sentence: how many expected changes were made, how many extra, and where it goes worst."""
    m = metrics
    if m.total_expected_changes == 0 and m.total_resulting_changes == 0:
        return "Neither diff changes any line (after preprocessing), so there is nothing to compare."
    if m.is_perfect_match:
        return f"Perfect match: all {_plural(m.total_expected_changes, 'expected change')} made, none extra."
    if m.total_expected_changes == 0:
        head = f"The PR changes no line, but the recipe makes {_plural(m.false_positives, 'change')}, all extra"
    elif m.total_resulting_changes == 0:
        head = f"The recipe changes no line: 0 of {_plural(m.total_expected_changes, 'expected change')} made"
    else:
        head = (
            f"{m.true_positives} of {_plural(m.total_expected_changes, 'expected change')} made, "
            f"{m.false_positives} extra (precision {m.precision:.2f}, recall {m.recall:.2f}, "
            f"F1 {m.f1_score:.2f})"
        )
    worst = per_file[0] if per_file else None
    if worst is None or worst.false_negatives + worst.false_positives == 0:
        return head + "."
    tail = f"{worst.false_negatives} missing, {worst.false_positives} extra"
    others = sum(1 for f in per_file if f.false_negatives + f.false_positives) - 1
    more = f"; {_plural(others, 'other file')} with differences" if others > 0 else ""
    return f"{head}; worst file: {worst.path} ({tail}){more}."


def _row(cells: list[str], widths: list[int]) -> str:
    first = cells[0].ljust(widths[0])
    rest = (c.rjust(w) for c, w in zip(cells[1:], widths[1:], strict=True))
    return "  ".join([first, *rest]).rstrip()


def _cells(f: FileMetrics) -> list[str]:
    counts = (f.expected, f.resulting, f.true_positives, f.false_positives, f.false_negatives)
    return [f.path, *map(str, counts), f"{f.precision:.4f}", f"{f.recall:.4f}", f"{f.f1_score:.4f}"]


def _table(header: list[str], rows: list[list[str]]) -> list[str]:
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header))]
    return [_row(header, widths), *(_row(r, widths) for r in rows)]


def _unmatched_lines(title: str, lines: list[UnmatchedLine], omitted: int) -> list[str]:
    if not lines and not omitted:
        return []
    out = ["", title]
    for line in lines:
        where = f"{line.path}:{line.line_number if line.line_number is not None else '?'}"
        sign = "+" if line.change == "add" else "-"
        out.append(f"  {where}  {sign}{line.content}")
    if omitted:
        out.append(f"  ... and {omitted} more (raise the cap to see them)")
    return out


def render_table(analysis: DiffAnalysis, *, details: bool = False) -> str:
    """The CLI's default output: totals, per-file rows, the summary, and with ``details`` the lines."""
    m = analysis.metrics
    lines = [f"PR diff:     {analysis.diff_files.pr_diff}", f"Recipe diff: {analysis.diff_files.recipe_diff}", ""]
    total = file_metrics("total", m.true_positives, m.false_positives, m.false_negatives)
    header = ["", "expected", "resulting", "TP", "FP", "FN", "precision", "recall", "F1"]
    rows = [_cells(f) for f in [total, *analysis.per_file]]
    lines.extend(_table(header, rows))
    lines.extend(["", analysis.summary])
    if details:
        lines.extend(
            _unmatched_lines(
                "Missing (the PR changes these, the recipe does not):", analysis.missing, analysis.missing_omitted
            )
        )
        lines.extend(
            _unmatched_lines(
                "Extra (the recipe changes these, the PR does not):", analysis.extra, analysis.extra_omitted
            )
        )
    return "\n".join(lines)
