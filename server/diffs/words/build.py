"""Gradle builds and Maven poms in words: dependency and plugin versions, coordinates swapped, added or removed,
repositories, properties and the Java compatibility lines."""

from __future__ import annotations

import re
from collections.abc import Sequence

from ..features import Change, in_managed_section, pair_lines
from .common import _GENERIC, KEY_VALUE, XML_TAG, _coordinate, _head, strip_quotes, versions

# A Gradle build's Java compatibility lines (``sourceCompatibility``, ``targetCompatibility``, a toolchain's
# ``languageVersion``, ``jvmTarget``) changed: said as the catalog says it, "update Java compatibility".
JAVA_COMPATIBILITY = True
# A Gradle hunk's dependency edits: one of each kind (version upgrade, swap, addition, removal) first.
DEPENDENCY_TURNS = True
_PLUGIN = re.compile(r"\bid\s*\(?\s*['\"]([\w.\-]+)['\"]\s*\)?(?:\s*version\s*\(?\s*['\"]([^'\"]+)['\"])?")
_REPOSITORY = re.compile(r"^\s*(jcenter|mavenCentral|mavenLocal|google|gradlePluginPortal)\s*\(\)")
_COMPATIBILITY = re.compile(
    r"^\s*(?:java\.)?(?:sourceCompatibility|targetCompatibility|languageVersion|jvmTarget|release)\b|^\s*toolchain\s*\{"
)
_JAVA_CONSTANT = re.compile(r"VERSION_(\d+(?:_\d+)?)|JvmTarget\.JVM_(\d+(?:_\d+)?)")


def _likely_swap(
    gone: Sequence[tuple[str, str]], came: Sequence[tuple[str, str]]
) -> tuple[tuple[str, str], tuple[str, str]]:
    """The removed and added dependency most likely one replacing the other: the pair whose names share
    most words (``javax.validation:validation-api`` → ``jakarta.validation:jakarta.validation-api``), else
    the first of each."""

    def words(ga: tuple[str, str]) -> set[str]:
        return {w for w in re.split(r"[.:\-]", f"{ga[0]}:{ga[1]}") if w and w not in _GENERIC}

    return max(
        ((old, new) for old in gone for new in came),
        key=lambda pair: (len(words(pair[0]) & words(pair[1])), -gone.index(pair[0]), -came.index(pair[1])),
    )


def _compatibility(change: Change) -> str | None:
    """For a build script hunk that changes the Java compatibility lines: the level they move to ("" when
    the hunk does not say, e.g. the lines are only removed), else None. ``JavaVersion.VERSION_1_8`` reads
    as 1.8, ``JavaLanguageVersion.of(17)`` and ``'17'`` as 17."""
    lines = [line for line in change.removed + change.added if _COMPATIBILITY.match(line)]
    if not lines:
        return None
    old = {_compat_value(line) for line in change.removed} - {None}
    for line in change.added:
        value = _compat_value(line)
        if value is not None and value not in old:
            return value
    return ""


def _compat_value(line: str) -> str | None:
    if not _COMPATIBILITY.match(line):
        return None
    constant = _JAVA_CONSTANT.search(line)
    if constant:
        return (constant.group(1) or constant.group(2)).replace("_", ".")
    found = versions([line])
    return found[0] if found else None


