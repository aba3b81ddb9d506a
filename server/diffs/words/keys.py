"""Properties and YAML files in words: a key added, deleted, renamed or given a new value; a GitHub Actions
workflow's action moved to another version."""

from __future__ import annotations

import re
from collections.abc import Sequence
from itertools import pairwise
from pathlib import PurePosixPath

from ..features import Change
from .common import _KEY_VALUE, _file_words, _head, _pairs, _strip_quotes, file_noun, versions

# ... a nested YAML key renamed: said as its dotted path, when the lines above show the whole path
YAML_PATHS = True
# A properties or YAML key renamed (its value kept, or also changed) reads as a key change first.
KEY_RENAMES = True
_USES = re.compile(r"^\s*-?\s*uses:\s*['\"]?([\w.\-/]+)@([\w.\-]+)")


def _is_version(key: str, number: str) -> bool:
    """Whether a number a property takes is a version: dotted (``8.1``, ``2.17.1``), or the key says so
    (``java.version=17``). A bare ``server.port=9090`` or ``timeout=30`` is a value like any other."""
    return "." in number or "version" in key.lower()


def _properties(path: str, change: Change, context: list[str], above: Sequence[str] = ()) -> list[str]:
    name = PurePosixPath(path).name
    out: list[str] = []
    pairs, removed, added = _pairs(change)
    for old, new in pairs:
        key = _head(new) or "property"
        old_kv, new_kv = _KEY_VALUE.match(old), _KEY_VALUE.match(new)
        if KEY_RENAMES and old_kv and new_kv and old_kv.group(1) != new_kv.group(1):
            # A key renamed (``spring.datasource.initialization-mode`` → ``spring.sql.init.mode``): what
            # property migrations do; its value, kept or not, is the lesser news.
            out.append(f"change property key {old_kv.group(1)} to {new_kv.group(1)} in {name}")
            if _strip_quotes(old_kv.group(2)) != _strip_quotes(new_kv.group(2)):
                out.append(f"change property {new_kv.group(1)} value to {_strip_quotes(new_kv.group(2))} in {name}")
            continue
        new_versions = [v for v in versions([new]) if v not in versions([old]) and _is_version(key, v)]
        if new_versions:
            out.append(f"change {_file_words(path)} version to {new_versions[0]}")
            # The first phrase names the file; this one says the generic edit (a property's value changed)
            # with the file kind, so a file name's own words (``gradle-wrapper``) do not outweigh it.
            out.append(f"change property {key} value in properties file")
        else:
            value = _KEY_VALUE.match(new)
            out.append(f"change property {key} value to {_strip_quotes(value.group(2)) if value else ''} in {name}")
    for line in added:
        out.append(f"add property {_head(line) or ''} to {name}")
    for line in removed:
        out.append(f"delete property {_head(line) or ''} from {name}")
    return out


# ``gradle.properties`` (a Gradle file by kind) is read as the properties file it is: its keys and values, its
# additions as Gradle properties ("Add a property to the gradle.properties file"), not as build script lines.
GRADLE_PROPERTIES = True


def _gradle_properties(path: str, change: Change, context: list[str], above: Sequence[str] = ()) -> list[str]:
    """``gradle.properties``: a key given a new value (a version key: "upgrade ... version" is what the
    project means), added or removed, in the words of the properties recipes and of Gradle's ``AddProperty``."""
    name = PurePosixPath(path).name
    out: list[str] = []
    pairs, removed, added = _pairs(change)
    for old, new in pairs:
        old_kv, new_kv = _KEY_VALUE.match(old), _KEY_VALUE.match(new)
        if not (old_kv and new_kv):
            continue
        key, value = new_kv.group(1), _strip_quotes(new_kv.group(2))
        if old_kv.group(1) != key:
            out.append(f"change property key {old_kv.group(1)} to {key} in {name}")
            continue
        out.append(f"change property {key} value to {value} in {name}")
        if any(_is_version(key, v) for v in versions([value])):
            out.append(f"upgrade version property {key} to {value} in Gradle build")
    for line in added:
        if (kv := _KEY_VALUE.match(line)) is not None:
            out.append(f"add Gradle property {kv.group(1)} to {name}")
    for line in removed:
        if (kv := _KEY_VALUE.match(line)) is not None:
            out.append(f"delete property {kv.group(1)} from {name}")
    return out


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
    pairs, removed, added = _pairs(change)
    for old, new in pairs:
        uses_old, uses_new = _USES.match(old), _USES.match(new)
        if uses_old and uses_new:
            if uses_old.group(1) == uses_new.group(1):
                out.append(f"change GitHub action {uses_new.group(1)} version to {uses_new.group(2)}")
            else:
                out.append(f"change GitHub action {uses_old.group(1)} to {uses_new.group(1)}")
            continue
        old_kv, new_kv = _KEY_VALUE.match(old), _KEY_VALUE.match(new)
        if old_kv and new_kv:
            key, value = new_kv.group(1), _strip_quotes(new_kv.group(2))
            renamed = old_kv.group(1) != key
            if KEY_RENAMES and renamed and _strip_quotes(old_kv.group(2)) == value:
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
        kv = _KEY_VALUE.match(line)
        if kv:
            out.append(f"add YAML key {kv.group(1)} in {noun}")
    for line in removed:
        kv = _KEY_VALUE.match(line)
        if kv:
            out.append(f"delete YAML key {kv.group(1)} from {noun}")
    return out
