"""The construct a Java or Kotlin change moves between, read from the code's syntax: ``construct_tokens``.

A hand-written modernisation (``if (o instanceof Rect) { Rect r = (Rect) o;`` → ``if (o instanceof Rect r)``, a
string concatenation → a ``\"\"\"`` text block, ``Map<K, V> m = new HashMap<>()`` → ``var m = ...``) changes few
names: its lexical tokens are the project's own identifiers, which no recipe example shares. What it changes is
the construct. So each changed line is reduced to its skeleton: the language's reserved words, operators and
punctuation kept, every other name read as ``x``, string literals as ``"s"``, numbers as ``0``, a text block's
delimiter as ``\"\"\"``. The short runs (1 to 3 skeleton tokens) that only the removed lines show, or only the added
lines show, are the construct change, side-tagged: ``+instanceof x x``, ``-( x ) x``, ``+case x ->``, ``-break ;``.
A recipe example making the same construct change shows the same runs; the reverse recipe
(``RemoveInstanceOfPatternMatch``) shows them on the other side.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from ...diffs.features import Change

# The grammar's reserved and contextual words, per language: what a skeleton keeps of the names.
JAVA_KEYWORDS = frozenset(
    """abstract assert boolean break byte case catch char class const continue default do double else enum extends
    final finally float for goto if implements import instanceof int interface long native new package private
    protected public return short static strictfp super switch synchronized this throw throws transient try void
    volatile while var record yield sealed permits true false null""".split()  # noqa: SIM905
)
# Kotlin's hard keywords (its soft ones, ``in`` ``out`` ``data`` ``by``, are also names)
KOTLIN_KEYWORDS = frozenset(
    """as break class continue do else false for fun if in interface is null object package return super this
    throw true try typealias typeof val var when while""".split()  # noqa: SIM905
)
KEYWORDS = {"java": JAVA_KEYWORDS, "kotlin": KOTLIN_KEYWORDS}
KINDS = frozenset(KEYWORDS)
MAX_N = 3  # the longest run of skeleton tokens read as one construct token
MAX_LINE = 400  # characters of a line read (a generated one-line blob says nothing about a construct)

_TOKEN = re.compile(
    r'"""'  # a text block's delimiter
    r'|"(?:\\.|[^"\\])*"'  # a string literal
    r"|'(?:\\.|[^'\\])*'"  # a character literal
    r"|@?[A-Za-z_$][\w$]*"  # a name (an annotation's with its @)
    r"|\d[\w.]*"  # a number
    r"|->|::|==|!=|<=|>=|&&|\|\||\+\+|--|\+=|-=|\?:|\?\.|!!"  # two-character operators
    r"|[^\s\w]"  # any other single character of punctuation
)


def skeleton(line: str, kind: str = "java") -> list[str]:
    """The line's tokens with names read as ``x`` (``@x`` for an annotation), strings as ``"s"``, numbers as ``0``;
    reserved words, operators and punctuation kept. A comment line says nothing about the code: empty."""
    keywords = KEYWORDS.get(kind, JAVA_KEYWORDS)
    text = line.strip()[:MAX_LINE]
    if text.startswith(("//", "/*", "*")):
        return []
    out: list[str] = []
    for token in _TOKEN.findall(text):
        if token == '"""':
            out.append(token)
        elif token[0] in "\"'":
            out.append('"s"')
        elif token[0].isdigit():
            out.append("0")
        elif token[0] == "@":
            out.append("@x")
        elif token[0].isalpha() or token[0] in "_$":
            out.append(token if token in keywords else "x")
        else:
            out.append(token)
    return out


def _runs(lines: Iterable[str], kind: str) -> set[str]:
    runs: set[str] = set()
    for line in lines:
        tokens = skeleton(line, kind)
        for n in range(1, MAX_N + 1):
            runs.update(" ".join(tokens[i : i + n]) for i in range(len(tokens) - n + 1))
    return runs


def construct_tokens(change: Change) -> set[str]:
    """The construct change of a Java or Kotlin change: the skeleton runs only its removed lines show (``-…``)
    and only its added lines show (``+…``); empty for other kinds, and for a whole file deleted or created
    (its constructs are all of it, not a change of one)."""
    if change.kind not in KINDS or change.deleted_file or change.new_file:
        return set()
    removed, added = _runs(change.removed, change.kind), _runs(change.added, change.kind)
    return {"-" + r for r in removed - added} | {"+" + r for r in added - removed}
