"""One phrase → extra variations in the catalog's vocabulary, by grammar.

An agent that sends one phrase often describes the concrete change the way a PR does ("guava bumped
from 32.1.2-jre to 33.0.0-jre in pom.xml", "logging.level.root in application.yml changed from INFO to WARN"), while the
recipe that makes it is named for the kind of edit ("Upgrade Maven dependency version", "Change property
value"). Several phrasings close that gap when an agent writes them; for one phrase this module writes them.

It reads the phrase the way ``server.diffs.words`` reads a hunk: the file named (its kind from ``file_kind``), the
edit's shape (a value changed from A to B, a key renamed, a key or tag added or removed) and the values
(keys, coordinates, versions). A changed value becomes a two-line hunk that ``server.diffs.words.describe`` puts into
words; the shapes it has no writer for get their phrase here. When the phrase names no file and no shape,
nothing is added and the search runs on the phrase alone.
"""

from __future__ import annotations

import re
from pathlib import PurePosixPath

from ..diffs.features import Change, file_kind
from ..diffs.words import describe, file_noun

_FILE = re.compile(
    r"(?<![\w.\-/])((?:[\w.\-]+/)*(?:[\w.\-]+\.(?:xml|gradle|kts|ya?ml|properties|toml|json|pom)"
    r"|Dockerfile|Containerfile|\.gitignore|\.dockerignore))(?![\w\-])"
)
_QUOTES = "`'\"“”‘’"
_VALUE = r"[`'\"“”‘’]?([^\s`'\"“”‘’,;]+)[`'\"“”‘’]?"
# "from A to B", "A -> B", "A changed to B", "A became B", "A replaced by / swapped for B"
_FROM_TO = re.compile(rf"\bfrom\s+{_VALUE}\s+(?:to|into)\s+{_VALUE}", re.IGNORECASE)
_ARROW = re.compile(rf"{_VALUE}\s*(?:->|→|=>)\s*{_VALUE}")
_BECAME = re.compile(
    rf"{_VALUE}\s+(?:(?:was|were|is|got|has been)\s+)?(?:changed|bumped|upgraded|updated|raised|moved|renamed|"
    rf"switched|became|becomes|replaced|swapped)\s+(?:to|by|for|with)?\s*{_VALUE}",
    re.IGNORECASE,
)
_RENAMED = re.compile(rf"\brenamed?\s+(?:the\s+)?(?:(?:top-level\s+)?key\s+)?{_VALUE}\s+to\s+{_VALUE}", re.IGNORECASE)
_CHANGED = re.compile(r"\b(changed|replaced|swapped|switched|moved|migrated)\b", re.IGNORECASE)
_METHOD = re.compile(r"\bmethods?\b", re.IGNORECASE)
_REMOVED = re.compile(r"\b(removed|deleted|dropped|drops|removes|deletes)\b", re.IGNORECASE)
_ADDED = re.compile(r"\b(added|adds|gains|gained|introduced|inserted)\b", re.IGNORECASE)
_TAG = re.compile(r"<([A-Za-z_][\w.\-]*)")
_KEY_VALUE = re.compile(r"(?<![\w.\-])([A-Za-z_][\w.\-]*[\w])\s*[=:]\s*([^\s,;]+)")
_COORDINATE = re.compile(r"(?<![\w.\-])([a-z][\w\-]*(?:\.[\w\-]+)+):([A-Za-z][\w.\-]*[\w])(?![\w:])")
_KEY = re.compile(r"(?<![\w.\-/<])([A-Za-z_][\w\-]*(?:[.\-][\w\-]+)+|[a-z]+[A-Z]\w*)(?![\w/])")
_VERSION = re.compile(r"^v?\d+(?:\.\d+)*(?:\.x)?(?:[-.][\w.\-]+)?$")


def _clean(value: str) -> str:
    return value.strip(_QUOTES + ".,;:()")


def _is_version(value: str) -> bool:
    return bool(_VERSION.match(value))


def _files(text: str) -> list[tuple[str, str]]:
    """The files named, each with its kind (``maven``, ``gradle``, ``yaml``, ...), in order, one per kind."""
    out: list[tuple[str, str]] = []
    for match in _FILE.finditer(text):
        path = match.group(1)
        kind = file_kind(path)
        if kind in {"text", "markdown"} and not path.endswith(("ignore",)):
            continue
        if all(kind != k for _, k in out):
            out.append((path, kind))
    return out


def _subject(before: str, files: list[tuple[str, str]]) -> str | None:
    """The key, coordinate or artifact the change is about: the last key-like word before the change."""
    names = {PurePosixPath(p).name for p, _ in files} | {p for p, _ in files}
    keys = [
        m.group(1)
        for m in _KEY.finditer(before)
        if m.group(1) not in names and not _is_version(m.group(1)) and not _FILE.fullmatch(m.group(1))
    ]
    coordinates = [f"{m.group(1)}:{m.group(2)}" for m in _COORDINATE.finditer(before)]
    if coordinates:
        return coordinates[-1]
    return keys[-1] if keys else None


def _change(text: str) -> tuple[str, str, int] | None:
    """The first "A to B" shape in the phrase: old value, new value and where it starts."""
    coordinates = list(_COORDINATE.finditer(text))
    if len(coordinates) >= 2 and _CHANGED.search(text):  # "g:a dependency swapped for g2:a2"
        return coordinates[0].group(0), coordinates[1].group(0), coordinates[0].start()
    for pattern in (_RENAMED, _FROM_TO, _ARROW, _BECAME):
        match = pattern.search(text)
        if match:
            old, new = _clean(match.group(1)), _clean(match.group(2))
            if old and new and old.lower() != new.lower():
                return old, new, match.start()
    return None


