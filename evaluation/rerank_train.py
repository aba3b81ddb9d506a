"""Fit the weight of the examples leg and of the one-phrase rerank features (``server/search/rerank.py``) on
pseudo-queries the catalog writes itself, never on a test set.

Three kinds of pseudo-query, each standing for a one-phrase search whose right answer is the recipe it was
written from:

- **descriptions**: a sampled recipe's description cut to its first sentence (unless it repeats the whole
  display name, see ``name_overlap``): a query in words;
- **examples**: one example file of a sampled recipe's page, written the way people describe a concrete
  change (``example_query``: "``<removed line>`` changed to ``<added line>`` in ``<file>``", "added ... to",
  "removed ... from"): a query that quotes code or configuration. The example it was written from (and its
  exact duplicates) is left out of the search (``without_example``), or the fit would learn the leak; the
  recipe's composites and steps, which often show the same example, count as neither right nor wrong;
- **options**: the option values a composite passes to a building block it runs (``option_query``:
  "changed from ``a.b`` to ``a.c``"), the catalog's own record of which recipe makes which concrete change.

The description pseudo-queries' targets are drawn uniformly from the recipes with a page by default. Real
queries are not drawn that way: people search for well-trodden building blocks more often than for one step
of one migration, which a uniform draw (mostly leaves) cannot teach the fit. ``--prior`` draws the targets in
proportion to a prior the catalog provides instead: ``used-by`` (1 + how many composites run the recipe),
``log-used-by`` (1 + its logarithm) or ``core`` (a building block of a core module, such as
``org.openrewrite.maven.ChangePropertyValue``, weighs 2); ``--replace`` draws with replacement, so a recipe's
pseudo-query counts as often as the prior says, where a draw without replacement flattens the prior once the
sample is a large share of the catalog. Measured (README, one-phrase rerank): ``used-by --replace`` is the
one that moves a weight, popularity to about +0.04 on every seed, and it lifts the dev set but lowers the
held-out set, so the shipped weights stay the uniform fit's.

Every query runs through the search (``hybrid.scored_pool``) with the fitted weights at zero; each wrong
candidate ranked within the top ``--depth`` makes a training pair with the right recipe: the difference of
their scores and of their features (the examples leg's evidence, then ``rerank.FEATURES``). A logistic
regression without intercept on those differences says how much each feature is worth relative to the score
itself: its weight divided by the score difference's weight is the tuning value (negative: a penalty). The
features of quoted code are fitted on the example and option queries, the others on the descriptions
(``fit_two_stages``).

    python -m rewrite_assist.evaluation.rerank_train [--sample 600] [--examples 300] [--options 400] [--seed 11]
        [--prior uniform|used-by|log-used-by|core] [--replace]

It prints the ``SearchTuning`` lines to paste into ``server/search/tuning.py``.
"""

from __future__ import annotations

import argparse
import dataclasses
import math
import os
import random
import re
import sys
from collections.abc import Sequence
from typing import Any

import numpy as np

_SENTENCE_END = re.compile(r"(?<=[a-z0-9`)])\.\s")
_MARKUP = re.compile(r"\[([^\]]*)\]\([^)]*\)|[`*_]")
MAX_LINE = 70  # characters of one quoted example line

# The fitted values are the weights of these ``SearchTuning`` fields, in this order (``examples`` first).
FITTED = (
    "examples_weight",
    "name_miss_weight",
    "search_for_change_weight",
    "against_weight",
    "examples_code_weight",
    "composite_weight",
    "popularity_weight",
    "popularity_code_weight",
)
# Fitted on the example pseudo-queries (queries quoting code), the others on the description ones.
CODE_FEATURES = ("examples_code_weight", "popularity_code_weight")


def pseudo_query(description: str, *, max_words: int = 14) -> str | None:
    """The first sentence of a description, links and markup removed, at most ``max_words`` words."""
    text = _MARKUP.sub(lambda m: m.group(1) or "", description).strip()
    text = _SENTENCE_END.split(text, maxsplit=1)[0].strip().rstrip(".")
    words = text.split()
    if len(words) < 3:
        return None
    return " ".join(words[:max_words])


