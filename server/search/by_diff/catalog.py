"""The catalog side of the diff search: the recipe page examples and recipe texts, indexed once per
catalog revision (``example_snapshot``).

Each stored example (``recipe_examples``) becomes a row of side-tagged changed tokens ("-x" removed, "+x"
added, "§shape" the kind of edit) with IDF weights and postings, its embedding, its file kind and whether it
deletes or creates a file; each recipe with a docs page, its description embedding and the words of its id,
name and description; plus which composites list each recipe and which recipes only mark code or are
republished copies (the ranking snapshot's facts, one rule for both searches).
"""

from __future__ import annotations

import math
import re
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ...catalog.examples import StoredExample, as_array, load_examples
from ...catalog.store import CatalogStore, catalog_revision, identifier_words
from ...diffs import features
from ...diffs.features import Change, in_managed_section, lines_above, looks_like_version, pair_lines, words
from ..priors import is_generated_fragment
from ..snapshot import snapshot_for
from .anchors import element_anchors, framework_anchors, recipe_anchors
from .steps import StepIndex, step_index
from .syntax import construct_tokens
from .upgrades import UpgradeIndex, upgrade_index


@dataclass
class ExampleSnapshot:
    """What the diff search compares a PR's segments with, built once per catalog revision."""

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
    ancestors: dict[str, frozenset[str]]  # recipe → every composite that runs it, directly or through others
    pair_postings: dict[str, np.ndarray]  # ``old>new`` token (``pair_tokens``) → example indices
    pair_idf: dict[str, float]
    pair_weights: np.ndarray  # per example: the summed IDF of its pair tokens
    # a composite that runs one recipe with options set (``UpgradeBuildToJava17``: ``UpgradeJavaVersion``
    # with version 17) → that recipe and the option values (``preset_values``)
    presets: dict[str, tuple[str, tuple[str, ...]]] = field(default_factory=dict)
    # per example: its change sits inside a Maven ``<dependencyManagement>`` (``mark_managed``)
    managed: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=bool))
    # what each upgrade composite moves to which version (``upgrades.upgrade_index``)
    upgrades: UpgradeIndex = field(default_factory=UpgradeIndex)
    # side-tagged construct token of a Java or Kotlin change (``syntax.construct_tokens``) → example indices
    construct_postings: dict[str, np.ndarray] = field(default_factory=dict)
    construct_idf: dict[str, float] = field(default_factory=dict)
    construct_weights: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.float32))
    # recipe → the words it is named after that each of its examples changes (``anchors.recipe_anchors``)
    anchors: dict[str, frozenset[str]] = field(default_factory=dict)
    # recipe → the framework words its package names (``anchors.framework_anchors``)
    frameworks: dict[str, frozenset[str]] = field(default_factory=dict)
    # recipe → the XML elements its (Maven) examples change inside (``anchors.element_anchors``)
    elements: dict[str, frozenset[str]] = field(default_factory=dict)
    # the renames, moves and removals each composite's steps configure (``steps.step_index``)
    steps: StepIndex = field(default_factory=StepIndex)
    # recipes every example of which only removes imports (``import_cleanups``)
    cleanups: frozenset[str] = frozenset()
    # what each recipe is told and says it does, and what each composite runs: whether two recipes make one edit
    # (``twins.snapshot_twins``)
    options: dict[str, frozenset[str]] = field(default_factory=dict)  # recipe → its option names
    descriptions: dict[str, str] = field(default_factory=dict)
    recipe_lists: dict[str, Any] = field(default_factory=dict)  # composite → its YAML recipe list


def ancestor_sets(parents: dict[str, list[str]], depth: int = 6) -> dict[str, frozenset[str]]:
    """Every composite above each recipe (``parents`` lists the direct ones), to ``depth`` levels."""
    out: dict[str, frozenset[str]] = {}
    for rid in parents:
        seen: set[str] = set()
        level = list(parents[rid])
        for _ in range(depth):
            level = [p for p in level if p not in seen]
            if not level:
                break
            seen.update(level)
            level = [q for p in level for q in parents.get(p, ())]
        out[rid] = frozenset(seen)
    return out


