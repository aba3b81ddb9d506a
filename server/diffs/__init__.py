"""Read diffs: score a recipe's diff against a PR's diff (the measure every recipe option is judged by),
and put a change into the catalog's words (``words``, used by the search).

Public API (everything else in this package is internal):

- ``analyze_diffs(pr_text, recipe_text, *, ignore_whitespace=False, exclude=(), max_unmatched=50,
  pr_label=..., recipe_label=...) -> DiffAnalysis``: texts may be ``str`` or ``bytes``.
- ``load_diff(arg, *, what="diff", max_bytes=MAX_DIFF_BYTES, check_path=None) -> (label, text)``: a path
  or the diff text itself.
- ``analyze_diff_args(pr_arg, recipe_arg, **options)``: ``load_diff`` both, then ``analyze_diffs``.
- ``DiffAnalysis.to_reference_json(details=False, extended=True)``: the anchor scorer's JSON
  (``{"diff_files", "metrics"}``, keys unchanged) followed by ``summary``, ``per_file``, ``options``,
  ``inputs`` and, with ``details``, ``missing``/``extra``; ``extended=False`` gives only the anchor keys.
- Errors: ``DiffError`` (a ``ValueError``) and its subclasses ``DiffInputError``, ``DiffParseError``;
  each message is one line naming which diff failed and why.
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # loaded on first use (below), so importing ``rewrite_assist.server.diffs.cli`` stays light
    from .analyze import DEFAULT_MAX_UNMATCHED, analyze_diffs
    from .loader import INLINE_LABEL, MAX_DIFF_BYTES, PathCheck, load_diff
    from .models import (
        AnalysisOptions,
        DiffAnalysis,
        DiffError,
        DiffFiles,
        DiffInputError,
        DiffMetrics,
        DiffParseError,
        DiffSideInfo,
        FileMetrics,
        UnmatchedLine,
    )
    from .preprocess import EXCLUDED_FILES

_HOMES = {
    "DEFAULT_MAX_UNMATCHED": "analyze",
    "analyze_diffs": "analyze",
    "INLINE_LABEL": "loader",
    "MAX_DIFF_BYTES": "loader",
    "PathCheck": "loader",
    "load_diff": "loader",
    "EXCLUDED_FILES": "preprocess",
    **dict.fromkeys(
        [
            "AnalysisOptions",
            "DiffAnalysis",
            "DiffError",
            "DiffFiles",
            "DiffInputError",
            "DiffMetrics",
            "DiffParseError",
            "DiffSideInfo",
            "FileMetrics",
            "UnmatchedLine",
        ],
        "models",
    ),
}


def __getattr__(name: str) -> Any:
    """The public names, imported from their modules on first access."""
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f".{home}", __name__), name)
    globals()[name] = value
    return value


_QUOTED_START = re.compile(r" \(it starts with .*\)(?=; pass the output of)", re.S)
_QUOTED_PARSE = re.compile(r"(cannot parse the section starting at line \d+): .*", re.S)


def analyze_diff_args(
    pr_arg: str,
    recipe_arg: str,
    *,
    ignore_whitespace: bool = False,
    exclude: Iterable[str] = (),
    max_unmatched: int | None = None,
    max_bytes: int | None = None,
    check_path: PathCheck | None = None,
) -> DiffAnalysis:
    """Analyse two diffs each given as a path or as text (what the CLI and the MCP tool receive);
    ``max_unmatched`` and ``max_bytes`` default to ``DEFAULT_MAX_UNMATCHED`` and ``MAX_DIFF_BYTES``."""
    from .analyze import DEFAULT_MAX_UNMATCHED, analyze_diffs
    from .loader import INLINE_LABEL, MAX_DIFF_BYTES, load_diff
    from .models import DiffParseError

    limit = MAX_DIFF_BYTES if max_bytes is None else max_bytes
    pr_label, pr_text = load_diff(pr_arg, what="PR diff", max_bytes=limit, check_path=check_path)
    recipe_label, recipe_text = load_diff(recipe_arg, what="recipe diff", max_bytes=limit, check_path=check_path)
    try:
        return analyze_diffs(
            pr_text,
            recipe_text,
            ignore_whitespace=ignore_whitespace,
            exclude=exclude,
            max_unmatched=DEFAULT_MAX_UNMATCHED if max_unmatched is None else max_unmatched,
            pr_label=pr_label,
            recipe_label=recipe_label,
        )
    except DiffParseError as exc:
        read = [name for name, label in (("PR diff", pr_label), ("recipe diff", recipe_label)) if label != INLINE_LABEL]
        if not any(str(exc).startswith(name) for name in read):
            raise
        # The text came from a file: say what is wrong without quoting it (a server must not echo files).
        message = _QUOTED_START.sub("", str(exc))
        message = _QUOTED_PARSE.sub(r"\1: not a well-formed unified diff", message)
        raise DiffParseError(message) from None


__all__ = [
    "DEFAULT_MAX_UNMATCHED",
    "EXCLUDED_FILES",
    "INLINE_LABEL",
    "MAX_DIFF_BYTES",
    "AnalysisOptions",
    "DiffAnalysis",
    "DiffError",
    "DiffFiles",
    "DiffInputError",
    "DiffMetrics",
    "DiffParseError",
    "DiffSideInfo",
    "FileMetrics",
    "UnmatchedLine",
    "analyze_diff_args",
    "analyze_diffs",
    "load_diff",
]
