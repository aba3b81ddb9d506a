"""Composites by the steps they run: renames, moves and removals their ``recipe_list`` configures.

``SpringBootProperties_2_5`` lists 67 ``ChangeSpringPropertyKey{oldPropertyKey, newPropertyKey}`` steps,
``Micronaut2to3Migration`` runs ``ChangeType{oldFullyQualifiedTypeName: ...RxHttpClient, newFullyQualifiedTypeName:
...HttpClient}``, ``JavaxInjectMigrationToJakartaInject`` a ``ChangePackage{oldPackageName: javax.inject, ...}``.
A PR that renames that key or moves that type or package makes that composite's change, whatever its examples and
words look like.
``step_index`` reads each composite's own configured steps once per catalog snapshot as ``StepFact`` (what the
removed side shows, what the added side shows); ``explained`` finds the composites whose facts the diff shows,
weighing each fact by how few composites list it; ``scores`` places them in the segments they explain around
each segment's best recipe, the composite explaining most of the diff first.
"""

from __future__ import annotations

import math
import re
from collections import defaultdict
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ...diffs.features import CODE_KINDS, Change

# A step's side, read off its option's name: ``old...`` what the removed lines show, ``new...`` the added ones;
# an unsided name (``propertyKey``) by the step's verb (``RemoveDependency``: removed).
_REMOVING = ("Remove", "Delete", "Exclude", "CommentOut")
_ADDING = ("Add",)
# What kind of name an option holds, by the option's name: a property key (matched by its parts, YAML nests
# them), a fully qualified type, a package (its types move with it), or a coordinate.
# Coordinates (``groupId``) are left to ``upgrades`` and ``build_edits``: many composites list the same ones.
_KINDS = (("propertykey", "key"), ("typename", "type"), ("packagename", "package"))
_PLAIN = re.compile(r"[A-Za-z_][\w.\-]*[A-Za-z0-9_]")
_NORM = re.compile(r"[-_]")
# A key a line sets: ``key:`` (YAML, a list item too) or ``a.b.key=`` / ``a.b.key:`` (properties).
_LINE_KEY = re.compile(r"""^\s*(?:-\s+)?["']?([A-Za-z0-9_][\w.\-\[\]]*)["']?\s*[:=]""")

# A composite's score in a segment it explains: this share of the segment's best recipe, from the most evidence
# over the diff (``HIGH``: a configured rename both sides of the diff show says more than a segment's closest
# example) down to ``LOW`` in proportion ...
LOW, HIGH = 0.9, 1.05
MAX_PER_SEGMENT = 3  # ... for this many composites per segment, most evidence first


@dataclass(frozen=True)
class StepFact:
    """One configured step as a diff shows it: (kind, value) names the removed and the added lines hold."""

    step: str
    removed: tuple[tuple[str, str], ...]
    added: tuple[tuple[str, str], ...]


@dataclass
class StepIndex:
    facts: dict[str, tuple[StepFact, ...]] = field(default_factory=dict)  # composite → the facts it lists
    holders: dict[StepFact, int] = field(default_factory=dict)  # fact → how many composites list it
    # ``-`` or ``+`` and a token a diff must show for the fact (``trigger``) → the facts
    by_trigger: dict[str, list[StepFact]] = field(default_factory=dict)


def trigger(fact: StepFact) -> str:
    """One token the diff must show for the fact, side-tagged: its first removed (else added) value, a
    property key by its last part."""
    sign, (kind, value) = ("-", fact.removed[0]) if fact.removed else ("+", fact.added[0])
    return sign + (value.rsplit(".", 1)[-1] if kind == "key" else value)


def diff_triggers(removed: set[str], added: set[str]) -> set[str]:
    """The side-tagged tokens a diff's triggers are looked up by: each token, relaxed (``-``/``_`` aside), and
    each dotted prefix (a package a type is in)."""
    out: set[str] = set()
    for sign, tokens in (("-", removed), ("+", added)):
        for token in tokens:
            out.add(sign + token)
            out.add(sign + _norm(token))
            parts = token.split(".")
            out.update(sign + ".".join(parts[:k]) for k in range(2, len(parts)))
    return out


