"""Properties and YAML files in words: a key added, deleted, renamed or given a new value; a GitHub Actions
workflow's action moved to another version."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import pairwise
from pathlib import PurePosixPath

from ..features import Change, pair_lines
from .common import KEY_VALUE, _file_words, _head, file_noun, strip_quotes, versions

# ... a nested YAML key renamed: said as its dotted path, when the lines above show the whole path
YAML_PATHS = True
# A properties or YAML key renamed (its value kept, or also changed) reads as a key change first.
KEY_RENAMES = True
_USES = re.compile(r"^\s*-?\s*uses:\s*['\"]?([\w.\-/]+)@([\w.\-]+)")


def _is_version(key: str, number: str) -> bool:
    """Whether a number a property takes is a version: dotted (``8.1``, ``2.17.1``), or the key says so
    (``java.version=17``). A bare ``server.port=9090`` or ``timeout=30`` is a value like any other."""
    return "." in number or "version" in key.lower()


def _value(line: str) -> str:
    """A ``key=value`` line's value as the key holds it ("" for any other line)."""
    kv = KEY_VALUE.match(line)
    return strip_quotes(kv.group(2)) if kv else ""


def _value_phrase(path: str, key: str, new: str) -> str:
    return f"change property {key} value to {_value(new)} in {PurePosixPath(path).name}"


def _said_key(line: str) -> str:
    """A ``.properties`` line's key as the recipes' descriptions say it: its head, camel case in words."""
    return _head(line) or ""


def _written_key(line: str) -> str | None:
    """A ``key=value`` line's key as written; None for any other line."""
    kv = KEY_VALUE.match(line)
    return kv.group(1) if kv else None


def _value_or_file_version(path: str, key: str, old: str, new: str) -> list[str]:
    """A ``.properties`` key's new value; a new version (``distributionUrl`` of ``gradle-wrapper.properties``)
    names the file's version first, then the generic edit with the file kind, so a file name's own words
    (``gradle-wrapper``) do not outweigh it."""
    key = key or "property"
    moved = [v for v in versions([new]) if v not in versions([old]) and _is_version(key, v)]
    if moved:
        return [f"change {_file_words(path)} version to {moved[0]}", f"change property {key} value in properties file"]
    return [_value_phrase(path, key, new)]


def _value_and_upgrade(path: str, key: str, old: str, new: str) -> list[str]:
    """A ``gradle.properties`` key's new value; a version key also as what the project means by it: "upgrade
    ... version"."""
    value = _value(new)
    out = [_value_phrase(path, key, new)]
    if any(_is_version(key, v) for v in versions([value])):
        out.append(f"upgrade version property {key} to {value} in Gradle build")
    return out


@dataclass(frozen=True)
class _PropertiesWords:
    """A properties file's keys added, deleted, renamed or given a new value, in words. Two kinds of file
    read alike and are said differently on purpose, each in the words of the recipes that edit it: a
    ``.properties`` file (``properties.AddProperty``, ``ChangePropertyValue``) and ``gradle.properties``
    (Gradle's ``AddProperty``: "add Gradle property"; a version key also as an upgrade)."""

    key: Callable[[str], str | None]  # a line's key as said; None: the line is no property and says nothing
    add: str  # how a key added is said
    new_value: Callable[[str, str, str, str], list[str]]  # (path, key, old line, new line) → a new value in words
    renamed_value: bool  # a key renamed and given a new value: the value said after the key change

    def __call__(self, path: str, change: Change, context: list[str], above: Sequence[str] = ()) -> list[str]:
        name = PurePosixPath(path).name
        out: list[str] = []
        pairs, removed, added = pair_lines(change.removed, change.added)
        for old, new in pairs:
            old_kv, new_kv = KEY_VALUE.match(old), KEY_VALUE.match(new)
            if KEY_RENAMES and old_kv and new_kv and old_kv.group(1) != new_kv.group(1):
                # A key renamed (``spring.datasource.initialization-mode`` → ``spring.sql.init.mode``): what
                # property migrations do; its value, kept or not, is the lesser news.
                out.append(f"change property key {old_kv.group(1)} to {new_kv.group(1)} in {name}")
                if self.renamed_value and _value(old) != _value(new):
                    out.append(_value_phrase(path, new_kv.group(1), new))
                continue
            key = self.key(new)
            if self.key(old) is not None and key is not None:
                out += self.new_value(path, key, old, new)
        for line in added:
            if (key := self.key(line)) is not None:
                out.append(f"{self.add} {key} to {name}")
        for line in removed:
            if (key := self.key(line)) is not None:
                out.append(f"delete property {key} from {name}")
        return out


