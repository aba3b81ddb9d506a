"""Sub-recipes and preconditions of a composite, read from the "Yaml Recipe List" block line by line.

The generator prints option values with Java's ``toString`` instead of YAML quoting, so about one block
in five is not valid YAML: ``*..* foo()`` method patterns read as aliases, ``@Annotation`` values, license
texts running over unindented lines, regex lists with ``[``. Its layout, though, is fixed:

    preconditions:            <- a top-level key at column 0
      - org.openrewrite.Singleton
    recipeList:
      - org.openrewrite.java.ChangeType:     <- an entry at two spaces, ``:`` when options follow
          oldFullyQualifiedTypeName: a.B     <- an option at six spaces
          newParameterNames:                 <- an option whose value is a block list...
            - gen                            <- ...of items at eight spaces

Any other line continues the value of the option before it (multi-line strings). Reading that layout
gives every entry and option; value types are recovered conservatively (booleans, plain integers,
``null``, block lists, flow lists of simple items) and everything else stays the exact text.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from ..server.catalog.models import RecipeRef

# Top-level keys of a declarative recipe. Only these end a list, because a continuation line of a
# multi-line value may itself start at column 0 ("Licensed under the Apache License ...").
_TOP_LEVEL_KEYS = (
    "type",
    "name",
    "displayName",
    "description",
    "tags",
    "estimatedEffortPerOccurrence",
    "causesAnotherCycle",
    "preconditions",
    "recipeList",
)
_TOP_LEVEL = re.compile(r"^(" + "|".join(_TOP_LEVEL_KEYS) + r"):(?:\s|$)")
_ENTRY = re.compile(r"^  - ([A-Za-z_][\w.$-]*)(:?)\s*$")
_OPTION = re.compile(r"^      ([A-Za-z_][\w.-]*):(?: (.*))?$")
_BLOCK_ITEM = re.compile(r"^        - (.*)$")
_INTEGER = re.compile(r"^-?(?:0|[1-9]\d{0,17})$")
_SIMPLE_FLOW_LIST = re.compile(r"^\[([^\[\]{}\"',]*(?:,[^\[\]{}\"',]*)*)\]$")


@dataclass
class RecipeListBlock:
    """What the YAML block declares: the ordered sub-recipes and preconditions."""

    recipe_list: list[RecipeRef] = field(default_factory=list)
    preconditions: list[RecipeRef] = field(default_factory=list)


@dataclass
class _Option:
    name: str
    text: str
    items: list[str] | None = None


@dataclass
class _Entry:
    recipe_id: str
    options: list[_Option] = field(default_factory=list)

    def to_ref(self) -> RecipeRef:
        return RecipeRef(recipe_id=self.recipe_id, options={o.name: _value(o) for o in self.options})


def parse_recipe_list_yaml(text: str) -> RecipeListBlock:
    """Entries of ``recipeList:`` and ``preconditions:`` with their options, in page order."""
    lists: dict[str, list[_Entry]] = {"recipeList": [], "preconditions": []}
    current_list: list[_Entry] | None = None
    entry: _Entry | None = None
    option: _Option | None = None
    for line in text.split("\n"):
        top = _TOP_LEVEL.match(line)
        if top is not None:
            current_list = lists.get(top.group(1))
            entry = option = None
            continue
        if current_list is None:
            continue
        if (match := _ENTRY.match(line)) is not None:
            entry = _Entry(match.group(1))
            current_list.append(entry)
            option = None
        elif entry is not None and (match := _OPTION.match(line)) is not None:
            option = _Option(match.group(1), match.group(2) or "")
            entry.options.append(option)
        elif option is not None:
            _continue_value(option, line)
    return RecipeListBlock(
        recipe_list=[e.to_ref() for e in lists["recipeList"]],
        preconditions=[e.to_ref() for e in lists["preconditions"]],
    )


def _continue_value(option: _Option, line: str) -> None:
    """A line after an option: an item of its block list, or more text of a multi-line value."""
    item = _BLOCK_ITEM.match(line)
    if item is not None and not option.text:
        option.items = [*(option.items or []), _scalar(item.group(1))]
        return
    option.text = f"{option.text}\n{line}"


def _value(option: _Option) -> Any:
    if option.items is not None and not option.text.strip():
        return option.items
    text = option.text.rstrip()
    if "\n" in text:
        return text
    flow = _SIMPLE_FLOW_LIST.match(text)
    if flow is not None:
        inner = flow.group(1).strip()
        return [_scalar(part.strip()) for part in inner.split(",")] if inner else []
    return _scalar(text)


def _scalar(text: str) -> Any:
    """``true``/``false``, ``null``, plain integers and double-quoted strings; anything else verbatim.

    Decimals stay strings on purpose: ``3.10`` is a version, not the float 3.1.
    """
    if text in ("true", "false"):
        return text == "true"
    if text in ("null", "~", ""):
        return None
    if _INTEGER.match(text):
        return int(text)
    if len(text) >= 2 and text[0] == text[-1] == '"' and '"' not in text[1:-1]:
        return text[1:-1]
    return text