# A method pattern option (``org.slf4j.Logger info(..)``): the declaring type, the method name, the arguments.
# ... a preset's value read from one: ``type:org.slf4j.logger`` (``scoring._presets`` looks for it in the whole diff)
TYPE_VALUE = "type:"
METHOD_PATTERN = re.compile(r"^([a-z_$][\w$]*(?:\.[a-z_$][\w$]*)+)\s+[\w$*<>]+\(.*\)$")


def preset_values(options: Any) -> tuple[str, ...] | None:
    """The option values a preset sets, as the diff's tokens read them (lower case; ``17`` for 17); None when
    there are none to compare, or one is no single word a diff could show (a license text, a mapping).
    Flags (true/false) and wildcards say nothing about which values the PR changes."""
    if not isinstance(options, dict):
        return None
    out: list[str] = []
    for value in options.values():
        if isinstance(value, bool) or value is None or value == "*":
            continue
        if not isinstance(value, (str, int, float)):
            return None
        text = str(value).strip().lower()
        if pattern := METHOD_PATTERN.match(text):
            text = TYPE_VALUE + pattern.group(1)  # the type whose calls it changes, named where a file imports it
        if not text or any(ch.isspace() for ch in text) or len(text) > 80:
            return None
        out.append(text)
    return tuple(out) or None


def preset_of(steps: Any) -> tuple[str, tuple[str, ...]] | None:
    """The recipe a preset runs and the option values it sets: a composite of one step, or of several steps that
    run one recipe with the same values save the method a pattern names (``slf4j.ParameterizedLogging``: the
    generic ``ParameterizedLogging`` for ``org.slf4j.Logger`` ``trace``, ``debug``, ... ``error``)."""
    if not isinstance(steps, list) or not steps or not all(isinstance(step, dict) for step in steps):
        return None
    recipes = {step.get("recipe_id") for step in steps}
    values = {preset_values(step.get("options")) for step in steps}
    if len(recipes) != 1 or len(values) != 1:
        return None
    recipe, value = recipes.pop(), values.pop()
    return (recipe, value) if isinstance(recipe, str) and value is not None else None


def import_cleanups(examples: list[StoredExample]) -> frozenset[str]:
    """Recipes every example of which only removes imports (``RemoveUnusedImports``, ``CleanupJUnitImports``):
    the tidying that follows whatever change made an import unused, in any code PR, not a change of its own."""
    cleans: dict[str, bool] = {}
    for ex in examples:
        removed = [line.strip() for line in ex.change.removed if line.strip()]
        only = bool(removed) and not any(line.strip() for line in ex.change.added)
        only = only and all(line.startswith("import ") for line in removed)
        cleans[ex.recipe_id] = cleans.get(ex.recipe_id, True) and only
    return frozenset(rid for rid, only in cleans.items() if only)


def mark_managed(examples: list[StoredExample], texts: dict[tuple[str, int], tuple[str, str]]) -> None:
    """Give the Maven examples whose change sits inside ``<dependencyManagement>`` the shape a PR's managed
    change carries (``split`` reads the PR's side off the lines above its hunk)."""
    for ex in examples:
        before_after = texts.get((ex.recipe_id, ex.ordinal))
        if before_after is None:
            continue
        before, after = before_after
        above = lines_above(before, ex.change) if ex.change.removed else lines_above(after, ex.change)
        if in_managed_section(above, ex.change.added):
            ex.change.shapes.add(features.MANAGED_SHAPE)


def side_tokens(change: Change) -> set[str]:
    """Removed tokens match removed ones, added match added; shape tokens match each other."""
    return (
        {"-" + t for t in change.tokens_removed}
        | {"+" + t for t in change.tokens_added}
        | {t for t in change.shapes if not t.startswith("§kind:")}
    )


MAX_PAIRS = 12
_NAME = re.compile(r"[A-Za-z_$][\w$]*(?:[.\-:][A-Za-z_$][\w$]*)*")


