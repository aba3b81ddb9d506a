"""Search recipes by the change itself: a PR diff against the before/after examples on recipe pages.

An agent holding a PR diff otherwise has to put the change into words and hope they meet a recipe's
description. Here the diff is split per file, hunk and run of changed lines (``split``: git puts
changes a few lines apart into one hunk, a plugin bump and a Java level move are two changes), and each
segment is compared with every example stored in the catalog (``recipe_examples``) on three kinds of evidence:

- the embedding of the segment's removed/added lines against the example's (same text format both sides;
  only for the few segments the words below say least about: embedding is most of a large diff's cost),
- lexical overlap of changed tokens (class and package names, coordinates, keys, versions, and "shape"
  tokens such as "the tag of a FROM line changed"), weighted by how rare each token is among examples,
  removed tokens against removed, added against added,
- the file kind (Gradle, Maven, YAML, Dockerfile, Java, properties, ...).

Many recipes have no example, or one unlike a real project's file, while their names and descriptions say
what they do. So each segment is also described in the catalog's words (``server.diffs.words``: "upgrade Gradle
plugin version X to 8.1.1", "add property networkTimeout to gradle-wrapper.properties", "delete files")
and the phrases go through the hybrid ``find_recipes``; its scores add to the example evidence.

Version evidence weighs both: a recipe whose id names a version (``UpgradeSpringBoot_2_7``,
``MigrateToGradle8``) gains when a version the segment moves to agrees and loses when none does. A
composite inherits half of a listed recipe's example match, so the leaf that makes the change ranks
above the dozen migrations that include it. Per segment the best recipes form a group; over the whole diff,
recipes are picked greedily so the hits cover the diff's different changes (small distinct ones, a
``FROM`` line or a deleted file, included) rather than repeating the recipes of its largest file. After
the recipes best for some change come the generic edit recipes of the changed files' kinds (``generic``:
``ChangePropertyValue``, ``FindAndReplace``), for the edits no specific recipe makes. A build file's
dependency and plugin edits, read from its structure (``build_edits``: a version bumped, a dependency added,
removed or moved into ``<dependencyManagement>``), offer the recipe that makes each, with its options, just
below the segment's best recipe.

Per-hunk words never say "migration": a PR that moves javax imports to jakarta in eight files is, as a
whole, what the catalog calls "Migrate to Jakarta EE". So the PR is also described as a whole
(``server.diffs.words.describe_pr``: the same package family moved in several files, the same Java level in
several build and CI files), those few phrases are searched the same way, and each becomes one more unit
in the pick that stands for the segments it sums up. A hit of such a phrase gains by the share of those
segments it explains (it, or a recipe it lists, is among each one's best): the umbrella migration, not a
sibling that only shares its words. A composite several of whose steps are each among the best of a different
change (``umbrella``: its steps listed by few composites, at least half of its list) is one more such unit, for
those changes.

A hand-written Java modernisation changes constructs, not names: its segments are also compared with the examples
by the construct change their syntax shows (``syntax``: ``+instanceof x x``, ``-break ;``), as much as the
segment keeps its names; and a change from one construct of the language to another is said in their names
("string concatenation to text block"), for the recipes that make it without an example.

Last, the pick's pool (its first ``rerank.POOL``) is reordered by a model fitted on labelled PRs (``rerank``):
what kind of evidence found each recipe, whether the pick's own ten holds it, how many changes it explains,
whether its options can be read off the PR, how often labelled PRs, and the labelled PRs most like this one, named
it. The model reorders the ten freely and lets a recipe from beyond
them in only where it is sure. Told what the PR says it does (``intent``), the search also runs that text through
``find_recipes``; the recipes it finds join the pool, and a second model reads where that search placed each one.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

import numpy as np
from pydantic import BaseModel, Field

from ...catalog.store import CatalogStore
from ...diffs.loader import PathCheck, load_diff
from ...diffs.words import describe, describe_pr, names_something
from ...embedding import Embedder
from ...errors import BadInput
from ..hybrid import find_recipes
from ..models import SearchHit
from . import anchors, configured, direction, java_level, rerank, steps, twins, umbrella
from .build_edits import offer, segment_edits
from .catalog import ExampleSnapshot, example_snapshot
from .evidence import DiffSearchHit, Evidence, build_hits
from .generic import generic_recipes, spring_project
from .phrases import W_WIDE, budget_phrases, search_wide, start_searches, text_scores, wide_scores
from .pick import finish, greedy
from .scoring import (
    W_TEXT,
    Match,
    best_first,
    demotion,
    embed_segments,
    fuse,
    raise_to,
    score_segment,
    top_score,
    weighed,
)
from .split import Segment, split_diff
from .syntax import construct_phrases

__all__ = ["DiffSearchHit", "DiffSearchResult", "Evidence", "GroupHit", "HunkGroup", "find_recipes_for_diff"]

GROUP_SIZE = 5


class GroupHit(BaseModel):
    id: str
    score: float


class HunkGroup(BaseModel):
    file: str
    hunk: int
    kind: str
    header: str
    recipes: list[GroupHit]


class DiffSearchResult(BaseModel):
    hits: list[DiffSearchHit]
    groups: list[HunkGroup]
    files: int = Field(description="files in the diff")
    hunks: int = Field(description="hunks in the diff")
    searched_segments: int = Field(
        description="separate changes searched: a hunk's runs of changed lines apart from each other by "
        "unchanged code, a Java hunk's imports once per type they change (or a file's hunks merged, on large diffs)"
    )
    skipped: list[str] = Field(default_factory=list, description="what was not searched, and why")
    hint: str | None = None


def find_recipes_for_diff(
    store: CatalogStore,
    embedder: Embedder,
    pr_diff: str,
    *,
    limit: int = 10,
    check_path: PathCheck | None = None,
    intent: str | None = None,
) -> DiffSearchResult:
    """Recipes whose documented examples make changes like the PR diff's (text, or a path to it). ``intent``, what
    the PR says it does (its title and description), adds the recipes searching it finds to the pool the rerank
    orders, and the rerank reads where that search placed each recipe."""
    if not 1 <= limit <= 50:
        raise BadInput(f"limit must be between 1 and 50, got {limit}")
    if intent is not None and len(intent) > MAX_INTENT:
        raise BadInput(
            f"intent is {len(intent)} characters; pass at most {MAX_INTENT} (the PR's title and a short description)"
        )
    reranking = rerank.RERANK
    pool = diff_pool(
        store,
        embedder,
        pr_diff,
        depth=max(limit, rerank.POOL) if reranking else limit,
        check_path=check_path,
        intent=(intent or "").strip() or None if reranking else None,
    )
    hits = rerank.reorder(pool.view())[:limit] if reranking else pool.hits
    hint = None
    if not hits:
        hint = "No recipe example resembles this diff; describe the change in words with find_recipes."
    return DiffSearchResult(
        hits=hits,
        groups=pool.groups,
        files=pool.files,
        hunks=pool.hunks,
        searched_segments=pool.segments,
        skipped=pool.skipped,
        hint=hint,
    )


MAX_INTENT = 4000  # characters of a PR's title and description searched beside its diff


@dataclass
class Pool:
    """What the rerank reads of one search: the pick's first ``depth`` recipes as hits, then the recipes the intent
    search found that the pick did not place; the pick's own first ``rerank.HEAD``; the hunk groups; the intent
    search's ranking (None without an intent); the diff's size."""

    hits: list[DiffSearchHit]
    picked: int  # how many of ``hits`` the pick placed (the rest only the intent search found)
    head: list[str]
    groups: list[HunkGroup]
    intent: list[str] | None
    files: int
    hunks: int
    segments: int
    skipped: list[str]
    snap: ExampleSnapshot

    def view(self, *, plain: bool = False) -> rerank.PoolView:
        """The pool as the rerank reads it; ``plain``: the pick's own hits alone, as searched without an intent."""
        return rerank.PoolView(
            hits=self.hits[: self.picked] if plain else self.hits,
            head=self.head,
            groups=[[g.id for g in group.recipes] for group in self.groups],
            snap=self.snap,
            segments=self.segments,
            files=self.files,
            intent=None if plain else self.intent,
        )


