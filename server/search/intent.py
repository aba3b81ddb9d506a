"""What a query, or a recipe's display name, asks for: which terms it wants to see afterwards (target),
which it wants gone (source), and whether it asks to find things rather than change them.

Recipe names say it in a handful of shapes, and people phrase queries the same way:
``Replace A with B``, ``Migrate from A to B``, ``A to B``, ``A became B``, ``Use B``, ``Remove A``,
``B instead of A``, ``Find A``. Parsing both sides with the same rules lets ranking notice that a query asking
to *use* text blocks is the opposite of a recipe that *replaces* text blocks with strings, and that a query
asking to *update* the Gradle wrapper is not served by a recipe that only *finds* wrappers. The verbs below are
English grammar (how a change or a search is said), not words picked per test case.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

# A word, a version (``3.2``) or a version line (``4.x``, but not the ``.x`` of ``pom.xml``).
_TOKEN = re.compile(r"[a-z0-9]+(?:\.[0-9]+)*(?:\.x(?![a-z0-9]))?")
_SUFFIXES = ("ations", "ation", "ating", "ates", "ated", "ate", "ings", "ing", "ed", "es", "s")
_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])")

# A query that starts with one of these asks to find or report something, not to change it.
SEARCH_VERBS = frozenset(
    {"find", "finds", "search", "list", "locate", "report", "detect", "identify", "show", "which", "where", "count"}
)
# Verbs that make everything after them the thing to get rid of, in the imperative of a recipe name or a
# request ("remove unused imports") and in the past tense of a PR description ("removed the unused bean").
_REMOVAL = re.compile(
    r"^(?:removes?|removed|deletes?|deleted|drops?|dropped|avoids?|disables?|disabled|undo(?:es)?|reverts?|"
    r"reverted|strips?|stripped|eliminates?|eliminated|get rid of|stop using|do not use|don't use|no longer use|no)\b"
)
# The same said of the thing itself: "unused imports were deleted from every test", "X removed from Y".
_AUX = r"(?:(?:was|were|is|are|has been|have been|had been|got|gets|get)\s+)?"
_PASSIVE_REMOVAL = re.compile(
    rf"^(?P<src>.+?)\s+{_AUX}(?:removed|deleted|dropped|stripped|eliminated)(?:\s+(?:from|in|across|on|at|throughout)\b.*|[,;].*)?$"
)
_REPLACE = re.compile(
    r"^(?:replace[sd]?|swap(?:s|ped)?|substitute[sd]?)\s+(?P<src>.+?)\s+(?:with|by|for)\s+(?P<tgt>.+)$"
)
# "A replaced by B", "A swapped for B", "A was substituted with B": the passive of the same.
_PASSIVE_REPLACE = re.compile(
    rf"^(?P<src>.+?)\s+{_AUX}(?:replaced|swapped|substituted|exchanged)\s+(?:with|by|for)\s+(?P<tgt>.+)$"
)
# "Add A so that B": what is added is A; the clause after it says why, not what to see afterwards.
_ADDITION = re.compile(
    r"^(?:adds?|added|introduces?|introduced|inserts?|inserted|enables?|enabled)\s+(?P<tgt>.+?)"
    r"(?:\s+(?:so that|so|because|in order to|which)\b.*|[,;].*)?$"
)
_INSTEAD = re.compile(r"^(?P<tgt>.+?)\s+instead of\s+(?P<src>.+)$")
_FROM_TO = re.compile(r"^(?P<pre>.*?)\bfrom\s+(?P<src>.+?)\s+to\s+(?P<tgt>.+)$")
_FROM = re.compile(r"^(?P<tgt>.+?)\s+from\s+(?P<src>.+)$")
# "A became B", "A turned into B": what a PR description says of a value it changed (weak, as "A to B").
_BECAME = re.compile(r"^(?P<src>.+?)\s+(?:became|becomes|turned into|turns into)\s+(?P<tgt>.+)$")
# "A to B", unless "to" introduces a verb ("changes code to use ...") rather than a destination.
_TO = re.compile(r"^(?P<src>.+?)\s+to\s+(?!(?:use|be|make|allow|avoid|prevent|ensure|run|support|keep)\b)(?P<tgt>.+)$")


def stem(word: str) -> str:
    """A light suffix strip, applied alike to queries and names (``migrate``/``migration`` → ``migr``,
    ``change``/``changed``/``changes`` → ``chang``); a plural or past in ``-ies``/``-ied`` gets its ``y`` back
    (``repositories``, ``properties`` → ``repository``, ``property``: the singular is what the other side
    often says)."""
    if word.endswith(".x"):
        word = word[:-2]
    if word.endswith(("ies", "ied")) and len(word) >= 6:
        return word[:-3] + "y"
    for suffix in _SUFFIXES:
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            return word[: -len(suffix)]
    # a silent ``e`` goes the way ``-es``/``-ed`` took it: ``change``/``changed``, ``rename``/``renamed``
    return word[:-1] if word.endswith("e") and len(word) >= 4 else word


# A word of code or configuration: punctuation inside it (``server.port``, ``log.debug("``, ``<bean``,
# ``${x}``), a digit (``8080``, ``2.15.1``) or a capital after a lower-case letter (``ExpectedException``).
_CODE_WORD = re.compile(r"[.()<>{}\[\]=:\"'/_$@#+*;]|\d|[a-z][A-Z]")


def phrase_words(text: str) -> list[str]:
    """The words of ``text`` as written, the punctuation at a word's edge trimmed (a sentence's full stop, an
    opening parenthesis)."""
    return [w for w in (raw.rstrip(".,;:!?").lstrip("(") for raw in text.split()) if w]


def looks_like_code(word: str) -> bool:
    """Whether a word (of ``phrase_words``) is code or configuration rather than English."""
    return _CODE_WORD.search(word) is not None


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
    # No shape matched: ``target`` is every term of the text, which names what it is about on no particular
    # side of a change ("``@Rule TemporaryFolder`` in tests").
    plain: bool = False


_SEARCH_STEMS = frozenset(stem(verb) for verb in SEARCH_VERBS)


def direction(text: str) -> Direction:
    """Parse one query or display name into target and source terms (see the module docstring)."""
    flat = " ".join(_CAMEL.sub(" ", text).replace("`", " ").split()).lower().strip(" .")
    first = flat.split(" ", 1)[0] if flat else ""
    search = stem(first) in _SEARCH_STEMS  # "finds", "searches", "lists", "identifies" alike
    match = _REPLACE.match(flat) or _PASSIVE_REPLACE.match(flat)
    if match:
        return Direction(frozenset(terms(match["tgt"])), frozenset(terms(match["src"])), search, strong=True)
    removal = _REMOVAL.match(flat)
    if removal:
        rest = flat[removal.end() :]
        instead = _INSTEAD.match(rest)
        if instead:  # "remove A instead of ..." is rare; keep the plain reading
            rest = instead["tgt"]
        return Direction(frozenset(), frozenset(terms(rest)), search, strong=True)
    match = _PASSIVE_REMOVAL.match(flat)
    if match:
        return Direction(frozenset(), frozenset(terms(match["src"])), search, strong=True)
    match = _ADDITION.match(flat)
    if match:
        return Direction(frozenset(terms(match["tgt"])), frozenset(), search)
    for pattern in (_INSTEAD, _FROM_TO):
        match = pattern.match(flat)
        if match:
            target = terms(match["tgt"]) + (terms(match["pre"]) if "pre" in match.groupdict() else [])
            return Direction(frozenset(target), frozenset(terms(match["src"])), search, strong=True)
    for pattern in (_BECAME, _TO, _FROM):
        match = pattern.match(flat)
        if match:
            return Direction(frozenset(terms(match["tgt"])), frozenset(terms(match["src"])), search)
    return Direction(frozenset(terms(flat)), frozenset(), search, plain=True)
