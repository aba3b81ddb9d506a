"""Per-segment evidence of the diff search: each segment against every stored example (embedding of the
changed lines, IDF-weighted overlap of side-tagged tokens, file kind), composites inheriting part of a
listed recipe's match, recipes by their own words, then fused with what the segment's phrases found
(``phrases``) and weighed by version evidence and the demotions (search-only recipes, republished
copies).
"""

from __future__ import annotations

import dataclasses
import math
import re
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from ... import config
from ...diffs.features import MANAGED_SHAPE, Change
from ...diffs.words import new_versions
from ...embedding import Embedder
from .catalog import TYPE_VALUE, ExampleSnapshot, pair_tokens, side_tokens, whole_file
from .split import Segment
from .syntax import construct_tokens, undone_by
from .upgrades import agreements, agrees, segment_handles

MAX_EMBEDDED = 8  # segments whose changed lines are embedded (the others: lexical and words evidence)
QUERY_TEXT_CHARS = 200  # embedding cost grows with text length; the first lines of a hunk carry its gist

# Tuned on the tune half of the labelled pr-cases (repositories 1, 3, 5, ... alphabetically; the other
# half is held out): figures on the tune half are in-sample, see the README.
W_EMBED = 0.6
W_LEX = 2.0
W_KIND = 0.15
W_PAIR = 0.5  # the hunk's old>new substitutions (``catalog.pair_tokens``) shared with an example's
# A Java or Kotlin segment's construct change (``syntax.construct_tokens``) shared with an example's: this share of
# the lexical evidence, times how much of the segment keeps its names (``names_kept``).
W_CONSTRUCT = 0.5
WHOLE_FILE_CONTENT = 0.5  # a deleted or created file: share of the content evidence (its words count)
W_RECIPE = 0.8  # description embedding, for recipes without a matching example
W_RECIPE_LEX = 1.0  # the hunk's words in a recipe's id, name and description
W_PARENT = 0.5  # a composite's share of a listed recipe's match
MAX_PARENTS = 12
W_TEXT = 1.2  # the hunk described in words, searched with find_recipes (its fusion score)
V_AGREE = 1.15  # the version a recipe's id names agrees with a version the hunk adds
V_DISAGREE = 0.5  # ... names a version, the hunk adds versions, and none agrees
SEARCH_ONLY = 0.5  # a search-only recipe (``priors.is_search_only``) marks code, a PR changes it
CLEANUP = 0.6  # a recipe whose examples only remove imports (``catalog.import_cleanups``): tidying after a change
COPY = 0.7  # a republished copy (``io.quarkus.updates...``) or a generated ``Outer$Inner`` fragment
# A composite's match inherited from a listed recipe's example carries that recipe's demotion (a cleanup's import
# removal is tidying in ``JavaBestPractices`` too): its example evidence times the step's ``demotion``.
INHERIT_DEMOTION = True
# A Maven example inside ``<dependencyManagement>`` against a change outside one (or the other way round): its
# content evidence times this (managed and direct dependencies have recipes of their own).
SECTION_MISMATCH = 0.85
# A preset (a composite running one recipe with options set) whose every option value the segment shows takes
# its step's score times this: the same change, already configured for this PR.
PRESET = 1.1
PRESET_TYPES = True  # ... a type its method pattern names counts as shown where the diff names it anywhere
PRESET_BELOW = 0.999  # ... but not above a recipe it runs that matched better than its step
# An upgrade composite with a step that moves a coordinate the segment moves (``upgrades``), to a version the
# segment moves to: scored this share of the segment's best recipe (when at most UPGRADE_HOLDERS recipes run
# that step); to another version: its score times UPGRADE_DISAGREE.
UPGRADE = 0.95
UPGRADE_HOLDERS = 4
UPGRADE_DISAGREE = 0.5
# A recipe whose examples undo the segment's construct change (``syntax.undone_by``: a text block back into a
# string where the segment writes one): its score times this.
REVERSE = 0.5


