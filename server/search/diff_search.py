"""Search recipes by the change itself: a PR diff against the before/after examples on recipe pages.

An agent holding a PR diff otherwise has to put the change into words and hope they meet a recipe's
description. Here the diff is split per file, hunk and run of changed lines (``diff_split``: git puts
changes a few lines apart into one hunk, a plugin bump and a Java level move are two changes), and each
segment is compared with every example stored in the catalog (``recipe_examples``) on three kinds of evidence:

- the embedding of the segment's removed/added lines against the example's (same text format both sides;
  only for the few segments the words below say least about: embedding is most of a large diff's cost),
- lexical overlap of changed tokens (class and package names, coordinates, keys, versions, and "shape"
  tokens such as "the tag of a FROM line changed"), weighted by how rare each token is among examples,
  removed tokens against removed, added against added,
- the file kind (Gradle, Maven, YAML, Dockerfile, Java, properties, ...).

Many recipes have no example, or one unlike a real project's file, while their names and descriptions say
what they do. So each segment is also described in the catalog's words (``diff_words``: "upgrade Gradle
plugin version X to 8.1.1", "add property networkTimeout to gradle-wrapper.properties", "delete files")
and the phrases go through the hybrid ``find_recipes``; its scores add to the example evidence.

Version evidence weighs both: a recipe whose id names a version (``UpgradeSpringBoot_2_7``,
``MigrateToGradle8``) gains when a version the segment moves to agrees and loses when none does. A
composite inherits half of a listed recipe's example match, so the leaf that makes the change ranks
above the dozen migrations that include it. Per segment the best recipes form a group; over the whole diff,
recipes are picked greedily so the hits cover the diff's different changes (small distinct ones, a
``FROM`` line or a deleted file, included) rather than repeating the recipes of its largest file.

Per-hunk words never say "migration": a PR that moves javax imports to jakarta in eight files is, as a
whole, what the catalog calls "Migrate to Jakarta EE". So the PR is also described as a whole
(``diff_words.describe_pr``: the same package family moved in several files, the same Java level in
several build and CI files), those few phrases are searched the same way, and each becomes one more unit
in the pick that stands for the segments it sums up. A hit of such a phrase gains by the share of those
segments it explains (it, or a recipe it lists, is among each one's best): the umbrella migration, not a
sibling that only shares its words.
"""

from __future__ import annotations

import dataclasses
import math
import re
import time
from collections import defaultdict
from collections.abc import Iterable, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import numpy as np
from pydantic import BaseModel, Field

from .. import config
from ..catalog.examples import StoredExample, as_array, load_examples
from ..catalog.store import CatalogStore, catalog_revision, identifier_words
from ..diffs.features import Change, corresponding_value, words
from ..diffs.loader import PathCheck, load_diff
from ..embedding import Embedder
from ..errors import BadInput
from .diff_split import Segment, split_diff
from .diff_words import Wide, describe, describe_pr, versions
from .models import SearchHit, catalog_fields
from .priors import is_generated_fragment
from .snapshot import snapshot_for

MODEL_KEY = "all-MiniLM-L6-v2"

MAX_EMBEDDED = 8  # segments whose changed lines are embedded (the others: lexical and words evidence)
QUERY_TEXT_CHARS = 200  # embedding cost grows with text length; the first lines of a hunk carry its gist

