"""What the catalog's upgrade recipes move, and to which version: the coordinate steps of each composite.

``UpgradeSpringBoot_3_3`` runs ``UpgradePluginVersion{pluginIdPattern: org.springframework.boot, newVersion:
3.3.x}``, ``UpgradeParentVersion{... spring-boot-starter-parent, 3.3.x}`` and a dozen more. A PR that moves one
of those coordinates to a version the step's pattern agrees with makes that upgrade's core change, whatever the
recipe's examples and words look like; one that moves it to another version is some other upgrade.
``upgrade_index`` reads these steps once per catalog snapshot (through sub-composites to ``DEPTH`` levels, a
composite's own step for a coordinate shadowing the older targets of the upgrades it chains), and
``segment_handles`` / ``agreements`` compare them with what a diff segment changes.
"""

from __future__ import annotations

import itertools
import re
from collections import defaultdict
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple

DEPTH = 3  # levels of sub-composites read below a recipe
VERSION_KEYS = ("newVersion", "version")
# what a step moves: the coordinate it upgrades, or the one it changes or adds a dependency to
COORDINATE_KEYS = ("groupId", "artifactId", "pluginIdPattern", "pluginId", "newGroupId", "newArtifactId")
# Words of group and artifact ids that say nothing about which library it is (``org.``, ``-bom``).
_GENERIC = frozenset(
    {"org", "com", "io", "net", "dev", "api", "core", "java", "main", "impl", "internal", "util", "bom", "parent"}
    | {"dependencies", "plugin", "starter", "maven", "gradle"}
)
_SPLIT = re.compile(r"[.:\-_]")
_NAME = re.compile(r"[a-z0-9][\w.\-]*[a-z0-9]")


@dataclass(frozen=True)
class VersionStep:
    """One step that moves something to a version: the handles a diff names it by, and the version pattern.

    ``handles`` are the step's full coordinates (``org.springframework.boot``, ``spring-boot-starter-parent``),
    and ``~`` plus the compacted words a version property is named after (``~springcloud`` for
    ``org.springframework.cloud:spring-cloud-dependencies``, as ``springCloudVersion`` says it)."""

    recipe: str
    handles: frozenset[str]
    version: str


@dataclass
class UpgradeIndex:
    steps: dict[str, tuple[VersionStep, ...]] = field(default_factory=dict)  # recipe → its version steps
    by_handle: dict[str, list[str]] = field(default_factory=dict)  # handle → recipes with a step it names
    holders: dict[VersionStep, int] = field(default_factory=dict)  # step → how many recipes run it


def _version(options: Mapping[str, Any]) -> str | None:
    """The version a step moves to, as a lower-case pattern (``3.3.x``, ``17``); None for ``latest.release``
    and other values that name no version."""
    for key in VERSION_KEYS:
        value = options.get(key)
        if isinstance(value, bool) or value is None:
            continue
        text = str(value).strip().lower()
        if text and text[0].isdigit() and " " not in text:
            return text
    return None


def _compact_words(name: str) -> set[str]:
    """``~`` handles of a coordinate: its non-generic words, alone and each with the next, run together."""
    parts = [p for p in _SPLIT.split(name.lower()) if p and p not in _GENERIC and not p.isdigit()]
    out = {"~" + p for p in parts}
    out.update("~" + a + b for a, b in itertools.pairwise(parts))
    return out


def version_step(recipe: str, options: Any) -> VersionStep | None:
    """The step as a ``VersionStep`` when it moves a coordinate it names to a version; None otherwise. A step
    naming no coordinate (``UpdateGradleWrapper{version: 7.x}``, ``UpgradeJavaVersion{version: 17}``) is left
    out: a Java level or wrapper version is shared by many upgrades of other things."""
    if not isinstance(options, dict) or (version := _version(options)) is None:
        return None
    # The step's most specific name: the artifact when it names one (a Maven parent's ``<version>`` line
    # shows the artifact, not the group), else the group or plugin id; its words for version properties.
    named = {k: str(v).strip().lower() for k in COORDINATE_KEYS if isinstance(v := options.get(k), str) and v.strip()}
    artifact = next((named[k] for k in ("newArtifactId", "artifactId") if "*" not in named.get(k, "*")), None)
    group = next((named[k] for k in ("pluginIdPattern", "pluginId", "newGroupId", "groupId") if k in named), None)
    primary = artifact or group
    handles: set[str] = set()
    if primary:
        if "*" not in primary:
            handles.add(primary)
        handles |= _compact_words(primary.replace("*", ""))
    return VersionStep(recipe, frozenset(handles), version) if handles else None