@dataclass
class Match:
    """One recipe's best evidence in one segment (or one PR-level description)."""

    score: float
    cosine: float
    example: int | None  # index into snapshot.examples
    tokens: list[str]
    phrase: str | None = None  # the words of the segment that found the recipe, when they did


def best_first(scores: Mapping[str, Match], n: int) -> list[tuple[str, Match]]:
    """The ``n`` best recipes of one segment or description, ties by id: one order for its group, the pick
    and the explanations, the same in every process."""
    return sorted(scores.items(), key=lambda kv: (-kv[1].score, kv[0]))[:n]


def top_score(scores: Mapping[str, Match]) -> float:
    return max((m.score for m in scores.values()), default=0.0)


def raise_to(scores: dict[str, Match], recipe_id: str, score: float) -> None:
    """Give a recipe at least ``score`` in ``scores`` (in place): a match without example evidence when it has
    none, its own evidence kept when it has some."""
    current = scores.get(recipe_id)
    if current is None:
        scores[recipe_id] = Match(score, 0.0, None, [])
    elif score > current.score:
        scores[recipe_id] = dataclasses.replace(current, score=score)


def weighed(scores: Mapping[str, Match], weights: Mapping[str, float]) -> dict[str, Match]:
    """``scores`` with each recipe's score times its weight in ``weights`` (the recipes not there as they are)."""
    return {
        rid: dataclasses.replace(m, score=m.score * weights[rid]) if rid in weights else m for rid, m in scores.items()
    }


_SHAPE_VERBS = {
    "only-added": ("add",),
    "only-removed": ("remove", "delete"),
    "version-bump": ("upgrade", "update", "version"),
    "file-deleted": ("delete", "remove", "file"),
    "file-added": ("create", "add", "file"),
    "package-move": ("change", "package"),
    "type-change": ("change", "type"),
}


def _verbs(shape: str) -> tuple[str, ...]:
    """Words a recipe doing this kind of edit is usually named with (``§version-bump`` → upgrade ...),
    and the file kind itself (``§kind:dockerfile`` → docker)."""
    if shape.startswith("§kind:"):
        kind = shape.removeprefix("§kind:")
        return (kind.removesuffix("file"),) if kind == "dockerfile" else (kind,)
    return _SHAPE_VERBS.get(shape.rsplit(":", 1)[-1].removeprefix("§"), ())


_ID_VERSION = re.compile(r"(?<!\d)_?(\d+(?:_\d+)*)(?=$|[A-Z_]|to)")


@lru_cache(maxsize=16384)
def id_versions(recipe_id: str) -> tuple[str, ...]:
    """Versions a recipe's class name names: ``UpgradeSpringBoot_2_7`` → 2.7, ``MigrateToGradle8`` → 8,
    ``Micronaut3to4Migration`` → 3, 4; a digit inside a word (``Log4j``) is not a version."""
    name = recipe_id.rsplit(".", 1)[-1]
    return tuple(m.group(1).replace("_", ".") for m in _ID_VERSION.finditer(name))


def version_factor(recipe_id: str, added: Sequence[str]) -> float:
    """Version evidence: does the version in the recipe's id agree with a version the hunk moves to?
    Neutral when either side names none."""
    named = id_versions(recipe_id)
    if not named or not added:
        return 1.0
    return V_AGREE if any(agrees(version, added) for version in named) else V_DISAGREE


