"""Accept a diff as a path or as the text itself.

Agents hold diffs both ways: a file the validation run wrote, or text they just produced. A diff is
always several lines long, so an argument with a line break is text and a one-line argument is a path;
no guessing from file extensions or existence, which would turn a typo'd path into "an empty diff".
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from .models import DiffInputError

MAX_DIFF_BYTES = 50 * 1024 * 1024
INLINE_LABEL = "<inline diff text>"

PathCheck = Callable[[str | Path], Path]


def _show(arg: str) -> str:
    """The argument as quoted in messages, shortened: a mistaken one-line diff can be very long."""
    return repr(arg) if len(arg) <= 120 else repr(arg[:117] + "...")


def _is_single_line(arg: str) -> bool:
    return "\n" not in arg and "\r" not in arg


def _size_error(what: str, size: int, limit: int) -> DiffInputError:
    return DiffInputError(
        f"{what} is {size / 1024 / 1024:.1f} MB, over the {limit / 1024 / 1024:.0f} MB limit; "
        "exclude generated files from the diff (git diff -- . ':!build') and try again"
    )


def load_diff(
    arg: str,
    *,
    what: str = "diff",
    max_bytes: int = MAX_DIFF_BYTES,
    check_path: PathCheck | None = None,
) -> tuple[str, str]:
    """Return ``(label, text)`` for a diff given as a file path or as diff text.

    Text (a line break inside it, or a blank string for "no changes") is returned as is
    with the label ``<inline diff text>``; a path (surrounding whitespace, such as the newline of a
    shell's output, is ignored) is read as UTF-8 with bad bytes replaced and labelled with the path as
    given. ``check_path`` (the server's root check) vets paths before they are read. Raises
    ``DiffInputError`` for a missing path, a directory, an unreadable or oversized file.
    """
    candidate = arg.strip()
    if not candidate or not _is_single_line(candidate):
        size = len(arg.encode("utf-8", errors="replace")) if len(arg) * 4 > max_bytes else len(arg)
        if size > max_bytes:
            raise _size_error(f"the {what} text", size, max_bytes)
        return INLINE_LABEL, arg
    return candidate, _read_file(candidate, what, max_bytes, check_path)


def _read_file(arg: str, what: str, max_bytes: int, check_path: PathCheck | None) -> str:
    try:
        path = check_path(arg) if check_path is not None else Path(arg).expanduser()
        if path.is_dir():
            raise DiffInputError(f"{what} {_show(arg)} is a directory; pass a diff file or the diff text")
        if not path.is_file():
            raise DiffInputError(
                f"{what} {_show(arg)}: no such file (pass the path of a diff file, or the diff text itself)"
            )
        size = path.stat().st_size
        if size > max_bytes:
            raise _size_error(f"{what} {_show(arg)}", size, max_bytes)
        data = path.read_bytes()
    except DiffInputError:
        raise
    except (OSError, ValueError) as exc:  # permissions, NUL bytes in the path, names too long
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        raise DiffInputError(f"cannot read {what} {_show(arg)}: {reason}") from exc
    return data.decode("utf-8", errors="replace")