def _first_line(lines: Sequence[str], other: Sequence[str]) -> str | None:
    """The first non-blank line of ``lines`` the other side does not also have, shortened; an import or
    package line only when there is nothing else (people describe the code, not its imports)."""
    kept = {" ".join(line.split()) for line in other}
    changed = [t for line in lines if (t := " ".join(line.split()).rstrip(";")) not in kept]
    changed = [t for t in changed if len(t) > 2 and any(c.isalnum() for c in t)]
    body = [t for t in changed if not t.startswith(("import ", "package "))]
    for text in body or changed:
        return text if len(text) <= MAX_LINE else text[:MAX_LINE].rsplit(" ", 1)[0]
    return None


def example_query(removed: Sequence[str], added: Sequence[str], file: str | None, kind: str) -> str | None:
    """A one-phrase description of an example's change as someone would write it from a PR: the first
    changed line before and after, and the file (or its kind)."""
    where = os.path.basename(file) if file else f"the {kind} file"
    old, new = _first_line(removed, added), _first_line(added, removed)
    if old and new:
        return None if old == new else f"{old} changed to {new} in {where}"
    if new:
        return f"added {new} to {where}"
    if old:
        return f"removed {old} from {where}"
    return None


MAX_PER_RECIPE = 25  # option pseudo-queries per building block (ChangeType alone is listed 1,100 times)


def option_query(options: dict[str, Any]) -> str | None:
    """A concrete change in the words of a composite's option values: ``ChangeSpringPropertyKey`` listed with
    ``oldPropertyKey: a.b, newPropertyKey: a.c`` reads "a.b changed to a.c"; ``UpgradeDependencyVersion``
    with ``groupId: g, artifactId: a, newVersion: 2.x`` reads "g a changed to 2.x". Options named ``old*``
    and ``new*`` say the two sides; the others say what changed."""
    old: list[str] = []
    new: list[str] = []
    subject: list[str] = []
    for key, value in options.items():
        if not isinstance(value, str) or not 1 < len(value) <= 80 or "\n" in value or value in ("true", "false"):
            continue
        (old if key.startswith("old") else new if key.startswith("new") else subject).append(value)
    what = " ".join(subject)
    if old and new:
        return " ".join(filter(None, [what, "changed from", " ".join(old), "to", " ".join(new)]))
    if new:
        return " ".join(filter(None, [what, "changed to", " ".join(new)]))
    if old or len(subject) >= 2:
        return " ".join([*old, *subject])
    return None


def option_queries(store: Any, snapshot: Any, rng: random.Random, count: int) -> list[tuple[str, str, str]]:
    """Up to ``count`` (query, building block, the composite listing it) from the option values composites
    pass to the recipes they run: the catalog's own record of which recipe makes which concrete change, and of
    how often each building block is used for one."""
    with store.db.connection() as conn, conn.cursor() as cur:
        cur.execute(
            "SELECT r.id, x->>'recipe_id', x->'options' FROM recipes r, jsonb_array_elements(r.data->'recipe_list') x "
            "WHERE jsonb_typeof(x->'options') = 'object' ORDER BY r.id, x->>'recipe_id', (x->'options')::text"
        )
        listed = cur.fetchall()
    rng.shuffle(listed)
    out: list[tuple[str, str, str]] = []
    per_recipe: dict[str, int] = {}
    for parent, rid, options in listed:
        row = snapshot.rows.get(rid)
        if row is None or row.availability != "docs" or row.facts.search_only or len(out) >= count:
            continue
        query = option_query(options)
        if query and per_recipe.get(rid, 0) < MAX_PER_RECIPE:
            per_recipe[rid] = per_recipe.get(rid, 0) + 1
            out.append((query, rid, parent))
    return out


def _uniform(facts: Any) -> float:
    return 1.0


def _used_by(facts: Any) -> float:
    return 1.0 + facts.used_by_count


def _log_used_by(facts: Any) -> float:
    return 1.0 + math.log1p(facts.used_by_count)


CORE_MODULES = ("java", "maven", "gradle", "yaml", "properties", "xml", "json", "text")