def score_segment(seg: Change, cos: np.ndarray, rcos: np.ndarray, snap: ExampleSnapshot) -> dict[str, Match]:
    """Best match per recipe for one segment: embedding, IDF-weighted Dice overlap of side-tagged tokens
    (accumulated over the postings), and the file kind."""
    best: dict[str, Match] = {}
    count = len(snap.examples)
    if count:
        overlap = np.zeros(count, dtype=np.float32)
        seg_tokens = side_tokens(seg)
        seg_weight = 0.0
        for token in sorted(seg_tokens):  # one summation order: the same scores in every process
            weight = snap.idf.get(token, math.log(1 + count))
            seg_weight += weight
            ids = snap.postings.get(token)
            if ids is not None:
                overlap[ids] += weight
        lexical = 2 * overlap / (seg_weight + snap.weights + 1e-6)
        paired = pair_overlap(seg, snap) if W_PAIR > 0 else 0.0
        constructs = construct_overlap(seg, snap) if W_CONSTRUCT > 0 else None
        if constructs is not None:
            share = W_CONSTRUCT * names_kept(seg)
            lexical = (1 - share) * lexical + share * constructs
        kind = (snap.kinds == seg.kind).astype(np.float32)
        scores = W_EMBED * cos * (0.6 + 0.4 * kind) + W_LEX * lexical + W_PAIR * paired + W_KIND * kind
        if seg.kind == "maven" and SECTION_MISMATCH < 1.0:
            managed = MANAGED_SHAPE in seg.shapes
            scores = np.where(kind.astype(bool) & (snap.managed != managed), scores * SECTION_MISMATCH, scores)
        for i in np.argsort(-scores)[:200].tolist():
            rid = snap.example_recipes[i]
            if rid not in best:
                best[rid] = Match(float(scores[i]), float(cos[i]), i, [])
    # A composite makes the changes of the recipes it lists: it inherits their matches, slightly discounted,
    # so a migration whose parts match several hunks can rank above each part.
    added = new_versions(seg)
    for rid, match in list(best.items()):
        if match.example is None:
            continue
        for parent in snap.parents.get(rid, ())[:MAX_PARENTS]:
            score = match.score * W_PARENT * version_factor(parent, added)
            current = best.get(parent)
            if current is None or score > current.score:
                best[parent] = Match(score, match.cosine, match.example, [])
    if len(snap.recipe_ids):
        # Recipes by their own words: the hunk's changed tokens (and the verbs its edit shape implies) in
        # the recipe's id, name and description, as a share of the hunk's token weight; plus the embedding.
        verbs = {w for shape in seg.shapes for w in _verbs(shape)}
        # A whole file deleted or created: what changed is the file's existence, not its words.
        hunk_words = verbs if seg.deleted_file or seg.new_file else (seg.tokens_removed | seg.tokens_added) | verbs
        hit = np.zeros(len(snap.recipe_ids), dtype=np.float32)
        total = 1e-6
        for word in sorted(hunk_words):
            idf = snap.recipe_idf.get(word)
            if idf is None:
                continue
            total += idf
            hit[snap.recipe_postings[word]] += idf
        rscore = W_RECIPE * rcos + W_RECIPE_LEX * hit / total
        for j in np.argsort(-rscore)[:30].tolist():
            rid = snap.recipe_ids[j]
            score = float(rscore[j])
            current = best.get(rid)
            if current is None or score > current.score:
                best[rid] = Match(score, float(rcos[j]), None, [])
    return best


def pair_overlap(seg: Change, snap: ExampleSnapshot) -> np.ndarray | float:
    """IDF-weighted Dice overlap of the segment's ``old>new`` substitutions with each example's (0 when the
    segment pairs no lines, or none of its substitutions is any example's)."""
    shared = dice(pair_tokens(seg), snap.pair_postings, snap.pair_idf, snap.pair_weights, len(snap.examples))
    return 0.0 if shared is None else shared


def names_kept(seg: Change) -> float:
    """How much of a change keeps its names (Jaccard of the removed and added lines' tokens): 1 for a construct
    rewritten around the same names (a cast into an ``instanceof`` pattern), 0 for names swapped or only added."""
    union = seg.tokens_removed | seg.tokens_added
    return len(seg.tokens_removed & seg.tokens_added) / len(union) if union else 0.0


def construct_overlap(seg: Change, snap: ExampleSnapshot) -> np.ndarray | None:
    """IDF-weighted Dice overlap of the construct change a Java or Kotlin segment makes (``syntax``) with each
    example's (None when the segment is of another kind, or shares no construct token with any example)."""
    postings, idf, weights = snap.construct_postings, snap.construct_idf, snap.construct_weights
    return dice(construct_tokens(seg), postings, idf, weights, len(snap.examples))


