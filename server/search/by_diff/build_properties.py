"""Versions a build sets through properties rather than on the element that uses them: a pom's ``<properties>``
entry (``<log4j.version>2.17.1</log4j.version>``, used as ``${log4j.version}`` by a dependency or plugin), the
Java level of a pom (``java.version``, ``maven.compiler.release``, the compiler plugin's ``<source>``/``<target>``)
or of a Gradle script (``sourceCompatibility``, ``JavaLanguageVersion.of(21)``).

Real maintenance PRs bump versions this way more often than on the dependency itself, and the recipes that make
the edit (``UpgradeDependencyVersion`` of the coordinates that use the property,
``UpdateMavenProjectPropertyJavaVersion``) say so in their options, not in words a property line shares. Which
dependency a property versions is read from the pom lines the diff shows (added, removed or context, any hunk of
the same file); when none shows, the recipe is still offered with the version alone.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from ...diffs.words import XML_TAG

# The properties Maven projects set their Java level by: the list ``UpdateMavenProjectPropertyJavaVersion``'s
# documentation gives (the recipe that updates them), plus the compiler's own ``maven.compiler.testRelease``.
JAVA_PROPERTIES = frozenset(
    {
        "java.version",
        "jdk.version",
        "javaVersion",
        "jdkVersion",
        "maven.compiler.source",
        "maven.compiler.target",
        "maven.compiler.release",
        "release.version",
    }
)
# ``maven-compiler-plugin``'s configuration elements that set the level (``source``/``target`` → ``release``)
COMPILER_ELEMENTS = frozenset({"source", "target", "release"})
_PROPERTY_REF = re.compile(r"\$\{([\w.\-]+)\}")
# Gradle: ``sourceCompatibility = '17'``, ``JavaVersion.VERSION_17``,
# ``languageVersion.set(JavaLanguageVersion.of(21))``
_GRADLE_JAVA = re.compile(
    r"^\s*(?:java\.)?(?:(source|target)Compatibility\s*=?\s*\(?\s*(?:JavaVersion\.VERSION_)?['\"]?([\d._]+)"
    r"|.*languageVersion.*JavaLanguageVersion\.of\(\s*(\d+)\s*\))"
)


def java_level(value: str) -> str | None:
    """A Java level as the recipes' ``version`` option takes it (``1.8`` → ``8``, ``17`` → ``17``); None for
    anything else (a ``${property}``)."""
    value = value.strip().replace("_", ".")
    if value.startswith("1.") and value[2:].isdigit():
        return value[2:]
    return value if value.isdigit() else None


@dataclass(frozen=True)
class PropertyUse:
    """An element whose ``<version>`` is a ``${property}``: its tag and coordinates."""

    tag: str  # "dependency" or "plugin"
    group: str
    artifact: str


def property_uses(lines: Iterable[str]) -> dict[str, list[PropertyUse]]:
    """Per property, the dependencies and plugins whose ``<version>`` is ``${property}`` in these pom lines
    (one file's lines in order; an element cut by the hunk's edge is read as far as it shows)."""
    uses: dict[str, list[PropertyUse]] = {}
    tag: str | None = None
    fields: dict[str, str] = {}
    for line in lines:
        text = line.strip()
        for opened in ("dependency", "plugin"):
            if text.startswith(f"<{opened}>"):
                tag, fields = opened, {}
        match = XML_TAG.match(line)
        if match is not None and match.group(1) in {"groupId", "artifactId", "version"}:
            fields[match.group(1)] = match.group(2).strip()
        if text.startswith(("</dependency>", "</plugin>")) and tag is not None:
            ref = _PROPERTY_REF.fullmatch(fields.get("version", ""))
            if ref is not None and "artifactId" in fields:
                default = "org.apache.maven.plugins" if tag == "plugin" else ""
                use = PropertyUse(tag, fields.get("groupId", default), fields["artifactId"])
                if use not in uses.setdefault(ref.group(1), []):
                    uses[ref.group(1)].append(use)
            tag, fields = None, {}
    return uses


def _entries(lines: Iterable[str]) -> dict[str, str]:
    """The ``<name>value</name>`` lines among these (a property, or a compiler plugin's ``<release>``)."""
    out: dict[str, str] = {}
    for line in lines:
        match = XML_TAG.match(line)
        if match is not None:
            out[match.group(1)] = match.group(2).strip()
    return out


def changed_properties(removed: Sequence[str], added: Sequence[str]) -> dict[str, str]:
    """The version-like properties a hunk's lines set to a new value (name → new value): a name with a dot or
    ending in ``Version`` holding a value that starts with a digit, Java level properties apart. A property
    only added versions what is added with it (a dependency added), not a version change."""
    old, new = _entries(removed), _entries(added)
    return {
        name: value
        for name, value in new.items()
        if name in old
        and old[name] != value
        and name not in JAVA_PROPERTIES
        and ("." in name or name.endswith("Version"))
        and value[:1].isdigit()
    }


def maven_java_edit(removed: Sequence[str], added: Sequence[str]) -> tuple[str | None, bool]:
    """(the Java level a pom hunk moves to, whether it moves ``source``/``target`` to ``release``): from the
    Java level properties and the compiler plugin's elements the hunk sets."""
    old, new = _entries(removed), _entries(added)
    names = JAVA_PROPERTIES | COMPILER_ELEMENTS
    levels = {n: level for n, v in new.items() if n in names and old.get(n) != v and (level := java_level(v))}
    was = {n: java_level(v) for n, v in old.items() if n in names}
    level = next(iter(levels.values()), None)
    if level is not None and level in was.values() and set(levels) <= set(was):
        level = None  # the same level written again
    to_release = any(n.endswith(("source", "target")) for n in was) and not any(
        n.endswith(("source", "target")) for n in new
    )
    if to_release and level is None:
        level = next((v for n, v in was.items() if v), None)
    return level, to_release


def gradle_java_level(removed: Sequence[str], added: Sequence[str]) -> str | None:
    """The Java level a Gradle script hunk moves its compatibility or toolchain to (None: it does not)."""

    def levels(lines: Sequence[str]) -> set[str]:
        out = set()
        for line in lines:
            match = _GRADLE_JAVA.match(line)
            if match is not None and (level := java_level(match.group(2) or match.group(3) or "")):
                out.add(level)
        return out

    new = levels(added) - levels(removed)
    return max(new, key=int) if new else None
