"""The generic edit recipes of the diff search: for a change no specific recipe makes, the recipe of that file
kind that makes any edit of its shape when told what to edit (``properties.ChangePropertyValue`` for a
changed property, ``docker.ChangeFrom`` for a Dockerfile's base image, ``java.ChangePackage`` for a package
renamed in the imports, ``java.ChangeType`` for a type the imports swap for another, ``java.ChangeMethodName``
for a method called under another name, ``text.FindAndReplace`` for a changed line in a build script).

They have no example like a project's change (``FindAndReplace`` has none at all) and their words are
everybody's, so neither evidence ranks them; yet for an agent writing a recipe "no specific recipe makes
this line's change, the generic one for this file kind does" is the answer. The whole-diff pick places them
after the recipes that are best for some change (``pick.FALLBACK``), before the runners-up.

The most structured generic of the file kind is the one offered: a YAML key by the property recipes (a dotted
key, as Spring and compose files are edited), a Spring project's ``application*`` file by the Spring property
recipes first (they read both formats and the annotations naming the property), a GitHub workflow's action and
``setup-java`` lines by none (its steps sit in lists no key path addresses; the ``github`` recipes make those
edits) and its other lines by a text edit, a Dockerfile's ``FROM`` line by ``ChangeFrom`` rather than a text edit.

A block of property entries (a ``.properties`` file, a pom's ``<properties>``) changed at once may make several
edits: keys renamed beside a key added, two compiler entries merged into one. It is read entry by entry
(``entry_edits``) and offered the recipes of its main edit (the most entries') rather than the value recipe.

A generic recipe is only as good as what it is told, so where the segment's edit is one line (one key, one
Maven property, one line of text, one ``FROM``, one type or method; or one entry of a block makes the recipe's
edit) the hit carries the options that make
exactly that edit (``generic_options``): the key and its new value, the image and its tag, the old and the new
name, or the line to find and its replacement.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Sequence

from ...diffs.features import CODE_KINDS, Change, open_section, pair_lines
from ...diffs.words import KEY_VALUE, XML_TAG, from_image, image_parts, import_changes, strip_quotes, yaml_parents
from ...diffs.words.java import imported

# What each generic recipe's page says it edits: a file kind's structured entries (a property, a YAML key,
# a Maven property), by edit: a value changed, an entry added, removed, or its key renamed.
STRUCTURED: dict[str, dict[str, tuple[str, ...]]] = {
    "properties": {
        "change": ("org.openrewrite.properties.ChangePropertyValue",),
        "add": ("org.openrewrite.properties.AddProperty",),
        "remove": ("org.openrewrite.properties.DeleteProperty",),
        "rename": ("org.openrewrite.properties.ChangePropertyKey",),
    },
    "yaml": {
        "change": ("org.openrewrite.yaml.ChangePropertyValue",),
        "add": ("org.openrewrite.yaml.MergeYaml",),
        "remove": ("org.openrewrite.yaml.DeleteProperty",),
        "rename": ("org.openrewrite.yaml.ChangePropertyKey",),
    },
    "maven": {
        "change": ("org.openrewrite.maven.ChangePropertyValue",),
        "add": ("org.openrewrite.maven.AddProperty",),
        "remove": ("org.openrewrite.maven.RemoveProperty",),
        "rename": ("org.openrewrite.maven.RenamePropertyKey",),
    },
}
# A Spring Boot configuration file (``application*`` / ``bootstrap*``, YAML or properties) in a Spring project: the
# Spring property recipes make the same edits on either format by the property's dotted name (and in ``@Value``
# and the other annotations that name it), so they go before the file format's own.
SPRING: dict[str, str] = {
    "change": "org.openrewrite.java.spring.ChangeSpringPropertyValue",
    "add": "org.openrewrite.java.spring.AddSpringProperty",
    "remove": "org.openrewrite.java.spring.DeleteSpringProperty",
    "rename": "org.openrewrite.java.spring.ChangeSpringPropertyKey",
}
SPRING_CONFIG = re.compile(r"(^|/)(application|bootstrap)[\w.-]*\.(ya?ml|properties)$")
# Any text file's lines, where no structured recipe of its kind does: a textual find and replace (which
# also deletes). Source code is left out: its recipes work on the syntax tree, and ``FindAndReplace`` would
# turn the file into plain text for the rest of the run.
TEXT_EDIT = "org.openrewrite.text.FindAndReplace"
# A Dockerfile's base image changed (its ``FROM`` line), and a Java package renamed in one of its parts
# (``javax.persistence`` → ``jakarta.persistence``, ``commons.lang`` → ``commons.lang3``: the types keep their
# names and places) — the edits of those kinds a structured generic makes.
DOCKER_FROM = "org.openrewrite.docker.ChangeFrom"
PACKAGE_RENAME = "org.openrewrite.java.ChangePackage"
# A Java type the imports replace by another: moved to another package (``io.dropwizard.Configuration`` →
# ``io.dropwizard.core.Configuration``), renamed (``org.mockito.Matchers`` → ``ArgumentMatchers``), or swapped
# (``RxHttpClient`` → ``HttpClient``, ``java.util.Date`` → ``java.time.Instant``): what ``ChangeType`` makes at
# the imports and every use. A package renamed in one part is ``ChangePackage``'s, for all its types.
TYPE_CHANGE = "org.openrewrite.java.ChangeType"
# A method called (or declared) under another name, the line otherwise the same (``verifyZeroInteractions(`` →
# ``verifyNoInteractions(``, ``getId()`` → ``threadId()``): what ``ChangeMethodName`` makes at every call.
METHOD_RENAME = "org.openrewrite.java.ChangeMethodName"
JVM_KINDS = frozenset({"java", "kotlin"})  # the languages the Java type and method recipes read
# YAML's JsonPath recipes: not offered (the property recipes address the same key by its dotted path), yet
# told the options when the evidence finds them.
JSON_PATH = ("org.openrewrite.yaml.ChangeValue", "org.openrewrite.yaml.DeleteKey")
WORKFLOWS = ".github/workflows/"  # GitHub workflows: edited by the ``github`` recipes, not by YAML key paths
# The workflow lines the ``github`` recipes make (an action's ``uses:``, ``setup-java``'s inputs); any other line
# (a step's name or ``run:``, a matrix list, ``runs-on``) only a free-text edit writes.
ACTION_LINE = re.compile(r"^\s*(-\s*)?(uses|java-version|distribution|cache)\s*:")
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


GENERIC_IDS = frozenset(
    {
        TEXT_EDIT,
        DOCKER_FROM,
        PACKAGE_RENAME,
        TYPE_CHANGE,
        METHOD_RENAME,
        *JSON_PATH,
        *SPRING.values(),
        *(rid for edits in STRUCTURED.values() for rids in edits.values() for rid in rids),
    }
)


def generic_recipes(
    change: Change,
    known: Collection[str],
    above: Sequence[str] = (),
    path: str = "",
    built: bool = False,
    spring: bool = False,
) -> list[str]:
    """The generic recipes that can make this segment's edit, most structured first; only ids the catalog
    has (``known``). ``above``: the unchanged lines above the change (a pom's section); ``path``: the file
    (``gradle.properties`` is a Gradle file by kind and a properties file to the properties recipes);
    ``built``: the segment's lines are dependency or plugin edits a build recipe makes (``build_edits``), so
    no free-text edit is offered for them; ``spring``: the diff is a Spring project's (``spring_project``)."""
    edit = edit_of(change)
    if edit is None:
        return []
    if change.kind in CODE_KINDS:
        code = [PACKAGE_RENAME] if package_renames(change) else []
        code += [TYPE_CHANGE] if change.kind in JVM_KINDS and type_changes(change) else []
        code += [METHOD_RENAME] if change.kind in JVM_KINDS and method_renames(change) else []
        return [rid for rid in code if rid in known]
    if change.kind == "yaml" and WORKFLOWS in path:
        lines = [line for line in change.removed + change.added if line.strip()]
        made = all(ACTION_LINE.match(line) for line in lines)
        return [TEXT_EDIT] if TEXT_EDIT in known and edit != "add" and not made else []
    if change.kind == "dockerfile" and base_image_change(change) is not None:
        return [rid for rid in (DOCKER_FROM,) if rid in known]
    if change.kind == "maven" and not in_properties_section(above, change.removed + change.added):
        # a pom line outside ``<properties>`` no build recipe makes (an enforcer range, a surefire group): the
        # free-text edit of that one line
        line = one_edit(change)
        one_line = line is not None and line[0] is not None and line[1] is not None
        return [TEXT_EDIT] if TEXT_EDIT in known and one_line and not built else []
    kind = "properties" if path.endswith(".properties") else change.kind
    if edit == "change" and kind in STRUCTURED and _renamed(change, kind):
        edit = "rename"
    # a block of entries making several edits is offered its main edit's recipes (the most entries'): the
    # others' too cost specific recipes their places (measured on the development sets)
    edits = list((entry_edits(change, kind) if kind in ENTRY_KINDS else None) or [edit])[:1]
    spring_file = spring and kind in {"yaml", "properties"} and SPRING_CONFIG.search(path) is not None
    out = [
        rid for e in edits for rid in ([SPRING[e]] if spring_file else []) + list(STRUCTURED.get(kind, {}).get(e, ()))
    ]
    if kind not in STRUCTURED and edit != "add" and not built:
        out.append(TEXT_EDIT)
    return [rid for rid in out if rid in known]


# The file kinds whose every changed line is one entry (``key=value``, ``<key>value</key>``): a block of them
# changed at once may make several edits (a key renamed, another added), each one generic recipe's.
ENTRY_KINDS = frozenset({"properties", "maven"})
_EDIT_ORDER = ("rename", "change", "add", "remove")  # on a tie: a renamed key first, as a block read whole


def entry_edits(change: Change, kind: str) -> dict[str, list[tuple[str | None, str | None]]] | None:
    """The edits a block of property entries makes, each with its (old, new) lines, the most entries' first: an
    entry kept under its key with another value (``change``), one whose key the block renames (``rename``; with
    another value too, also ``change``), one only added (``add``) or only removed (``remove``). Entries left
    over on both sides are renamed where as many on each side hold a value (``spring.http.encoding.charset=UTF-8``
    → ``server.servlet.encoding.charset=UTF-8`` beside a new ``server.shutdown``), else removed and added. None
    when a changed line is no entry (a comment, a block): the caller reads the block as one edit."""
    entry = _xml_entry if kind == "maven" else _key_value
    lines = [line for line in change.removed + change.added if line.strip()]
    if not lines or any(entry(line)[0] is None for line in lines):
        return None
    pairs, gone, came = pair_lines(change.removed, change.added)
    # keys left over on both sides are renamed where as many entries on each side hold the same value (two
    # compiler entries of ``11`` merged into one are removed and added, not renamed)
    for value in dict.fromkeys(entry(line)[1] for line in gone):
        olds = [line for line in gone if entry(line)[1] == value]
        news = [line for line in came if entry(line)[1] == value]
        if value and len(olds) == len(news):
            pairs += list(zip(olds, news, strict=True))
            gone = [line for line in gone if line not in olds]
            came = [line for line in came if line not in news]
    edits: dict[str, list[tuple[str | None, str | None]]] = {edit: [] for edit in _EDIT_ORDER}
    for old, new in pairs:
        (old_key, old_value), (new_key, new_value) = entry(old), entry(new)
        if old_key != new_key:
            edits["rename"].append((old, new))
        if old_value != new_value and (old_key == new_key or (old_value and new_value)):
            edits["change"].append((old, new))
    edits["add"] = [(None, new) for new in came]
    edits["remove"] = [(old, None) for old in gone]
    return dict(sorted(((e, made) for e, made in edits.items() if made), key=lambda item: -len(item[1])))


def spring_project(diff: str) -> bool:
    """The diff names Spring somewhere (a dependency, an import, a key): its ``application*`` files are Spring
    Boot's configuration, not Quarkus' or Micronaut's, which read files of the same names."""
    return "spring" in diff.lower()


def renames_keys(change: Change, kind: str) -> bool:
    """Whether the change renames its entries' keys, values kept (``_renamed``): what ``direction`` reads off a
    recipe's examples."""
    return _renamed(change, kind)


def _renamed(change: Change, kind: str) -> bool:
    """The change renames the keys of its entries (their values kept): paired line by line, or, in YAML, nested
    under other keys."""
    if _renames_keys(change, _xml_entry if kind == "maven" else _key_value):
        return True
    return kind == "yaml" and _moves_keys(change)


def _renames_keys(change: Change, entry: Callable[[str], tuple[str | None, str]]) -> bool:
    """Every changed line of the change keeps its value's place under another key: a rename, which the value
    recipes cannot make."""
    pairs, _, _ = pair_lines(change.removed, change.added)
    keys = [(entry(old)[0], entry(new)[0]) for old, new in pairs]
    return bool(keys) and all(old is not None and new is not None and old != new for old, new in keys)


def _moves_keys(change: Change) -> bool:
    """A YAML change that keeps every value under other keys (``redis:`` nested under a new ``data:``, ``profiles:
    prod`` → ``config.activate.on-profile: prod``): a rename of the keys above the values, which the lines' pairing
    misses because the nesting changed; a change of block keys alone (no value on either side) too."""
    old = [_key_value(line) for line in change.removed if line.strip()]
    new = [_key_value(line) for line in change.added if line.strip()]
    if not old or not new or any(key is None for key, _ in old + new):
        return False
    values = sorted(value for _, value in old if value), sorted(value for _, value in new if value)
    return values[0] == values[1] and [key for key, _ in old] != [key for key, _ in new]


def package_renames(change: Change) -> list[tuple[str, str]]:
    """The packages the change's imports rename in one dotted part (``javax.persistence`` →
    ``jakarta.persistence``), each once: what ``ChangePackage`` does. A move to another depth
    (``org.junit`` → ``org.junit.jupiter.api``, ``org.apache.log4j`` → ``org.slf4j``) is another library's
    types, which a specific migration maps."""
    _, moves = import_changes(change)
    out: list[tuple[str, str]] = []
    for old, new in dict.fromkeys(moves):
        old_parts, new_parts = old.split("."), new.split(".")
        if len(old_parts) == len(new_parts) and sum(a != b for a, b in zip(old_parts, new_parts, strict=True)) == 1:
            out.append((old, new))
    return out


def type_changes(change: Change) -> list[tuple[str, str]]:
    """The types the change's imports replace (old, new fully qualified), each once: those renamed on the way
    (``import_changes``), those that kept their name in another package not renamed in one part (which
    ``ChangePackage`` makes for the whole package), and a lone type import swapped for another of the same kind
    (the one removed import nothing pairs against the one added)."""
    types, _ = import_changes(change)
    out = list(types)
    old, new = imported(change.removed), imported(change.added)
    renamed = set(package_renames(change))
    new_by_name = {_simple(name): name for name, _ in new}
    for name, _ in old:
        moved = new_by_name.get(_simple(name))
        moved_package = (name.rsplit(".", 1)[0], moved.rsplit(".", 1)[0]) if moved else None
        if moved and moved != name and _simple(name)[:1].isupper() and moved_package not in renamed:
            out.append((name, moved))
    old_names = {_simple(name) for name, _ in old}
    left_old = [(name, static) for name, static in old if _simple(name) not in new_by_name]
    left_new = [(name, static) for name, static in new if _simple(name) not in old_names]
    if len(left_old) == 1 and len(left_new) == 1:
        (gone, gone_static), (came, came_static) = left_old[0], left_new[0]
        if gone_static == came_static and _simple(gone)[:1].isupper() and _simple(came)[:1].isupper():
            out.append((gone, came))
    return list(dict.fromkeys(out))


_NAME = re.compile(r"([A-Za-z_$][\w$]*)")
_METHOD = re.compile(r"[a-z][\w$]*")


def method_renames(change: Change) -> list[tuple[str, str]]:
    """The methods the change calls (or declares) under another name, each once: a changed line whose only
    difference from its counterpart is one name followed by ``(``."""
    pairs, _, _ = pair_lines(change.removed, change.added)
    out: list[tuple[str, str]] = []
    for old, new in pairs:
        old_parts, new_parts = _NAME.split(old.strip()), _NAME.split(new.strip())
        if len(old_parts) != len(new_parts):
            continue
        changed = [i for i, (a, b) in enumerate(zip(old_parts, new_parts, strict=True)) if a != b]
        if len(changed) != 1:
            continue
        i = changed[0]
        calls = i + 1 < len(old_parts) and old_parts[i + 1].lstrip().startswith("(")
        if calls and _METHOD.fullmatch(old_parts[i]) and _METHOD.fullmatch(new_parts[i]):
            out.append((old_parts[i], new_parts[i]))
    return list(dict.fromkeys(out))


def _simple(name: str) -> str:
    return name.rsplit(".", 1)[-1]


def base_image_change(change: Change) -> tuple[str, str] | None:
    """The (old, new) image of the change's first ``FROM`` line changed, else None."""
    pairs, _, _ = pair_lines(change.removed, change.added)
    for old, new in pairs:
        old_image, new_image = from_image(old), from_image(new)
        if old_image and new_image and old_image != new_image:
            return old_image, new_image
    return None


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
    if recipe_id == DOCKER_FROM:
        return _from_options(change)
    if recipe_id == PACKAGE_RENAME:
        renames = package_renames(change)
        if not renames:
            return {}
        return {"oldPackageName": renames[0][0], "newPackageName": renames[0][1], "recursive": "true"}
    if recipe_id == METHOD_RENAME:
        methods = method_renames(change)
        # the declaring type is not on the line: any type's method of that name, for the agent to narrow
        return {"methodPattern": f"*..* {methods[0][0]}(..)", "newMethodName": methods[0][1]} if methods else {}
    if recipe_id == TYPE_CHANGE:
        types = type_changes(change)
        return {"oldFullyQualifiedTypeName": types[0][0], "newFullyQualifiedTypeName": types[0][1]} if types else {}
    edit = one_edit(change) or _one_entry_edit(recipe_id, path, change)
    if edit is None:
        return {}
    old, new = edit
    if recipe_id == TEXT_EDIT:
        if old is None or len(old.strip()) > MAX_FIND_CHARS:
            return {}
        return {"find": old.strip(), "replace": (new or "").strip(), "filePattern": path}
    entry = _xml_entry if recipe_id.startswith("org.openrewrite.maven.") else _key_value
    (old_key, old_value), (key, value) = entry(old or ""), entry(new or "")
    if recipe_id in SPRING.values():
        return _spring_options(recipe_id, path, above, (old, old_key, old_value), (new, key, value))
    if recipe_id in RENAMES:
        return _rename_options(recipe_id, path, above, (old, old_key), (new, key))
    if old is not None and new is not None and (key is None or key != old_key):
        return {}
    key = key or old_key
    if key is None:
        return {}
    yaml_path = _yaml_path(above, new or old or "", key) if recipe_id.startswith("org.openrewrite.yaml.") else None
    dotted = yaml_path[2:] if yaml_path else None
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
        "org.openrewrite.yaml.ChangePropertyValue": {"propertyKey": dotted, "newValue": value, "filePattern": path},
        "org.openrewrite.yaml.DeleteProperty": {"propertyKey": dotted, "filePattern": path},
    }
    chosen = options.get(recipe_id, {})
    return {} if any(v is None for v in chosen.values()) else {k: v for k, v in chosen.items() if v is not None}


