"""Plain-text views of search results and recipe details for the terminal (``search`` and ``show``).

The text shows everything ``--json`` holds, only shaped for reading: long prose wrapped (never cut),
long lists and examples shortened with a marker that says how much was left out and how to see it.
"""

from __future__ import annotations

import json
import textwrap
from collections.abc import Iterable
from typing import Any

from ..catalog.details import RecipeDetails
from ..catalog.models import RecipeExample, RecipeRef
from .models import SearchResult

WIDTH = 100
MAX_LISTED = 25  # sub-recipes, preconditions, used-by: the first ones, then "… and N more"
EXAMPLE_LINES = 20
INDENT = "    "


def wrap(text: str, indent: str = "", width: int = WIDTH) -> list[str]:
    """Wrap every paragraph of ``text`` (blank lines kept as paragraph breaks); nothing is cut."""
    lines: list[str] = []
    for paragraph in text.strip().split("\n\n"):
        joined = " ".join(paragraph.split())
        if not joined:
            continue
        if lines:
            lines.append("")
        lines += textwrap.wrap(joined, width, initial_indent=indent, subsequent_indent=indent) or [indent]
    return lines


def _listed(items: list[str], total: int, what: str, indent: str = "  ") -> list[str]:
    """At most ``MAX_LISTED`` items, then how many more there are and where to see them."""
    out = [indent + item for item in items[:MAX_LISTED]]
    if total > MAX_LISTED:
        out.append(f"{indent}… and {total - MAX_LISTED} more {what} — `--json` for all")
    return out


def _ref(ref: RecipeRef) -> str:
    if not ref.options:
        return ref.recipe_id
    return f"{ref.recipe_id} ({', '.join(f'{k}={_value(v)}' for k, v in ref.options.items())})"


def _value(value: Any) -> str:
    return value if isinstance(value, str) else json.dumps(value)  # JSON: also valid YAML, as in a rewrite.yml


def _block(label: str, text: str, marker: str) -> list[str]:
    """An example text under ``label``, its first ``EXAMPLE_LINES`` lines and a marker for the rest."""
    body = text.rstrip("\n").splitlines()
    out = [f"  {label}:"] + [INDENT + line for line in body[:EXAMPLE_LINES]]
    if len(body) > EXAMPLE_LINES:
        out.append(f"{INDENT}… ({len(body) - EXAMPLE_LINES} more lines; {marker})")
    return out


def _example(n: int, example: RecipeExample) -> list[str]:
    where = ", ".join(x for x in (example.file, example.language) if x)
    out = ["", f"Example {n}" + (f" ({where})" if where else "") + ":"]
    marker = "`--json` for up to 1,500 characters, `--markdown` for the page"
    if example.diff:
        out += _block("diff", example.diff, marker)
    else:
        for label, text in (("before", example.before), ("after", example.after)):
            if text:
                out += _block(label, text, marker)
    return out


def render_details(details: RecipeDetails) -> str:
    """Every field of ``details``: wrapped prose, lists and examples shortened with markers."""
    out = [details.id, details.display_name, ""]
    if details.description:
        out += [*wrap(details.description), ""]
    module = details.module.coordinates or details.module.npm_package or "unknown"
    out.append(f"module:  {module}   license: {details.license}")
    if details.tags:
        out.append(f"tags:    {', '.join(details.tags)}")
    if details.doc_url:
        out.append(f"docs:    {details.doc_url}")
    if details.source_url:
        out.append(f"source:  {details.source_url}")
    if details.options:
        required = sum(o.required for o in details.options)
        out += ["", f"Options ({len(details.options)}, {required} required):"]
        for option in details.options:
            out.append(f"  {option.name} ({option.type}{', required' if option.required else ''})")
            if option.description:
                out += wrap(option.description, INDENT)
            if option.example:
                out.append(f"{INDENT}example: {option.example}")
            if option.valid_values:
                out += wrap("valid values: " + ", ".join(option.valid_values), INDENT)
    if details.recipe_list:
        out += ["", f"Runs {len(details.recipe_list)} recipe(s), in order:"]
        out += _listed([_ref(r) for r in details.recipe_list], len(details.recipe_list), "recipes")
    if details.preconditions:
        out += ["", f"Preconditions ({len(details.preconditions)}):"]
        out += _listed([_ref(r) for r in details.preconditions], len(details.preconditions), "preconditions")
    if details.used_by:
        out += ["", f"Used by {len(details.used_by)} composite(s):"]
        out += _listed(details.used_by, len(details.used_by), "composites")
    if details.examples:
        shown = len(details.examples)
        total = shown + details.examples_omitted
        out += ["", f"Examples ({shown} of {total}):" if details.examples_omitted else f"Examples ({shown}):"]
        for n, example in enumerate(details.examples, start=1):
            out += _example(n, example)
        if details.examples_omitted:
            out.append(f"… and {details.examples_omitted} more examples on the docs page (`--markdown`)")
    out += ["", "rewrite.yml (a recipe that runs this one; fill the placeholders):", details.rewrite_yml.rstrip()]
    if details.markdown:
        out += ["", details.markdown.rstrip()]
    return "\n".join(out)


def render_hits(result: SearchResult, note: Iterable[str] = ()) -> str:
    """The ranked hits of one search, one block each."""
    out: list[str] = []
    for n, hit in enumerate(result.hits, start=1):
        opts = ", ".join(o.name + ("*" if o.required else "") for o in hit.options)
        kind = f"composite of {hit.sub_recipe_count}" if hit.is_composite else "recipe"
        out.append(
            f"{n}. {hit.id}  [{kind}; {hit.module}; cos {hit.cosine_score:.2f}; "
            f"matched {hit.matched_variations}/{len(result.queries)}]"
        )
        out.append(f"   {hit.display_name}")
        if hit.description:
            out += wrap(hit.description, "   ")
        if opts:
            out.append(f"   options: {opts}  (* required)")
    out += list(note)
    return "\n".join(out)
