"""What every writer of ``words`` shares: the phrase limits, the patterns of versions, coordinates, imports,
XML tags and key/value lines, and the small readers built on them (a line's head, a file's noun, the
versions a change moves to). Lines are paired by ``features.pair_lines``, the rule the diff search's
substitution tokens use too."""

from __future__ import annotations

import re
from collections.abc import Iterable
from pathlib import PurePosixPath

from ..features import Change, camel_parts, head_as_written

MAX_PHRASES = 4  # per hunk: the most specific first
MAX_PHRASE_CHARS = 160  # a long value (a YAML string, a URL) would drown the words around it
_VERSION = re.compile(r"(?<![\w.])v?(\d+(?:[._]\d+)*)(?:[-.+][A-Za-z][\w.\-]*)?(?![\w])")
_COORDINATE = re.compile(r"['\"]([\w.\-]+):([\w.\-]+)(?::([\w.\-${}]+))?['\"]")
_IMPORT = re.compile(r"^\s*import\s+(static\s+)?([\w.]+?)(?:\.\*)?\s*;")
# One XML element on one line (``<version>1.2</version>``): its tag and text.
XML_TAG = re.compile(r"^\s*<([\w.\-]+)>([^<]*)</\1>")
# A ``key=value`` or ``key: value`` line (properties, YAML, a Gradle assignment): its key and raw value.
KEY_VALUE = re.compile(r"^\s*-?\s*([\w.\-\[\]]+)\s*[:=]\s*(.*)$")


def _head(line: str) -> str | None:
    """The line's leading keyword as written, camel case spoken as words (``sourceCompatibility`` →
    ``source compatibility``): recipe descriptions use words, build files use identifiers."""
    word = head_as_written(line)
    if word is None or len(word) < 2:
        return None
    if "." in word or "-" in word or "_" in word:
        return word
    parts = camel_parts(word)
    if len(parts) < 2 or any(len(p) < 2 for p in parts):  # ``useJUnit`` stays as written
        return word
    return " ".join(p.lower() for p in parts)


def file_noun(kind: str, path: str) -> str:
    """How the docs name the file the hunk is in."""
    low = path.lower()
    if kind == "yaml" and ".github/workflows/" in low:
        return "GitHub Actions workflow"
    return {
        "gradle": "Gradle build",
        "maven": "Maven pom",
        "properties": "properties file",
        "yaml": "YAML file",
        "dockerfile": "Dockerfile",
        "java": "Java code",
        "kotlin": "Kotlin code",
        "xml": "XML file",
        "json": "JSON file",
        "markdown": "text file",
        "text": "text file",
    }.get(kind, f"{kind} file")


def versions(lines: Iterable[str]) -> list[str]:
    """Version-like numbers on the lines (``8.1`` of ``gradle-8.1-bin.zip``, ``17``, ``3.0.0-M2`` → 3.0.0),
    in order, each once."""
    out: list[str] = []
    for line in lines:
        for match in _VERSION.finditer(line):
            value = match.group(1).replace("_", ".")
            if value not in out and len(value) <= 12:
                out.append(value)
    return out


def new_versions(change: Change) -> list[str]:
    """Versions on the change's added lines that its removed lines do not have: what it moves to."""
    old = set(versions(change.removed))
    return [v for v in versions(change.added) if v not in old]


def strip_quotes(value: str) -> str:
    """A ``KEY_VALUE`` value as the key holds it: without the quotes and the trailing ``,`` or ``;`` of
    the syntax around it (YAML, Groovy, a JSON-ish list)."""
    return value.strip().strip(",;").strip().strip("'\"")


def _file_words(path: str) -> str:
    """``gradle/wrapper/gradle-wrapper.properties`` → ``gradle wrapper``."""
    stem = PurePosixPath(path).name.split(".", 1)[0]
    return " ".join(part for part in re.split(r"[-_.]", stem) if part)


def _java_level(change: Change) -> str | None:
    """The Java version a build or CI file moves to: a changed line that names Java (or the JDK) and adds
    a version number."""
    for line in change.added:
        low = line.lower()
        if ("java" in low or "jdk" in low) and not _COORDINATE.search(line):
            new = [v for v in versions([line]) if v not in versions(change.removed)]
            if new:
                return new[0]
    return None


def _coordinate(line: str) -> tuple[str, str, str | None] | None:
    match = _COORDINATE.search(line)
    if not match or ("." not in match.group(1) + match.group(2) and not match.group(3)):
        return None
    return match.group(1), match.group(2), match.group(3)


# Words of package and group names that say nothing about which library it is.
_GENERIC = frozenset({"org", "com", "io", "net", "dev", "api", "core", "java", "main", "impl", "internal", "util"})
