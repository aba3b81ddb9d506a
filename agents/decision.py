"""The rule that picks the recommended recipe option, stated once.

The orchestrator prompt tells the agent to apply this rule by hand and ``check-run`` re-derives it here;
keeping the rule as code makes "the agent picked the one it liked" detectable. The rule, in order:
only options that ran (status ``ok`` or ``no_changes``) and did not fail a build check are eligible;
then highest F1, higher precision, fewer recipe entries, fewer text-replacement entries, lower option
number.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from itertools import pairwise

from ..server.validation.recipe_file import DeclaredRecipe, parse_recipe_file

RAN_STATUSES = frozenset({"ok", "no_changes"})
TEXT_RECIPE_PREFIX = "org.openrewrite.text."


@dataclass(frozen=True)
class RecipeShape:
    """The counts the tie-breakers use: entries of the recipe and how many are text replacements."""

    entries: int
    text_entries: int
    recipe_ids: tuple[str, ...]


@dataclass(frozen=True)
class OptionOutcome:
    """What the rule needs to know about one validated option."""

    number: int
    status: str | None
    build_check: str | None  # "passed", "failed", "not run" or None when unknown
    f1: float | None
    precision: float | None
    shape: RecipeShape | None

    @property
    def eligible(self) -> bool:
        ran = self.status in RAN_STATUSES if self.status is not None else self.f1 is not None
        return ran and self.build_check != "failed" and self.f1 is not None

    def ineligible_reason(self) -> str | None:
        if self.eligible:
            return None
        if self.status is not None and self.status not in RAN_STATUSES:
            return f"status {self.status}"
        if self.build_check == "failed":
            return "build check failed"
        return "no metrics"

    def rank_key(self) -> tuple[float, float, int, int, int]:
        """Sort key: smaller is better, in the order the rule states."""
        entries = self.shape.entries if self.shape else 10**6
        text_entries = self.shape.text_entries if self.shape else 10**6
        return (-(self.f1 or 0.0), -(self.precision or 0.0), entries, text_entries, self.number)


@dataclass(frozen=True)
class Decision:
    winner: int | None
    ranking: tuple[int, ...]  # eligible option numbers, best first
    reasons: tuple[str, ...]  # why each adjacent pair in the ranking is ordered as it is


def decide(options: Iterable[OptionOutcome]) -> Decision:
    """Apply the rule; ``winner`` is None when no option is eligible."""
    eligible = sorted((o for o in options if o.eligible), key=OptionOutcome.rank_key)
    reasons = tuple(why_before(a, b) for a, b in pairwise(eligible))
    return Decision(
        winner=eligible[0].number if eligible else None,
        ranking=tuple(o.number for o in eligible),
        reasons=reasons,
    )


def why_before(a: OptionOutcome, b: OptionOutcome) -> str:
    """The first rule step that puts ``a`` before ``b`` (``b`` ineligible: the reason it is out)."""
    if not b.eligible:
        return f"option-{b.number} is not eligible: {b.ineligible_reason()}"
    ka, kb = a.rank_key(), b.rank_key()
    labels = ("higher F1", "higher precision", "fewer recipe entries", "fewer text-replacement entries")
    values = (
        (a.f1, b.f1),
        (a.precision, b.precision),
        (ka[2], kb[2]),
        (ka[3], kb[3]),
    )
    for index, label in enumerate(labels):
        if ka[index] != kb[index]:
            left, right = values[index]
            return f"option-{a.number} before option-{b.number}: {label} ({left} vs {right})"
    return f"option-{a.number} before option-{b.number}: full tie, lower option number"


def recipe_shape(yaml_text: str) -> RecipeShape:
    """Count the ``recipeList`` entries of the file's root recipe(s), expanding recipes of the same file.

    A root is a recipe that no other recipe in the file references, so a helper recipe declared next to
    the main one is counted through its entries, not as one opaque entry. Uses the lint parser, so both
    read a recipe file the same way. Raises ``ValueError`` when the text is not YAML or has no recipe.
    """
    parsed = parse_recipe_file(yaml_text)  # RecipeYamlError is a ValueError
    recipes = parsed.by_name()
    if not recipes:
        raise ValueError("no recipe document (type: specs.openrewrite.org/v1beta/recipe) found")
    referenced = {e.recipe_id for r in recipes.values() for e in r.recipe_list}
    roots = [name for name in recipes if name not in referenced] or list(recipes)
    ids: list[str] = []
    for root in roots:
        ids.extend(_expand(root, recipes, seen=frozenset()))
    text = sum(1 for rid in ids if rid.startswith(TEXT_RECIPE_PREFIX))
    return RecipeShape(entries=len(ids), text_entries=text, recipe_ids=tuple(ids))


def _expand(name: str, recipes: dict[str, DeclaredRecipe], seen: frozenset[str]) -> list[str]:
    ids: list[str] = []
    for entry in recipes[name].recipe_list:
        if entry.recipe_id in recipes and entry.recipe_id not in seen | {name}:
            ids.extend(_expand(entry.recipe_id, recipes, seen | {name}))
        else:
            ids.append(entry.recipe_id)
    return ids
