"""gitignore-style path patterns for the ``exclude`` option.

PR cases commit ``build/`` and ``.gradle/`` outputs and wrapper jars; users name them the way they
would in ``.gitignore`` (``build``, ``*.jar``, ``src/generated/**``), so patterns follow those rules
rather than plain ``fnmatch``, where ``build`` would match nothing and ``*`` would cross directories.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from fnmatch import fnmatchcase

from .models import DiffInputError

_PREFIX = re.compile(r"^[abciow12]/")


def strip_prefix(path: str) -> str:
    """Drop git's ``a/``/``b/`` (or mnemonic) prefix and surrounding quotes from a diff path."""
    if len(path) >= 2 and path.startswith('"') and path.endswith('"'):
        path = path[1:-1]
    return _PREFIX.sub("", path, count=1)


def _translate(pattern: str) -> re.Pattern[str]:
    """Compile a slash-containing pattern: ``**`` crosses directories, ``*`` and ``?`` do not."""
    out: list[str] = []
    i = 0
    while i < len(pattern):
        if pattern.startswith("**/", i):
            out.append("(?:.*/)?")
            i += 3
        elif pattern.startswith("**", i):
            out.append(".*")
            i += 2
        elif pattern[i] == "*":
            out.append("[^/]*")
            i += 1
        elif pattern[i] == "?":
            out.append("[^/]")
            i += 1
        elif pattern[i] == "[":
            end = pattern.find("]", i + 1)
            if end == -1:
                out.append(re.escape("["))
                i += 1
            else:
                body = pattern[i + 1 : end].replace("\\", "\\\\")
                if body.startswith("!"):
                    body = "^" + body[1:]
                out.append(f"[{body}]")
                i = end + 1
        else:
            out.append(re.escape(pattern[i]))
            i += 1
    try:
        return re.compile("".join(out) + r"\Z")
    except re.error as exc:
        raise DiffInputError(f"invalid exclude pattern {pattern!r}: {exc}") from exc


class PathFilter:
    """Decides whether a file path (without ``a/``/``b/``) is excluded by any of the patterns.

    A pattern without ``/`` (other than a trailing one) matches any single path component, so
    ``build`` excludes ``build/x`` and ``app/build/x`` and ``*.jar`` excludes every jar. A pattern with
    ``/`` is anchored at the repository root and also excludes everything below a matching directory.
    """

    def __init__(self, patterns: Iterable[str]) -> None:
        self.patterns = [p for p in (p.strip() for p in patterns) if p]
        self._component: list[str] = []
        self._anchored: list[re.Pattern[str]] = []
        for raw in self.patterns:
            pattern = raw.strip("/")
            if not pattern:
                raise DiffInputError(f"exclude pattern {raw!r} would exclude every file")
            if "/" in pattern:
                self._anchored.append(_translate(pattern))
            else:
                self._component.append(pattern)

    def __bool__(self) -> bool:
        return bool(self.patterns)

    def matches(self, path: str) -> bool:
        if not self.patterns or not path or path == "/dev/null":
            return False
        parts = path.split("/")
        if any(fnmatchcase(part, pat) for part in parts for pat in self._component):
            return True
        prefixes = ["/".join(parts[: i + 1]) for i in range(len(parts))]
        return any(rx.match(prefix) for rx in self._anchored for prefix in prefixes)

    def matches_any(self, paths: Iterable[str]) -> bool:
        return any(self.matches(strip_prefix(p)) for p in paths)