def _kind(option: str) -> str | None:
    low = option.lower()
    for part, kind in _KINDS:
        if part in low:
            return kind
    return None


def step_fact(recipe: str, options: Any) -> StepFact | None:
    """The step's named values by side; None when it names nothing a diff shows (a version, a pattern, text)."""
    if not isinstance(options, dict):
        return None
    verb = recipe.rsplit(".", 1)[-1]
    unsided = "removed" if verb.startswith(_REMOVING) else "added" if verb.startswith(_ADDING) else None
    sides: dict[str, list[tuple[str, str]]] = {"removed": [], "added": []}
    for option, value in sorted(options.items()):
        kind = _kind(option)
        if kind is None or not isinstance(value, str) or not _PLAIN.fullmatch(value.strip()):
            continue
        side = "removed" if option.startswith("old") else "added" if option.startswith("new") else unsided
        if side is not None:
            text = value.strip().lower()
            sides[side].append((kind, _norm(text) if kind == "key" else text))
    if not sides["removed"] and not sides["added"]:
        return None
    if sides["removed"] and sorted(sides["removed"]) == sorted(sides["added"]):
        return None  # moves nothing
    return StepFact(recipe, tuple(sides["removed"]), tuple(sides["added"]))


def step_index(recipe_lists: Mapping[str, Sequence[Mapping[str, Any]]]) -> StepIndex:
    """Each composite's own configured steps, and how many composites list each."""
    facts: dict[str, tuple[StepFact, ...]] = {}
    holders: dict[StepFact, int] = defaultdict(int)
    for rid, listed in recipe_lists.items():
        own = tuple(dict.fromkeys(f for st in listed if (f := step_fact(str(st.get("recipe_id")), st.get("options")))))
        if own:
            facts[rid] = own
            for fact in own:
                holders[fact] += 1
    by_trigger: dict[str, list[StepFact]] = defaultdict(list)
    for fact in sorted(holders, key=lambda f: (f.step, f.removed, f.added)):
        by_trigger[trigger(fact)].append(fact)
    return StepIndex(facts, dict(holders), dict(by_trigger))


def _norm(text: str) -> str:
    return _NORM.sub("", text)


@dataclass
class Shown:
    """What one file's segments show: per segment, its removed and added tokens when it is code (types and
    packages move there, not in a build file naming a coordinate after them), the keys its removed and added
    lines set (relaxed: ``-``/``_`` aside, as the catalog's keys are) and every part of a key any of its lines,
    context included, sets."""

    segments: list[int] = field(default_factory=list)
    removed: list[set[str]] = field(default_factory=list)
    added: list[set[str]] = field(default_factory=list)
    relaxed_removed: list[set[str]] = field(default_factory=list)
    relaxed_added: list[set[str]] = field(default_factory=list)
    around: list[set[str]] = field(default_factory=list)


def _shows(kind: str, value: str, side: set[str], relaxed: set[str], around: set[str]) -> bool:
    """A side's tokens show a value: a type or coordinate whole, a package by a name inside it, a property key
    by its last part on this side (relaxed) and its inner parts around; the root (``spring``) is often many
    lines above the hunk."""
    if kind == "key":
        parts = value.split(".")
        return parts[-1] in relaxed and all(p in around for p in parts[1:-1] if p)
    if kind == "package":
        return any(t == value or t.startswith(value + ".") for t in side)
    return value in side


def _sides_show(
    fact: StepFact, removed: tuple[set[str], set[str]], added: tuple[set[str], set[str]], around: set[str]
) -> bool:
    return all(_shows(k, v, *removed, around) for k, v in fact.removed) and all(
        _shows(k, v, *added, around) for k, v in fact.added
    )


def matched(fact: StepFact, shown: Shown) -> list[int]:
    """The segments of one file that show the fact. A property key must show in one segment with its
    surroundings; types and packages anywhere in the file (a Java file's removed and added imports are different
    segments), each segment naming one of them counting as explained."""
    if any(k == "key" for k, _ in fact.removed + fact.added):
        return [
            n
            for i, n in enumerate(shown.segments)
            if _sides_show(
                fact,
                (shown.removed[i], shown.relaxed_removed[i]),
                (shown.added[i], shown.relaxed_added[i]),
                shown.around[i],
            )
        ]
    removed, added = set().union(*shown.removed), set().union(*shown.added)
    if not _sides_show(fact, (removed, set()), (added, set()), set()):
        return []
    return [
        n
        for n, rem, add in zip(shown.segments, shown.removed, shown.added, strict=True)
        if any(_shows(k, v, rem, set(), set()) for k, v in fact.removed)
        or any(_shows(k, v, add, set(), set()) for k, v in fact.added)
    ]