def _one_entry_edit(recipe_id: str, path: str, change: Change) -> tuple[str | None, str | None] | None:
    """In a block of property entries making several edits, the one entry a structured property recipe's edit
    makes (the one key added beside renamed ones), when it makes that edit for one entry only."""
    kind = "properties" if path.endswith(".properties") else change.kind
    edits = entry_edits(change, kind) if kind in ENTRY_KINDS else None
    if not edits:
        return None
    own = {rid: e for e, rids in STRUCTURED.get(kind, {}).items() for rid in rids} | {r: e for e, r in SPRING.items()}
    made = edits.get(own.get(recipe_id, ""), [])
    return made[0] if len(made) == 1 else None


RENAMES = frozenset(rids[0] for edits in STRUCTURED.values() for edit, rids in edits.items() if edit == "rename")


def _rename_options(
    recipe_id: str,
    path: str,
    above: Sequence[str],
    old: tuple[str | None, str | None],
    new: tuple[str | None, str | None],
) -> dict[str, str]:
    """A renamed key's options: the old and the new key (a YAML key by its dotted path under the same parents)."""
    (old_line, old_key), (new_line, new_key) = old, new
    if old_line is None or new_line is None or old_key is None or new_key is None or old_key == new_key:
        return {}
    if recipe_id == "org.openrewrite.maven.RenamePropertyKey":
        return {"oldKey": old_key, "newKey": new_key}
    if recipe_id == "org.openrewrite.yaml.ChangePropertyKey":
        old_path, new_path = _yaml_path(above, old_line, old_key), _yaml_path(above, new_line, new_key)
        if old_path is None or new_path is None:
            return {}
        return {"oldPropertyKey": old_path[2:], "newPropertyKey": new_path[2:], "filePattern": path}
    return {"oldPropertyKey": old_key, "newPropertyKey": new_key}


