"""Anchors: what a recipe is named after and every one of its examples changes, which the PR must mention.

``docker.AddOrUpdateLabel`` is named after ``LABEL`` and each of its examples changes a ``LABEL`` line;
``docker.AddUserInstruction`` the same with ``USER``. Their examples still resemble any Dockerfile hunk (same
file kind, same shapes), so without more they fill places in a Dockerfile PR that has no label or user at all.
A recipe's anchors are the words of its id that every one of its examples changes (removed or added) and that
few recipes' examples change at all (``MAX_RECIPES``): a word the recipe is about, not a word every build file
has. When the whole diff (any line, context included) mentions none of them, the recipe's evidence there is
weighed by ``UNANCHORED``.

Not anchored: a composite (it makes its steps' changes, whose words it need not share), and the words of an
example's option values (a generic recipe configured for the example: ``ChangePropertyKey`` with ``foo``).

A recipe's package can name a framework too (``org.openrewrite.java.micronaut``, ``java.logging.logback``):
a word of the package is a framework word when at least ``FAMILY_SHARE`` of the recipes under packages with that
word, that have examples, change it in them (``micronaut``: their examples edit ``io.micronaut`` names), and at
most ``FAMILY_MAX`` recipes sit there (``java`` is everywhere, no framework). Every recipe under such a package,
composites included, needs one of its package's framework words in the diff, or is weighed by ``UNANCHORED``.

In a Maven file the element a change sits in is the change: ``maven.ChangeProjectVersion``'s example bumps a
``<version>`` inside ``<project>``, a dependency bump's ``<version>`` sits inside ``<dependency>``, a property's
inside ``<properties>``. A recipe all of whose examples are Maven files, each changing (not only adding: an
added element goes wherever it is missing) inside a known element, is weighed by ``UNANCHORED`` in a Maven hunk
whose lines above show it inside another element; a hunk in ``<properties>`` counts as the dependency, plugin or
parent whose version a property can hold (``THROUGH_PROPERTIES``).
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Collection, Iterable, Mapping, Sequence

from ...catalog.examples import StoredExample
from ...catalog.store import identifier_words
from ...diffs.features import lines_above, words

# Measured on the two fresh PR sets and the tune half of the pr-cases (development data).
UNANCHORED = 0.5  # a recipe none of whose anchors the diff mentions: its score times this
MAX_RECIPES = 60  # a word changed by the examples of more recipes than this anchors none of them
FAMILY_SHARE = 0.5  # a package word the examples of this share of its recipes change is a framework word
FAMILY_MAX = 300  # ... among at most this many recipes (the package words of more name no framework)
# A Maven hunk in ``<properties>`` changes what a property holds: a version a dependency, plugin or parent reads
# through it, or a value of its own.
THROUGH_PROPERTIES = frozenset({"properties", "dependency", "plugin", "parent"})
FAMILY_EXAMPLES = 3  # ... and at least this many of them with examples (the share needs some to count)


def recipe_anchors(examples: Iterable[StoredExample], composites: Collection[str]) -> dict[str, frozenset[str]]:
    """Per recipe with examples, not a composite: the words of its id that all its examples change, rare
    among the examples' changed words, and not words of the examples' option values."""
    per_recipe: dict[str, list[StoredExample]] = defaultdict(list)
    for ex in examples:
        per_recipe[ex.recipe_id].append(ex)
    changed = {
        rid: [ex.change.tokens_removed | ex.change.tokens_added for ex in exs] for rid, exs in per_recipe.items()
    }
    spread: Counter[str] = Counter()
    for token_sets in changed.values():
        spread.update(set().union(*token_sets))
    out: dict[str, frozenset[str]] = {}
    for rid, token_sets in sorted(changed.items()):
        if rid in composites:
            continue
        configured = set().union(*(option_words(ex.parameters) for ex in per_recipe[rid]))
        shared = set.intersection(*token_sets) & set(words(identifier_words(rid)))
        anchors = {t for t in shared - configured if spread[t] <= MAX_RECIPES and not any(c.isdigit() for c in t)}
        if anchors:
            out[rid] = frozenset(anchors)
    return out


def option_words(parameters: Mapping[str, str]) -> set[str]:
    """The words of an example's option values (``java.util.Collections emptyList()`` → java.util.collections,
    java, util, collections, emptylist ...), as changed tokens are written: what the example was told to edit,
    which names no recipe (``recipe_anchors``) and proves no edit (``configured``)."""
    return {w for value in parameters.values() for w in words(str(value))}


def package_words(recipe_id: str) -> set[str]:
    """The words of a recipe's package (``org.apache.camel.upgrade`` → apache, camel, upgrade), no versions."""
    package = recipe_id.rsplit(".", 1)[0]
    return {w for w in words(identifier_words(package)) if len(w) > 2 and not any(c.isdigit() for c in w)}