_properties = _PropertiesWords(_said_key, "add property", _value_or_file_version, renamed_value=True)

# ``gradle.properties`` (a Gradle file by kind) is read as the properties file it is: its keys and values, its
# additions as Gradle properties ("Add a property to the gradle.properties file"), not as build script lines.
GRADLE_PROPERTIES = True
_gradle_properties = _PropertiesWords(_written_key, "add Gradle property", _value_and_upgrade, renamed_value=False)


_YAML_BLOCK = re.compile(r"^(\s*)([\w.\-]+)\s*:\s*(?:#.*)?$")


def yaml_parents(above: Sequence[str], line: str) -> list[str] | None:
    """The mapping keys a YAML line is nested in, read off the unchanged lines above it (git names the
    top-level key in the hunk header), outermost first; None when they do not show the whole way up (a
    level skipped, a list item on the way), so no partial path is said."""
    indent = len(line) - len(line.lstrip())
    stack: list[tuple[int, str]] = []
    for text in above:
        if not text.strip() or text.lstrip().startswith("#"):
            continue
        depth = len(text) - len(text.lstrip())
        while stack and stack[-1][0] >= depth:
            stack.pop()
        if (block := _YAML_BLOCK.match(text)) is not None and depth < indent:
            stack.append((depth, block.group(2)))
        elif text.lstrip().startswith("-") and depth < indent:
            return None
    if indent == 0:
        return []
    depths = [d for d, _ in stack] + [indent]
    # the file's indentation step: the smallest one seen
    step = min(d for text in [*above, line] if text.strip() and (d := len(text) - len(text.lstrip())) > 0)
    if not stack or depths[0] != 0 or any(b - a != step for a, b in pairwise(depths)):
        return None
    return [key for _, key in stack]


def _yaml(path: str, change: Change, context: list[str], above: Sequence[str] = ()) -> list[str]:
    noun = file_noun("yaml", path)
    out: list[str] = []
    pairs, removed, added = pair_lines(change.removed, change.added)
    for old, new in pairs:
        uses_old, uses_new = _USES.match(old), _USES.match(new)
        if uses_old and uses_new:
            if uses_old.group(1) == uses_new.group(1):
                out.append(f"change GitHub action {uses_new.group(1)} version to {uses_new.group(2)}")
            else:
                out.append(f"change GitHub action {uses_old.group(1)} to {uses_new.group(1)}")
            continue
        old_kv, new_kv = KEY_VALUE.match(old), KEY_VALUE.match(new)
        if old_kv and new_kv:
            key, value = new_kv.group(1), strip_quotes(new_kv.group(2))
            renamed = old_kv.group(1) != key
            if KEY_RENAMES and renamed and strip_quotes(old_kv.group(2)) == value:
                # The key renamed, its value kept: a key change, not a new value; a nested key as its dotted
                # path (``spring.datasource.initialization-mode``), as property migrations name keys.
                parents = yaml_parents(above, old) if YAML_PATHS else None
                prefix = ".".join(parents) + "." if parents else ""
                out.append(f"change YAML key {prefix}{old_kv.group(1)} to {prefix}{key} in {noun}")
                continue
            out.append(f"change {key} to {value} in {noun}")
            if renamed:
                out.append(f"change YAML key {old_kv.group(1)} to {key}")
            else:
                out.append(f"change YAML value of {key}")
    for line in added:
        kv = KEY_VALUE.match(line)
        if kv:
            out.append(f"add YAML key {kv.group(1)} in {noun}")
    for line in removed:
        kv = KEY_VALUE.match(line)
        if kv:
            out.append(f"delete YAML key {kv.group(1)} from {noun}")
    return out
