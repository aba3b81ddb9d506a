"""The generic edit recipes of the diff search: for a change no specific recipe makes, the recipe of that file
kind that makes any edit of its shape when told what to edit (``properties.ChangePropertyValue`` for a
changed property, ``text.FindAndReplace`` for a changed line in a build script or a Dockerfile).

They have no example like a project's change (``FindAndReplace`` has none at all) and their words are
everybody's, so neither evidence ranks them; yet for an agent writing a recipe "no specific recipe makes
this line's change, the generic one for this file kind does" is the answer. The whole-diff pick places them
after the recipes that are best for some change (``pick.FALLBACK``), before the runners-up.

A generic recipe is only as good as what it is told, so where the segment's edit is one line (one key, one
Maven property, one line of text) the hit carries the options that make exactly that edit
(``generic_options``): the key and its new value, or the line to find and its replacement.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

from ...diffs.features import CODE_KINDS, Change, open_section, pair_lines
from ...diffs.words import KEY_VALUE, XML_TAG, strip_quotes, yaml_parents

# What each generic recipe's page says it edits: a file kind's structured entries (a property, a YAML key,
# a Maven property), by edit: a line changed, added or removed.
STRUCTURED: dict[str, dict[str, tuple[str, ...]]] = {
    "properties": {
        "change": ("org.openrewrite.properties.ChangePropertyValue",),
        "add": ("org.openrewrite.properties.AddProperty",),
        "remove": ("org.openrewrite.properties.DeleteProperty",),
    },
    "yaml": {
        "change": ("org.openrewrite.yaml.ChangeValue",),
        "add": ("org.openrewrite.yaml.MergeYaml",),
        "remove": ("org.openrewrite.yaml.DeleteKey",),
    },
    "maven": {
        "change": ("org.openrewrite.maven.ChangePropertyValue",),
        "add": ("org.openrewrite.maven.AddProperty",),
        "remove": ("org.openrewrite.maven.RemoveProperty",),
    },
}
# Any text file's lines, where no structured recipe of its kind does: a textual find and replace (which
# also deletes). Source code is left out: its recipes work on the syntax tree, and ``FindAndReplace`` would
# turn the file into plain text for the rest of the run.
TEXT_EDIT = "org.openrewrite.text.FindAndReplace"
MAX_FIND_CHARS = 200  # a longer line is no literal an agent would search a file for


def edit_of(change: Change) -> str | None:
    """``change``, ``add`` or ``remove``: what the segment does to the file's lines (None: a whole file is
    created or deleted, which recipes of their own do)."""
    if change.deleted_file or change.new_file:
        return None
    if change.added and change.removed:
        return "change"
    if change.added:
        return "add"
    return "remove" if change.removed else None


# Elements that cannot sit inside ``<properties>``: the lines above opening one of them left it.
_OTHER_SECTIONS = ("parent", "dependency", "plugin", "configuration", "exclusion", "extension", "build", "profile")


def in_properties_section(above: Sequence[str], lines: Sequence[str] = ()) -> bool:
    """A pom change sits inside ``<properties>``: the lines above open it last (not another element such
    as ``<parent>`` or ``<dependency>``), or, when they show no element at all (a long properties block),
    every changed line is an entry named like a property (``<java.version>``). Maven's property recipes
    edit those entries only; a dependency's or the parent's ``<version>`` is not one."""
    inside = open_section(above, "properties", _OTHER_SECTIONS)
    if inside is not None:
        return inside
    tags = [_xml_entry(line)[0] for line in lines if line.strip()]
    return bool(tags) and all(tag is not None and "." in tag for tag in tags)


GENERIC_IDS = frozenset({TEXT_EDIT, *(rid for edits in STRUCTURED.values() for rids in edits.values() for rid in rids)})


def generic_recipes(change: Change, known: Collection[str], above: Sequence[str] = (), path: str = "") -> list[str]:
    """The generic recipes that can make this segment's edit, most structured first; only ids the catalog
    has (``known``). ``above``: the unchanged lines above the change (a pom's section); ``path``: the file
    (``gradle.properties`` is a Gradle file by kind and a properties file to the properties recipes)."""
    edit = edit_of(change)
    if edit is None or change.kind in CODE_KINDS:
        return []
    if change.kind == "maven" and not in_properties_section(above, change.removed + change.added):
        return []
    kind = "properties" if path.endswith(".properties") else change.kind
    out = list(STRUCTURED.get(kind, {}).get(edit, ()))
    if kind not in STRUCTURED and edit != "add":
        out.append(TEXT_EDIT)
    return [rid for rid in out if rid in known]


def one_edit(change: Change) -> tuple[str | None, str | None] | None:
    """The segment's edit as (old line, new line) when it is one line changed, added (old None) or removed
    (new None); None for anything larger."""
    pairs, removed, added = pair_lines(change.removed, change.added)
    if len(pairs) + len(removed) + len(added) != 1:
        return None
    if pairs:
        return pairs[0]
    return (removed[0], None) if removed else (None, added[0])


def generic_options(recipe_id: str, path: str, change: Change, above: Sequence[str] = ()) -> dict[str, str]:
    """The options that make exactly this segment's edit with the generic recipe, when the edit is one
    line (empty otherwise: several lines need a judgement the agent makes, and so does a renamed key).
    ``path`` is the PR file (``filePattern``); ``above`` gives a YAML key its path."""
    edit = one_edit(change)
    if edit is None:
        return {}
    old, new = edit
    if recipe_id == TEXT_EDIT:
        if old is None or len(old.strip()) > MAX_FIND_CHARS:
            return {}
        return {"find": old.strip(), "replace": (new or "").strip(), "filePattern": path}
    entry = _xml_entry if recipe_id.startswith("org.openrewrite.maven.") else _key_value
    (old_key, old_value), (key, value) = entry(old or ""), entry(new or "")
    if old is not None and new is not None and (key is None or key != old_key):
        return {}
    key = key or old_key
    if key is None:
        return {}
    yaml_path = _yaml_path(above, new or old or "", key) if recipe_id.startswith("org.openrewrite.yaml.") else None
    options: dict[str, dict[str, str | None]] = {
        "org.openrewrite.properties.ChangePropertyValue": {
            "propertyKey": key,
            "newValue": value,
            "oldValue": old_value,
        },
        "org.openrewrite.properties.AddProperty": {"property": key, "value": value},
        "org.openrewrite.properties.DeleteProperty": {"propertyKey": key},
        "org.openrewrite.maven.ChangePropertyValue": {"key": key, "newValue": value},
        "org.openrewrite.maven.AddProperty": {"key": key, "value": value},
        "org.openrewrite.maven.RemoveProperty": {"propertyName": key},
        "org.openrewrite.yaml.ChangeValue": {"keyPath": yaml_path, "value": value, "filePattern": path},
        "org.openrewrite.yaml.DeleteKey": {"keyPath": yaml_path, "filePattern": path},
    }
    chosen = options.get(recipe_id, {})
    return {} if any(v is None for v in chosen.values()) else {k: v for k, v in chosen.items() if v is not None}


def _key_value(line: str) -> tuple[str | None, str]:
    """``key=value`` / ``key: value`` → (key, value unquoted); (None, "") for any other line."""
    match = KEY_VALUE.match(line)
    if match is None or line.lstrip().startswith(("#", "!", "-")):
        return None, ""
    return match.group(1), strip_quotes(match.group(2).strip())


def _xml_entry(line: str) -> tuple[str | None, str]:
    """``<key>value</key>`` → (key, value); (None, "") for any other line."""
    match = XML_TAG.match(line)
    return (match.group(1), match.group(2).strip()) if match else (None, "")


def _yaml_path(above: Sequence[str], line: str, key: str) -> str | None:
    """The JsonPath of a YAML key (``$.spring.datasource.url``), when the lines above show its parents."""
    parents = yaml_parents(above, line)
    return None if parents is None else "$." + ".".join([*parents, key])