def framework_anchors(examples: Iterable[StoredExample], recipe_ids: Iterable[str]) -> dict[str, frozenset[str]]:
    """Per recipe whose package names a framework: its package's framework words (see the module)."""
    changed: dict[str, set[str]] = defaultdict(set)
    for ex in examples:
        changed[ex.recipe_id] |= ex.change.tokens_removed | ex.change.tokens_added
    ids = sorted(set(recipe_ids))
    family: dict[str, list[str]] = defaultdict(list)
    for rid in ids:
        for word in package_words(rid):
            family[word].append(rid)
    framework: set[str] = set()
    for word, members in family.items():
        shown = [word in changed[rid] for rid in members if rid in changed]
        if len(members) <= FAMILY_MAX and len(shown) >= FAMILY_EXAMPLES and sum(shown) >= FAMILY_SHARE * len(shown):
            framework.add(word)
    return {rid: frozenset(own) for rid in ids if (own := package_words(rid) & framework)}


_TAG = re.compile(r"<(/?)([A-Za-z_][\w.\-]*)[^<>]*?(/?)>")


def enclosing_element(above: Sequence[str]) -> str | None:
    """The XML element the lines above a change leave open, innermost first (``dependency``); None when they
    close every element they open (a hunk's few context lines often do)."""
    closed: Counter[str] = Counter()
    for line in reversed(above):
        for match in reversed(list(_TAG.finditer(line))):
            end, name, empty = match.groups()
            if empty:
                continue
            if end:
                closed[name] += 1
            elif closed[name]:
                closed[name] -= 1
            else:
                return name
    return None


def hunk_elements(above: Sequence[str]) -> frozenset[str]:
    """The elements a Maven hunk's change may act on (``enclosing_element``; ``THROUGH_PROPERTIES`` for a
    property), none when its lines above do not show."""
    element = enclosing_element(above)
    if element is None:
        return frozenset()
    return THROUGH_PROPERTIES if element == "properties" else frozenset({element})


def element_anchors(
    examples: Iterable[StoredExample], texts: Mapping[tuple[str, int], tuple[str, str]], composites: Collection[str]
) -> dict[str, frozenset[str]]:
    """Per recipe, not a composite, all of whose examples are Maven files whose whole text (``texts``: before,
    after) shows the element each change sits in: those elements."""
    per_recipe: dict[str, list[str | None]] = defaultdict(list)
    for ex in examples:
        before, after = texts.get((ex.recipe_id, ex.ordinal), ("", ""))
        text = before if ex.change.removed else after
        # an example that only adds makes its element where it is missing: it could sit anywhere
        known = ex.change.kind == "maven" and ex.change.removed and text
        found = enclosing_element(lines_above(text, ex.change)) if known else None
        per_recipe[ex.recipe_id].append(found)
    return {
        rid: frozenset(e for e in found if e is not None)
        for rid, found in sorted(per_recipe.items())
        if rid not in composites and None not in found
    }


def diff_words(text: str) -> frozenset[str]:
    """Every word of the diff, on any line (context and file names included; a repeated line read once)."""
    return frozenset(w for line in dict.fromkeys(text.split("\n")) for w in words(line))


def unanchored(
    recipe_ids: Iterable[str], mentioned: Collection[str], *anchor_maps: Mapping[str, frozenset[str]]
) -> dict[str, float]:
    """The weight of each of these recipes that ``mentioned`` holds none of the anchors of in one or more of
    ``anchor_maps`` (recipe → anchors): ``UNANCHORED`` per map it misses (the others are not listed)."""
    if UNANCHORED >= 1.0:
        return {}
    out: dict[str, float] = {}
    for rid in recipe_ids:
        missed = sum(1 for each in anchor_maps if (own := each.get(rid)) is not None and own.isdisjoint(mentioned))
        if missed:
            out[rid] = UNANCHORED**missed
    return out
