"""Reading a rewrite.yml into declared recipes and their entries, keeping YAML paths and line numbers.

Lint reports problems by where they are in the file, so parsing keeps the composed YAML nodes next to the
plain data: every entry knows its path (``doc[0].recipeList[2]``) and its 1-based line.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import yaml

RECIPE_TYPE = "specs.openrewrite.org/v1beta/recipe"
# Other document types a rewrite.yml may hold; they declare no recipes and are left alone.
OTHER_TYPES = frozenset(
    {
        "specs.openrewrite.org/v1beta/style",
        "specs.openrewrite.org/v1beta/category",
        "specs.openrewrite.org/v1beta/example",
        "specs.openrewrite.org/v1beta/attribution",
    }
)
RECIPE_KEYS = frozenset(
    {
        "type",
        "name",
        "displayName",
        "description",
        "tags",
        "recipeList",
        "preconditions",
        "estimatedEffortPerOccurrence",
        "causesAnotherCycle",
        "maintainers",
        "contributors",
        "examples",
    }
)


class RecipeYamlError(ValueError):
    """The text is not valid YAML; the message names the line."""

    def __init__(self, message: str, line: int | None) -> None:
        super().__init__(message)
        self.line = line


@dataclass
class Problem:
    """A structural problem found while parsing (reported by lint as an error)."""

    path: str
    message: str
    line: int | None


@dataclass
class RecipeEntry:
    """One item of a ``recipeList`` or ``preconditions`` list."""

    recipe_id: str
    options: dict[str, Any]
    path: str
    line: int | None
    option_lines: dict[str, int | None] = field(default_factory=dict)
    has_options: bool = False


@dataclass
class DeclaredRecipe:
    """A ``type: specs.openrewrite.org/v1beta/recipe`` document."""

    name: str
    path: str
    line: int | None
    recipe_list: list[RecipeEntry] = field(default_factory=list)
    preconditions: list[RecipeEntry] = field(default_factory=list)
    raw: dict[str, Any] = field(default_factory=dict)

    @property
    def entries(self) -> list[RecipeEntry]:
        return [*self.preconditions, *self.recipe_list]


@dataclass
class RecipeFile:
    recipes: list[DeclaredRecipe] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    notes: list[Problem] = field(default_factory=list)  # warnings

    def by_name(self) -> dict[str, DeclaredRecipe]:
        return {r.name: r for r in self.recipes}


def _line(node: yaml.Node | None) -> int | None:
    return node.start_mark.line + 1 if node is not None else None


def _child(node: yaml.Node | None, key: str) -> yaml.Node | None:
    if isinstance(node, yaml.MappingNode):
        for k, v in node.value:
            if isinstance(k, yaml.ScalarNode) and k.value == key:
                return v
    return None


def _item(node: yaml.Node | None, index: int) -> yaml.Node | None:
    if isinstance(node, yaml.SequenceNode) and index < len(node.value):
        return node.value[index]
    return None


def load_documents(text: str) -> list[tuple[Any, yaml.Node]]:
    """All documents as (data, node) pairs; raises ``RecipeYamlError`` with the line of a syntax error."""
    loader = yaml.SafeLoader(text)
    docs: list[tuple[Any, yaml.Node]] = []
    try:
        while loader.check_node():
            node = loader.get_node()
            if node is None:
                break
            docs.append((loader.construct_document(node), node))
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 1 if mark is not None else None
        raise RecipeYamlError(f"invalid YAML: {exc.problem or exc}", line) from exc
    except yaml.YAMLError as exc:
        raise RecipeYamlError(f"invalid YAML: {exc}", None) from exc
    finally:
        loader.dispose()
    return docs


def _parse_entries(raw: Any, node: yaml.Node | None, path: str, out: RecipeFile) -> list[RecipeEntry]:
    if raw is None:
        return []
    if not isinstance(raw, list):
        out.problems.append(Problem(path, "must be a list of recipe names (with optional options)", _line(node)))
        return []
    entries: list[RecipeEntry] = []
    for i, item in enumerate(raw):
        item_path = f"{path}[{i}]"
        item_node = _item(node, i)
        line = _line(item_node)
        if isinstance(item, str) and item.strip():
            entries.append(RecipeEntry(item.strip(), {}, item_path, line))
        elif isinstance(item, dict) and len(item) == 1:
            recipe_id, options = next(iter(item.items()))
            opt_node = _child(item_node, str(recipe_id))
            if not isinstance(recipe_id, str) or not recipe_id.strip():
                out.problems.append(Problem(item_path, "recipe name must be a non-empty string", line))
                continue
            if options is not None and not isinstance(options, dict):
                out.problems.append(
                    Problem(
                        f"{item_path}.{recipe_id}",
                        "options must be a mapping of option name to value (indent them under the recipe name)",
                        _line(opt_node) or line,
                    )
                )
                continue
            opts = {str(k): v for k, v in (options or {}).items()}
            entries.append(
                RecipeEntry(
                    recipe_id.strip(),
                    opts,
                    item_path,
                    line,
                    {k: _line(_child(opt_node, k)) for k in opts},
                    has_options=options is not None,
                )
            )
        elif isinstance(item, dict):
            keys = ", ".join(str(k) for k in item)
            out.problems.append(
                Problem(
                    item_path,
                    f"entry has {len(item)} keys ({keys}); a recipe entry is one recipe name, "
                    "with its options "
                    "indented under it (a common mistake is options at the same indentation as the name)",
                    line,
                )
            )
        else:
            out.problems.append(Problem(item_path, f"expected a recipe name, got {item!r}", line))
    return entries


def parse_recipe_file(text: str) -> RecipeFile:
    """Parse a rewrite.yml; structural problems are collected, YAML syntax errors raise."""
    out = RecipeFile()
    docs = load_documents(text)
    if not any(data is not None for data, _ in docs):
        out.problems.append(Problem("$", "the file holds no YAML documents", None))
        return out
    for index, (data, node) in enumerate(docs):
        path = f"doc[{index}]"
        if data is None:
            continue
        if not isinstance(data, dict):
            out.problems.append(
                Problem(path, "a document must be a mapping (type, name, recipeList, ...)", _line(node))
            )
            continue
        doc_type = data.get("type")
        if doc_type in OTHER_TYPES:
            continue
        if doc_type != RECIPE_TYPE:
            message = (
                f"missing 'type: {RECIPE_TYPE}'; OpenRewrite ignores this document"
                if doc_type is None
                else f"unknown type {doc_type!r}; recipes need 'type: {RECIPE_TYPE}'"
            )
            out.problems.append(Problem(f"{path}.type", message, _line(_child(node, "type")) or _line(node)))
            continue
        name = data.get("name")
        if not isinstance(name, str) or not name.strip():
            out.problems.append(Problem(f"{path}.name", "a recipe document needs a 'name' (its id)", _line(node)))
            continue
        for key in data:
            if key not in RECIPE_KEYS:
                out.notes.append(
                    Problem(
                        f"{path}.{key}",
                        f"unknown key {key!r} is ignored by OpenRewrite",
                        _line(_child(node, str(key))),
                    )
                )
        recipe = DeclaredRecipe(name.strip(), path, _line(_child(node, "name")), raw=data)
        recipe.recipe_list = _parse_entries(
            data.get("recipeList"), _child(node, "recipeList"), f"{path}.recipeList", out
        )
        recipe.preconditions = _parse_entries(
            data.get("preconditions"), _child(node, "preconditions"), f"{path}.preconditions", out
        )
        out.recipes.append(recipe)
    return out