def _core(facts: Any) -> float:
    """A building block of a core module (``org.openrewrite.maven.ChangePropertyValue``, not a sub-package's
    migration step) weighs twice."""
    parts = facts.id.split(".")
    return 2.0 if len(parts) == 4 and parts[:2] == ["org", "openrewrite"] and parts[2] in CORE_MODULES else 1.0


# How often a recipe is the answer someone searches for, as far as the catalog can tell (``--prior``).
PRIORS = {"uniform": _uniform, "used-by": _used_by, "log-used-by": _log_used_by, "core": _core}


def drawn(ids: Sequence[str], weights: Sequence[float], rng: random.Random) -> list[str]:
    """``ids`` in the order of a weighted draw without replacement (each next one drawn in proportion to its
    weight among those left; Efraimidis and Spirakis' keys ``u ** (1 / w)``): the first n are a sample of n
    drawn in proportion to the weights. Equal weights give a plain shuffle."""
    keys = {rid: rng.random() ** (1.0 / w) for rid, w in zip(ids, weights, strict=True)}
    return sorted(ids, key=lambda rid: -keys[rid])


def name_overlap(query: str, name_terms: frozenset[str]) -> float:
    """The share of a display name's terms a pseudo-query repeats. Real queries are rarely the recipe's name
    reworded; descriptions often are, and would teach the fit that repeating the name is all that counts."""
    from ..server.search.intent import terms

    return len(name_terms & set(terms(query))) / len(name_terms) if name_terms else 1.0


def fit_pairwise(
    margins: np.ndarray, diffs: np.ndarray, *, steps: int = 3000, l2: float = 1e-3, sharpness: float | None = None
) -> np.ndarray:
    """Logistic regression of P(right above wrong) on [score margin, feature differences], no intercept;
    returns the feature weights divided by the margin's weight. With ``sharpness`` the margin's weight is
    held at that value (a scale fitted before) and only the features' weights are fitted."""
    if sharpness is not None:
        return _fit_offset(sharpness * margins, sharpness * diffs, steps=steps, l2=l2)
    x = np.column_stack([margins, diffs])
    scale = np.maximum(np.abs(x).max(axis=0), 1e-9)
    xs = x / scale
    beta = np.zeros(xs.shape[1])
    rate = 0.5
    for _ in range(steps):
        p = 1 / (1 + np.exp(-(xs @ beta)))
        grad = -(xs.T @ (1 - p)) / len(xs) + l2 * beta
        beta -= rate * grad
    beta = beta / scale
    if beta[0] <= 0:
        raise SystemExit("the fused score does not predict the right recipe on these pseudo-queries; no fit")
    return np.asarray(beta[1:] / beta[0])


def _fit_offset(offsets: np.ndarray, diffs: np.ndarray, *, steps: int, l2: float) -> np.ndarray:
    """``fit_pairwise`` with the margin's term fixed: P = sigmoid(offset + diffs · w)."""
    scale = np.maximum(np.abs(diffs).max(axis=0), 1e-9)
    xs = diffs / scale
    w = np.zeros(xs.shape[1])
    for _ in range(steps):
        p = 1 / (1 + np.exp(-(offsets + xs @ w)))
        w -= 0.5 * (-(xs.T @ (1 - p)) / len(xs) + l2 * w)
    return np.asarray(w / scale)


def sharpness_of(margins: np.ndarray, diffs: np.ndarray, *, steps: int = 3000, l2: float = 1e-3) -> float:
    """The margin's weight in ``fit_pairwise``'s regression (how sharply a score difference decides a pair)."""
    x = np.column_stack([margins, diffs])
    scale = np.maximum(np.abs(x).max(axis=0), 1e-9)
    xs = x / scale
    beta = np.zeros(xs.shape[1])
    for _ in range(steps):
        p = 1 / (1 + np.exp(-(xs @ beta)))
        beta -= 0.5 * (-(xs.T @ (1 - p)) / len(xs) + l2 * beta)
    return float(beta[0] / scale[0])


def zeroed(tuning: Any) -> Any:
    """``tuning`` with every fitted weight at zero, except the examples leg's: a negligible weight keeps the
    leg running (its candidates and evidence are what the fit weighs). The example-terms leg is off: it reads
    every example's tokens, the one a pseudo-query was written from included (``without_example`` leaves it
    out of the vectors only), so it would hand the fit the answer; the fits so far ran without it."""
    return dataclasses.replace(tuning, **dict.fromkeys(FITTED[1:], 0.0), examples_weight=1e-9, example_terms_weight=0.0)