def pair_tokens(change: Change) -> set[str]:
    """What the change turns into what: ``old>new`` for the names a removed line loses and its added
    counterpart gains (lines paired by ``features.pair_lines``, the rule the words use too); versions left
    out (a project's versions are its own). ``org.junit.Assert`` → ``org.junit.jupiter.api.Assertions``
    matches an example making the same substitution, not one that only mentions both names."""
    pairs, _, _ = pair_lines(change.removed, change.added)
    out: set[str] = set()
    for old, new in pairs:
        old_names, new_names = _names(old), _names(new)
        gone = [w for w in old_names if w not in new_names][:2]
        came = [w for w in new_names if w not in old_names][:2]
        out.update(f"~{g}>{c}" for g in gone for c in came)
        if len(out) >= MAX_PAIRS:
            break
    return out


def _names(line: str) -> list[str]:
    """The line's whole names (dotted, coordinates), in order, without versions and stop words."""
    found = (w.lower() for w in _NAME.findall(line))
    return list(dict.fromkeys(w for w in found if not looks_like_version(w) and ("." in w or len(w) > 3)))


def token_index(per_example: list[set[str]], count: int) -> tuple[dict[str, np.ndarray], dict[str, float], np.ndarray]:
    """Postings (token → example indices), IDF over ``count`` examples and each example's summed IDF."""
    lists: dict[str, list[int]] = defaultdict(list)
    for i, tokens in enumerate(per_example):
        for token in tokens:
            lists[token].append(i)
    idf = {t: math.log(1 + count / len(ids)) for t, ids in lists.items()}
    weights = np.array([sum(idf[t] for t in sorted(tokens)) for tokens in per_example], dtype=np.float32)
    return {t: np.array(ids, dtype=np.int64) for t, ids in lists.items()}, idf, weights


def whole_file(change: Change) -> int:
    """1: the change deletes a file, 2: it creates one, 0: it edits one."""
    return 1 if change.deleted_file else 2 if change.new_file else 0


def example_kind(kind: str) -> str:
    """Some pages name a Gradle example's block after the test helper that builds it (``buildGradleKts``,
    ``settingsGradle``) instead of a file: those are Gradle scripts, as a PR's ``build.gradle.kts`` is."""
    return "gradle" if kind.endswith(("gradle", "gradlekts")) else kind