# Weights of the evidence, tuned on the tune half of the labelled pr-cases (repositories 1, 3, 5, ...
# alphabetically; the other half is held out): figures on the tune half are in-sample, see the README.
W_EMBED = 0.6
W_LEX = 2.0
W_KIND = 0.15
WHOLE_FILE_CONTENT = 0.5  # a deleted or created file: share of the content evidence (its words count)
W_RECIPE = 0.8  # description embedding, for recipes without a matching example
W_RECIPE_LEX = 1.0  # the hunk's words in a recipe's id, name and description
W_PARENT = 0.5  # a composite's share of a listed recipe's match
MAX_PARENTS = 12
W_TEXT = 1.2  # the hunk described in words, searched with find_recipes (its fusion score)
TEXT_HITS = 10  # find_recipes hits kept per phrase
MAX_PHRASES = 24  # distinct phrases searched per diff: every segment's first, then the later ones (``budget_phrases``)
PHRASE_DECAY = 0.1  # later phrases of a hunk are less specific
V_AGREE = 1.15  # the version a recipe's id names agrees with a version the hunk adds
V_DISAGREE = 0.5  # ... names a version, the hunk adds versions, and none agrees
W_SPREAD = 0.15  # in the whole-diff pick: share of a recipe's matches in other segments
SPREAD_MIN = 0.85  # ... counted where the recipe is among a segment's best (share of that segment's top)
SEGMENT_LIFT = 0.5  # in the pick: how far each segment's scores are lifted toward the diff's best segment
UNWORDED = 0.7  # in the pick: a segment without any phrase (its scores' share)
SEARCH_ONLY = 0.5  # a search-only recipe (``priors.is_search_only``) marks code, a PR changes it
COPY = 0.7  # a republished copy (``io.quarkus.updates...``) or a generated ``Outer$Inner`` fragment
W_WIDE = 2.0  # a PR-level description (the same move in several files), searched with find_recipes
WIDE_MIN = 0.6  # ... its hits below this fusion score are left out (the words met no recipe's own words)
# ... a hit gains W_EXPLAIN times the share of the summed-up segments that it, or a recipe it lists, is
# among the EXPLAIN_TOP best of
W_EXPLAIN = 1.0
EXPLAIN_TOP = 10
WIDE_COVER = 1.0  # in the pick: what a recipe a PR-level description found leaves of the segments it sums up
WIDE_LIFTED = True  # the PR-level unit's scores are lifted toward the best segment like a small hunk's
GROUP_SIZE = 5
COVERAGE_DECAY = 0.55


_PHRASE_POOL = ThreadPoolExecutor(max_workers=4, thread_name_prefix="diff-phrases")


class Evidence(BaseModel):
    file: str = Field(description="the PR file the match is in")
    hunk: int = Field(description="1-based hunk number within that file (0: the whole file, merged)")
    score: float
    example: int | None = Field(description="number of the matched example on the recipe page (None: description)")
    example_file: str | None = None
    example_recipe: str | None = Field(
        default=None, description="whose example matched, when it is a recipe this composite runs"
    )
    matched_tokens: list[str] = Field(default_factory=list, description="changed tokens both sides share")
    described_as: str | None = Field(
        default=None, description="the hunk put in words, when searching those words found this recipe"
    )
    summed_up: int | None = Field(
        default=None, description="a PR-level description found it: how many hunks it sums up (file: those files)"
    )


class DiffSearchHit(SearchHit):
    evidence: list[Evidence] = Field(default_factory=list, description="best matches, strongest first")
    suggested_options: dict[str, str] = Field(
        default_factory=dict, description="option values read off the PR where an example's parameter lines up"
    )


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
    files: int
    hunks: int
    searched_segments: int
    skipped: list[str] = Field(default_factory=list, description="what was not searched, and why")
    hint: str | None = None


@dataclass
class _Snapshot:
    examples: list[StoredExample]
    matrix: np.ndarray
    postings: dict[str, np.ndarray]  # side-tagged token ("-x", "+x", "§shape") → example indices
    idf: dict[str, float]
    weights: np.ndarray  # per example: the summed IDF of its side-tagged tokens
    example_recipes: list[str]
    kinds: np.ndarray
    recipe_ids: list[str]
    recipe_matrix: np.ndarray
    parents: dict[str, list[str]]  # recipe → the composites that list it
    recipe_postings: dict[str, np.ndarray]  # word of an id, name or description → recipe indices
    recipe_idf: dict[str, float]
    whole_file: np.ndarray  # per example: 1 deleted file, 2 new file, 0 an edit
    search_only: frozenset[str]  # recipes that mark or report instead of changing (``priors.is_search_only``)
    copies: frozenset[str]  # republished copies and generated ``Outer$Inner`` fragments (``priors``)


def _side_tokens(change: Change) -> set[str]:
    """Removed tokens match removed ones, added match added; shape tokens match each other."""
    return (
        {"-" + t for t in change.tokens_removed}
        | {"+" + t for t in change.tokens_added}
        | {t for t in change.shapes if not t.startswith("§kind:")}
    )


def _whole_file(change: Change) -> int:
    """1: the change deletes a file, 2: it creates one, 0: it edits one."""
    return 1 if change.deleted_file else 2 if change.new_file else 0