def _coordinate_key(step: VersionStep) -> frozenset[str]:
    """What a step sets: the same coordinate at a shallower level shadows it."""
    full = frozenset(h for h in step.handles if not h.startswith("~"))
    return full or step.handles


def upgrade_index(
    recipe_lists: Mapping[str, Sequence[Mapping[str, Any]]], keep: Collection[str] | None = None, depth: int = DEPTH
) -> UpgradeIndex:
    """Each recipe's version steps (the recipes in ``keep``, when given: those a search can return), read
    through its sub-composites to ``depth`` levels. A coordinate the recipe (or a shallower part) sets itself is
    not taken again from a deeper part: ``UpgradeSpringBoot_3_3`` moves Spring Boot to 3.3.x, not to the 3.2.x
    of the ``UpgradeSpringBoot_3_2`` it runs first."""
    own: dict[str, list[VersionStep]] = {}
    children: dict[str, list[str]] = {}
    for rid, listed in recipe_lists.items():
        own[rid] = [v for st in listed if (v := version_step(str(st.get("recipe_id")), st.get("options")))]
        children[rid] = [str(st.get("recipe_id")) for st in listed if st.get("recipe_id") in recipe_lists]
    out: dict[str, tuple[VersionStep, ...]] = {}
    for rid in recipe_lists:
        if keep is not None and rid not in keep:
            continue
        kept: list[VersionStep] = []
        seen_keys: set[frozenset[str]] = set()
        level, visited = [rid], {rid}
        for _ in range(depth + 1):
            found = [s for r in level for s in own.get(r, ())]
            keys = {_coordinate_key(s) for s in found}
            kept += [s for s in dict.fromkeys(found) if _coordinate_key(s) not in seen_keys and s not in kept]
            seen_keys |= keys
            level = [c for r in level for c in children.get(r, ()) if c not in visited]
            visited.update(level)
            if not level:
                break
        if kept:
            out[rid] = tuple(kept)
    by_handle: dict[str, list[str]] = defaultdict(list)
    holders: dict[VersionStep, int] = defaultdict(int)
    for rid, held in out.items():
        for handle in sorted({h for step in held for h in step.handles}):
            by_handle[handle].append(rid)
        for step in set(held):
            holders[step] += 1
    return UpgradeIndex(out, dict(by_handle), dict(holders))


def segment_handles(tokens: Iterable[str], phrases: Iterable[str]) -> set[str]:
    """What a segment names: its changed tokens and the names in its phrases (a Maven ``<version>`` line's
    artifact is in the words, not the line), ``~`` plus the library a version property is named after
    (``mockito.version`` → ``~mockito``, ``springCloudVersion`` → ``~springcloud``)."""
    out: set[str] = set()
    for token in tokens:
        low = token.lower()
        out.add(low)
        if low.endswith("version") and len(low) > len("version") + 1:
            stem = re.sub(r"[^a-z0-9]", "", low.removesuffix("version"))
            if stem:
                out.add("~" + stem)
    for phrase in phrases:
        out.update(_NAME.findall(phrase.lower()))
    return out


def agrees(pattern: str, added: Sequence[str]) -> bool:
    """A step's version pattern agrees with a version the segment moves to: ``3.3.x`` with 3.3.4, ``7.x``
    with 7.6.4, ``17`` with 17 (and 17.0.2)."""
    base = pattern.removesuffix(".x").removesuffix(".+").removesuffix(".*")
    return bool(base) and any(v == base or v.startswith(base + ".") for v in added)


class Agreement(NamedTuple):
    """What a recipe's steps named by a segment say about it: one moves it to a version the segment moves to
    (``agrees``), and the fewest recipes that run such a step (``holders``: an agreement many upgrades share
    says less about which one the PR is)."""

    agrees: bool
    holders: int = 0


def agreements(index: UpgradeIndex, handles: set[str], added: Sequence[str]) -> dict[str, Agreement]:
    """Per recipe with a step the segment names (``segment_handles``), what those steps say about it."""
    out: dict[str, Agreement] = {}
    if not added:
        return out
    candidates = {rid for h in handles for rid in index.by_handle.get(h, ())}
    for rid in sorted(candidates):
        named = [s for s in index.steps[rid] if s.handles & handles]
        agreeing = [s for s in named if agrees(s.version, added)]
        if not agreeing:
            out[rid] = Agreement(False)
            continue
        out[rid] = Agreement(True, min(index.holders.get(s, 1) for s in agreeing))
    return out
