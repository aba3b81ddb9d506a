"""What a query, or a recipe's display name, asks for: which terms it wants to see afterwards (target),
which it wants gone (source), and whether it asks to find things rather than change them.

Recipe names say it in a handful of shapes, and people phrase queries the same way:
``Replace A with B``, ``Migrate from A to B``, ``A to B``, ``Use B``, ``Remove A``, ``B instead of A``,
``Find A``. Parsing both sides with the same rules lets ranking notice that a query asking to *use* text
blocks is the opposite of a recipe that *replaces* text blocks with strings, and that a query asking to
*update* the Gradle wrapper is not served by a recipe that only *finds* wrappers. The verbs below are
English grammar (how a change or a search is said), not words picked per test case.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_TOKEN = re.compile(r"[a-z0-9]+(?:\.[0-9]+)*(?:\.x)?")
_SUFFIXES = ("ations", "ation", "ating", "ates", "ated", "ate", "ings", "ing", "ed", "es", "s")
_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])")

# A query that starts with one of these asks to find or report something, not to change it.
SEARCH_VERBS = frozenset(
    {"find", "finds", "search", "list", "locate", "report", "detect", "identify", "show", "which", "where", "count"}
)
# Verbs that make everything after them the thing to get rid of.
_REMOVAL = re.compile(
    r"^(?:removes?|deletes?|drops?|avoids?|disables?|undo(?:es)?|reverts?|strips?|eliminates?|"
    r"get rid of|stop using|do not use|don't use|no longer use|no)\b"
)
_REPLACE = re.compile(r"^(?:replaces?|swaps?|substitutes?)\s+(?P<src>.+?)\s+(?:with|by|for)\s+(?P<tgt>.+)$")
_INSTEAD = re.compile(r"^(?P<tgt>.+?)\s+instead of\s+(?P<src>.+)$")
_FROM_TO = re.compile(r"^(?P<pre>.*?)\bfrom\s+(?P<src>.+?)\s+to\s+(?P<tgt>.+)$")
_FROM = re.compile(r"^(?P<tgt>.+?)\s+from\s+(?P<src>.+)$")
# "A to B", unless "to" introduces a verb ("changes code to use ...") rather than a destination.
_TO = re.compile(r"^(?P<src>.+?)\s+to\s+(?!(?:use|be|make|allow|avoid|prevent|ensure|run|support|keep)\b)(?P<tgt>.+)$")


def stem(word: str) -> str:
    """A light suffix strip, applied alike to queries and names (``migrate``/``migration`` → ``migr``)."""
    if word.endswith(".x"):
        word = word[:-2]
    for suffix in _SUFFIXES:
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            return word[: -len(suffix)]
    return word


def terms(text: str) -> list[str]:
    """Stemmed lower-case terms of ``text``; CamelCase words are split first (``TextBlock`` → text, block)."""
    return [stem(t) for t in _TOKEN.findall(_CAMEL.sub(" ", text).replace("`", " ").lower())]


@dataclass(frozen=True)
class Direction:
    """The terms a text wants afterwards (``target``) and wants gone (``source``)."""

    target: frozenset[str]
    source: frozenset[str]
    search: bool = False  # it asks to find or report, not to change
    # Said outright (remove, replace ... with, instead of, from ... to): only then is ``source`` something
    # to get rid of. In "upgrade Spring Boot to 3.2" the words before "to" are not.
    strong: bool = False


def direction(text: str) -> Direction:
    """Parse one query or display name into target and source terms (see the module docstring)."""
    flat = " ".join(_CAMEL.sub(" ", text).replace("`", " ").split()).lower().strip(" .")
    first = flat.split(" ", 1)[0] if flat else ""
    search = first in SEARCH_VERBS
    match = _REPLACE.match(flat)
    if match:
        return Direction(frozenset(terms(match["tgt"])), frozenset(terms(match["src"])), search, strong=True)
    removal = _REMOVAL.match(flat)
    if removal:
        rest = flat[removal.end() :]
        instead = _INSTEAD.match(rest)
        if instead:  # "remove A instead of ..." is rare; keep the plain reading
            rest = instead["tgt"]
        return Direction(frozenset(), frozenset(terms(rest)), search, strong=True)
    for pattern in (_INSTEAD, _FROM_TO):
        match = pattern.match(flat)
        if match:
            target = terms(match["tgt"]) + (terms(match["pre"]) if "pre" in match.groupdict() else [])
            return Direction(frozenset(target), frozenset(terms(match["src"])), search, strong=True)
    for pattern in (_TO, _FROM):
        match = pattern.match(flat)
        if match:
            return Direction(frozenset(terms(match["tgt"])), frozenset(terms(match["src"])), search)
    return Direction(frozenset(terms(flat)), frozenset(), search)