def _example_kind(kind: str) -> str:
    """Some pages name a Gradle example's block after the test helper that builds it (``buildGradleKts``,
    ``settingsGradle``) instead of a file: those are Gradle scripts, as a PR's ``build.gradle.kts`` is."""
    return "gradle" if kind.endswith(("gradle", "gradlekts")) else kind


# -- the catalog side --------------------------------------------------------------------------------
def _snapshot(store: CatalogStore) -> _Snapshot:
    from .hybrid import configured_tuning

    meta = store.check_ready()
    # The search's ranking snapshot already knows which recipes only find things (one rule for both
    # searches); read it before ``memo`` builds ours, which holds the memo lock.
    ranking = snapshot_for(store, meta, configured_tuning().model_key)

    def build() -> _Snapshot:
        with store.db.cursor() as cur:
            examples, matrix = load_examples(cur, MODEL_KEY)
            # Recipes with a docs page only: a Moderne-only recipe cannot go into a rewrite.yml the plugins run.
            cur.execute(
                "SELECT e.recipe_id, e.embedding FROM recipe_embeddings e JOIN recipes r ON r.id = e.recipe_id "
                "WHERE e.model = %s AND r.availability = 'docs'",
                (MODEL_KEY,),
            )
            rows = cur.fetchall()
            cur.execute("SELECT id, data->'used_by' FROM recipes WHERE used_by_count > 0")
            parents = {rid: list(used_by or []) for rid, used_by in cur.fetchall()}
            cur.execute("SELECT id, display_name, left(description, 400) FROM recipes WHERE availability = 'docs'")
            texts = {rid: f"{identifier_words(rid)} {name} {description}" for rid, name, description in cur.fetchall()}
        # Search-only recipes mark results (``~~>``) instead of changing code: no PR diff looks like that.
        keep = [i for i, ex in enumerate(examples) if not any("~~" in line for line in ex.change.added)]
        examples = [examples[i] for i in keep]
        matrix = matrix[keep] if len(keep) else matrix[:0]
        lists: dict[str, list[int]] = defaultdict(list)
        example_tokens = [_side_tokens(ex.change) for ex in examples]
        for i, tokens in enumerate(example_tokens):
            for token in tokens:
                lists[token].append(i)
        n = max(len(examples), 1)
        idf = {t: math.log(1 + n / len(ids)) for t, ids in lists.items()}
        weights = np.array([sum(idf[t] for t in tokens) for tokens in example_tokens], dtype=np.float32)
        postings = {t: np.array(ids, dtype=np.int64) for t, ids in lists.items()}
        recipe_ids = [r[0] for r in rows]
        word_lists: dict[str, list[int]] = defaultdict(list)
        for j, rid in enumerate(recipe_ids):
            for word in set(words(texts.get(rid, ""))):
                word_lists[word].append(j)
        n_recipes = max(len(recipe_ids), 1)
        recipe_idf = {w: math.log(1 + n_recipes / len(ids)) for w, ids in word_lists.items()}
        recipe_postings = {w: np.array(ids, dtype=np.int64) for w, ids in word_lists.items()}
        recipe_matrix = np.vstack([as_array(r[1]) for r in rows]) if rows else np.zeros((0, 1), np.float32)
        return _Snapshot(
            examples,
            matrix,
            postings,
            idf,
            weights,
            [ex.recipe_id for ex in examples],
            np.array([_example_kind(ex.change.kind) for ex in examples]),
            recipe_ids,
            recipe_matrix,
            parents,
            recipe_postings,
            recipe_idf,
            np.array([_whole_file(ex.change) for ex in examples]),
            frozenset(rid for rid, row in ranking.rows.items() if row.facts.search_only),
            frozenset(
                rid for rid, row in ranking.rows.items() if row.facts.republished_copy or is_generated_fragment(rid)
            ),
        )

    return store.memo("diff-search", catalog_revision(meta), build)


# -- scoring -----------------------------------------------------------------------------------------
@dataclass
class _Match:
    score: float
    cosine: float
    example: int | None  # index into snapshot.examples
    tokens: list[str]
    phrase: str | None = None  # the words of the segment that found the recipe, when they did


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


def shared_tokens(seg: Change, ex: Change, idf: dict[str, float]) -> list[str]:
    """The rarest changed tokens a PR hunk and an example share (for the evidence)."""
    same = _side_tokens(seg) & _side_tokens(ex)
    ranked = sorted((t for t in same if not t.startswith("§")), key=lambda t: -idf.get(t, 1.0))
    return list(dict.fromkeys(t[1:] for t in ranked))[:6]  # a token removed and added back counts once


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
    for version in named:
        if any(v == version or v.startswith(version + ".") for v in added):
            return V_AGREE
    return V_DISAGREE


