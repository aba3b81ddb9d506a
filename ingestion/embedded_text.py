"""What text represents a recipe in the vector index.

all-MiniLM-L6-v2 reads at most 256 word pieces, so a raw page never fits; display name, description and
tags do for 99.9% of pages. The class name's words come first after the display name because agents
often paraphrase them. Composites with an empty description are described by the names of the recipes
they run, and option names tell a configurable building block apart from a fixed one.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Mapping

from ..server.catalog.models import Recipe
from ..server.catalog.store import identifier_words

MAX_DESCRIPTION_CHARS = 700
MAX_SUB_RECIPES = 12

_LINK = re.compile(r"\[([^\]]*)\]\([^)]*\)")
# Emphasis marks only where they open or close a span: ``workflow_dispatch`` and ``a*b`` keep theirs.
_EMPHASIS = re.compile(r"(?<![\w*])[*_]{1,3}(?=\S)|(?<=\S)[*_]{1,3}(?![\w*])")


def plain(text: str) -> str:
    """Markdown → plain words: links keep their label, emphasis and code marks go, whitespace folds."""
    text = _LINK.sub(r"\1", text)
    text = _EMPHASIS.sub("", text.replace("`", ""))
    return " ".join(text.split())


def class_words(recipe_id: str) -> str:
    """The words of the recipe's class name (``SetupJavaAdoptOpenJDKToTemurin`` → ``Setup Java Adopt …``)."""
    cls = recipe_id.rsplit(".", 1)[-1]
    words = identifier_words(cls).split()
    if len(words) > 1 and words[-1] == cls:
        words = words[:-1]
    return " ".join(words)


def embedding_text(recipe: Recipe, names_by_id: Mapping[str, str]) -> str:
    """The text embedded for ``recipe``; ``names_by_id`` gives display names of sub-recipes."""
    parts = [plain(recipe.display_name)]
    words = class_words(recipe.id)
    if words:
        parts.append(f"({words})")
    description = plain(recipe.description)
    if description:
        parts.append(description[:MAX_DESCRIPTION_CHARS])
    if recipe.recipe_list and not description:
        names = [plain(names_by_id.get(ref.recipe_id, class_words(ref.recipe_id))) for ref in recipe.recipe_list]
        unique = list(dict.fromkeys(names))[:MAX_SUB_RECIPES]
        parts.append("Includes: " + "; ".join(unique))
    if recipe.tags:
        parts.append("Tags: " + ", ".join(recipe.tags))
    if recipe.options:
        parts.append("Options: " + ", ".join(o.name for o in recipe.options))
    return "\n".join(parts)


def reference_text(recipe: Recipe) -> str:
    """The reference system's embedded text, kept for the side-by-side baseline evaluation."""
    return (
        f"Recipe: {recipe.display_name}\nDescription: {recipe.description}\n"
        f"Tags: {', '.join(recipe.tags)}\nFull name: {recipe.id}"
    )


def text_hash(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()
