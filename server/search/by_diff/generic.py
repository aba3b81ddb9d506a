"""The generic edit recipes of the diff search: for a change no specific recipe makes, the recipe of that file
kind that makes any edit of its shape when told what to edit (``properties.ChangePropertyValue`` for a
changed property, ``text.FindAndReplace`` for a changed line in a build script or a Dockerfile).

They have no example like a project's change (``FindAndReplace`` has none at all) and their words are
everybody's, so neither evidence ranks them; yet for an agent writing a recipe "no specific recipe makes
this line's change, the generic one for this file kind does" is the answer. The whole-diff pick places them
after the recipes that are best for some change (``pick.FALLBACK``), before the runners-up.
"""

from __future__ import annotations

from collections.abc import Collection

from ...diffs.features import Change

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
CODE_KINDS = frozenset({"java", "kotlin", "groovy", "scala", "python", "javascript", "typescript", "csharp"})


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


def generic_recipes(change: Change, known: Collection[str]) -> list[str]:
    """The generic recipes that can make this segment's edit, most structured first; only ids the catalog
    has (``known``)."""
    edit = edit_of(change)
    if edit is None or change.kind in CODE_KINDS:
        return []
    out = list(STRUCTURED.get(change.kind, {}).get(edit, ()))
    if change.kind not in STRUCTURED and edit != "add":
        out.append(TEXT_EDIT)
    return [rid for rid in out if rid in known]
