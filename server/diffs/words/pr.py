"""The whole PR in words (``describe_pr``): the same package family moved in several files reads as "migrate
javax to jakarta", the same Java level in several build, CI and container files as "migrate to Java 17". A
change made in one file yields nothing."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from ..features import Change, pair_lines
from .common import _GENERIC, _IMPORT, XML_TAG, _coordinate, _java_level

MIN_FILES = 2  # a move or version seen in this many files reads as a migration of the whole project
MAX_WIDE = 3  # PR-level descriptions per diff
WIDE_PACKAGES = True  # the same package family moved in several files
# The same Java level in several build, CI and container files ("migrate to Java 17"). In two files (a CI
# workflow and the build) it is a routine bump: measured at 2, the Java-upgrade composites it adds pushed
# labelled recipes out on the check half (R@10 0.551 -> 0.536); at 3 they did not.
WIDE_JAVA = True
JAVA_MIN_FILES = 3


@dataclass(frozen=True)
class Wide:
    """A PR-level description: phrases summarising what several of the diff's segments do together."""

    phrases: tuple[str, ...]
    segments: tuple[int, ...]  # the segments (indices) it summarises
    version: str | None = None  # the version the project moves to, when that is what it says


def package_moves(change: Change) -> list[tuple[str, str]]:
    """Package (or group) roots the change moves from and to: an import whose simple name stays while its
    package changes, a dependency whose group changes (Gradle coordinates, a Maven ``groupId``)."""
    out: list[tuple[str, str]] = []
    if change.kind in {"java", "kotlin"}:
        old = {m.group(2).rsplit(".", 1)[-1]: m.group(2) for line in change.removed if (m := _IMPORT.match(line))}
        for line in change.added:
            if (m := _IMPORT.match(line)) is None:
                continue
            name = m.group(2)
            before = old.get(name.rsplit(".", 1)[-1])
            if before and before != name:
                out.append((before.rsplit(".", 1)[0], name.rsplit(".", 1)[0]))
    elif change.kind == "gradle":
        gone = {c[0] for line in change.removed if (c := _coordinate(line))}
        came = {c[0] for line in change.added if (c := _coordinate(line))}
        if gone - came and came - gone:
            out.append((sorted(gone - came)[0], sorted(came - gone)[0]))
    elif change.kind == "maven":
        pairs, _, _ = pair_lines(change.removed, change.added)
        for old_line, new_line in pairs:
            old_tag, new_tag = XML_TAG.match(old_line), XML_TAG.match(new_line)
            if old_tag and new_tag and new_tag.group(1) == "groupId" and old_tag.group(2) != new_tag.group(2):
                out.append((old_tag.group(2).strip(), new_tag.group(2).strip()))
    return out


def _root_move(old: str, new: str) -> tuple[str, str]:
    """The roots of a package move: ``javax.ws.rs`` → ``jakarta.ws.rs`` is javax → jakarta (the shared tail
    dropped); ``org.junit`` → ``org.junit.jupiter.api`` is org.junit → org.junit.jupiter (one step past the
    shared head)."""
    old_parts, new_parts = old.split("."), new.split(".")
    while len(old_parts) > 1 and len(new_parts) > 1 and old_parts[-1] == new_parts[-1]:
        old_parts, new_parts = old_parts[:-1], new_parts[:-1]
    if new_parts[: len(old_parts)] == old_parts:
        new_parts = new_parts[: len(old_parts) + 1]
    return ".".join(old_parts), ".".join(new_parts)


def _family(move: tuple[str, str]) -> str:
    """Moves belong to one family when they share a library word (junit → org.junit.jupiter and
    org.junit → org.junit.jupiter.api), else when they move between the same two roots (javax → jakarta)."""
    old_words = {w for w in re.split(r"[.\-]", move[0]) if w not in _GENERIC}
    new_words = {w for w in re.split(r"[.\-]", move[1]) if w not in _GENERIC}
    shared = sorted(old_words & new_words)
    if shared:
        return shared[0]
    return f"{move[0].split('.')[0]} {move[1].split('.')[0]}"


def describe_pr(segments: Sequence[tuple[str, Change]]) -> list[Wide]:
    """What the PR does as a whole, when several files do the same: the same package family moved
    ("migrate javax to jakarta"), the same platform version moved to ("migrate to Java 17"). A change made
    in one file only is no migration of the project and yields nothing."""
    families: dict[str, list[tuple[int, str, tuple[str, str]]]] = {}
    java: dict[str, list[tuple[int, str]]] = {}
    for n, (path, change) in enumerate(segments):
        if change.deleted_file or change.new_file:
            continue
        for old_package, new_package in package_moves(change) if WIDE_PACKAGES else ():
            move = _root_move(old_package, new_package)
            families.setdefault(_family(move), []).append((n, path, move))
        if WIDE_JAVA and change.kind not in {"java", "kotlin"} and (level := _java_level(change)) is not None:
            java.setdefault(level.split(".")[0], []).append((n, path))
    out: list[tuple[int, Wide]] = []
    for found in families.values():
        files = {path for _, path, _ in found}
        if len(files) < MIN_FILES:
            continue
        # The roots most files move between (a file importing ten classes counts once).
        per_file = {(path, move) for _, path, move in found}
        old = _most_common([move[0] for _, move in per_file])
        new = _most_common([move[1] for _, move in per_file])
        # One phrase each: a second one (the moved sub-packages listed, "upgrade build to Java 17") changed
        # no ranking on the pr-cases and cost one more search.
        out.append((len(files), Wide((f"migrate {old} to {new}",), tuple(sorted({n for n, _, _ in found})))))
    for level, places in java.items():
        paths = {path for _, path in places}
        if len(paths) < JAVA_MIN_FILES:
            continue
        out.append((len(paths), Wide((f"migrate to Java {level}",), tuple(sorted({n for n, _ in places})), level)))
    out.sort(key=lambda item: -item[0])
    return [wide for _, wide in out[:MAX_WIDE]]


def _most_common(values: Sequence[str]) -> str:
    """The value seen most often; of equally common ones the shortest (the root, not a sub-package)."""
    return min(set(values), key=lambda v: (-values.count(v), len(v), v))