def diff_pool(
    store: CatalogStore,
    embedder: Embedder,
    pr_diff: str,
    *,
    depth: int,
    check_path: PathCheck | None = None,
    intent: str | None = None,
) -> Pool:
    """The search up to the rerank: segments scored, units picked to ``depth`` (``find_recipes_for_diff`` and the
    rerank's training read the same pool)."""
    _, text = load_diff(pr_diff, what="PR diff", check_path=check_path)
    segments, skipped, files, hunks = split_diff(text)
    snap = example_snapshot(store)
    # a Java change between language constructs is said in their names too (``syntax.construct_phrases``)
    constructs = [construct_phrases(s.change) for s in segments]
    phrases = [describe(s.file, s.change, s.context, s.lines_above) + constructs[n] for n, s in enumerate(segments)]
    wide = describe_pr([(s.file, s.change) for s in segments]) if W_WIDE > 0 else []
    # The PR-level phrases first: a few (``MAX_WIDE``), each summing up many segments.
    pending_wide = search_wide(store, embedder, wide)
    pending = (
        start_searches(store, embedder, budget_phrases(phrases, [s.change.kind for s in segments]))
        if W_TEXT > 0
        else {}
    )
    vectors = embed_segments(embedder, segments, phrases)
    # One matrix product per side for all segments (cosines: the vectors are normalized).
    cos = vectors @ snap.matrix.T if len(snap.examples) else np.zeros((len(segments), 0), np.float32)
    rcos = vectors @ snap.recipe_matrix.T if len(snap.recipe_ids) else np.zeros((len(segments), 0), np.float32)
    per_segment = [score_segment(s.change, cos[n], rcos[n], snap) for n, s in enumerate(segments)]
    mentioned = anchors.diff_words(text)
    if W_TEXT > 0:
        texts = text_scores(phrases, pending)
        per_segment = [
            fuse(s.change, per_segment[n], texts[n], snap, phrases[n], mentioned, constructs[n])
            for n, s in enumerate(segments)
        ]
    known = set(snap.recipe_ids)
    edits = segment_edits(segments)
    # Build edits are offered at the segment's own strength, before the anchors below weigh down the recipes
    # that make a change the diff lacks (a property bump's best match is often ``ChangeProjectVersion``).
    offered = offer(per_segment, segments, edits, known)
    # A recipe named after what its examples all change (``LABEL``), or under a framework's package (``camel``),
    # where the diff mentions none of it.
    per_segment = [weighed(s, anchors.unanchored(s, mentioned, snap.anchors, snap.frameworks)) for s in per_segment]
    # ... or one whose examples edit the other way (``direction``: they remove lines where the hunk only adds), or
    # share with the hunk only the words they were configured with (``configured``).
    ways = direction.leaf_directions(snap)
    per_segment = [
        weighed(scores, direction.weights(s.change, scores, ways) | configured.weights(s.change, scores, snap))
        for s, scores in zip(segments, per_segment, strict=True)
    ]
    # ... or one changing Maven elements other than the one this Maven hunk sits in (``<project>``'s version).
    per_segment = [
        weighed(scores, anchors.unanchored(scores, elements, snap.elements))
        if s.change.kind == "maven" and (elements := anchors.hunk_elements(s.lines_above))
        else scores
        for s, scores in zip(segments, per_segment, strict=True)
    ]
    # The Java level as one concern (``java_level``): its build file recipes offered where a build file moves it
    # (after the anchors: the catalog's own graph names them), its recipes weighed down where nothing does.
    level = java_level.level_recipes(snap)
    moves = java_level.level_moves(segments)
    raised, level_steps = java_level.offer(per_segment, segments, moves, level, known)
    if not moves:
        unmoved = java_level.unmoved(level, level_steps)
        per_segment = [weighed(s, unmoved) for s in per_segment]
    offered |= raised
    if STEPS:
        lift_composites(per_segment, segments, snap, known)
    groups = [
        HunkGroup(file=seg.file, hunk=seg.hunk, kind=seg.change.kind, header=seg.header, recipes=recipes)
        for seg, scores in zip(segments, per_segment, strict=True)
        if (recipes := _group(scores))
    ]
    wide_units = wide_scores(wide, pending_wide, per_segment, snap)
    wide_files = []
    for w, scores in zip(wide, wide_units, strict=True):
        paths = list(dict.fromkeys(segments[n].file for n in w.segments))
        wide_files.append(f"{len(paths)} files: {', '.join(paths[:3])}{', ...' if len(paths) > 3 else ''}")
        if recipes := _group(scores):  # a description that met no recipe has nothing to show
            groups.append(HunkGroup(file=wide_files[-1], hunk=0, kind="pr", header=w.phrases[0], recipes=recipes))

    # Composites several of whose steps each make one of the changes: one more unit each, for those changes.
    over = umbrella.umbrellas(per_segment, snap, known) if umbrella.UMBRELLA else []
    for u in over:
        paths = list(dict.fromkeys(segments[n].file for n in u.segments))
        wide_files.append(f"{len(paths)} files: {', '.join(paths[:3])}{', ...' if len(paths) > 3 else ''}")
    units = per_segment + wide_units + [{u.recipe: u.match} for u in over]
    covers = [(n,) for n in range(len(segments))] + [w.segments for w in wide] + [u.segments for u in over]
    spring = spring_project(text)
    fallbacks = [
        generic_recipes(s.change, known, s.lines_above, s.file, bool(built), spring)
        for s, built in zip(segments, edits, strict=True)
    ]
    fallbacks += [[] for _ in range(len(wide) + len(over))]
    worded = [said(s, own) for s, own in zip(segments, phrases, strict=True)] + [True] * (len(wide) + len(over))
    twin_pairs = twins.snapshot_twins(snap)

    # one greedy run to the pool's depth; the head is its start (the greedy order does not depend on the limit)
    picks, best_for_some = greedy(units, max(depth, rerank.HEAD), worded, covers, snap.ancestors, offered)

    def ranked(n: int) -> list[tuple[str, float]]:
        # a second recipe making a ranked one's edit follows it (``twins``)
        return twins.follow(finish(picks, best_for_some, fallbacks, n), units, twin_pairs, n, known)

    hits = build_hits(store, ranked(depth), units, segments, covers, wide_files, snap, fallbacks, edits)
    picked = len(hits)
    ranking = None
    if intent:
        found = find_recipes(store, embedder, intent, limit=rerank.INTENT_DEPTH).hits
        ranking = [h.id for h in found]
        placed = {h.id for h in hits}
        hits += [intent_hit(h) for h in found if h.id not in placed]
    return Pool(
        hits=hits,
        picked=picked,
        head=[rid for rid, _ in ranked(rerank.HEAD)],
        groups=groups,
        intent=ranking,
        files=files,
        hunks=hunks,
        segments=len(segments),
        skipped=skipped,
        snap=snap,
    )