def without_example(snapshot: Any, recipe_id: str, vector: np.ndarray, *, same: float = 1.0) -> Any:
    """``snapshot`` without the examples of ``recipe_id`` that show the change a pseudo-query was written from
    (the one nearest to ``vector`` and any other of its examples within cosine ``same`` of it: pages often
    show one change for Maven and Gradle alike): the query must find the recipe by its *other* examples or
    its description, as a real query would."""
    own = np.flatnonzero(snapshot.example_owners == snapshot.index[recipe_id])
    if not len(own):
        return snapshot
    sims = snapshot.example_vectors[own] @ vector
    drop = own[(sims >= min(same, float(sims.max())))]
    keep = np.ones(len(snapshot.example_owners), dtype=bool)
    keep[drop] = False
    return dataclasses.replace(
        snapshot, example_vectors=snapshot.example_vectors[keep], example_owners=snapshot.example_owners[keep]
    )


def pairs_for(pool: Any, right: str, same: set[str], depth: int) -> tuple[list[float], list[list[float]]]:
    """The training pairs of one pseudo-query: the right recipe against each wrong one in the top ``depth``."""
    from ..server.search.legs import ExamplesLeg

    cands = pool.candidates
    if right not in cands:
        return [], []
    leg = next((leg for leg in pool.legs if isinstance(leg, ExamplesLeg)), None)

    def row(rid: str) -> np.ndarray:
        examples = pool.summary(leg, rid) if leg is not None else 0.0
        return np.array([examples, *pool.rerank_features(rid)])

    ranked = sorted(cands, key=lambda r: (-cands[r].score, r))[:depth]
    good = row(right)
    margins, diffs = [], []
    for rid in ranked:
        if rid == right or rid in same:
            continue
        margins.append(cands[right].score - cands[rid].score)
        diffs.append((good - row(rid)).tolist())
    return margins, diffs


def fit_two_stages(
    described: tuple[list[float], list[list[float]]], quoted: tuple[list[float], list[list[float]]]
) -> np.ndarray:
    """The weights of ``FITTED``: every feature but ``CODE_FEATURES`` on the description pseudo-queries (queries
    in words, like most real ones), then ``CODE_FEATURES`` on the example pseudo-queries (queries quoting
    code), on top of the first stage's adjustment and at its scale: fitted together, the example features
    are nearly collinear and the queries in words would inherit the weight meant for quoted code."""
    weights = np.zeros(len(FITTED))
    code = [n for n, name in enumerate(FITTED) if name in CODE_FEATURES]
    first = [n for n, name in enumerate(FITTED) if n not in code]
    weights[first] = fit_pairwise(np.array(described[0]), np.array(described[1])[:, first])
    sharpness = sharpness_of(np.array(described[0]), np.array(described[1])[:, first])
    if quoted[0]:
        diffs = np.array(quoted[1])
        margins = np.array(quoted[0]) + diffs @ weights
        weights[code] = fit_pairwise(margins, diffs[:, code], sharpness=sharpness)
    return weights