def _gradle(path: str, change: Change, context: list[str], above: Sequence[str] = ()) -> list[str]:
    out: list[str] = []
    if JAVA_COMPATIBILITY and (level := _compatibility(change)) is not None:
        out.append(f"update Java compatibility {'to ' + level + ' ' if level else ''}in Gradle build")
    pairs, removed, added = pair_lines(change.removed, change.added)
    dep_removed = [c for line in change.removed if (c := _coordinate(line))]
    dep_added = [c for line in change.added if (c := _coordinate(line))]
    old_ga = {(g, a): v for g, a, v in dep_removed}
    new_ga = {(g, a): v for g, a, v in dep_added}
    upgrades = [
        f"upgrade Gradle dependency version {ga[0]}:{ga[1]} to {version}"
        for ga, version in new_ga.items()
        if ga in old_ga and version != old_ga[ga]
    ]
    came = [ga for ga in new_ga if ga not in old_ga]
    gone = [ga for ga in old_ga if ga not in new_ga]
    swaps = []
    if came and gone:
        old_dep, new_dep = _likely_swap(gone, came)
        swaps.append(f"change Gradle dependency {old_dep[0]}:{old_dep[1]} to {new_dep[0]}:{new_dep[1]}")
    adds = [f"add Gradle dependency {g}:{a}" for g, a in came[:2]]
    removes = [f"remove Gradle dependency {g}:{a}" for g, a in gone[:2]]
    if DEPENDENCY_TURNS:
        # Each kind of dependency edit once before any twice: a hunk bumping a dozen versions that also
        # swaps and drops a dependency says all three within the phrase budget.
        kinds = [upgrades, swaps, adds, removes]
        out += [kind[n] for n in range(max(map(len, kinds))) for kind in kinds if n < len(kind)]
    else:
        out += upgrades + swaps + adds + removes
    for old, new in pairs:
        if _coordinate(old) or _coordinate(new):
            continue
        plugin_old, plugin_new = _PLUGIN.search(old), _PLUGIN.search(new)
        if plugin_old and plugin_new:
            if plugin_old.group(1) == plugin_new.group(1):
                out.append(f"upgrade Gradle plugin version {plugin_new.group(1)} to {plugin_new.group(2) or ''}")
            else:
                out.append(f"change Gradle plugin {plugin_old.group(1)} to {plugin_new.group(1)}")
            continue
        head_old, head_new = _head(old), _head(new)
        if head_old and head_new and head_old != head_new:
            out.append(f"change {head_old} to {head_new} in Gradle build")
        elif head_new:
            kv = KEY_VALUE.match(new)
            value = strip_quotes(kv.group(2)) if kv else " ".join(new.split()[1:])
            out.append(f"change {head_new} to {value} in Gradle build")
    out += _gradle_lines(added, "add", "to")
    out += _gradle_lines(removed, "remove", "from")
    return out


def _gradle_lines(lines: Sequence[str], verb: str, place: str) -> list[str]:
    """Phrases for a build script's lines added (``add`` … ``to``) or removed (``remove`` … ``from``) without
    a counterpart: plugins, repositories, other blocks by their leading keyword (dependencies have their own
    phrases above)."""
    out: list[str] = []
    for line in lines:
        if _coordinate(line):
            continue
        plugin = _PLUGIN.search(line)
        if plugin:
            out.append(f"{verb} Gradle plugin {plugin.group(1)}")
        elif (repo := _REPOSITORY.match(line)) is not None:
            out.append(f"{verb} repository {repo.group(1)} {place} Gradle build")
        elif (head := _head(line)) is not None:
            out.append(f"{verb} {head} {place} Gradle build")
    return out


# A Maven dependency inside ``<dependencyManagement>`` (the lines above the change, or the added block, open it)
# is said as a managed dependency, as the catalog's managed-dependency recipes are named.
MANAGED = True


def _maven(path: str, change: Change, context: list[str], above: Sequence[str] = ()) -> list[str]:
    out: list[str] = []
    managed = "managed " if MANAGED and in_managed_section(above, change.added) else ""
    around = [line.strip() for line in context]
    artifact = next(
        (
            m.group(2)
            for line in reversed(context + change.added)
            if (m := XML_TAG.match(line)) and m.group(1) == "artifactId"
        ),
        None,
    )
    in_parent = any(line.startswith("<parent>") for line in around)
    pairs, removed, added = pair_lines(change.removed, change.added)
    for old, new in pairs:
        old_tag, new_tag = XML_TAG.match(old), XML_TAG.match(new)
        if not (old_tag and new_tag):
            continue
        tag, value = new_tag.group(1), new_tag.group(2).strip()
        if tag == "version":
            what = "parent" if in_parent else ("plugin" if "plugin" in (artifact or "") else "dependency")
            out.append(f"upgrade Maven {what} version {artifact or ''} to {value}")
        elif tag in {"groupId", "artifactId"}:
            out.append(f"change Maven {managed}dependency {tag} {old_tag.group(2)} to {value}")
        else:
            out.append(f"change Maven property {tag} value to {value}")
    tags = [m.group(1) if (m := XML_TAG.match(line)) else line.strip().strip("<>/") for line in added]
    for block in ("repository", "pluginRepository", "dependency", "plugin", "module", "exclusion"):
        if f"{block}" in tags:
            out.append(f"add Maven {managed if block == 'dependency' else ''}{block} to the pom")
    removed_tags = [line.strip().strip("<>/") for line in removed]
    for block in ("repository", "dependency", "plugin", "module"):
        if block in removed_tags:
            out.append(f"remove Maven {managed if block == 'dependency' else ''}{block} from the pom")
    if not out:
        for line in added[:2]:
            if (m := XML_TAG.match(line)) is not None:
                out.append(f"add Maven property {m.group(1)}")
    return out