def _spring_options(
    recipe_id: str,
    path: str,
    above: Sequence[str],
    old: tuple[str | None, str | None, str],
    new: tuple[str | None, str | None, str],
) -> dict[str, str]:
    """A Spring property recipe's options: the property by its dotted name (a YAML key's path under its parents),
    the value it gets, or the old and the new name of a renamed one."""
    (old_line, old_key, old_value), (new_line, new_key, new_value) = old, new

    def dotted(line: str | None, key: str | None) -> str | None:
        if line is None or key is None:
            return None
        if not path.endswith(".properties"):
            yaml_path = _yaml_path(above, line, key)
            return None if yaml_path is None else yaml_path[2:]
        return key

    old_name, new_name = dotted(old_line, old_key), dotted(new_line, new_key)
    chosen: dict[str, str | None] = {}
    if recipe_id == SPRING["rename"]:
        if old_name != new_name:
            chosen = {"oldPropertyKey": old_name, "newPropertyKey": new_name}
    elif recipe_id == SPRING["change"]:
        if old_name == new_name:
            chosen = {"propertyKey": new_name, "newValue": new_value}
    elif recipe_id == SPRING["remove"]:
        if new_line is None:
            chosen = {"propertyKey": old_name}
    elif old_line is None:
        chosen = {"property": new_name, "value": new_value}
    # a YAML key without a value opens a block: no property of its own
    if not chosen or any(not v for v in chosen.values()):
        return {}
    options = {k: v for k, v in chosen.items() if v}
    if recipe_id == SPRING["change"] and old_value:
        options["oldValue"] = old_value
    return options


def _from_options(change: Change) -> dict[str, str]:
    """``ChangeFrom``'s options for the change's base image: the old image's name and tag, the new ones."""
    images = base_image_change(change)
    if images is None:
        return {}
    (old_name, old_tag), (new_name, new_tag) = image_parts(images[0]), image_parts(images[1])
    options = {"oldImageName": old_name, "oldTag": old_tag, "newImageName": new_name, "newTag": new_tag}
    return {k: v for k, v in options.items() if v is not None}


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