def new_versions(change: Change) -> list[str]:
    """Versions on the hunk's added lines that its removed lines do not have."""
    old = set(versions(change.removed))
    return [v for v in versions(change.added) if v not in old]


def _score_segment(seg: Change, cos: np.ndarray, rcos: np.ndarray, snap: _Snapshot) -> dict[str, _Match]:
    """Best match per recipe for one segment: embedding, IDF-weighted Dice overlap of side-tagged tokens
    (accumulated over the postings), and the file kind."""
    best: dict[str, _Match] = {}
    count = len(snap.examples)
    if count:
        overlap = np.zeros(count, dtype=np.float32)
        seg_tokens = _side_tokens(seg)
        seg_weight = 0.0
        for token in seg_tokens:
            weight = snap.idf.get(token, math.log(1 + count))
            seg_weight += weight
            ids = snap.postings.get(token)
            if ids is not None:
                overlap[ids] += weight
        lexical = 2 * overlap / (seg_weight + snap.weights + 1e-6)
        kind = (snap.kinds == seg.kind).astype(np.float32)
        scores = W_EMBED * cos * (0.6 + 0.4 * kind) + W_LEX * lexical + W_KIND * kind
        for i in np.argsort(-scores)[:200].tolist():
            rid = snap.example_recipes[i]
            if rid not in best:
                best[rid] = _Match(float(scores[i]), float(cos[i]), i, [])
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
                best[parent] = _Match(score, match.cosine, match.example, [])
    if len(snap.recipe_ids):
        # Recipes by their own words: the hunk's changed tokens (and the verbs its edit shape implies) in
        # the recipe's id, name and description, as a share of the hunk's token weight; plus the embedding.
        verbs = {w for shape in seg.shapes for w in _verbs(shape)}
        # A whole file deleted or created: what changed is the file's existence, not its words.
        hunk_words = verbs if seg.deleted_file or seg.new_file else (seg.tokens_removed | seg.tokens_added) | verbs
        hit = np.zeros(len(snap.recipe_ids), dtype=np.float32)
        total = 1e-6
        for word in hunk_words:
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
                best[rid] = _Match(score, float(rcos[j]), None, [])
    return best


def _embed(embedder: Embedder, segments: Sequence[Segment], phrases: Sequence[list[str]]) -> np.ndarray:
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


def _start_searches(store: CatalogStore, embedder: Embedder, phrases: Iterable[str]) -> dict[str, Future[Any]]:
    """Start searching each distinct phrase with the hybrid ``find_recipes``, a few at a time: each call
    waits mostly on the database, so they run beside the example scoring. The phrases are already in the
    catalog's vocabulary (``diff_words``), so no rewritten phrasings are added to them."""
    from .hybrid import configured_tuning, find_recipes

    tuning = dataclasses.replace(configured_tuning(), query_rewrite=0)

    def one(phrase: str) -> dict[str, float]:
        return {
            h.id: float(h.fusion_score)
            for h in find_recipes(store, embedder, phrase, limit=TEXT_HITS, tuning=tuning).hits
        }

    return {phrase: _PHRASE_POOL.submit(one, phrase) for phrase in dict.fromkeys(phrases)}


def budget_phrases(phrases: Sequence[list[str]], kinds: Sequence[str]) -> list[str]:
    """The distinct phrases to search, at most ``MAX_PHRASES``: every segment's first (most specific)
    phrase, in diff order, then the later phrases taking turns by file kind (a Gradle segment's, a
    Dockerfile's, a workflow's, then each kind's next segment; second phrases before third ones). Each kind
    of file has its own family of recipes; taken in diff order, the spare slots would all go to the diff's
    first files (``.github``, ``Dockerfile``) and none to a later build or properties file."""
    out = list(dict.fromkeys(own[0] for own in phrases if own))
    turn: dict[int, int] = {}
    taken: dict[str, int] = defaultdict(int)
    for n, own in enumerate(phrases):
        if len(own) > 1:
            turn[n] = taken[kinds[n]]
            taken[kinds[n]] += 1
    later = sorted(turn, key=lambda n: (turn[n], n))
    for position in range(1, max((len(own) for own in phrases), default=1)):
        out += [phrases[n][position] for n in later if position < len(phrases[n])]
    return list(dict.fromkeys(out))[:MAX_PHRASES]


