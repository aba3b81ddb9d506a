"""One hunk in words (``describe``): the writer for the file's kind, a plain-text fallback, and the Java level a
build or CI file moves to, most specific phrase first."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import PurePosixPath

from ..features import Change
from .build import _gradle, _maven
from .common import MAX_PHRASE_CHARS, MAX_PHRASES, _java_level, file_noun
from .docker import _DOCKER_INSTRUCTIONS, _dockerfile
from .java import _java
from .keys import GRADLE_PROPERTIES, _gradle_properties, _properties, _yaml


def describe(path: str, change: Change, context: Sequence[str] = (), above: Sequence[str] = ()) -> list[str]:
    """Short phrases saying what the hunk does, most specific first (at most ``MAX_PHRASES``). ``context``
    is the hunk's unchanged lines, ``above`` those of them before the change (the section header first)."""
    kind = change.kind
    noun = file_noun(kind, path)
    name = PurePosixPath(path).name
    if change.deleted_file:
        return ["delete files"]  # what is in the file does not matter, that it is gone does
    if change.new_file:
        if kind in {"java", "kotlin"}:
            return []  # new code is written by hand; no recipe creates a class from nothing
        if name in {".gitignore", ".dockerignore"}:
            return [f"add entries to {name}", f"create new file {name}"]
        return [f"create new file {name}", f"add {noun} {name}"]
    phrases: list[str] = []
    writer = _WRITERS.get(kind)
    if kind == "gradle" and name == "gradle.properties" and GRADLE_PROPERTIES:
        writer = _gradle_properties
    if writer is not None:
        phrases += writer(path, change, list(context), above)
    if kind in {"text", "markdown", "sql", "shell"} or not phrases:
        if name in {".gitignore", ".dockerignore"} and change.added and not change.removed:
            phrases.append(f"add entries to {name}")
        elif kind not in {"java", "kotlin"}:
            phrases.append(f"find and replace text in {noun} {name}")
    java = _java_level(change)
    if java and kind not in {"java", "kotlin"}:
        phrases.insert(1, f"upgrade Java version to {java} in {noun}")
    seen: set[str] = set()
    out = []
    for phrase in phrases:
        phrase = " ".join(phrase.split())[:MAX_PHRASE_CHARS]
        if phrase.lower() not in seen:
            seen.add(phrase.lower())
            out.append(phrase)
    return out[:MAX_PHRASES]


# The words a phrase frames a change with: the edit, the file, a Dockerfile's instruction keywords (a closed
# syntax). A phrase of only these (``add Dockerfile RUN instruction``) says which kind of line changed, not
# which name, key, version or coordinate.
_FRAME_WORDS = frozenset(
    {"add", "remove", "change", "delete", "update", "upgrade", "create", "new", "to", "from", "in", "a", "the", "of"}
    | {"instruction", "value", "file", "files", "entries", "version"}
    | _DOCKER_INSTRUCTIONS
)


def names_something(phrase: str, kind: str, path: str) -> bool:
    """Whether the phrase names something of the change (a name, key, version, coordinate) beyond the edit,
    the file and the file's syntax: a segment described only in frame words has no evidence of its own
    beyond its file kind."""
    frame = _FRAME_WORDS | set(file_noun(kind, path).lower().split())
    return any(word.lower() not in frame for word in phrase.split())


# One writer per file kind: (path, change, the hunk's unchanged lines, those of them above the change) → phrases.
_WRITERS: dict[str, Callable[[str, Change, list[str], Sequence[str]], list[str]]] = {
    "properties": _properties,
    "yaml": _yaml,
    "dockerfile": _dockerfile,
    "gradle": _gradle,
    "maven": _maven,
    "java": _java,
    "kotlin": _java,
}
