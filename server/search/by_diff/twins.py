"""One edit, two recipes: where the catalog holds a second recipe that makes the same edit as a recipe the diff
search ranks, the second follows the first in the ten.

The search compares a PR's changes with each recipe's own examples and words, so of two recipes that make the
same edit it usually finds one: ``gradle.plugins.UpgradePluginVersion`` and ``gradle.plugins.ChangePluginVersion``
both bump a plugin's version in a Gradle script, and an agent writing the recipe can use either. The catalog says
which recipes are such twins, in three ways (``twin_index``, once per catalog snapshot):

- **the same options, the same change**: two recipes, and only those two, take the same set of options, and an
  example of each edits the same kind of file changing nearly the same tokens (``TWIN_OVERLAP`` of their
  side-tagged changed tokens). Told the same values, they make the same edit. A set of options three or more
  recipes share names a family of edits (``RemoveDependency``, ``ExcludeDependency`` and
  ``RemoveManagedDependency`` take the same coordinates and edit different elements; the build-tool-neutral
  ``java.dependencies.ChangeDependency`` shares its options with a Gradle and a Maven recipe), not one edit;
- **namesakes** (off, ``NAMESAKES``): a composite that runs one recipe and is named like it (``java.migrate.maven
  .UpdateMavenProjectPropertyJavaVersion`` runs ``maven.UpdateMavenProjectPropertyJavaVersion``) makes exactly
  its step's edit, either way round. ``java_level`` places a level step's namesake where it offers the step;
  placing it wherever the step ranks was measured on the development sets and lost: the labels grade the
  namesake below the step, so it only traded places with labelled runners-up where the step was right and added
  a second wrong recipe where the step was wrong (R@10 summed 5.151 without, 5.138 with);
- **a delegate**: a recipe without examples whose description names one other recipe, in code quotes and by a
  name no other recipe has (``UpgradeDockerImageVersion``: "Uses a single `ChangeFrom` ..."), makes its edit
  through that recipe, so the delegate makes it too when told the values. One way only: the delegate makes any
  edit of its kind (any base image), the delegator only its own (a JDK image moved to a Java level), so the
  delegate follows the delegator, not the other way round.

Where a recipe with a twin is in the ten and its twin is not, the twin goes right after it (``follow``), scored
just below it, and the ten loses its last recipe, the weakest runner-up; a twin already in the ten stays where
its own evidence placed it, and a recipe in the ten's last place brings none. The twin cites the first one's
evidence, its match noting which recipe it stands in for. (Lending the twin the first's match before the pick
instead, so the pick weighs it as that change's runner-up, was measured too and moved fewer labelled twins in:
once the first is picked its change is covered, and the twin waits behind the other changes' recipes.)
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Collection, Iterable, Mapping, Sequence
from typing import Any

from .catalog import ExampleSnapshot, example_kind, side_tokens
from .memo import last_result
from .scoring import Match

TWINS = True  # place a ranked recipe's twin right after it (``follow``); off: the pick's ten as they are
# Two recipes taking the same options are twins where an example of each, in a common file kind, shares at least
# this share of its side-tagged changed tokens with the other's (Jaccard): the same change written twice. The
# catalog's pairs of recipes sharing their options sit far apart on it: the plugin-version pair at 0.8, the next
# pairs (a TOML row merged or replaced, a plugin added or a managed one) at 0.64 and below.
TWIN_OVERLAP = 0.75
NAMESAKES = False  # a one-recipe composite named like its step is its twin (off: measured, see the docstring)
# A twin's score in the ranked list and in the units whose evidence it cites: this share of the first's.
TWIN_SHARE = 0.999
# A recipe's name in code quotes in a description (``Uses a single `ChangeFrom` ...``).
_QUOTED_NAME = re.compile(r"`([A-Z][A-Za-z0-9_]*)`")


def simple_name(recipe_id: str) -> str:
    """The recipe's class name, without its package (``ChangeFrom`` of ``org.openrewrite.docker.ChangeFrom``)."""
    return recipe_id.rsplit(".", 1)[-1]


def option_twins(
    options: Mapping[str, frozenset[str]], tokens: Mapping[str, Mapping[str, Sequence[frozenset[str]]]]
) -> list[tuple[str, str]]:
    """Pairs of recipes that alone take one set of options and whose examples make nearly the same change in a
    common file kind. ``options``: recipe → its option names; ``tokens``: recipe → file kind → each example's
    side-tagged changed tokens."""
    by_options: dict[frozenset[str], list[str]] = defaultdict(list)
    for rid, names in options.items():
        if names:
            by_options[names].append(rid)
    pairs = []
    for rids in by_options.values():
        if len(rids) != 2:
            continue
        first, second = sorted(rids)
        if _overlap(tokens.get(first, {}), tokens.get(second, {})) >= TWIN_OVERLAP:
            pairs.append((first, second))
    return pairs