def _search_wide(store: CatalogStore, embedder: Embedder, wide: Sequence[Wide]) -> dict[str, Future[Any]]:
    """Start searching the PR-level phrases (a few per diff) the same way as the segments' phrases."""
    return _start_searches(store, embedder, (phrase for w in wide for phrase in w.phrases))


def _wide_scores(
    wide: Sequence[Wide], pending: dict[str, Future[Any]], per_segment: list[dict[str, _Match]], snap: _Snapshot
) -> list[dict[str, _Match]]:
    """Per PR-level description: the recipes its phrases found, weighed like a segment's words evidence
    (and by the version it moves to); no example evidence, a whole project's move has no one example.
    A hit that explains the segments the description sums up (it, or a recipe it lists, is among each
    one's best) gains: that is the umbrella migration, not one of its siblings."""
    found = {phrase: future.result() for phrase, future in pending.items()}
    out: list[dict[str, _Match]] = []
    for w in wide:
        explains: dict[str, int] = defaultdict(int)
        for n in w.segments:
            best = sorted(per_segment[n].items(), key=lambda kv: -kv[1].score)[:EXPLAIN_TOP]
            for rid in {r for r, _ in best} | {p for r, _ in best for p in snap.parents.get(r, ())}:
                explains[rid] += 1
        scores: dict[str, _Match] = {}
        added = [w.version] if w.version else []
        for position, phrase in enumerate(w.phrases):
            weight = W_WIDE * (1.0 - PHRASE_DECAY * position)
            for rid, value in found.get(phrase, {}).items():
                if value < WIDE_MIN:
                    continue
                share = explains.get(rid, 0) / len(w.segments)
                score = weight * value * (1 + W_EXPLAIN * share) * version_factor(rid, added)
                score *= _demotion(rid, snap)
                if rid not in scores or score > scores[rid].score:
                    scores[rid] = _Match(score, 0.0, None, [], phrase)
        out.append(scores)
    return out


def _text_scores(phrases: Sequence[list[str]], pending: dict[str, Future[Any]]) -> list[dict[str, tuple[float, str]]]:
    """Per segment: the recipes its phrases found, by fusion score (later phrases of a segment count less),
    with the phrase that found each."""
    found = {phrase: future.result() for phrase, future in pending.items()}
    out: list[dict[str, tuple[float, str]]] = []
    for own in phrases:
        scores: dict[str, tuple[float, str]] = {}
        for position, phrase in enumerate(own):
            weight = 1.0 - PHRASE_DECAY * position
            for rid, value in found.get(phrase, {}).items():
                if weight * value > scores.get(rid, (0.0, ""))[0]:
                    scores[rid] = (weight * value, phrase)
        out.append(scores)
    return out


def _demotion(recipe_id: str, snap: _Snapshot) -> float:
    """A search-only recipe marks what it finds, a PR diff is a change; a republished copy or a generated
    fragment takes a slot its canonical recipe (or collection) should have."""
    factor = SEARCH_ONLY if recipe_id in snap.search_only else 1.0
    return factor * COPY if recipe_id in snap.copies else factor


def _fuse(
    seg: Change, example: dict[str, _Match], text: dict[str, tuple[float, str]], snap: _Snapshot
) -> dict[str, _Match]:
    """The example evidence plus the words evidence, weighed by version evidence. For a deleted or created
    file the content matches less (a deleted class resembles many examples) unless the example also
    deletes or creates a file."""
    added = new_versions(seg)
    whole = _whole_file(seg)
    out: dict[str, _Match] = {}
    for rid in example.keys() | text.keys():
        match = example.get(rid)
        base = match.score if match else 0.0
        if whole and not (match and match.example is not None and snap.whole_file[match.example] == whole):
            base *= WHOLE_FILE_CONTENT
        words_score, phrase = text.get(rid, (0.0, None))
        score = (base + W_TEXT * words_score) * version_factor(rid, added)
        score *= _demotion(rid, snap)
        if match is None:
            out[rid] = _Match(score, 0.0, None, [], phrase)
        else:
            out[rid] = _Match(score, match.cosine, match.example, match.tokens, phrase)
    return out


