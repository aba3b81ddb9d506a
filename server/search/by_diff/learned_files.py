"""The rerank's learned files (package data beside this module: ``rerank_models.json``, ``prior.json``,
``neighbours.json``), read once per process. A file that is missing or unreadable (an install that dropped it, a
hand edit) stops the diff search with what to do, not with a parser's traceback."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

from ...errors import EnvironmentProblem

T = TypeVar("T")
REFIT = "python -m rewrite_assist.evaluation.diff_rerank_train --write"


def load(path: Path, parse: Callable[[str], T]) -> T:
    """``parse`` of the file's text; ``EnvironmentProblem`` naming the file and the fix if it cannot be read."""
    try:
        return parse(path.read_text())
    except (OSError, ValueError, KeyError, IndexError, TypeError) as exc:
        raise unusable(path, str(exc) or type(exc).__name__) from exc


def unusable(path: Path, why: str) -> EnvironmentProblem:
    """The error for a learned file the search cannot use."""
    return EnvironmentProblem(
        f"The diff search's {path.name} cannot be used ({why}). Reinstall rewrite-assist, or write it again with "
        f"`{REFIT}` from a checkout."
    )
