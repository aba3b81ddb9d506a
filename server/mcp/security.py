"""Which host paths the tools may read or build.

Over stdio the caller is the local user, so every path is allowed unless roots were configured. Over
HTTP a remote caller must not reach the server's files: ``serve --allow-root DIR`` (repeatable) restricts
file-taking tools to paths under those roots, and without it an HTTP server takes inline text only (diff
text, YAML text): every path is refused and ``validate_recipe``, which builds a repository on this disk,
is refused too. Messages name the path the caller sent, never the content of a file.
"""

from __future__ import annotations

from pathlib import Path

from ..errors import BadInput

_allowed_roots: list[Path] | None = None
_inline_only = False

INLINE_ONLY_FIX = (
    "Whoever runs the server can allow files under a directory with "
    "`rewrite-assist serve --transport http --allow-root DIR`."
)


def set_allowed_roots(roots: list[Path] | None) -> None:
    """Restrict file access to these roots; None lifts the restriction."""
    global _allowed_roots
    _allowed_roots = [r.expanduser().resolve() for r in roots] if roots else None


def set_inline_only(inline_only: bool) -> None:
    """Refuse every path (an HTTP server started without ``--allow-root``)."""
    global _inline_only
    _inline_only = inline_only


def inline_only() -> bool:
    return _inline_only


def allowed_roots() -> list[Path] | None:
    return list(_allowed_roots) if _allowed_roots is not None else None


def _show(path: str | Path) -> str:
    text = str(path)
    return repr(text) if len(text) <= 120 else repr(text[:117] + "...")


def check_path(path: str | Path) -> Path:
    """Resolve ``path`` and raise ``BadInput`` unless it lies under an allowed root."""
    if _inline_only:
        raise BadInput(
            f"This server takes inline text only (it serves HTTP without --allow-root), so it does not read "
            f"the path {_show(path)}: pass the diff or YAML text itself. {INLINE_ONLY_FIX}"
        )
    try:
        resolved = Path(path).expanduser().resolve()
    except (OSError, ValueError, RuntimeError) as exc:  # NUL bytes, symlink loops, names too long
        raise BadInput(f"Path {_show(path)} is not usable ({exc}); pass a plain file path.") from exc
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


def require_local_files(tool: str) -> None:
    """Refuse a tool that works on this machine's files when the server takes inline text only."""
    if _inline_only:
        raise BadInput(
            f"{tool} is disabled on this server: it builds a repository on the server's disk, and the server "
            f"serves HTTP without --allow-root. Run it over stdio on your machine, or: {INLINE_ONLY_FIX}"
        )
