"""Java (and Kotlin) hunks in words: a type changed on the way (``org.junit.Before`` -> ``BeforeEach``), a package
moved, an annotation or a modifier removed; and the split of a hunk that changes several types into one
change per type."""

from __future__ import annotations

import re
from collections.abc import Sequence

from ..features import Change
from .common import _IMPORT

# Java imports whose class changed on the way (``org.junit.Assert`` → ``org.junit.jupiter.api.Assertions``,
# ``Before`` → ``BeforeEach``) read as "change type ..." before the package move.
STATIC_TYPES = True
# A Java hunk changing several types is searched as one segment per type (``split_type_changes``).
SPLIT_TYPES = True
_ANNOTATION = re.compile(r"^\s*@([A-Za-z_][\w.]*)")
# An annotation taken out (or put in) together with the declaration it annotates (a method deleted with its
# ``@Override``, a class rewritten as a record) is no annotation edit: only one whose declaration stays is.
WITH_DECLARATION = True


def _annotations(lines: Sequence[str]) -> list[str]:
    return [m.group(1) for line in lines if (m := _ANNOTATION.match(line))]


def _own_annotations(lines: Sequence[str], other: Sequence[str]) -> list[str]:
    """The annotations on ``lines`` whose declaration (the next line that is no annotation) is not also on these
    lines without a counterpart on the ``other`` side: an annotation whose declaration stayed, or came back
    changed (``@Before public void setUp()`` → ``@BeforeEach void setUp()``)."""
    kept = {line.strip() for line in other}
    heads = {_declared_name(line) for line in other} - {None}
    out: list[str] = []
    for i, line in enumerate(lines):
        match = _ANNOTATION.match(line)
        if match is None:
            continue
        following = next((later for later in lines[i + 1 :] if not _ANNOTATION.match(later)), None)
        gone_with_it = (
            following is not None
            and following.strip() not in kept
            and (_declared_name(following) is None or _declared_name(following) not in heads)
        )
        if not gone_with_it:
            out.append(match.group(1))
    return out


_DECLARED = re.compile(r"([A-Za-z_$][\w$]*)\s*(?:\(|=|;|\{|$|<|extends|implements)")


def _declared_name(line: str) -> str | None:
    """The name a declaration line declares (the method's, field's or type's): the first name followed by ``(``,
    ``=``, ``;``, ``{`` or a type's heritage."""
    match = _DECLARED.search(line.split("//", 1)[0])
    return match.group(1) if match else None


def imported(lines: Sequence[str]) -> list[tuple[str, bool]]:
    """The names the lines import (a wildcard's package or class without ``.*``), each with whether it is static."""
    return [(m.group(2), bool(m.group(1))) for line in lines if (m := _IMPORT.match(line))]


def _type_changes(
    old_imports: list[tuple[str, bool]], new_imports: list[tuple[str, bool]]
) -> tuple[list[tuple[str, str]], list[tuple[str, str]]]:
    """The types a hunk's imports change (``org.junit.Assert`` → ``org.junit.jupiter.api.Assertions``), in
    order, each once, and the package moves of the imports that keep their name."""
    old_by_name = {name.rsplit(".", 1)[-1]: name for name, _ in old_imports}
    moves: list[tuple[str, str]] = []
    types: list[tuple[str, str]] = []
    for name, static in new_imports:
        simple = name.rsplit(".", 1)[-1]
        old = old_by_name.get(simple)
        if old and old != name:
            old_owner, new_owner = old.rsplit(".", 1)[0], name.rsplit(".", 1)[0]
            # A static member kept its name while its class changed (``org.junit.Assert.assertEquals`` →
            # ``org.junit.jupiter.api.Assertions.assertEquals``): a type change, not only a package move.
            if static and STATIC_TYPES and old_owner.rsplit(".", 1)[-1] != new_owner.rsplit(".", 1)[-1]:
                types.append((old_owner, new_owner))
            else:
                moves.append((old_owner, new_owner))
    if STATIC_TYPES and moves:
        types += _renamed_on_the_way(old_imports, new_imports, set(moves))
    return list(dict.fromkeys(types)), moves


def import_changes(change: Change) -> tuple[list[tuple[str, str]], list[tuple[str, str]]]:
    """What a Java change's imports move: the types renamed (old, new fully qualified) and the packages of the
    imports that kept their simple name (old, new package)."""
    return _type_changes(imported(change.removed), imported(change.added))


def split_type_changes(change: Change) -> list[Change]:
    """A Java hunk that changes several types (``org.junit.Before`` → ``BeforeEach`` and ``org.junit.Assert``
    → ``Assertions``) as one change per type: each is what a different recipe does, and a hunk searched as
    one unit names only its best. The first part keeps the first type's imports and every other line; each
    further type's import lines (the class, or its static members) become their own part."""
    if not SPLIT_TYPES or change.kind not in {"java", "kotlin"} or change.new_file or change.deleted_file:
        return [change]
    types, _ = _type_changes(imported(change.removed), imported(change.added))
    if len(types) < 2:
        return [change]
    parts: list[Change] = []
    removed, added = list(change.removed), list(change.added)
    for old_type, new_type in types[1:]:
        own_removed = [line for line in removed if _imports_type(line, old_type)]
        own_added = [line for line in added if _imports_type(line, new_type)]
        if not own_removed or not own_added:
            continue
        removed = [line for line in removed if line not in own_removed]
        added = [line for line in added if line not in own_added]
        parts.append(Change(change.kind, own_removed, own_added))
    return [Change(change.kind, removed, added), *parts]