def _overlap(first: Mapping[str, Sequence[frozenset[str]]], second: Mapping[str, Sequence[frozenset[str]]]) -> float:
    """The best token overlap (Jaccard) of an example of one recipe with an example of the other in the same kind."""
    best = 0.0
    for kind in first.keys() & second.keys():
        for a in first[kind]:
            for b in second[kind]:
                if a | b:
                    best = max(best, len(a & b) / len(a | b))
    return best


def namesakes(recipe_lists: Mapping[str, Any]) -> list[tuple[str, str]]:
    """(composite, step) for each composite that runs exactly one recipe and is named like it."""
    pairs = []
    for composite, steps in recipe_lists.items():
        if not isinstance(steps, list) or len(steps) != 1 or not isinstance(steps[0], dict):
            continue
        step = steps[0].get("recipe_id")
        if isinstance(step, str) and step != composite and simple_name(step) == simple_name(composite):
            pairs.append((composite, step))
    return pairs


def delegates(
    descriptions: Mapping[str, str], with_examples: Collection[str], composites: Collection[str]
) -> list[tuple[str, str]]:
    """(delegator, delegate) for each recipe without examples, not a composite, whose description names exactly
    one other recipe in code quotes, by a name only that recipe has."""
    by_name: dict[str, list[str]] = defaultdict(list)
    for rid in descriptions:
        by_name[simple_name(rid)].append(rid)
    pairs = []
    for rid, text in descriptions.items():
        if rid in with_examples or rid in composites:
            continue
        named = {n for n in _QUOTED_NAME.findall(text or "") if n != simple_name(rid) and n in by_name}
        if len(named) == 1 and len(found := by_name[named.pop()]) == 1:
            pairs.append((rid, found[0]))
    return pairs


def twin_index(
    options: Mapping[str, frozenset[str]],
    tokens: Mapping[str, Mapping[str, Sequence[frozenset[str]]]],
    recipe_lists: Mapping[str, Any],
    descriptions: Mapping[str, str],
    no_edit: Collection[str] = (),
) -> dict[str, tuple[str, ...]]:
    """Recipe → the recipes that make its edit too (``option_twins`` and ``namesakes`` both ways, ``delegates``
    from the delegator), built once per catalog snapshot. ``no_edit``: recipes that only mark code or are
    republished copies, twins of none (a search recipe's description names the search it runs)."""
    out: dict[str, set[str]] = defaultdict(set)
    for a, b in [*option_twins(options, tokens), *(namesakes(recipe_lists) if NAMESAKES else [])]:
        out[a].add(b)
        out[b].add(a)
    for delegator, delegate in delegates(descriptions, tokens.keys(), recipe_lists.keys()):
        out[delegator].add(delegate)
    return {
        rid: tuple(sorted(twins - set(no_edit)))
        for rid, twins in out.items()
        if rid not in no_edit and twins - set(no_edit)
    }


@last_result
def snapshot_twins(snap: ExampleSnapshot) -> dict[str, tuple[str, ...]]:
    """The catalog snapshot's twins (``twin_index``), derived once per snapshot: recipes that only mark code and
    republished copies make no edit, so they are twins of none."""
    tokens = example_tokens(
        (ex.recipe_id, example_kind(ex.change.kind), frozenset(side_tokens(ex.change))) for ex in snap.examples
    )
    return twin_index(snap.options, tokens, snap.recipe_lists, snap.descriptions, snap.search_only | snap.copies)


def example_tokens(rows: Iterable[tuple[str, str, frozenset[str]]]) -> dict[str, dict[str, list[frozenset[str]]]]:
    """recipe → file kind → each example's side-tagged tokens, from (recipe, kind, tokens) rows."""
    out: dict[str, dict[str, list[frozenset[str]]]] = defaultdict(lambda: defaultdict(list))
    for rid, kind, tokens in rows:
        out[rid][kind].append(tokens)
    return {rid: dict(kinds) for rid, kinds in out.items()}


def follow(
    ranked: Sequence[tuple[str, float]],
    units: Sequence[dict[str, Match]],
    twins: Mapping[str, Sequence[str]],
    limit: int,
    known: Collection[str],
) -> list[tuple[str, float]]:
    """The ranked list with each recipe's twins that are not in it right after it, cut to ``limit``. A twin added
    takes the first's matches in ``units`` (in place) at ``TWIN_SHARE`` of their scores, noting whom it stands
    in for, so its hit cites the change it makes."""
    if not TWINS:
        return list(ranked)
    present = {rid for rid, _ in ranked}
    out: list[tuple[str, float]] = []
    for rid, score in ranked:
        out.append((rid, score))
        for twin in twins.get(rid, ()):
            if twin in present or twin not in known:
                continue
            present.add(twin)
            out.append((twin, score * TWIN_SHARE))
            for scores in units:
                if (match := scores.get(rid)) is not None and twin not in scores:
                    note = f"makes the same edit as {simple_name(rid)}"
                    scores[twin] = Match(match.score * TWIN_SHARE, 0.0, None, [], note)
    return out[:limit]
