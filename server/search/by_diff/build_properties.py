"""Versions a build sets through properties rather than on the element that uses them: a pom's ``<properties>``
entry (``<log4j.version>2.17.1</log4j.version>``, used as ``${log4j.version}`` by a dependency or plugin).

Real maintenance PRs bump versions this way more often than on the dependency itself, and the recipe that makes
the edit (``UpgradeDependencyVersion`` of the coordinates that use the property) says so in its options, not in
words a property line shares. Which dependency a property versions is read from the pom lines the diff shows
(added, removed or context, any hunk of the same file); when none shows, the recipe is still offered with the
version alone. The Java level properties (``java.version``, ``maven.compiler.release``) are the Java level's, not
a dependency's: the Java migrations already rank for those lines (offering ``UpdateMavenProjectPropertyJavaVersion``
for them measured no better on the fresh PR sets and cost the tune half, so it is not offered).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from ...diffs.features import Change
from ...diffs.words import XML_TAG

# The properties Maven projects set their Java level by (the list ``UpdateMavenProjectPropertyJavaVersion``'s
# documentation gives): a Java level, not a dependency's version.
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
# A ``<version>`` that is a property reference: ``${log4j.version}``.
PROPERTY_REF = re.compile(r"\$\{([\w.\-]+)\}")
# The groupId of a ``<plugin>`` that names none (Maven's own plugins).
MAVEN_PLUGIN_GROUP = "org.apache.maven.plugins"


def names_a_version(name: str) -> bool:
    """A property name a version goes by: dotted (``log4j.version``) or ending in ``Version``."""
    return "." in name or name.endswith("Version")


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
            ref = PROPERTY_REF.fullmatch(fields.get("version", ""))
            if ref is not None and "artifactId" in fields:
                default = MAVEN_PLUGIN_GROUP if tag == "plugin" else ""
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


def pom_properties(changes: Iterable[Change]) -> dict[str, str]:
    """The ``<properties>`` entries a PR's pom hunks add or change (``<picocli.version>4.7.5</picocli.version>``)."""
    out: dict[str, str] = {}
    for change in changes:
        out.update((name, value) for name, value in _entries(change.added).items() if names_a_version(name))
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
        and names_a_version(name)
        and value[:1].isdigit()
    }
