"""Dependency and plugin edits of Maven and Gradle builds, read from the build file's structure: a dependency
added, removed, its version or configuration changed, swapped for another, moved into ``<dependencyManagement>``;
a plugin's version changed, on the element or through the pom property it uses (``build_properties``); an
``ext``/``extra`` property changed. Each shape has one catalog recipe that makes
it when given options (``maven.UpgradeDependencyVersion`` with groupId, artifactId, newVersion), and the edit
itself says those options.

These recipes have few examples and everybody's words (every build PR "upgrades a dependency version"), so the
example and words evidence rank them below the framework upgrades that bump the same lines, or not at all; yet
for an agent "this line is ``UpgradeDependencyVersion(org.assertj, assertj-core, 3.25.3)``" is the answer when
no specific recipe explains it. So each segment's build edit recipe joins its scores just below the
segment's best (``offer``): below a recipe that explains the same lines more specifically, above the rest and
above the free-text fallbacks (``generic``); and picking it leaves the segment to the specific recipes
(``pick``: ``BUILD_DECAY``), since it says what the lines do, not why.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from ...diffs.features import Change
from ...diffs.words import XML_TAG
from .build_properties import (
    MAVEN_PLUGIN_GROUP,
    PROPERTY_REF,
    PropertyUse,
    changed_properties,
    pom_properties,
    property_uses,
)
from .scoring import Match, top_score
from .split import Segment

# The one fixed table: which recipe makes each edit shape, per build kind. The catalog's option names say what a
# recipe needs (groupId, artifactId, newVersion) but not which edit it makes (``AddDependency`` and
# ``UpgradeDependencyVersion`` take the same coordinates), so the shape → recipe step is written down here; the
# options each hit suggests are then cut to the names the catalog lists for that recipe (``declared_only``).
RECIPES: dict[tuple[str, str], tuple[str, ...]] = {
    ("maven", "dependency-version"): ("org.openrewrite.maven.UpgradeDependencyVersion",),
    ("maven", "dependency-added"): ("org.openrewrite.maven.AddDependency",),
    ("maven", "dependency-removed"): ("org.openrewrite.maven.RemoveDependency",),
    ("maven", "dependency-changed"): ("org.openrewrite.maven.ChangeDependencyGroupIdAndArtifactId",),
    ("maven", "managed-added"): ("org.openrewrite.maven.AddManagedDependency",),
    ("maven", "managed-removed"): ("org.openrewrite.maven.RemoveManagedDependency",),
    ("maven", "version-removed"): ("org.openrewrite.maven.RemoveRedundantDependencyVersions",),
    ("maven", "plugin-version"): ("org.openrewrite.maven.UpgradePluginVersion",),
    ("maven", "plugin-added"): ("org.openrewrite.maven.AddPlugin",),
    ("maven", "plugin-removed"): ("org.openrewrite.maven.RemovePlugin",),
    ("maven", "parent-version"): ("org.openrewrite.maven.UpgradeParentVersion",),
    # a ``<properties>`` version no line of the diff uses: the recipe still makes it, told the coordinates
    ("maven", "property-version"): ("org.openrewrite.maven.UpgradeDependencyVersion",),
    ("gradle", "dependency-version"): ("org.openrewrite.gradle.UpgradeDependencyVersion",),
    ("gradle", "dependency-added"): ("org.openrewrite.gradle.AddDependency",),
    ("gradle", "dependency-removed"): ("org.openrewrite.gradle.RemoveDependency",),
    ("gradle", "dependency-changed"): ("org.openrewrite.gradle.ChangeDependency",),
    ("gradle", "dependency-configuration"): ("org.openrewrite.gradle.ChangeDependencyConfiguration",),
    ("gradle", "platform-added"): ("org.openrewrite.gradle.AddPlatformDependency",),
    # both documented to set a plugin's version in ``plugins {}``; the catalog keeps both
    ("gradle", "plugin-version"): (
        "org.openrewrite.gradle.plugins.UpgradePluginVersion",
        "org.openrewrite.gradle.plugins.ChangePluginVersion",
    ),
    ("gradle", "plugin-added"): ("org.openrewrite.gradle.plugins.AddBuildPlugin",),
    ("gradle", "plugin-removed"): ("org.openrewrite.gradle.plugins.RemoveBuildPlugin",),
    ("gradle", "extra-property"): ("org.openrewrite.gradle.ChangeExtraProperty",),
}
BUILD_EDIT_IDS = frozenset(rid for rids in RECIPES.values() for rid in rids)
# In a segment with a build edit, the recipe that makes it scores this share of the segment's best recipe (or
# its own evidence, if higher): just below a recipe that explains the same lines more specifically (a
# framework upgrade), above everything else the segment found. 0: not offered.
BUILD_SHARE = 0.999
# A build edit recipe picked leaves its segments' weight times this in the whole-diff pick (other recipes: the
# pick's ``COVERAGE_DECAY``): it makes the lines' edit, not what a specific recipe says about them.
BUILD_DECAY = 1.0
NEXT_EDIT = 0.99  # ... each further edit recipe of the same segment a little less: the order of its edits


@dataclass
class BuildEdit:
    """One edit of a build file: its shape and the option values that make it (the recipes' option names)."""

    shape: str
    options: dict[str, str] = field(default_factory=dict)
    note: str | None = None  # what the evidence says of it, where the options alone do not


# --- Maven ---------------------------------------------------------------------------------------------------

_BLOCKS = ("dependency", "plugin", "parent", "exclusion", "extension")


@dataclass
class _Block:
    """One ``<dependency>``/``<plugin>``/``<parent>`` element as one side of a hunk shows it."""

    tag: str | None  # None: its opening tag is above the hunk, its closing tag names it
    managed: bool
    fields: dict[str, str] = field(default_factory=dict)
    touched: bool = False  # holds a changed line

    @property
    def key(self) -> tuple[str, str] | None:
        artifact = self.fields.get("artifactId")
        if artifact is None:
            return None
        default = MAVEN_PLUGIN_GROUP if self.tag == "plugin" else ""
        return self.fields.get("groupId", default), artifact


# Whether a pom line is inside ``<dependencyManagement>``: that, and the indentation of its opening tag (None: not
# seen). A sibling element opened at that indentation or less (the project's own ``<dependencies>``) left it.
Managed = tuple[bool, int | None]
OUTSIDE: Managed = (False, None)


def managed_after(lines: Iterable[str], state: Managed = OUTSIDE) -> Managed:
    """The ``<dependencyManagement>`` state after these pom lines, from the state before them."""
    for line in lines:
        state = _step(line, state)
    return state


def _step(line: str, state: Managed) -> Managed:
    text = line.strip()
    indent = len(line) - len(line.lstrip())
    if text.startswith("<dependencyManagement>"):
        return True, indent
    if text.startswith("</dependencyManagement>"):
        return OUTSIDE
    inside, at = state
    if inside and at is not None and indent <= at and text.startswith("<") and not text.startswith("</"):
        return OUTSIDE
    return state


def _maven_blocks(lines: Sequence[str], changed: range, state: Managed) -> list[_Block]:
    """The blocks of one side of a hunk (the lines above, that side's changed lines, the lines below)."""
    blocks: list[_Block] = []
    stack: list[_Block] = []
    managed_above = state[0]
    at = changed.start  # where the change sits, also when this side of it has no lines
    for i, line in enumerate(lines):
        if i == at and stack:
            stack[-1].touched = True
        text = line.strip()
        state = _step(line, state)
        opened = next((tag for tag in _BLOCKS if text.startswith(f"<{tag}>")), None)
        if opened is not None:
            stack.append(_Block(opened, state[0]))
            blocks.append(stack[-1])
        match = XML_TAG.match(line)
        if match is not None and match.group(1) in {"groupId", "artifactId", "version", "scope", "type"}:
            if not stack:  # the element opened above the hunk
                stack.append(_Block(None, managed_above))
                blocks.append(stack[-1])
            stack[-1].fields[match.group(1)] = match.group(2).strip()
        if stack and i in changed:
            stack[-1].touched = True
        closed = next((tag for tag in _BLOCKS if text.startswith(f"</{tag}>")), None)
        if closed is not None and stack:
            block = stack.pop()
            block.tag = block.tag or closed
    if at >= len(lines) and stack:
        stack[-1].touched = True
    return [b for b in blocks if b.tag not in (None, "exclusion", "extension") and b.touched and b.key]


def _resolve(version: str | None, properties: Mapping[str, str]) -> str | None:
    """A literal version, or a ``${property}`` the PR sets (None when neither)."""
    if version is None:
        return None
    ref = PROPERTY_REF.fullmatch(version)
    if ref is None:
        return None if "$" in version else version
    return properties.get(ref.group(1))


def maven_edits(
    change: Change,
    above: Sequence[str],
    below: Sequence[str],
    properties: Mapping[str, str] = {},
    before: Managed = OUTSIDE,
) -> list[BuildEdit]:
    """The dependency, plugin and parent edits of one pom hunk, by comparing its elements before and after
    (``properties``: the pom's ``<properties>`` the PR sets, to read ``${x.version}``; ``before``: whether an
    earlier hunk of the file left ``<dependencyManagement>`` open, for when the lines above do not show)."""
    state = managed_after(above, before)
    old_lines = [*above, *change.removed, *below]
    new_lines = [*above, *change.added, *below]
    old = _maven_blocks(old_lines, range(len(above), len(above) + len(change.removed)), state)
    new = _maven_blocks(new_lines, range(len(above), len(above) + len(change.added)), state)
    old_by = {(b.tag, b.key): b for b in old}
    new_by = {(b.tag, b.key): b for b in new}
    edits: list[BuildEdit] = []
    gone = [b for k, b in old_by.items() if k not in new_by]
    came = [b for k, b in new_by.items() if k not in old_by]
    for k, b in new_by.items():
        was = old_by.get(k)
        if was is None or b.key is None:
            continue
        group, artifact = b.key
        coordinates = {"groupId": group, "artifactId": artifact}
        old_version, new_version = was.fields.get("version"), b.fields.get("version")
        if old_version is not None and new_version is None and b.tag == "dependency":
            edits.append(BuildEdit("version-removed", {"groupPattern": group, "artifactPattern": artifact}))
            continue
        if old_version == new_version or new_version is None:
            continue
        resolved = _resolve(new_version, properties)
        if resolved is None or resolved == _resolve(old_version, properties):
            continue  # a literal moved into a property of the same value: no version change
        edits.append(BuildEdit(f"{b.tag or 'dependency'}-version", {**coordinates, "newVersion": resolved}))
    swap = len(gone) == 1 and len(came) == 1 and gone[0].tag == came[0].tag == "dependency"
    if swap and not gone[0].managed and not came[0].managed and gone[0].key and came[0].key:
        options = {
            "oldGroupId": gone[0].key[0],
            "oldArtifactId": gone[0].key[1],
            "newGroupId": came[0].key[0],
            "newArtifactId": came[0].key[1],
        }
        if (version := _resolve(came[0].fields.get("version"), properties)) is not None:
            options["newVersion"] = version
        return [*edits, BuildEdit("dependency-changed", options)]
    # what the PR brings in first: a BOM imported in place of the entries it manages is an addition before a removal
    for verb, blocks in (("added", came), ("removed", gone)):
        for b in blocks:
            if b.key is None or b.tag == "parent":
                continue
            shape = f"{'managed' if b.managed and b.tag == 'dependency' else b.tag}-{verb}"
            options = {"groupId": b.key[0], "artifactId": b.key[1]}
            if verb == "added":
                if (version := _resolve(b.fields.get("version"), properties)) is not None:
                    options["version"] = version
                options.update({k: b.fields[k] for k in ("scope", "type") if k in b.fields})
            edits.append(BuildEdit(shape, options))
    return edits


# --- Gradle --------------------------------------------------------------------------------------------------

# ``implementation 'g:a:v'``, ``testImplementation("g:a")``, ``api(platform("g:a:v"))`` (a platform is not a
# plain dependency: left out)
_NOTATION = re.compile(r"^\s*(\w+)\s*\(?\s*['\"]([\w.\-]+):([\w.\-]+)(?::([^'\"@:]+))?['\"]")
_MAP_NOTATION = re.compile(
    r"^\s*(\w+)\s*\(?\s*group\s*[:=]\s*['\"]([\w.\-]+)['\"]\s*,\s*name\s*[:=]\s*['\"]([\w.\-]+)['\"]"
    r"(?:\s*,\s*version\s*[:=]\s*['\"]([^'\"]+)['\"])?"
)
_PLATFORM = re.compile(
    r"^\s*(\w+)\s*\(?\s*(?:enforcedPlatform|platform)\s*\(\s*['\"]([\w.\-]+):([\w.\-]+)(?::([^'\"@:]+))?['\"]"
)
_PLUGIN = re.compile(r"^\s*id\s*\(?\s*['\"]([\w.\-]+)['\"]\s*\)?(?:\s*version\s*\(?\s*['\"]([^'\"]+)['\"])?")
# ``extra["x"] = "v"``, ``set('x', "v")``, ``ext.x = 'v'``, ``ext { x = 'v' }`` (the last by the lines above)
_EXTRA = (
    re.compile(r"^\s*(?:project\.)?extra\s*\[\s*['\"]([\w.\-]+)['\"]\s*\]\s*=\s*['\"]([^'\"]*)['\"]"),
    re.compile(r"^\s*(?:project\.)?(?:ext\.)?set\s*\(\s*['\"]([\w.\-]+)['\"]\s*,\s*['\"]([^'\"]*)['\"]\s*\)"),
    re.compile(r"^\s*(?:project\.)?ext\.([\w]+)\s*=\s*['\"]([^'\"]*)['\"]"),
)
_EXT_ENTRY = re.compile(r"^\s*(\w+)\s*=\s*['\"]([^'\"]*)['\"]")
_EXT_OPEN = re.compile(r"^\s*(?:project\.)?ext\s*\{")
_NOT_CONFIGURATIONS = frozenset({"id", "platform", "enforcedPlatform", "classpath", "group", "version", "set"})


def _dependency(line: str) -> tuple[str, str, str, str | None] | None:
    """(configuration, group, artifact, version) of a dependency line; None for anything else."""
    for pattern in (_NOTATION, _MAP_NOTATION):
        match = pattern.match(line)
        if match is not None and match.group(1) not in _NOT_CONFIGURATIONS:
            version = match.group(4)
            return match.group(1), match.group(2), match.group(3), version
    return None


def _extra(line: str, in_ext: bool) -> tuple[str, str] | None:
    for pattern in _EXTRA:
        if (match := pattern.match(line)) is not None:
            return match.group(1), match.group(2)
    if in_ext and (match := _EXT_ENTRY.match(line)) is not None:
        return match.group(1), match.group(2)
    return None


def gradle_edits(change: Change, above: Sequence[str]) -> list[BuildEdit]:
    """The dependency, plugin and extra-property edits of one build script hunk, by matching the removed
    and added lines on what they declare (a coordinate, a plugin id, a property key)."""
    edits: list[BuildEdit] = []
    old = {(g, a): (c, v) for line in change.removed if (d := _dependency(line)) for c, g, a, v in [d]}
    new = {(g, a): (c, v) for line in change.added if (d := _dependency(line)) for c, g, a, v in [d]}
    for (group, artifact), (config, version) in new.items():
        coordinates = {"groupId": group, "artifactId": artifact}
        if (was := old.get((group, artifact))) is None:
            continue
        if config != was[0]:
            edits.append(
                BuildEdit(
                    "dependency-configuration", {**coordinates, "newConfiguration": config, "configuration": was[0]}
                )
            )
        if version and version != was[1] and "$" not in version:
            edits.append(BuildEdit("dependency-version", {**coordinates, "newVersion": version}))
    gone = [ga for ga in old if ga not in new]
    came = [ga for ga in new if ga not in old]
    if len(gone) == 1 and len(came) == 1:
        (og, oa), (ng, na) = gone[0], came[0]
        options = {"oldGroupId": og, "oldArtifactId": oa, "newGroupId": ng, "newArtifactId": na}
        if (version := new[came[0]][1]) and "$" not in version:
            options["newVersion"] = version
        edits.append(BuildEdit("dependency-changed", options))
    else:
        for ga in came:
            config, version = new[ga]
            options = {"groupId": ga[0], "artifactId": ga[1], "configuration": config}
            if version and "$" not in version:
                options["version"] = version
            edits.append(BuildEdit("dependency-added", options))
        for ga in gone:
            edits.append(BuildEdit("dependency-removed", {"groupId": ga[0], "artifactId": ga[1]}))
    old_platforms = {(m.group(2), m.group(3)) for line in change.removed if (m := _PLATFORM.match(line))}
    for line in change.added:
        if (m := _PLATFORM.match(line)) is not None and (m.group(2), m.group(3)) not in old_platforms:
            options = {"groupId": m.group(2), "artifactId": m.group(3), "configuration": m.group(1)}
            edits.append(BuildEdit("platform-added", {**options, **({"version": m.group(4)} if m.group(4) else {})}))
    old_plugins = {m.group(1): m.group(2) for line in change.removed if (m := _PLUGIN.match(line))}
    new_plugins = {m.group(1): m.group(2) for line in change.added if (m := _PLUGIN.match(line))}
    for plugin, version in new_plugins.items():
        if plugin not in old_plugins:
            options = {"pluginId": plugin, **({"version": version} if version else {})}
            edits.append(BuildEdit("plugin-added", options))
        elif version and version != old_plugins[plugin]:
            edits.append(BuildEdit("plugin-version", {"pluginIdPattern": plugin, "newVersion": version}))
    edits += [BuildEdit("plugin-removed", {"pluginId": p}) for p in old_plugins if p not in new_plugins]
    in_ext = bool(_ext_open(above))
    old_extra = dict(e for line in change.removed if (e := _extra(line, in_ext)))
    for line in change.added:
        if (entry := _extra(line, in_ext)) is not None and entry[0] in old_extra and old_extra[entry[0]] != entry[1]:
            edits.append(BuildEdit("extra-property", {"key": entry[0], "value": entry[1]}))
    return edits


def _ext_open(above: Sequence[str]) -> bool:
    """The lines above leave an ``ext {`` block open (braces counted from it)."""
    depth: int | None = None
    for line in above:
        if _EXT_OPEN.match(line):
            depth = 0
        if depth is not None:
            depth += line.count("{") - line.count("}")
            if depth <= 0 and not _EXT_OPEN.match(line):
                depth = None
    return depth is not None and depth > 0


# --- both ----------------------------------------------------------------------------------------------------


def build_edits(
    seg: Segment,
    properties: Mapping[str, str] = {},
    before: Managed = OUTSIDE,
    uses: Mapping[str, Sequence[PropertyUse]] = {},
) -> list[BuildEdit]:
    """The build edits of one segment (none outside Maven poms and Gradle build scripts). ``uses``: per
    property, the elements of the same pom whose version it is."""
    change = seg.change
    if change.deleted_file or change.new_file:
        return []
    if change.kind == "maven":
        edits = maven_edits(change, seg.lines_above, seg.lines_below, properties, before)
        return edits + property_edits(change.removed, change.added, uses)
    if change.kind == "gradle" and seg.file.endswith((".gradle", ".gradle.kts")):
        return gradle_edits(change, seg.lines_above)
    return []


# Read versions set through a pom's properties (False: only the elements' own versions).
PROPERTY_EDITS = True


def property_edits(
    removed: Sequence[str], added: Sequence[str], uses: Mapping[str, Sequence[PropertyUse]]
) -> list[BuildEdit]:
    """The edits of a pom hunk's property lines: a version property changed is the version of the dependencies
    and plugins that use it (without them, a dependency version told only the new version)."""
    edits: list[BuildEdit] = []
    for name, value in changed_properties(removed, added).items() if PROPERTY_EDITS else ():
        users = uses.get(name, ())
        for use in users:
            coordinates = {"groupId": use.group, "artifactId": use.artifact, "newVersion": value}
            edits.append(BuildEdit(f"{use.tag}-version", coordinates, note=f"${{{name}}} set to {value}"))
        if not users:
            note = f"property {name} set to {value}; no dependency in the diff uses it: give its coordinates"
            edits.append(BuildEdit("property-version", {"newVersion": value}, note=note))
    return edits


def segment_edits(segments: Sequence[Segment]) -> list[list[BuildEdit]]:
    """Each segment's build edits. A pom's segments are read in order, so a change deep inside
    ``<dependencyManagement>`` (its opening tag above the lines git shows) is still known as managed; the
    properties a PR's poms set resolve ``${x.version}``, and every line a pom shows (either side) says which
    elements use a property."""
    properties = pom_properties(s.change for s in segments if s.change.kind == "maven")
    shown: dict[str, list[str]] = {}
    for seg in segments:
        if seg.change.kind == "maven":
            lines = shown.setdefault(seg.file, [])
            # the new side first: a property's users after the PR lead its options
            lines += [*seg.lines_above, *seg.change.added, *seg.lines_below]
            lines += [*seg.lines_above, *seg.change.removed, *seg.lines_below]
    uses = {path: property_uses(lines) for path, lines in shown.items()}
    managed: dict[str, Managed] = {}
    out = []
    for seg in segments:
        before = managed.get(seg.file, OUTSIDE)
        out.append(build_edits(seg, properties, before, uses.get(seg.file, {})))
        if seg.change.kind == "maven" and seg.hunk:
            managed[seg.file] = managed_after([*seg.lines_above, *seg.change.added, *seg.lines_below], before)
    return out


def edit_recipes(kind: str, edits: Sequence[BuildEdit], known: Collection[str]) -> list[str]:
    """The recipes that make these edits, in the edits' order, once each; only ids the catalog has."""
    out: list[str] = []
    for edit in edits:
        for rid in RECIPES.get((kind, edit.shape), ()):
            if rid in known and rid not in out:
                out.append(rid)
    return out


def edit_options(recipe_id: str, kind: str, edits: Sequence[BuildEdit]) -> dict[str, str]:
    """The options of the first edit this recipe makes (empty when it makes none of them)."""
    for edit in edits:
        if recipe_id in RECIPES.get((kind, edit.shape), ()):
            return dict(edit.options)
    return {}


def declared_only(options: Mapping[str, str], declared: Collection[str]) -> dict[str, str]:
    """The options the catalog lists for the recipe (all of them when it lists none)."""
    return {k: v for k, v in options.items() if not declared or k in declared}


def offer(
    per_segment: list[dict[str, Match]],
    segments: Sequence[Segment],
    edits: Sequence[Sequence[BuildEdit]],
    known: Collection[str],
) -> set[tuple[int, str]]:
    """Each segment's build edit recipes join its scores at ``BUILD_SHARE`` of its best (in place); returns
    the (segment, recipe) pairs whose score that raised."""
    raised: set[tuple[int, str]] = set()
    if BUILD_SHARE <= 0:
        return raised
    for at, (scores, seg, seg_edits) in enumerate(zip(per_segment, segments, edits, strict=True)):
        kind = seg.change.kind
        rids = edit_recipes(kind, seg_edits, known)
        if not rids:
            continue
        score = BUILD_SHARE * top_score(scores)
        for n, rid in enumerate(rids):
            score *= NEXT_EDIT if n else 1.0  # the segment's first edit first (see ``edit_recipes``)
            match = scores.get(rid)
            if match is None:
                scores[rid] = Match(score, 0.0, None, [], _note(rid, kind, seg_edits))
            elif match.score < score:
                match.score = score
                match.phrase = match.phrase or _note(rid, kind, seg_edits)
            else:
                continue
            raised.add((at, rid))
    return raised


def _note(recipe_id: str, kind: str, edits: Sequence[BuildEdit]) -> str | None:
    """What the evidence says of the first edit this recipe makes, where its options alone do not."""
    return next((e.note for e in edits if recipe_id in RECIPES.get((kind, e.shape), ())), None)