def dice(
    tokens: set[str], postings: Mapping[str, np.ndarray], idf: Mapping[str, float], weights: np.ndarray, count: int
) -> np.ndarray | None:
    """IDF-weighted Dice overlap of ``tokens`` with each of ``count`` examples (``postings``: token → example
    indices, ``weights``: each example's summed IDF); None when no example has any of them."""
    ordered = sorted(tokens)  # one summation order: the same scores in every process
    if not any(token in postings for token in ordered):
        return None
    shared = np.zeros(count, dtype=np.float32)
    total = 0.0
    for token in ordered:
        weight = idf.get(token, math.log(1 + count))
        total += weight
        ids = postings.get(token)
        if ids is not None:
            shared[ids] += weight
    return 2 * shared / (total + weights + 1e-6)


def embed_segments(embedder: Embedder, segments: Sequence[Segment], phrases: Sequence[list[str]]) -> np.ndarray:
    """Vectors of the segments' changed lines (zero rows for those left out): the segments the words
    bridge says least about first, at most ``MAX_EMBEDDED``, identical texts once. Embedding is most of a
    large diff's cost and adds little where a hunk's words already name its change."""
    texts = [s.change.text(limit=QUERY_TEXT_CHARS) for s in segments]
    chosen = sorted(range(len(segments)), key=lambda n: (len(phrases[n]), n))[:MAX_EMBEDDED]
    distinct = list(dict.fromkeys(texts[n] for n in chosen))
    if not distinct:
        return np.zeros((len(segments), config.EMBEDDING_DIM), dtype=np.float32)
    encoded = embedder.encode(distinct)
    out = np.zeros((len(segments), encoded.shape[1]), dtype=np.float32)
    index = {t: i for i, t in enumerate(distinct)}
    for n in chosen:
        out[n] = encoded[index[texts[n]]]
    return out


def demotion(recipe_id: str, snap: ExampleSnapshot) -> float:
    """A search-only recipe marks what it finds, a PR diff is a change; a recipe that only removes imports tidies
    after the change that made them unused; a republished copy or a generated fragment takes a slot its canonical
    recipe (or collection) should have."""
    factor = SEARCH_ONLY if recipe_id in snap.search_only else 1.0
    factor *= CLEANUP if recipe_id in snap.cleanups else 1.0
    return factor * COPY if recipe_id in snap.copies else factor


def inherited_demotion(recipe_id: str, source: str, snap: ExampleSnapshot) -> float:
    """The demotion a recipe's example evidence carries from the recipe whose example it is, when that is
    another (a step the composite lists): a step that tidies, marks or copies does so in the composite too."""
    return 1.0 if source == recipe_id else demotion(source, snap)


def fuse(
    seg: Change,
    example: dict[str, Match],
    text: dict[str, tuple[float, str]],
    snap: ExampleSnapshot,
    phrases: Sequence[str] = (),
    mentioned: Collection[str] = (),
    constructs: Sequence[str] = (),
) -> dict[str, Match]:
    """The example evidence plus the words evidence, weighed by version evidence. For a deleted or created
    file the content matches less (a deleted class resembles many examples) unless the example also
    deletes or creates a file. ``mentioned``: every word of the diff (``anchors.diff_words``), where a preset's
    configured type shows (an import); ``constructs``: the segment's construct change in words
    (``syntax.construct_phrases``, computed once with its phrases), which a recipe undoing it works against."""
    added = new_versions(seg)
    whole = whole_file(seg)
    out: dict[str, Match] = {}
    for rid in example.keys() | text.keys():
        match = example.get(rid)
        base = match.score if match else 0.0
        if whole and not (match and match.example is not None and snap.whole_file[match.example] == whole):
            base *= WHOLE_FILE_CONTENT
        if INHERIT_DEMOTION and match and match.example is not None:
            base *= inherited_demotion(rid, snap.example_recipes[match.example], snap)
        words_score, phrase = text.get(rid, (0.0, None))
        score = (base + W_TEXT * words_score) * version_factor(rid, added)
        score *= demotion(rid, snap)
        if match is None:
            out[rid] = Match(score, 0.0, None, [], phrase)
        else:
            out[rid] = Match(score, match.cosine, match.example, match.tokens, phrase)
    if REVERSE < 1.0 and constructs:
        undo = undone_by(snap.examples)
        for rid, match in out.items():
            if not undo.get(rid, frozenset()).isdisjoint(constructs):
                out[rid] = dataclasses.replace(match, score=match.score * REVERSE)
    if PRESET > 0:
        _presets(seg, added, out, snap, mentioned)
    if UPGRADE > 0:
        _upgrades(seg, added, out, snap, phrases)
    return out


