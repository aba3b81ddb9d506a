"""What callers may send: sizes and characters, checked before any work starts.

A NUL character in an intent used to reach PostgreSQL (which refuses it) and come back as an unexpected
error with a traceback; a lone surrogate fails when the text is encoded; a 200,000-character recipe id
made the closest-id suggestion slow; a YAML file of nested aliases expands exponentially when walked.
These checks turn all of that into ``BadInput`` that says what to change, in the core (the CLI and the
MCP tools share them), with limits far above what a real intent, id, diff or recipe needs:

============================  ==============================
an intent variation           2,000 characters
raw intent list items         20 (blanks and duplicates are dropped; at most 5 distinct remain)
a recipe id, name, filter     500 characters, one line
a path                        4,096 characters, one line
an exclude pattern            200 characters, at most 100 of them
inline diff text              5,000,000 characters (files: the diff loader's 50 MB)
recipe YAML                   1,000,000 characters, 100,000 nodes with aliases expanded, 100 levels deep
============================  ==============================
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from .errors import BadInput

MAX_INTENT_CHARS = 2_000
MAX_INTENT_ITEMS = 20
MAX_NAME_CHARS = 500
MAX_PATH_CHARS = 4_096
MAX_PATTERN_CHARS = 200
MAX_PATTERNS = 100
MAX_INLINE_DIFF_CHARS = 5_000_000
MAX_YAML_CHARS = 1_000_000
MAX_YAML_NODES = 100_000
MAX_YAML_DEPTH = 100
MAX_MESSAGE_CHARS = 10_000

# C0 controls except tab, line feed and carriage return; DEL; lone UTF-16 surrogates (JSON can carry them,
# UTF-8 cannot encode them).
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f\ud800-\udfff]")
_CONTROL_ONE_LINE = re.compile(r"[\x00-\x1f\x7f\ud800-\udfff]")
# Inline file content (diffs, YAML) may hold form feeds and escape codes; only NUL and surrogates break it.
_CONTROL_CONTENT = re.compile(r"[\x00\ud800-\udfff]")
# What YAML 1.1 (and PyYAML's reader, which fails outside any error handling on the rest) accepts.
_NOT_YAML_PRINTABLE = re.compile("[^\x09\x0a\x0d\x20-\x7e\x85\xa0-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


def _describe(ch: str) -> str:
    if ch == "\x00":
        return "a NUL character (U+0000)"
    if "\ud800" <= ch <= "\udfff":
        return f"an unpaired surrogate (U+{ord(ch):04X})"
    if ch in "\n\r":
        return "a line break"
    return f"a control character (U+{ord(ch):04X})"


def check_text(
    value: str,
    what: str,
    *,
    max_chars: int,
    one_line: bool = False,
    content: bool = False,
) -> str:
    """Return ``value`` or raise ``BadInput`` naming ``what`` and the fix.

    ``one_line`` also refuses line breaks (ids, names, paths); ``content`` (diff or YAML text) allows
    every control character but NUL, since files legitimately hold form feeds and escape codes.
    """
    if not isinstance(value, str):
        raise BadInput(f"{what} must be text, not {type(value).__name__}.")
    if len(value) > max_chars:
        raise BadInput(
            f"{what} is {len(value):,} characters long; the limit is {max_chars:,}. Shorten it"
            + (" (state the change in a sentence or two)." if "intent" in what else ".")
        )
    pattern = _CONTROL_CONTENT if content else _CONTROL_ONE_LINE if one_line else _CONTROL
    found = pattern.search(value)
    if found is not None:
        raise BadInput(
            f"{what} contains {_describe(found.group())} at position {found.start()}; remove it and send plain text."
        )
    return value


def check_optional(value: str | None, what: str, **kwargs: Any) -> str | None:
    return None if value is None else check_text(value, what, **kwargs)


def check_intent(intent: str | Sequence[str]) -> str | list[str]:
    """An intent (one query or a list of variations) within the limits above."""
    if isinstance(intent, str):
        return check_text(intent, "the intent", max_chars=MAX_INTENT_CHARS)
    items = list(intent)
    if len(items) > MAX_INTENT_ITEMS:
        raise BadInput(
            f"the intent has {len(items)} items; send 2-5 variations of one change (at most {MAX_INTENT_ITEMS} "
            "items before blanks and duplicates are dropped)."
        )
    return [check_text(item, f"intent variation {n + 1}", max_chars=MAX_INTENT_CHARS) for n, item in enumerate(items)]


def check_name(value: str, what: str) -> str:
    return check_text(value, what, max_chars=MAX_NAME_CHARS, one_line=True)


def check_path_text(value: str, what: str) -> str:
    return check_text(value, what, max_chars=MAX_PATH_CHARS, one_line=True)


def check_patterns(patterns: Sequence[str] | None, what: str = "exclude") -> list[str]:
    items = list(patterns or ())
    if len(items) > MAX_PATTERNS:
        raise BadInput(f"{what} has {len(items)} patterns; at most {MAX_PATTERNS} are allowed.")
    return [
        check_text(p, f"{what} pattern {n + 1}", max_chars=MAX_PATTERN_CHARS, one_line=True)
        for n, p in enumerate(items)
    ]


def check_diff_arg(value: str, what: str) -> str:
    """A diff argument: a path (one line) or inline diff text."""
    if "\n" in value.strip() or "\r" in value.strip():
        return check_text(value, what, max_chars=MAX_INLINE_DIFF_CHARS, content=True)
    return check_text(value, what, max_chars=MAX_PATH_CHARS if value.strip() else MAX_INLINE_DIFF_CHARS, content=True)


def _flow_depth(text: str) -> int:
    """The deepest run of unclosed ``[``/``{`` (brackets inside quoted strings counted too: an estimate
    that only matters past 100 levels)."""
    if text.count("[") + text.count("{") <= MAX_YAML_DEPTH:
        return 0
    depth = deepest = 0
    for ch in text:
        if ch in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif ch in "]}" and depth:
            depth -= 1
    return deepest


def check_recipe_arg(value: str, what: str = "recipe") -> str:
    """A recipe argument: a path (one line, not YAML-looking) or inline YAML text."""
    from .validation.inputs import looks_like_yaml

    if looks_like_yaml(value):
        return check_text(value, what, max_chars=MAX_YAML_CHARS, content=True)
    return check_text(value.strip(), what, max_chars=MAX_PATH_CHARS, one_line=True)


def check_yaml_text(text: str, what: str = "the recipe YAML") -> str:
    """Refuse YAML whose aliases expand past ``MAX_YAML_NODES`` nodes or that nests past ``MAX_YAML_DEPTH``.

    PyYAML shares aliased objects instead of copying them, so loading stays cheap, but anything that walks
    the result (linting, serialising) visits every expansion: nine levels of ten aliases are 10^9 nodes.
    The node graph is composed once (linear in the text) and its expanded size counted with memoisation.
    Syntax errors are left to the linter, which reports them with their line.
    """
    import yaml

    check_text(text, what, max_chars=MAX_YAML_CHARS, content=True)
    found = _NOT_YAML_PRINTABLE.search(text)
    if found is not None:
        line = text.count("\n", 0, found.start()) + 1
        raise BadInput(
            f"{what} contains {_describe(found.group())} on line {line}, which YAML does not allow; remove it."
        )
    if _flow_depth(text) > MAX_YAML_DEPTH:  # before composing: PyYAML recurses once per level
        raise BadInput(f"{what} is nested more than {MAX_YAML_DEPTH} levels deep; flatten it.")
    try:
        roots = list(yaml.compose_all(text, Loader=yaml.SafeLoader))
    except yaml.YAMLError:
        return text  # the linter reports the syntax error with its line
    except RecursionError as exc:
        raise BadInput(f"{what} is nested too deeply; keep it under {MAX_YAML_DEPTH} levels.") from exc
    sizes: dict[int, int] = {}
    depths: dict[int, int] = {}

    def measure(node: yaml.Node) -> tuple[int, int]:
        key = id(node)
        if key in sizes:
            return sizes[key], depths[key]
        sizes[key], depths[key] = 1, 1  # a recursive alias counts once (PyYAML builds a cycle, not a tree)
        children: list[yaml.Node] = []
        if isinstance(node, yaml.SequenceNode):
            children = list(node.value)
        elif isinstance(node, yaml.MappingNode):
            children = [part for pair in node.value for part in pair]
        size, depth = 1, 1
        for child in children:
            child_size, child_depth = measure(child)
            size += child_size
            depth = max(depth, child_depth + 1)
            if size > MAX_YAML_NODES or depth > MAX_YAML_DEPTH:
                break
        sizes[key], depths[key] = size, depth
        return size, depth

    total = 0
    for root in roots:
        if root is None:
            continue
        try:
            size, depth = measure(root)
        except RecursionError as exc:
            raise BadInput(f"{what} is nested too deeply; keep it under {MAX_YAML_DEPTH} levels.") from exc
        total += size
        if depth > MAX_YAML_DEPTH:
            raise BadInput(f"{what} is nested more than {MAX_YAML_DEPTH} levels deep; flatten it.")
        if total > MAX_YAML_NODES:
            raise BadInput(
                f"{what} expands to more than {MAX_YAML_NODES:,} nodes once its aliases (*name) are resolved; "
                "write the recipe out without nested anchors and aliases."
            )
    return text
