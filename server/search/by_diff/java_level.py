"""The Java level as one concern: a PR that moves the project's Java version in its build files, CI and images.

Per segment the diff search sees a ``<java.version>`` line, a ``java-version:`` line and a ``FROM`` tag, and ranks
for each what resembles it; the catalog says more. Its ``UpgradeBuildToJava17`` runs one recipe with ``version:
17`` (the level setter, ``UpgradeJavaVersion``), and the setter's own steps are the build tool's recipes that write
the level (``UpdateMavenProjectPropertyJavaVersion`` for a pom, ``UpdateJavaCompatibility`` for a Gradle script:
their examples' file kinds say which). So the concern is read from the catalog once per snapshot
(``level_recipes``), and the diff's level move once per PR (``level_moves``):

- a segment moves the level where a pom's level properties or compiler elements, a line naming Java with a new
  version (a Gradle script, CI's ``java-version``, an action's own ``@v4`` apart) or a JDK image's tag
  (``image_level``: ``eclipse-temurin:17-jre`` → ``21-jre``) move to a level none of its removed lines has;
- a build file segment that moves the level offers the setter's step for its file kind that changes the names the
  segment changes (versions aside) and that its own evidence ranks best (where no step changes them, a Gradle
  toolchain, the setter itself); a pom segment that swaps ``source``/``target`` for ``release`` also offers the
  step whose examples add what it adds. Each is offered just
  below the segment's best recipe, its one-recipe namesake in another package right after it (``offer``): the
  recipes that write the lines, told ``version: N``; then the setter (it runs every build tool's step and the JDK
  image's, so a PR moving the level is its change too); after them the migrations to that level, the composites
  running its ``UpgradeBuildToJavaN`` preset (``UpgradeToJava17``, ``Java8toJava11``). Where the segment's best
  recipe is a composite running the step or the setter (``UpgradeBuildToJava17``), they tie it instead: the pick
  leaves a segment open for the recipes a composite it picked there runs, at the segment's top only. The setter
  and the ties only where the PR moves the level beyond its build files too (a JDK image, CI, the docs): moved in
  a build file alone, the level is its step's change;
- a pom moves the level through its level properties and compiler elements only (a comment naming the JDK beside
  an added dependency moves none), a Gradle script through any line naming Java with a new level, its
  ``JavaVersion.VERSION_17`` constants read as the level they name;
- a step whose examples only rewrite names they also remove (an updater: ``UpdateMavenProjectPropertyJavaVersion``)
  is not offered, and its own evidence is weighed down, in a segment removing none of its names: a pom adding
  ``<maven.compiler.release>`` where ``<source>``/``<target>`` were has no property for it to rewrite, and the release
  configuration step is that change; a step whose own evidence ranks it above its offer in a segment moving the
  level is picked as a build edit all the same (it leaves the segment open for its namesake and the setter);
- a diff that moves no Java level anywhere weighs the setter, its build file steps, their namesakes and the
  composites presetting the setter down (``unmoved``), the steps offered for a ``release`` swap apart: a pom whose
  plugin versions change resembles their examples, but they would write a line the PR does not touch.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Collection, Sequence
from dataclasses import dataclass, field

from ...diffs.features import Change, looks_like_version
from ...diffs.words import from_image, image_parts
from ...diffs.words.common import XML_TAG, _java_level
from .build_properties import JAVA_PROPERTIES
from .catalog import ExampleSnapshot
from .memo import last_result
from .scoring import Match, top_score
from .split import Segment
from .umbrella import list_sizes

# A Dockerfile moves the level through its JDK image's tag (``image_level``); off: as any file, by ``words``.
IMAGE_LEVEL = True
JAVA_LEVEL = True  # offer the build tool's level recipe where a build file moves the level (``offer``)
# Where no segment moves a Java level, the concern's recipes keep this share of their scores (1: left alone).
UNMOVED = 0.5
# A build file segment moving the level in lines none of the setter's steps changes offers the setter itself.
SETTER_WHERE_NO_STEP = True
SHARE = 0.999  # an offered recipe's score: this share of the segment's best (as a build edit's, ``build_edits``)
NAMESAKE = 0.99  # ... its namesake in another package, this share of that
# A build file moving the level to N is a migration to Java N: the composites running the level's preset
# (``UpgradeToJava17`` runs ``UpgradeBuildToJava17``) are offered after its steps; picked, one covers the segment
# as any recipe does (not as a build edit, which leaves it open for the next).
MIGRATION = True
# A build file segment moving the level offers the setter too, below its step (the setter runs every build tool's
# step and the JDK image's: the labels of a level move name it beside the step), as a build edit in the pick.
SETTER = True
# Where a composite running an offered recipe is the segment's best (``UpgradeBuildToJava17`` over
# ``UpdateJavaCompatibility``), the offered recipe ties it: picked, the composite leaves the segment open for the
# recipes it runs (``pick.MEMBERS_KEEP`` exempts a member only at the segment's top).
RUN_BY_BEST = True
# ... both only where the PR moves the level beyond its build files too (a JDK image, CI, the docs): the setter is
# the recipe that moves it everywhere, while a level line moved in a build file alone is its step's change (and one
# of many a framework upgrade's pom makes, which the composite that leads the segment already stands for).
BEYOND_BUILD = True
BUILD_KINDS = frozenset({"maven", "gradle"})
# A pom sets the level through its level properties and compiler elements only: a comment added beside a dependency
# (``<!-- JAXB left the JDK in 11 -->``) names Java and a number but moves nothing (off: any line naming Java, as
# in a Gradle script or CI).
POM_LEVEL_LINES_ONLY = True
# A step whose examples add no name they do not also remove (``UpdateMavenProjectPropertyJavaVersion`` rewrites the
# value of a level property the pom has) is offered only where the segment removes a name it changes: a pom that
# adds ``<maven.compiler.release>`` where ``<source>``/``<target>`` were is the release configuration's change, and
# the updater's own evidence there (the same property names) is weighed down by this share.
UPDATER_NEEDS_OLD_LINE = True
UPDATER_WITHOUT_OLD_LINE = 0.5
# A step its own evidence ranks above its offer in a segment moving the level is picked as a build edit still: it
# writes the segment's level line and leaves the segment open for its namesake, the setter and the migration, which
# the labels of a level move name beside it (off: picked on its own evidence, it covers the segment).
OWN_STEP_LEAVES_OPEN = True
# The compiler plugin's elements that set the level where a pom sets none of the ``JAVA_PROPERTIES``.
COMPILER_ELEMENTS = frozenset({"release", "source", "target", "testRelease", "testSource", "testTarget"})
_NUMBER = re.compile(r"(?<![\d.])(?:1\.)?\d+(?![\d])")
# A word naming Java, a JDK or a JRE in an image reference, and the level written right after it.
_JDK_WORD = re.compile(r"(?:java|jdk|jre)", re.IGNORECASE)
_AFTER_JDK_WORD = re.compile(r"(?:java|jdk|jre)[-_]?(\d+)(?![\d.])", re.IGNORECASE)
# A reference's version (``uses: actions/setup-java@v4``): the action's, set apart before a level is read.
_REF = re.compile(r"@[\w.\-]+")
_LEADING = re.compile(r"^(\d+)(?![\d])")
# Gradle's ``JavaVersion`` constants name a level with underscores (``VERSION_17``, ``VERSION_1_8``): read as the
# level they name (off: a Gradle script moving ``VERSION_11`` to ``VERSION_17`` moves no level).
GRADLE_CONSTANTS = True
_GRADLE_CONSTANT = re.compile(r"\bVERSION_(?:1_)?(\d+)\b")


def as_level(value: str) -> str | None:
    """A Java level as the recipes' ``version`` option takes it (``1.8`` → ``8``, ``17`` → ``17``); None for
    anything else (a ``${property}``)."""
    value = value.strip().strip("'\"")
    if value.startswith("1.") and value[2:].isdigit():
        return value[2:]
    return value if value.isdigit() else None


def _pom_levels(lines: Sequence[str]) -> set[str]:
    """The Java levels a pom's lines set, through the level properties or the compiler's elements."""
    out = set()
    for line in lines:
        match = XML_TAG.match(line)
        named = match is not None and (match.group(1) in JAVA_PROPERTIES or match.group(1) in COMPILER_ELEMENTS)
        if match is not None and named and (level := as_level(match.group(2))) is not None:
            out.add(level)
    return out


def image_level(line: str) -> str | None:
    """The JDK level of a ``FROM`` line's image, read from the reference's structure: the number written right
    after a word naming Java, a JDK or a JRE (``openjdk-17``, ``openjdk11``, ``maven:3.6-jdk-11``,
    ``distroless/java17``), else the leading number of the tag of an image naming one (``eclipse-temurin:21-jre``,
    ``openjdk:11``); None for an image that names none (``node:20``, ``postgres:16``)."""
    image = from_image(line)
    if image is None:
        return None
    name, tag = image_parts(image)
    tag = tag or ""
    if (after := _AFTER_JDK_WORD.search(f"{name}:{tag}")) is not None:
        return after.group(1)
    leading = _LEADING.match(tag)
    if leading is not None and _JDK_WORD.search(f"{name}:{tag}"):
        return leading.group(1)
    return None


def segment_level(change: Change) -> str | None:
    """The Java level a build, CI or container segment moves to (None: it moves none). A pom's level properties
    and compiler elements are read as such; elsewhere a changed line naming Java or the JDK with a new version
    (``words``' reader, which the PR-level "migrate to Java N" uses too)."""
    if change.kind in {"java", "kotlin"} or change.deleted_file or change.new_file:
        return None
    if change.kind == "maven":
        new = _pom_levels(change.added) - _pom_levels(change.removed)
        if new or POM_LEVEL_LINES_ONLY:
            return max(new, key=int) if new else None
    if change.kind == "dockerfile" and IMAGE_LEVEL:
        images = {level for line in change.added if (level := image_level(line)) is not None}
        images -= {level for line in change.removed if (level := image_level(line)) is not None}
        return max(images, key=int) if images else None
    if change.kind == "gradle" and GRADLE_CONSTANTS:
        change = Change(change.kind, _constants(change.removed), _constants(change.added))
    if any("@" in line for line in change.added + change.removed):
        # ``actions/setup-java@v4`` names Java with the action's version, not the level
        change = Change(change.kind, [_REF.sub("", x) for x in change.removed], [_REF.sub("", x) for x in change.added])
    level = _java_level(change)
    level = as_level(level) if level is not None else None
    if level is None:
        return None
    # ``VERSION_17`` removed and ``JavaLanguageVersion.of(17)`` added keep the level: any number of the
    # removed lines counts, not only a version-like one
    before = {as_level(m) for line in change.removed for m in _NUMBER.findall(line)}
    return None if level in before else level


def _constants(lines: Sequence[str]) -> list[str]:
    """Gradle script lines with each ``JavaVersion`` constant written as the level it names (``VERSION_1_8`` →
    ``VERSION 8``), so the level reader sees a version where the constant names one."""
    return [_GRADLE_CONSTANT.sub(r"VERSION \1", line) for line in lines]


def level_moves(segments: Sequence[Segment]) -> dict[int, str]:
    """Segment index → the Java level it moves to, for the segments that move one."""
    return {n: level for n, s in enumerate(segments) if (level := segment_level(s.change)) is not None}


@dataclass
class LevelRecipes:
    """The catalog's Java level concern: the setter(s), per build file kind the setter's steps whose examples are
    of that kind, the composites presetting a setter, and each recipe's one-step namesakes."""

    setters: frozenset[str] = frozenset()
    steps: dict[str, tuple[str, ...]] = field(default_factory=dict)  # file kind → steps
    presets: dict[str, str] = field(default_factory=dict)  # composite → the level it presets
    # level → the migrations to it: the composites running its preset (``UpgradeToJava17``, ``Java8toJava11``)
    migrations: dict[str, tuple[str, ...]] = field(default_factory=dict)
    namesakes: dict[str, tuple[str, ...]] = field(default_factory=dict)
    # step → the names (versions aside) its examples change, and those only their added side has
    names: dict[str, frozenset[str]] = field(default_factory=dict)
    adds: dict[str, frozenset[str]] = field(default_factory=dict)
    # concern recipe → every composite that runs it (the catalog's ``ancestors``)
    runners: dict[str, frozenset[str]] = field(default_factory=dict)

    def all(self) -> frozenset[str]:
        out = set(self.setters) | {r for rids in self.steps.values() for r in rids} | set(self.presets)
        return frozenset(out | {w for r in out for w in self.namesakes.get(r, ())})


@last_result
def level_recipes(snap: ExampleSnapshot) -> LevelRecipes:
    """The Java level concern of the catalog (once per snapshot): a setter is the recipe a one-step composite runs
    with a single integer option equal to the number its own id ends in ``Java`` with (``UpgradeBuildToJava17``
    → ``UpgradeJavaVersion`` with 17)."""
    presets: dict[str, str] = {}
    for composite, (_step, values) in snap.presets.items():
        if len(values) == 1 and values[0].isdigit() and composite.rsplit(".", 1)[-1].endswith(f"Java{values[0]}"):
            presets[composite] = values[0]
    setters = frozenset(snap.presets[c][0] for c in presets)
    children: dict[str, list[str]] = defaultdict(list)
    for child, parents in snap.parents.items():
        for parent in parents:
            children[parent].append(child)
    kinds: dict[str, set[str]] = defaultdict(set)
    names: dict[str, set[str]] = defaultdict(set)
    adds: dict[str, set[str]] = defaultdict(set)
    for ex, kind in zip(snap.examples, snap.kinds, strict=True):
        kinds[ex.recipe_id].add(str(kind))
        changed, added = _names(ex.change)
        names[ex.recipe_id] |= changed
        adds[ex.recipe_id] |= added
    steps: dict[str, list[str]] = defaultdict(list)
    for setter in sorted(setters):
        for child in sorted(set(children.get(setter, ()))):
            for kind in kinds.get(child, set()) & BUILD_KINDS:
                steps[kind].append(child)
    sizes = list_sizes(snap)
    concern = set(setters) | {r for rids in steps.values() for r in rids}
    namesakes = {
        rid: tuple(
            sorted(
                p
                for p in set(snap.parents.get(rid, ()))
                if sizes.get(p) == 1 and p.rsplit(".", 1)[-1] == rid.rsplit(".", 1)[-1]
            )
        )
        for rid in concern
    }
    migrations: dict[str, set[str]] = defaultdict(set)
    for composite, value in presets.items():
        migrations[value] |= set(snap.parents.get(composite, ()))
    return LevelRecipes(
        setters,
        {k: tuple(v) for k, v in steps.items()},
        presets,
        {k: tuple(sorted(v)) for k, v in migrations.items() if v},
        {k: v for k, v in namesakes.items() if v},
        {r: frozenset(names[r]) for r in concern},
        {r: frozenset(adds[r]) for r in concern},
        {r: snap.ancestors.get(r, frozenset()) for r in concern},
    )


def _names(change: Change) -> tuple[set[str], set[str]]:
    """The names (versions aside) a change's lines change, and those only its added lines have."""
    removed = {t for t in change.tokens_removed if not looks_like_version(t)}
    added = {t for t in change.tokens_added if not looks_like_version(t)}
    return removed | added, added - removed


def _stale_updaters(change: Change, recipes: LevelRecipes) -> list[str]:
    """The build tool's updaters (steps whose examples add no name they do not remove: they rewrite a line the
    file has) that change none of the names this segment removes: it has no line of theirs to rewrite
    (``UPDATER_NEEDS_OLD_LINE``)."""
    if not UPDATER_NEEDS_OLD_LINE:
        return []
    removed = {t for t in change.tokens_removed if not looks_like_version(t)}
    return [
        r
        for r in recipes.steps.get(change.kind, ())
        if recipes.names.get(r) and not recipes.adds.get(r) and not recipes.names[r] & removed
    ]


def segment_steps(
    change: Change, moves_level: bool, recipes: LevelRecipes, scores: dict[str, Match], known: Collection[str]
) -> list[str]:
    """The setter's steps a build file segment offers: where it moves the level, the step changing names the
    segment changes that its evidence ranks best; a step whose examples add a name only the segment's added lines
    have (``source``/``target`` swapped for ``release``) first."""
    changed, added = _names(change)
    stale = set(_stale_updaters(change, recipes))
    steps = [
        r
        for r in recipes.steps.get(change.kind, ())
        if r in known and recipes.names.get(r, set()) & changed and r not in stale
    ]
    swap = [r for r in steps if recipes.adds.get(r, set()) & added]
    swap = sorted(swap, key=lambda r: (-len(recipes.adds[r] & added), r))[:1]
    movers = [r for r in steps if r not in swap] if moves_level else []
    if moves_level and not steps and SETTER_WHERE_NO_STEP:
        # a level line none of the build tool's steps writes (a Gradle toolchain): the setter itself
        movers = [r for r in recipes.setters if r in known]
    mover = max(movers, key=lambda r: (scores[r].score if r in scores else 0.0, r), default=None)
    return swap + ([mover] if mover else [])


def offer(
    per_segment: list[dict[str, Match]],
    segments: Sequence[Segment],
    moves: dict[int, str],
    recipes: LevelRecipes,
    known: Collection[str],
) -> tuple[set[tuple[int, str]], set[str]]:
    """In each build file segment that moves the level or swaps ``source``/``target`` for ``release``, its steps
    (``segment_steps``) join its scores at ``SHARE`` of its best, each namesake just below (in place), and where
    it moves the level the setter and then the migrations to it below those; a step or the setter that the best
    recipe runs ties it (``RUN_BY_BEST``); the setter and the ties only where the diff moves the level outside
    its build files too (``BEYOND_BUILD``). Returns
    the (segment, recipe) pairs whose score that raised, which the pick treats like build edits, and every recipe
    offered."""
    raised: set[tuple[int, str]] = set()
    steps: set[str] = set()
    if not JAVA_LEVEL:
        return raised, steps
    everywhere = not BEYOND_BUILD or any(segments[n].change.kind not in BUILD_KINDS for n in moves)
    for n, seg in enumerate(segments):
        if seg.change.kind not in BUILD_KINDS or seg.change.deleted_file or seg.change.new_file:
            continue
        scores = per_segment[n]
        for stale in _stale_updaters(seg.change, recipes):
            # the updater's own evidence (the names it changes) where the segment has no line of it to rewrite
            for rid in (stale, *recipes.namesakes.get(stale, ())):
                if (match := scores.get(rid)) is not None:
                    match.score *= UPDATER_WITHOUT_OLD_LINE
        top = top_score(scores)
        leader = max(scores, key=lambda r: (scores[r].score, r)) if scores else None
        score = SHARE * top
        level = moves.get(n)
        for rid in segment_steps(seg.change, level is not None, recipes, scores, known):
            for at, offered in enumerate((rid, *recipes.namesakes.get(rid, ()))):
                if offered not in known:
                    continue
                value = (
                    top
                    if everywhere and _run_by(leader, offered, level, recipes)
                    else score * (NAMESAKE if at else 1.0)
                )
                match = scores.get(offered)
                note = f"set the Java version to {level}" if level else "use the compiler's release setting"
                steps.add(offered)
                if match is None:
                    scores[offered] = Match(value, 0.0, None, [], note)
                elif match.score < value:
                    match.score = value
                elif level is None or not OWN_STEP_LEAVES_OPEN:
                    continue  # its own evidence ranks it higher still: picked as that, it covers the segment
                raised.add((n, offered))
            score *= NAMESAKE * NAMESAKE
        for rid in sorted(recipes.setters) if level is not None and SETTER and everywhere else ():
            # the setter, just below the recipes that write the segment's lines
            value = top if _run_by(leader, rid, level, recipes) else score
            match = scores.get(rid)
            if rid not in known or (match is not None and match.score >= value):
                continue
            steps.add(rid)
            _set(scores, rid, value, f"set the Java version to {level}")
            raised.add((n, rid))
            score *= NAMESAKE
        for rid in recipes.migrations.get(level, ()) if level is not None and MIGRATION else ():
            # the migration to the level, just below the recipes that write its lines
            match = scores.get(rid)
            if rid not in known or (match is not None and match.score >= score):
                continue
            steps.add(rid)
            _set(scores, rid, score, f"migrate to Java {level}")
            score *= NAMESAKE
    return raised, steps


def _set(scores: dict[str, Match], rid: str, value: float, note: str) -> None:
    """``rid`` at ``value`` in a segment's scores: a new match saying why, or its own match raised to it."""
    match = scores.get(rid)
    if match is None:
        scores[rid] = Match(value, 0.0, None, [], note)
    else:
        match.score = value


def _run_by(leader: str | None, rid: str, level: str | None, recipes: LevelRecipes) -> bool:
    """Whether the segment's best recipe runs ``rid`` in a segment moving the level (``RUN_BY_BEST``)."""
    return RUN_BY_BEST and level is not None and leader is not None and leader in recipes.runners.get(rid, ())


def unmoved(recipes: LevelRecipes, offered: Collection[str] = ()) -> dict[str, float]:
    """The weights of the concern's recipes for a diff that moves no Java level (the ``offered`` ones apart)."""
    return dict.fromkeys(recipes.all() - set(offered), UNMOVED) if UNMOVED < 1 else {}