def main(argv: Sequence[str] | None = None) -> int:
    from ..server.catalog.examples import load_examples
    from ..server.search.hybrid import DEFAULT_TUNING, scored_pool
    from ..server.search.priors import is_generated_fragment
    from ..server.search.snapshot import snapshot_for
    from ..server.services import Services

    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sample", type=int, default=600, help="description pseudo-queries")
    parser.add_argument("--examples", type=int, default=300, help="example pseudo-queries")
    parser.add_argument("--options", type=int, default=400, help="pseudo-queries from composites' option values")
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument(
        "--prior", choices=sorted(PRIORS), default="uniform", help="how description pseudo-query targets are drawn"
    )
    parser.add_argument("--replace", action="store_true", help="draw --prior targets with replacement")
    parser.add_argument("--depth", type=int, default=10)
    parser.add_argument(
        "--max-name-overlap",
        type=float,
        default=0.99,
        help="skip a pseudo-query that repeats more than this share of its recipe's display-name terms",
    )
    args = parser.parse_args(argv)

    state = Services()
    store = state.store()
    snapshot = snapshot_for(store, store.check_ready(), DEFAULT_TUNING.model_key)
    base = zeroed(DEFAULT_TUNING)
    eligible = sorted(
        rid
        for rid, row in snapshot.rows.items()
        if row.availability == "docs" and not row.facts.republished_copy and not is_generated_fragment(rid)
    )
    rng = random.Random(args.seed)
    rng.shuffle(eligible)
    if args.prior != "uniform":  # its own generator: the example and option pseudo-queries stay the same
        weighed = [PRIORS[args.prior](snapshot.rows[rid].facts) for rid in eligible]
        if args.replace:  # in proportion exactly: a popular recipe's pseudo-query counts as often as drawn
            eligible = random.Random(args.seed).choices(eligible, weighed, k=args.sample * 2)
        else:
            eligible = drawn(eligible, weighed, random.Random(args.seed))

    # (query, right recipe, recipes not counted wrong either, the snapshot to search)
    queries: list[tuple[str, str, set[str], Any]] = []
    recipes = store.get_recipes(eligible[: args.sample * 2])
    for rid in eligible[: args.sample * 2]:
        recipe = recipes.get(rid)
        query = pseudo_query(recipe.description) if recipe else None
        if query and name_overlap(query, snapshot.rows[rid].facts.name_terms) <= args.max_name_overlap:
            queries.append((query, rid, set(), snapshot))
        if len(queries) >= args.sample:
            break
    described = len(queries)
    with store.db.connection() as conn, conn.cursor() as cur:
        examples, matrix = load_examples(cur, DEFAULT_TUNING.model_key)
    by_recipe: dict[str, list[Any]] = {}
    vectors = {(ex.recipe_id, ex.ordinal): matrix[n] for n, ex in enumerate(examples)}
    for ex in examples:
        facts = snapshot.rows[ex.recipe_id].facts if ex.recipe_id in snapshot.rows else None
        # a search recipe's example shows markers (``~~>``), not a change anyone would describe
        if facts is not None and not facts.republished_copy and not facts.search_only:
            by_recipe.setdefault(ex.recipe_id, []).append(ex)

    def facts_of(rid: str) -> Any:
        return snapshot.rows[rid].facts

    # Only recipes with two examples or more: the one a query is written from is left out of the search
    owners = sorted(rid for rid, shown in by_recipe.items() if len(shown) >= 2)
    rng.shuffle(owners)
    for rid in owners:
        if len(queries) - described >= args.examples:
            break
        ex = rng.choice(by_recipe[rid])
        query = example_query(ex.change.removed, ex.change.added, ex.file, ex.change.kind)
        if query:
            # its composites and steps often show the same example: not wrong answers to it either
            family = set(facts_of(rid).parents) | set(facts_of(rid).children)
            queries.append((query, rid, family, without_example(snapshot, rid, vectors[(rid, ex.ordinal)])))
    quoted = len(queries)
    for query, rid, parent in option_queries(store, snapshot, rng, args.options):
        queries.append((query, rid, {parent}, snapshot))

    # pairs per kind of pseudo-query: margins, feature differences
    pairs: dict[bool, tuple[list[float], list[list[float]]]] = {False: ([], []), True: ([], [])}
    found = 0
    for number, (query, rid, also, searched) in enumerate(queries):
        pool = scored_pool(store, state.embedder, query, base, snapshot=searched)
        m, d = pairs_for(pool, rid, set(snapshot.same_class([rid])[rid]) | also, args.depth)
        found += rid in pool.candidates
        pairs[number >= described][0].extend(m)
        pairs[number >= described][1].extend(d)
    weights = fit_two_stages(pairs[False], pairs[True])
    print(
        f"{described} description, {quoted - described} example and {len(queries) - quoted} option pseudo-queries, "
        "right recipe among the "
        f"candidates for {found}, {len(pairs[False][0])} + {len(pairs[True][0])} pairs",
        file=sys.stderr,
    )
    for name, weight in zip(FITTED, weights, strict=True):
        print(f"{name}: float = {weight:.4f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