def weight(holders: int) -> float:
    """A fact many composites list says less about which of them the PR is."""
    return 1.0 / (1.0 + math.log(max(holders, 1)))


@dataclass
class Explained:
    """A composite whose own steps the diff shows: the evidence, and where."""

    recipe: str
    evidence: float
    segments: frozenset[int]


def explained(index: StepIndex, files: Sequence[Shown], known: Collection[str]) -> list[Explained]:
    """The composites (with a docs page) listing steps the diff's changes show, most evidence first. A composite
    running such a composite is left to the inherited evidence of ``scoring`` and ``umbrella``: counted here
    too, the many migrations chaining one properties or package migration crowded out the changes' own recipes."""
    removed = set().union(*(r for shown in files for r in shown.removed + shown.relaxed_removed))
    added = set().union(*(a for shown in files for a in shown.added + shown.relaxed_added))
    candidates = {f for t in diff_triggers(removed, added) for f in index.by_trigger.get(t, ())}
    shown_by: dict[StepFact, set[int]] = {}
    for fact in sorted(candidates, key=lambda f: (f.step, f.removed, f.added)):
        found = {n for shown in files for n in matched(fact, shown)}
        if found:
            shown_by[fact] = found
    if not shown_by:
        return []
    own: dict[str, set[StepFact]] = defaultdict(set)
    for rid, facts in index.facts.items():
        for fact in facts:
            if fact in shown_by:
                own[rid].add(fact)
    out: list[Explained] = []
    for rid in sorted(own):
        if rid not in known:
            continue
        evidence = sum(weight(index.holders.get(f, 1)) for f in own[rid])
        out.append(Explained(rid, evidence, frozenset(n for f in own[rid] for n in shown_by[f])))
    out.sort(key=lambda e: (-e.evidence, e.recipe))
    return out


def line_keys(lines: Sequence[str]) -> list[list[str]]:
    """The keys the lines set, each as its relaxed dotted parts (``spring.datasource.initialization-mode=x`` →
    spring, datasource, initializationmode)."""
    out: list[list[str]] = []
    for line in lines:
        if match := _LINE_KEY.match(line):
            out.append([_norm(p) for p in match.group(1).lower().split(".") if p])
    return out


def shown_files(files: Sequence[str], changes: Sequence[Change], context: Sequence[Sequence[str]]) -> list[Shown]:
    """Per file (segments in order), what its segments show; ``context``: each segment's lines around."""
    by_file: dict[str, Shown] = {}
    for n, (name, change) in enumerate(zip(files, changes, strict=True)):
        shown = by_file.setdefault(name, Shown())
        shown.segments.append(n)
        code = change.kind in CODE_KINDS
        shown.removed.append(change.tokens_removed if code else set())
        shown.added.append(change.tokens_added if code else set())
        removed, added = line_keys(change.removed), line_keys(change.added)
        shown.relaxed_removed.append({key[-1] for key in removed if key})
        shown.relaxed_added.append({key[-1] for key in added if key})
        shown.around.append({p for key in removed + added + line_keys(context[n]) for p in key})
    return list(by_file.values())


def scores(found: Sequence[Explained], segment_count: int) -> list[dict[str, float]]:
    """Per segment, the share of its best score each composite explaining it takes: the most evidence over the
    diff ``HIGH``, less in proportion down to ``LOW``; at most ``MAX_PER_SEGMENT`` per segment."""
    out: list[dict[str, float]] = [{} for _ in range(segment_count)]
    most = max((e.evidence for e in found), default=0.0)
    if most <= 0:
        return out
    for e in found:
        share = LOW + (HIGH - LOW) * e.evidence / most
        for n in sorted(e.segments):
            if len(out[n]) < MAX_PER_SEGMENT:
                out[n][e.recipe] = share
    return out