def find_recipes_for_diff(
    store: CatalogStore,
    embedder: Embedder,
    pr_diff: str,
    *,
    limit: int = 10,
    check_path: PathCheck | None = None,
) -> DiffSearchResult:
    """Recipes whose documented examples make changes like the PR diff's (text, or a path to it)."""
    if not 1 <= limit <= 50:
        raise BadInput(f"limit must be between 1 and 50, got {limit}")
    _, text = load_diff(pr_diff, what="PR diff", check_path=check_path)
    segments, skipped, files, hunks = split_diff(text)
    snap = _snapshot(store)
    phrases = [describe(s.file, s.change, s.context) for s in segments]
    wide = describe_pr([(s.file, s.change) for s in segments]) if W_WIDE > 0 else []
    # The PR-level phrases first: a few (``MAX_WIDE``), each summing up many segments.
    pending_wide = _search_wide(store, embedder, wide)
    pending = (
        _start_searches(store, embedder, budget_phrases(phrases, [s.change.kind for s in segments]))
        if W_TEXT > 0
        else {}
    )
    vectors = _embed(embedder, segments, phrases)
    # One matrix product per side for all segments (cosines: the vectors are normalized).
    cos = vectors @ snap.matrix.T if len(snap.examples) else np.zeros((len(segments), 0), np.float32)
    rcos = vectors @ snap.recipe_matrix.T if len(snap.recipe_ids) else np.zeros((len(segments), 0), np.float32)
    per_segment = [_score_segment(s.change, cos[n], rcos[n], snap) for n, s in enumerate(segments)]
    if W_TEXT > 0:
        texts = _text_scores(phrases, pending)
        per_segment = [_fuse(s.change, per_segment[n], texts[n], snap) for n, s in enumerate(segments)]

    groups = []
    for seg, scores in zip(segments, per_segment, strict=True):
        top = sorted(scores.items(), key=lambda kv: -kv[1].score)[:GROUP_SIZE]
        groups.append(
            HunkGroup(
                file=seg.file,
                hunk=seg.hunk,
                kind=seg.change.kind,
                header=seg.header,
                recipes=[GroupHit(id=rid, score=round(m.score, 4)) for rid, m in top],
            )
        )
    wide_scores = _wide_scores(wide, pending_wide, per_segment, snap)
    wide_files = []
    for w, scores in zip(wide, wide_scores, strict=True):
        paths = list(dict.fromkeys(segments[n].file for n in w.segments))
        wide_files.append(f"{len(paths)} files: {', '.join(paths[:3])}{', ...' if len(paths) > 3 else ''}")
        top = sorted(scores.items(), key=lambda kv: -kv[1].score)[:GROUP_SIZE]
        groups.append(
            HunkGroup(
                file=wide_files[-1],
                hunk=0,
                kind="pr",
                header=w.phrases[0],
                recipes=[GroupHit(id=rid, score=round(m.score, 4)) for rid, m in top],
            )
        )

    units = per_segment + wide_scores
    covers = [(n,) for n in range(len(segments))] + [w.segments for w in wide]
    ranked = _pick(units, limit, [bool(own) for own in phrases] + [True] * len(wide), covers)
    recipes = store.get_recipes([rid for rid, _ in ranked])
    hits = []
    for rid, total in ranked:
        recipe = recipes.get(rid)
        if recipe is None:
            continue
        matches = sorted(
            ((n, units[n][rid]) for n in range(len(units)) if rid in units[n]),
            key=lambda nm: -nm[1].score,
        )
        evidence = []
        suggested: dict[str, str] = {}
        for n, match in matches[:3]:
            if n >= len(segments):  # a PR-level description found it
                evidence.append(
                    Evidence(
                        file=wide_files[n - len(segments)],
                        hunk=0,
                        score=round(match.score, 4),
                        example=None,
                        described_as=match.phrase,
                        summed_up=len(covers[n]),
                    )
                )
                continue
            seg = segments[n]
            ex = snap.examples[match.example] if match.example is not None else None
            evidence.append(
                Evidence(
                    file=seg.file,
                    hunk=seg.hunk,
                    score=round(match.score, 4),
                    example=ex.example if ex else None,
                    example_file=ex.file if ex else None,
                    example_recipe=ex.recipe_id if ex and ex.recipe_id != rid else None,
                    matched_tokens=shared_tokens(seg.change, ex.change, snap.idf) if ex else [],
                    described_as=match.phrase,
                )
            )
            if ex is not None and ex.recipe_id == rid:  # a listed recipe's parameters are not the composite's
                for name, value in _suggest(ex, seg.change).items():
                    suggested.setdefault(name, value)
        hits.append(
            DiffSearchHit(
                **catalog_fields(recipe),
                cosine_score=round(max(m.cosine for _, m in matches), 4),
                fusion_score=round(total, 6),
                # the hunks matched; a PR-level match counts the hunks it sums up
                matched_variations=len({s for n, _ in matches for s in covers[n]}),
                evidence=evidence,
                suggested_options=suggested,
            )
        )
    hint = None
    if not hits:
        hint = "No recipe example resembles this diff; describe the change in words with find_recipes."
    return DiffSearchResult(
        hits=hits,
        groups=groups,
        files=files,
        hunks=hunks,
        searched_segments=len(segments),
        skipped=skipped,
        hint=hint,
    )