def _renamed(text: str, old: str) -> bool:
    """The change renames a key rather than changing its value."""
    return not _is_version(old) and bool(re.search(r"\brenam", text, re.IGNORECASE))


def _hunk(kind: str, subject: str | None, old: str, new: str) -> tuple[Change, list[str]] | None:
    """A two-line hunk (and its context) making the change in a file of ``kind``: what ``describe`` reads."""
    old_kv, new_kv = _KEY_VALUE.fullmatch(old), _KEY_VALUE.fullmatch(new)
    if old_kv and new_kv:  # "kotlinVersion=1.9.22 changed to kotlinVersion=2.0.0"
        subject, old, new = new_kv.group(1), old_kv.group(2), new_kv.group(2)
    tag = re.fullmatch(r"<([\w.\-]+)>([^<]*)</\1>", old)
    if tag:  # "<maven.compiler.release>11</maven.compiler.release> became 17"
        subject, old = tag.group(1), tag.group(2)
    if subject is None:
        return None
    if kind in {"properties", "yaml"}:
        sep = "=" if kind == "properties" else ":"
        return Change(kind, [f"{subject}{sep} {old}"], [f"{subject}{sep} {new}"]), []
    if kind == "maven" and _is_version(old) and _is_version(new):
        if tag:
            return Change(kind, [f"<{subject}>{old}</{subject}>"], [f"<{subject}>{new}</{subject}>"]), []
        artifact = subject.rsplit(":", 1)[-1]
        return Change(kind, ["<version>" + old + "</version>"], ["<version>" + new + "</version>"]), [
            f"<artifactId>{artifact}</artifactId>"
        ]
    if kind == "gradle" and ":" in subject and _is_version(old) and _is_version(new):
        return Change(kind, [f"implementation '{subject}:{old}'"], [f"implementation '{subject}:{new}'"]), []
    return None


def _own_phrases(
    text: str, files: list[tuple[str, str]], change: tuple[str, str, int] | None, described: bool
) -> list[str]:
    """Shapes ``describe`` has no writer for: a renamed key, a swapped coordinate, a version bump, a value
    changed, a key or tag added or removed. Named for the kind of edit and of file: a concrete value (an
    artifact, a tag) pulls recipes about that thing, so it is left out once a described phrase carries it."""
    out: list[str] = []
    kinds = [k for _, k in files]
    nouns = " and ".join(file_noun(k, p) for p, k in files)
    where = f" in {nouns}" if nouns else ""
    if change is not None:
        old, new, start = change
        old_coordinate, new_coordinate = _COORDINATE.fullmatch(old), _COORDINATE.fullmatch(new)
        subject = _subject(text[:start], files)
        if old_coordinate and new_coordinate:
            out.append(f"change dependency {old} to {new}{where}")
        elif _renamed(text, old):
            if not files and _METHOD.search(text[:start]):
                out.append(f"change method name {old} to {new}")
            elif "properties" in kinds:
                out.append(f"change property key {old} to {new} in {files[kinds.index('properties')][0]}")
            elif "yaml" in kinds:
                out.append(f"change YAML key {old} to {new}")
        elif any(k in {"properties", "yaml"} for k in kinds):
            if subject:
                out.append(f"change property value {subject}{where}")
        elif _is_version(old) and _is_version(new):
            named = f" {subject}" if subject and not described else ""
            out.append(f"upgrade dependency version{named} to {new}{where}")
    else:
        verb = "remove" if _REMOVED.search(text) else "add" if _ADDED.search(text) else None
        if verb is None or not files:
            return out
        path, kind = files[0]
        name = PurePosixPath(path).name
        if name in {".gitignore", ".dockerignore"}:
            out.append(f"{verb} entries {'from' if verb == 'remove' else 'to'} {name}")
        tag = _TAG.search(text)
        key_value = _KEY_VALUE.search(text)
        if name in {".gitignore", ".dockerignore"}:
            pass
        elif kind in {"xml", "maven"} and tag:
            out.append(f"{verb} XML tag {tag.group(1)} {'from' if verb == 'remove' else 'to'} XML file")
        elif kind in {"properties", "yaml"} and (key_value or _KEY.search(text)):
            key = key_value.group(1) if key_value else _subject(text, files) or ""
            what = "property" if kind == "properties" else "YAML key"
            out.append(f"{verb} {what} {key} {'from' if verb == 'remove' else 'to'} {name}")
    return out


def rewrite(text: str, limit: int = 2) -> list[str]:
    """Up to ``limit`` extra phrasings of ``text`` in the catalog's vocabulary; none when the phrase names
    no file and no recognizable edit."""
    if limit <= 0:
        return []
    files = _files(text)
    change = _change(text)
    phrases: list[str] = []
    if change is not None:
        old, new, start = change
        subject = _subject(text[:start], files)
        for path, kind in files if not _renamed(text, old) else []:
            hunk = _hunk(kind, subject, old, new)
            if hunk is not None:
                phrases += describe(path, hunk[0], hunk[1])[:1]
    phrases += _own_phrases(text, files, change, bool(phrases))
    seen = {text.lower()}
    out: list[str] = []
    for phrase in phrases:
        phrase = " ".join(phrase.split())
        if phrase.lower() not in seen:
            seen.add(phrase.lower())
            out.append(phrase)
    return out[:limit]


__all__ = ["rewrite"]