def _upgrades(
    seg: Change, added: Sequence[str], out: dict[str, Match], snap: ExampleSnapshot, phrases: Sequence[str]
) -> None:
    """An upgrade whose steps move what the segment moves, to the version it moves to, is the segment's core
    change (``UpgradeSpringBoot_3_3`` where the Boot plugin goes to 3.3.4); one that moves it elsewhere
    (``UpgradeSpringBoot_3_2`` there) is not."""
    index = snap.upgrades
    top = top_score(out)
    if not index.steps or not added or top <= 0:
        return
    handles = segment_handles(seg.tokens_removed | seg.tokens_added, phrases)
    for rid, said in agreements(index, handles, added).items():
        current = out.get(rid)
        if not said.agrees:
            if current is not None:
                out[rid] = dataclasses.replace(current, score=current.score * UPGRADE_DISAGREE)
            continue
        if said.holders <= UPGRADE_HOLDERS:
            raise_to(out, rid, top * UPGRADE * demotion(rid, snap))


def _presets(
    seg: Change, added: Sequence[str], out: dict[str, Match], snap: ExampleSnapshot, mentioned: Collection[str] = ()
) -> None:
    """A preset whose option values the segment shows (``UpgradeBuildToJava17`` where the build moves to 17,
    ``ExcludeJUnit4UnlessUsingTestcontainers`` where ``junit:junit`` goes) takes its step's evidence: it makes
    the same change, configured for this PR. A type a preset's method pattern names counts as shown where the
    diff names it anywhere (``slf4j.ParameterizedLogging``'s ``org.slf4j.Logger``: imported once, called in
    every changed line)."""
    if not snap.presets:
        return
    tokens = seg.tokens_removed | seg.tokens_added
    for rid, (step, values) in snap.presets.items():
        match = out.get(step)
        if match is None or version_factor(rid, added) < 1.0:
            continue
        if not all(option_shown(v, tokens, added) or type_shown(v, mentioned) for v in values):
            continue
        score = match.score * PRESET * demotion(rid, snap) / demotion(step, snap)
        # A recipe the preset runs that matched at least as well as its step (``UpdateJavaCompatibility`` under
        # ``UpgradeJavaVersion``) is the precise change: the preset stays below it.
        members = [m.score for r, m in out.items() if r != step and rid in snap.ancestors.get(r, ())]
        if members and max(members) >= match.score:
            score = min(score, max(members) * PRESET_BELOW)
        current = out.get(rid)
        if current is None or score > current.score:
            out[rid] = Match(score, match.cosine, match.example, match.tokens, match.phrase)


def type_shown(value: str, mentioned: Collection[str]) -> bool:
    """A preset's type value (``catalog.TYPE_VALUE``: the type a method pattern names) the diff names anywhere."""
    return PRESET_TYPES and value.startswith(TYPE_VALUE) and value.removeprefix(TYPE_VALUE) in mentioned


def option_shown(value: str, tokens: set[str], added: Sequence[str]) -> bool:
    """The segment shows an option value: among its changed tokens, or a version it moves to (``3.9.x``
    agrees with 3.9.2, ``17`` with 17)."""
    return value in tokens or (value[:1].isdigit() and agrees(value, added))