def _pick(
    per_segment: list[dict[str, _Match]],
    limit: int,
    worded: Sequence[bool] | None = None,
    covers: Sequence[Sequence[int]] | None = None,
) -> list[tuple[str, float]]:
    """Greedy selection over the whole diff: a recipe's value is its best segment score weighted by how
    much of that segment is still uncovered, plus a little for every other segment it matches well.

    ``covers`` says which segments each unit stands for: a segment itself, or for a PR-level description
    the segments it sums up, which a recipe it finds covers too (``WIDE_COVER``)."""
    weights = [1.0] * len(per_segment)
    tops = [max((m.score for m in scores.values()), default=0.0) for scores in per_segment]
    best = max(tops, default=0.0)
    # A small hunk's best recipe (a FROM line, a deleted file) scores lower than a big hunk's; lifting each
    # segment part of the way toward the best one keeps it from being starved by the big hunks' runners-up.
    lift = [(1 - SEGMENT_LIFT) + SEGMENT_LIFT * best / top if top > 0 else 1.0 for top in tops]
    if covers is not None and not WIDE_LIFTED:
        lift = [1.0 if len(covers[n]) > 1 else f for n, f in enumerate(lift)]
    if worded is not None:
        # A segment the words bridge cannot name (hand-written code) has only weak, scattered evidence.
        lift = [f if worded[n] else f * UNWORDED for n, f in enumerate(lift)]
    candidates: dict[str, list[tuple[int, float]]] = defaultdict(list)
    for n, scores in enumerate(per_segment):
        for rid, m in sorted(scores.items(), key=lambda kv: -kv[1].score)[:25]:
            candidates[rid].append((n, m.score * lift[n]))
    tops = [top * lift[n] for n, top in enumerate(tops)]
    chosen: list[tuple[str, float]] = []
    while candidates and len(chosen) < limit:

        def value(rid: str) -> float:
            parts = sorted((weights[n] * s for n, s in candidates[rid]), reverse=True)
            spread = sorted((weights[n] * s for n, s in candidates[rid] if s >= SPREAD_MIN * tops[n]), reverse=True)
            return parts[0] + W_SPREAD * sum(spread[1:4])

        rid = max(candidates, key=lambda r: (value(r), r))
        chosen.append((rid, value(rid)))
        for n, s in candidates.pop(rid):
            if s >= 0.85 * tops[n]:
                weights[n] *= COVERAGE_DECAY
                if covers is not None and len(covers[n]) > 1:
                    for covered in covers[n]:
                        weights[covered] *= WIDE_COVER
    return chosen


def _suggest(ex: StoredExample, change: Change) -> dict[str, str]:
    """Option values for the recipe, read off the PR hunk where an example parameter lines up with it."""
    out: dict[str, str] = {}
    for name, value in ex.parameters.items():
        if len(value) < 2 or value in {"true", "false"}:
            continue
        found = corresponding_value(value, ex.change.added, change.added)
        if found is None:
            found = corresponding_value(value, ex.change.removed, change.removed)
        if found is not None:
            out[name] = found
    return out


def timed_search(store: CatalogStore, embedder: Embedder, text: str, limit: int = 10) -> tuple[Any, float]:
    """Run one search and return it with its wall time in seconds (for the benchmark)."""
    start = time.perf_counter()
    result = find_recipes_for_diff(store, embedder, text, limit=limit)
    return result, time.perf_counter() - start
