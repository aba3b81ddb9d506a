"""The direction of an edit: lines only added, only removed, or rewritten (some removed, some added); and a
rewrite that only moves versions.

A recipe's examples show which way it edits. ``gradle.spring.AddSpringDependencyManagementPlugin``'s example
adds the ``io.spring.dependency-management`` plugin line; a PR hunk that bumps that plugin's version shares
every rare token of the added line, so the recipe ranked among the hunk's best, yet a recipe that only adds
lines (or only removes them) makes no hunk whose lines were there before and stay, with other versions. In a
segment that only moves versions (each removed line rewritten into one added line differing in versions
alone), a recipe all of whose examples only add lines, or all only remove lines, is weighed by ``OPPOSED``.

``yaml.ChangeKey``'s example renames a key, its value kept (``generic.renames_keys``). The words of a hunk that
only adds a YAML key ("add YAML key condition in YAML file") or only deletes one still meet its name ("Change
key"), yet a recipe that renames keys makes no hunk whose lines only come or only go. In such a segment a recipe
all of whose examples rename keys is weighed by ``OPPOSED`` too.

Only a recipe that lists no other recipes is read by its own examples: a composite's few examples show some of
its steps, each of which may edit another way. Nor are the generic edit recipes (``generic``: ``ChangePropertyKey``,
``MergeYaml``): their one example shows one configured use, and ``generic`` reads each segment for the edit they
make.

Measured and left out (development sets): weighing a recipe whose examples only remove lines in a hunk that
only adds some (and the other way round) lost more labelled recipes than it freed places (the generic
``DeleteKey`` and ``MergeYaml`` are labelled for one hunk and keep their places by matching the others), and
reading a recipe whose examples rewrite lines as opposed to a hunk that only adds lost ``UpdateGradleWrapper``
(its one example rewrites the distribution URL, yet it also adds the wrapper's new properties).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Collection, Iterable, Mapping, Sequence

from ...catalog.examples import StoredExample
from ...diffs.features import Change, looks_like_version, words
from .catalog import ExampleSnapshot
from .generic import GENERIC_IDS, renames_keys
from .memo import last_result

ADDED = "added"
REMOVED = "removed"
REWRITTEN = "rewritten"
ONE_WAY = (frozenset({ADDED}), frozenset({REMOVED}))  # a recipe that only adds, or only removes, lines

RENAMED = "renamed"  # a rewrite that keeps every value under another key (``generic.renames_keys``)
RENAME_KINDS = frozenset({"yaml", "properties", "maven"})  # the entry kinds whose keys ``renames_keys`` reads

# Measured on the development sets (fresh sets 1-7 and the tune half of the pr-cases).
OPPOSED = 0.5  # a recipe only adding (or only removing) lines, in a segment that only moves versions: score times this
# ... and a recipe all of whose examples rename keys, in a segment that only adds, or only removes, lines
RENAMES_OPPOSED = True


def direction(change: Change) -> str | None:
    """Which way the change edits: ``added``, ``removed`` or ``rewritten`` (None: no non-blank line changed)."""
    removed = any(line.strip() for line in change.removed)
    added = any(line.strip() for line in change.added)
    if removed and added:
        return REWRITTEN
    if removed:
        return REMOVED
    return ADDED if added else None


def moves_versions(change: Change) -> bool:
    """Whether the change rewrites lines one for one and each pair differs in versions alone (a plugin's
    version bumped): the lines it touches were there before and stay."""
    removed = [line for line in change.removed if line.strip()]
    added = [line for line in change.added if line.strip()]
    if not removed or len(removed) != len(added):
        return False
    for old, new in zip(removed, added, strict=True):
        moved = set(words(old)) ^ set(words(new))
        if not moved or not all(looks_like_version(w) for w in moved):
            return False
    return True


def example_directions(examples: Sequence[StoredExample], composites: Collection[str]) -> dict[str, frozenset[str]]:
    """Per recipe with examples that lists no other recipes: the directions its examples edit in (whole-file
    ones left out: creating or deleting a file is its own edit, which ``scoring.WHOLE_FILE_CONTENT`` reads)."""
    out: dict[str, set[str]] = defaultdict(set)
    for ex in examples:
        if ex.recipe_id in composites or ex.change.deleted_file or ex.change.new_file:
            continue
        way = direction(ex.change)
        if way == REWRITTEN and ex.change.kind in RENAME_KINDS and renames_keys(ex.change, ex.change.kind):
            way = RENAMED
        if way is not None:
            out[ex.recipe_id].add(way)
    return {rid: frozenset(ways) for rid, ways in out.items()}


@last_result
def leaf_directions(snap: ExampleSnapshot) -> dict[str, frozenset[str]]:
    """``example_directions`` of the snapshot's examples, its composites (every recipe some recipe lists in
    ``parents``) and the generic edit recipes (``generic.GENERIC_IDS``: offered by their own reading of each
    segment, their examples show one configured use) left out."""
    composites = {parent for listed_by in snap.parents.values() for parent in listed_by}
    return example_directions(snap.examples, composites | GENERIC_IDS)


def weights(change: Change, recipe_ids: Iterable[str], directions: Mapping[str, frozenset[str]]) -> dict[str, float]:
    """``OPPOSED`` for each of these recipes whose examples all only add, or all only remove, lines, where the
    segment only moves versions; or all rename keys, where the segment only adds or only removes lines. Nothing
    for any other segment, composite or recipe without examples."""
    if OPPOSED >= 1.0 or change.deleted_file or change.new_file:
        return {}
    if moves_versions(change):
        return {rid: OPPOSED for rid in recipe_ids if directions.get(rid) in ONE_WAY}
    if RENAMES_OPPOSED and direction(change) in (ADDED, REMOVED):
        return {rid: OPPOSED for rid in recipe_ids if directions.get(rid) == {RENAMED}}
    return {}