def intent_hit(hit: SearchHit) -> DiffSearchHit:
    """A recipe only the PR's description found, as a hit of the diff search: no diff evidence, its search score."""
    fields = hit.model_dump(exclude={"fusion_score", "matched_variations"})
    evidence = Evidence(file="PR description", hunk=0, score=round(hit.fusion_score, 4), example=None, intent=True)
    return DiffSearchHit(**fields, fusion_score=0.0, matched_variations=0, evidence=[evidence])


STEPS = True  # rank the composites whose configured steps the diff shows (``steps``)


def lift_composites(
    per_segment: list[dict[str, Match]], segments: list[Segment], snap: ExampleSnapshot, known: set[str]
) -> None:
    """Composites whose configured renames, moves and removals the diff shows (``steps``), scored in each
    segment they explain around its best recipe: the one explaining most of the diff highest."""
    files = steps.shown_files([s.file for s in segments], [s.change for s in segments], [s.context for s in segments])
    # a republished copy would take a slot its canonical recipe should have
    found = steps.explained(snap.steps, files, known - snap.copies)
    for n, shares in enumerate(steps.scores(found, len(segments))):
        top = top_score(per_segment[n])
        for rid, share in shares.items():
            raise_to(per_segment[n], rid, top * share * demotion(rid, snap))


def _group(scores: dict[str, Match]) -> list[GroupHit]:
    return [GroupHit(id=rid, score=round(m.score, 4)) for rid, m in best_first(scores, GROUP_SIZE)]


# A segment whose phrases only frame its edit (``add Dockerfile RUN instruction``: no name, key, version or
# coordinate) counts in the pick like one without words: its best recipes match the file kind, not the change.
FRAME_ONLY_UNWORDED = True


def said(segment: Segment, own: list[str]) -> bool:
    """Whether the segment's words say what it changed. A deleted or created file is said by that alone."""
    if not own:
        return False
    if not FRAME_ONLY_UNWORDED or segment.change.deleted_file or segment.change.new_file:
        return True
    return any(names_something(p, segment.change.kind, segment.file) for p in own)


def timed_search(store: CatalogStore, embedder: Embedder, text: str, limit: int = 10) -> tuple[Any, float]:
    """Run one search and return it with its wall time in seconds (for the benchmark)."""
    start = time.perf_counter()
    result = find_recipes_for_diff(store, embedder, text, limit=limit)
    return result, time.perf_counter() - start
