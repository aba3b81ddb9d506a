"""Which host paths the tools may read or build.

Over stdio the caller is the local user, so every path is allowed unless roots were configured. Over
HTTP a remote caller must not reach arbitrary directories: ``serve --allow-root DIR`` (repeatable)
restricts file-taking tools to paths under those roots.
"""

from __future__ import annotations

from pathlib import Path

from ..errors import BadInput

_allowed_roots: list[Path] | None = None


def set_allowed_roots(roots: list[Path] | None) -> None:
    """Restrict file access to these roots; None lifts the restriction."""
    global _allowed_roots
    _allowed_roots = [r.expanduser().resolve() for r in roots] if roots else None


def allowed_roots() -> list[Path] | None:
    return list(_allowed_roots) if _allowed_roots is not None else None


def check_path(path: str | Path) -> Path:
    """Resolve ``path`` and raise ``BadInput`` unless it lies under an allowed root."""
    resolved = Path(path).expanduser().resolve()
    if _allowed_roots is None:
        return resolved
    for root in _allowed_roots:
        if resolved == root or root in resolved.parents:
            return resolved
    roots = ", ".join(str(r) for r in _allowed_roots)
    raise BadInput(
        f"Path {resolved} is outside the directories this server may access ({roots}). "
        "Pass a path under one of them, or restart the server with --allow-root for that directory."
    )
