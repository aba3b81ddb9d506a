"""The Java version a build declares, read from its build files without running it.

Running a build on the wrong JDK is the most common reason OpenRewrite runs fail ("Unsupported class file
major version"), so the version is detected up front and a matching JDK chosen. The highest version any
declaration asks for wins: the build needs at least that JDK.
"""

from __future__ import annotations

import os
import re
import xml.etree.ElementTree as ET
from dataclasses import dataclass, field
from pathlib import Path

_SKIP_DIRS = frozenset({".git", ".gradle", "build", "target", "node_modules", "out", ".idea"})

_NUM = r"""['"]?(1[._]\d+|\d+)(?:\.0)?['"]?"""
_GRADLE_PATTERNS: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("toolchain languageVersion", re.compile(r"JavaLanguageVersion\s*\.\s*of\(\s*" + _NUM + r"\s*\)")),
    ("jvmToolchain", re.compile(r"\bjvmToolchain\(\s*(\d+)\s*\)")),
    ("release", re.compile(r"\brelease(?:\s*=\s*|\.set\(\s*|\s+)" + _NUM)),
    (
        "compatibility",  # reported as the property written: sourceCompatibility or targetCompatibility
        re.compile(
            r"\b(?:source|target)Compatibility(?:\s*=\s*|\.set\(\s*|\s+)"
            r"(?:JavaVersion\.VERSION_(1_\d+|\d+)|JavaVersion\.toVersion\(\s*" + _NUM + r"\s*\)|" + _NUM + r")"
        ),
    ),
    ("JavaVersion", re.compile(r"\bJavaVersion\.VERSION_(1_\d+|\d+)\b")),
)
_COMMENTS = re.compile(r"/\*.*?\*/|(?:^|(?<=\s))//[^\n]*", re.S)

_MAVEN_PROPERTIES = (
    "maven.compiler.release",
    "maven.compiler.source",
    "maven.compiler.target",
    "java.version",
)


@dataclass
class JavaRequirement:
    version: int | None
    evidence: list[str] = field(default_factory=list)


def normalize_version(text: str) -> int | None:
    """``"1.8"``/``"1_8"``/``"8"``/``"17.0.2"`` → 8/8/8/17; anything else → None."""
    text = text.strip().strip("'\"")
    m = re.match(r"^1[._](\d+)", text)
    if m:
        return int(m.group(1))
    m = re.match(r"^(\d+)", text)
    if m:
        value = int(m.group(1))
        return value if 5 <= value <= 99 else None
    return None


def _walk(root: Path, names: tuple[str, ...], max_depth: int = 4) -> list[Path]:
    found: list[Path] = []
    for dirpath, dirnames, filenames in os.walk(root):
        rel_depth = len(Path(dirpath).relative_to(root).parts)
        dirnames[:] = sorted(d for d in dirnames if d not in _SKIP_DIRS and rel_depth < max_depth)
        found.extend(Path(dirpath) / f for f in sorted(filenames) if f in names)
    return found


def _blank(m: re.Match[str]) -> str:
    """Drop a comment but keep its newlines, so reported line numbers stay right."""
    return "\n" * m.group(0).count("\n")


def _gradle_versions(path: Path, root: Path) -> list[tuple[int, str]]:
    try:
        text = _COMMENTS.sub(_blank, path.read_text(encoding="utf-8", errors="replace"))
    except OSError:
        return []
    hits: list[tuple[int, str]] = []
    seen: set[tuple[int, int]] = set()  # (line, version): one declaration can match two patterns
    for label, pattern in _GRADLE_PATTERNS:
        for m in pattern.finditer(text):
            raw = next((g for g in m.groups() if g), None)
            version = normalize_version(raw) if raw else None
            line = text.count("\n", 0, m.start()) + 1
            if version is not None and (line, version) not in seen:
                seen.add((line, version))
                if label == "compatibility":
                    label_text = re.match(r"\w+", m.group(0))
                    shown = label_text.group(0) if label_text else label
                else:
                    shown = label
                hits.append((version, f"{path.relative_to(root)}:{line}: {shown} {version}"))
    return hits


def _local(tag: str) -> str:
    return tag.rsplit("}", 1)[-1]


def _maven_versions(path: Path, root: Path) -> list[tuple[int, str]]:
    try:
        tree = ET.parse(path)
    except (ET.ParseError, OSError):
        return []
    project = tree.getroot()
    props: dict[str, str] = {}
    for el in project:
        if _local(el.tag) == "properties":
            props = {_local(p.tag): (p.text or "").strip() for p in el}

    def resolve(value: str) -> str:
        for _ in range(5):
            m = re.fullmatch(r"\$\{([^}]+)\}", value.strip())
            if not m or m.group(1) not in props:
                break
            value = props[m.group(1)]
        return value

    rel = path.relative_to(root)
    hits: list[tuple[int, str]] = []
    for name in _MAVEN_PROPERTIES:
        if name in props:
            version = normalize_version(resolve(props[name]))
            if version is not None:
                hits.append((version, f"{rel}: <{name}>{props[name]}</{name}>"))
    for plugin in project.iter():
        if _local(plugin.tag) != "plugin":
            continue
        artifact = next((c.text for c in plugin if _local(c.tag) == "artifactId"), None)
        if artifact != "maven-compiler-plugin":
            continue
        for el in plugin.iter():
            if _local(el.tag) in {"release", "source", "target"} and el.text:
                version = normalize_version(resolve(el.text))
                if version is not None:
                    hits.append((version, f"{rel}: maven-compiler-plugin <{_local(el.tag)}>{el.text.strip()}"))
    return hits


def _requirement(hits: list[tuple[int, str]]) -> JavaRequirement:
    if not hits:
        return JavaRequirement(None, [])
    evidence = list(dict.fromkeys(text for _, text in hits))
    return JavaRequirement(max(v for v, _ in hits), evidence)


def gradle_java_requirement(project: Path) -> JavaRequirement:
    """The highest Java version the Gradle build files of ``project`` declare (convention plugins included)."""
    hits: list[tuple[int, str]] = []
    for path in _walk(project, ("build.gradle", "build.gradle.kts", "settings.gradle", "settings.gradle.kts")):
        hits.extend(_gradle_versions(path, project))
    for conv in (project / "buildSrc", project / "gradle"):
        if conv.is_dir():
            for path in conv.rglob("*.gradle*"):
                if "build" not in path.relative_to(conv).parts[:1]:
                    hits.extend(_gradle_versions(path, project))
    return _requirement(hits)


def maven_java_requirement(project: Path) -> JavaRequirement:
    """The highest Java version the POMs of ``project`` declare."""
    hits: list[tuple[int, str]] = []
    for path in _walk(project, ("pom.xml",)):
        hits.extend(_maven_versions(path, project))
    return _requirement(hits)
