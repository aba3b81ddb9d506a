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

Many recipes that make such a change have no example at all (``UseTextBlocks``), and a hand-written Java hunk has
no words of its own for the words search to find them with. So a Java change from one construct of the language to
another, read from the skeletons of its lines (a line with a ``\"\"\"`` added where a ``"s" +`` concatenation went),
is also said in the language's names for both (``construct_phrases``: "string concatenation to text block"), and an
``if`` taken away around the statement it guarded as "remove if statement guard". A recipe whose examples take the
new construct away (``undone_by``) is the wrong one there.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from ...catalog.examples import StoredExample
from ...diffs.features import Change
from .memo import last_result

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


@dataclass(frozen=True)
class ConstructChange:
    """One change between Java constructs: its phrase, and what the skeleton of an added line and of a removed
    line show (regular expressions over the skeleton tokens joined by spaces)."""

    phrase: str
    added: re.Pattern[str] | None  # None: the change takes the old construct away, nothing comes in its place
    removed: re.Pattern[str]


def _change(phrase: str, added: str | None, removed: str) -> ConstructChange:
    return ConstructChange(phrase, re.compile(added) if added is not None else None, re.compile(removed))


SAY_CONSTRUCTS = True  # a Java change between constructs is said in their names (``construct_phrases``)
_TYPE = r"x(?: \. x)*(?: < [^=;]*>)?(?: \[ \])*"  # a type as a skeleton: names, type arguments, array brackets
# The Java language's constructs that replace older ones (Java 5 to 21), each said as "old to new".
CONSTRUCT_CHANGES = (
    _change("string concatenation to text block", r'"""', r'"s" \+|\+ "s"'),
    _change("cast to pattern matching instanceof", r"instanceof x(?: \. x)* x\b", r"\( " + _TYPE + r" \) x"),
    _change("switch statement to switch expression", r"(?:case [^:]*|default) ->", r"\bcase [^>]*:|^break ;|default :"),
    _change("explicit type to var local variable", r"^(?:final )?var x =", r"^(?:final )?" + _TYPE + r" x ="),
    _change("anonymous class to lambda", r"->", r"\bnew " + _TYPE + r" \( [^;]*\) \{$"),
    _change("lambda to method reference", r"::", r"->"),
    _change("class to record", r"\brecord x\b", r"\bclass x\b"),
    _change("finally close to try-with-resources", r"^try \(", r"^(?:\} )?finally\b"),
    _change("explicit type arguments to diamond operator", r"\bnew " + r"x(?: \. x)* < > \(", r"\bnew x(?: \. x)* < x"),
    _change("indexed for loop to enhanced for loop", r"^for \( (?:final )?" + _TYPE + r" x :", r"^for \( [^:]*;"),
    # an if statement taken away around what it guarded: nothing in its place (``unwrapped``)
    _change("remove if statement guard", None, r"^if \( [^{]*\) \{$"),
    _change("catch blocks to multi-catch", r"^(?:\} )?catch \( [^|]*\|", r"^(?:\} )?catch \("),
)


def construct_phrases(change: Change, changes: Sequence[ConstructChange] = CONSTRUCT_CHANGES) -> list[str]:
    """The construct changes a Java edit makes, in words (``turned``); empty for other kinds and for a whole file
    deleted or created."""
    if not SAY_CONSTRUCTS or change.kind != "java" or change.deleted_file or change.new_file:
        return []
    return turned(change.removed, change.added, changes)


def turned(
    removed: Sequence[str], added: Sequence[str], changes: Sequence[ConstructChange] = CONSTRUCT_CHANGES
) -> list[str]:
    """The phrases of the construct changes these lines make: the new construct on an added line and the old one on
    a removed line, neither on both sides (a lambda added beside another lambda is no conversion)."""
    gone = [" ".join(skeleton(line)) for line in removed]
    came = [" ".join(skeleton(line)) for line in added]
    out = []
    for each in changes:
        new = (
            unwrapped(each.removed, gone, came)
            if each.added is None
            else (any(each.added.search(line) for line in came) and not any(each.added.search(line) for line in gone))
        )
        old = any(each.removed.search(line) for line in gone)
        if new and old and not any(each.removed.search(line) for line in came):
            out.append(each.phrase)
    return out


def taken_away(
    removed: Sequence[str], added: Sequence[str], changes: Sequence[ConstructChange] = CONSTRUCT_CHANGES
) -> list[str]:
    """The phrases of the construct changes whose new construct these lines take away: on a removed line, on no
    added one (a text block turned back into a string literal)."""
    gone = [" ".join(skeleton(line)) for line in removed]
    came = [" ".join(skeleton(line)) for line in added]
    return [
        each.phrase
        for each in changes
        if each.added is not None
        and any(each.added.search(line) for line in gone)
        and not any(each.added.search(line) for line in came)
    ]


def unwrapped(opening: re.Pattern[str], gone: Sequence[str], came: Sequence[str]) -> bool:
    """Whether skeleton lines take blocks away and keep what they wrapped: each removed block's opening line and
    closing brace gone, every other removed line back as one added line (rewritten in place, not replaced)."""
    gone = [line for line in gone if line]
    opened = sum(1 for line in gone if opening.search(line))
    closed = sum(1 for line in gone if line == "}")
    return 0 < opened <= closed and len([line for line in came if line]) == len(gone) - 2 * opened


@last_result
def undone_by(examples: Sequence[StoredExample]) -> dict[str, frozenset[str]]:
    """Per recipe: the construct changes (their phrases) its Java examples undo, taking the new construct away
    (``ReplaceTextBlockWithString``: a text block back into a string), and none of them makes; once per snapshot.
    ``UseVar`` takes a diamond away (``var`` needs the type arguments) but makes ``var``: it undoes nothing."""
    undo: dict[str, set[str]] = defaultdict(set)
    make: dict[str, set[str]] = defaultdict(set)
    for ex in examples:
        if ex.change.kind == "java" and not (ex.change.deleted_file or ex.change.new_file):
            undo[ex.recipe_id].update(taken_away(ex.change.removed, ex.change.added))
            make[ex.recipe_id].update(turned(ex.change.removed, ex.change.added))
    return {rid: frozenset(phrases) for rid, phrases in undo.items() if phrases and not make[rid]}