def _imports_type(line: str, name: str) -> bool:
    """The line imports the type (or a static member of it, or all of them)."""
    match = _IMPORT.match(line)
    return match is not None and (match.group(2) == name or match.group(2).startswith(name + "."))


def _java(path: str, change: Change, context: list[str], above: Sequence[str] = ()) -> list[str]:
    out: list[str] = []
    old_imports, new_imports = imported(change.removed), imported(change.added)
    types, moves = _type_changes(old_imports, new_imports)
    for old_type, new_type in types[:2]:
        out.append(f"change type {old_type} to {new_type}")
    if moves:
        # the most frequent move, ties to the first in the hunk (a set's order differs between processes)
        common = max(dict.fromkeys(moves), key=moves.count)
        out.append(f"change package {_shared_prefix_move(*common)}")
    elif old_imports and new_imports and not types:
        out.append(f"change type {old_imports[0][0]} to {new_imports[0][0]}")
    elif old_imports and not new_imports and not [line for line in change.added if line.strip()]:
        out.append(f"remove unused imports {old_imports[0][0]}")
    test = "test" if re.search(r"(^|/)(src/)?test(s)?/|Test\.java$", path) else ""
    for old, new in zip(change.removed, change.added, strict=False):
        gone_mods, came_mods = _modifier_change(old, new)
        what = "class" if re.search(r"\b(class|interface|enum|record)\b", old + new) else "method"
        for modifier in gone_mods[:1]:
            out.append(f"remove {modifier} modifier from {test} {what}")
        for modifier in came_mods[:1]:
            out.append(f"add {modifier} modifier to {test} {what}")
    old_ann = _own_annotations(change.removed, change.added) if WITH_DECLARATION else _annotations(change.removed)
    new_ann = _own_annotations(change.added, change.removed) if WITH_DECLARATION else _annotations(change.added)
    gone = [a for a in old_ann if a not in new_ann]
    came = [a for a in new_ann if a not in old_ann]
    if gone and came:
        out.append(f"change annotation @{gone[0]} to @{came[0]}")
    elif gone:
        out.append(f"remove annotation @{gone[0]}")
    elif came:
        out.append(f"add annotation @{came[0]}")
    return out


def _renamed_on_the_way(
    old_imports: list[tuple[str, bool]], new_imports: list[tuple[str, bool]], moves: set[tuple[str, str]]
) -> list[tuple[str, str]]:
    """Classes renamed while their package moved as the hunk's other imports did (``org.junit.Before`` →
    ``org.junit.jupiter.api.BeforeEach``; a static wildcard ``org.junit.Assert.*`` → ``...Assertions.*``):
    the imports nothing else pairs, taken in order, of the same kind, between the packages of a move."""
    old_simple = {name.rsplit(".", 1)[-1] for name, _ in old_imports}
    new_simple = {name.rsplit(".", 1)[-1] for name, _ in new_imports}
    left_old = [(n, st) for n, st in old_imports if n.rsplit(".", 1)[-1] not in new_simple]
    left_new = [(n, st) for n, st in new_imports if n.rsplit(".", 1)[-1] not in old_simple]
    out: list[tuple[str, str]] = []
    for (old, old_static), (new, new_static) in zip(left_old, left_new, strict=False):
        old_class, new_class = old.rsplit(".", 1)[-1], new.rsplit(".", 1)[-1]
        if old_static != new_static or not (old_class[:1].isupper() and new_class[:1].isupper()):
            continue
        if (old.rsplit(".", 1)[0], new.rsplit(".", 1)[0]) in moves:
            out.append((old, new))
    return out


_MODIFIERS = ("public", "protected", "private", "static", "final", "abstract", "synchronized")


def _modifier_change(old: str, new: str) -> tuple[list[str], list[str]]:
    """Modifiers a declaration lost and gained, when nothing else on the line changed."""
    old_words, new_words = old.split(), new.split()
    strip_old = [w for w in old_words if w not in _MODIFIERS]
    strip_new = [w for w in new_words if w not in _MODIFIERS]
    if strip_old != strip_new or old_words == new_words:
        return [], []
    gone = [w for w in old_words if w in _MODIFIERS and w not in new_words]
    came = [w for w in new_words if w in _MODIFIERS and w not in old_words]
    return gone, came


def _shared_prefix_move(old: str, new: str) -> str:
    """``javax.validation.constraints`` → ``jakarta.validation.constraints`` reads as the package move."""
    old_parts, new_parts = old.split("."), new.split(".")
    while len(old_parts) > 2 and len(new_parts) > 2 and old_parts[-1] == new_parts[-1]:
        old_parts, new_parts = old_parts[:-1], new_parts[:-1]
    return f"{'.'.join(old_parts)} to {'.'.join(new_parts)}"