def example_snapshot(store: CatalogStore) -> ExampleSnapshot:
    from ..hybrid import configured_tuning

    meta = store.check_ready()
    model_key = configured_tuning().model_key  # the vectors the hybrid search compares, examples' too
    # The search's ranking snapshot already knows which recipes only find things (one rule for both
    # searches); read it before ``memo`` builds ours, which holds the memo lock.
    ranking = snapshot_for(store, meta, model_key)

    def build() -> ExampleSnapshot:
        with store.db.cursor() as cur:
            examples, matrix = load_examples(cur, model_key)
            # Recipes with a docs page only: a Moderne-only recipe cannot go into a rewrite.yml the plugins run.
            cur.execute(
                "SELECT e.recipe_id, e.embedding FROM recipe_embeddings e JOIN recipes r ON r.id = e.recipe_id "
                "WHERE e.model = %s AND r.availability = 'docs'",
                (model_key,),
            )
            rows = cur.fetchall()
            cur.execute("SELECT id, data->'used_by' FROM recipes WHERE used_by_count > 0")
            parents = {rid: list(used_by or []) for rid, used_by in cur.fetchall()}
            cur.execute("SELECT id, display_name, left(description, 400) FROM recipes WHERE availability = 'docs'")
            texts = {rid: f"{identifier_words(rid)} {name} {description}" for rid, name, description in cur.fetchall()}
            # the whole texts of the Maven examples: where a change sits (``mark_managed``, ``anchors``)
            cur.execute(
                "SELECT recipe_id, ordinal, before_text, after_text FROM recipe_examples WHERE file_kind = 'maven'"
            )
            maven_texts = {(rid, n): (before or "", after or "") for rid, n, before, after in cur.fetchall()}
            cur.execute(
                "SELECT id, data->'recipe_list' FROM recipes WHERE availability = 'docs' "
                "AND jsonb_array_length(coalesce(data->'recipe_list', '[]'::jsonb)) > 0 ORDER BY id"
            )
            presets = {rid: found for rid, steps in cur.fetchall() if (found := preset_of(steps)) is not None}
            cur.execute(
                "SELECT id, data->'recipe_list' FROM recipes "
                "WHERE jsonb_array_length(coalesce(data->'recipe_list', '[]'::jsonb)) > 0 ORDER BY id"
            )
            recipe_lists = {rid: steps for rid, steps in cur.fetchall()}
            # what each recipe is told and says it does: whether two recipes make one edit (``twins``)
            cur.execute("SELECT id, data->'options', description FROM recipes WHERE availability = 'docs'")
            options, descriptions = {}, {}
            for rid, opts, description in cur.fetchall():
                options[rid] = frozenset(o["name"] for o in opts or [] if isinstance(o, dict) and "name" in o)
                descriptions[rid] = description or ""
        if features.MANAGED_SHAPES:
            mark_managed(examples, maven_texts)
        # Search-only recipes mark results (``~~>``) instead of changing code: no PR diff looks like that.
        keep = [i for i, ex in enumerate(examples) if not any("~~" in line for line in ex.change.added)]
        examples = [examples[i] for i in keep]
        matrix = matrix[keep] if len(keep) else matrix[:0]
        n = max(len(examples), 1)
        postings, idf, weights = token_index([side_tokens(ex.change) for ex in examples], n)
        pair_postings, pair_idf, pair_weights = token_index([pair_tokens(ex.change) for ex in examples], n)
        constructs = token_index([construct_tokens(ex.change) for ex in examples], n)
        recipe_ids = [r[0] for r in rows]
        search_only = frozenset(rid for rid, row in ranking.rows.items() if row.facts.search_only)
        copies = frozenset(
            rid for rid, row in ranking.rows.items() if row.facts.republished_copy or is_generated_fragment(rid)
        )
        word_lists: dict[str, list[int]] = defaultdict(list)
        for j, rid in enumerate(recipe_ids):
            for word in set(words(texts.get(rid, ""))):
                word_lists[word].append(j)
        n_recipes = max(len(recipe_ids), 1)
        recipe_idf = {w: math.log(1 + n_recipes / len(ids)) for w, ids in word_lists.items()}
        recipe_postings = {w: np.array(ids, dtype=np.int64) for w, ids in word_lists.items()}
        recipe_matrix = np.vstack([as_array(r[1]) for r in rows]) if rows else np.zeros((0, 1), np.float32)
        return ExampleSnapshot(
            examples,
            matrix,
            postings,
            idf,
            weights,
            [ex.recipe_id for ex in examples],
            np.array([example_kind(ex.change.kind) for ex in examples]),
            recipe_ids,
            recipe_matrix,
            parents,
            recipe_postings,
            recipe_idf,
            np.array([whole_file(ex.change) for ex in examples]),
            search_only,
            copies,
            ancestor_sets(parents),
            pair_postings,
            pair_idf,
            pair_weights,
            presets,
            np.array([features.MANAGED_SHAPE in ex.change.shapes for ex in examples], dtype=bool),
            # presets have their own rule (``scoring._presets``), the same comparison for one step
            upgrade_index(recipe_lists, keep=set(recipe_ids) - presets.keys()),
            *constructs,
            recipe_anchors(examples, composites=recipe_lists.keys()),
            framework_anchors(examples, [*recipe_ids, *parents, *(p for ps in parents.values() for p in ps)]),
            element_anchors(examples, maven_texts, composites=recipe_lists.keys()),
            steps=step_index(recipe_lists),
            cleanups=import_cleanups(examples),
            options=options,
            descriptions=descriptions,
            recipe_lists=recipe_lists,
        )

    return store.memo("diff-search", catalog_revision(meta), build)
