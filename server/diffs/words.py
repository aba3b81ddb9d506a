"""The hunk → words bridge: a short description of what a PR hunk does, in the catalog's own vocabulary.

Diff search compares hunks with the examples on recipe pages, but many recipes have no example (or one
that looks nothing like a real project's file), while their names and descriptions say exactly what they
do: "Add property", "Upgrade Gradle plugin version", "Change package", "Delete files". Written as words,
the hunk reaches them through the hybrid ``find_recipes`` search.

The description is a grammar over the hunk's structured features, never a list of recipes: the file kind
(Gradle build, Maven pom, properties file, YAML, GitHub Actions workflow, Dockerfile, Java, text), the
edit's shape per line (a key added, removed, or its value changed; only a version changed; a dependency
coordinate or plugin id changed; a package moved; an annotation removed; a file deleted or created) and
the changed values themselves (keys, coordinates, package names, versions).

``describe_pr`` does the same for the PR as a whole: the same package family moved in several files
(imports, Gradle coordinates, Maven ``groupId``) reads as "migrate javax to jakarta", the same Java level in
several build, CI and container files as "migrate to Java 17". A change in one file yields nothing.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import pairwise
from pathlib import PurePosixPath

from .features import Change, line_head

MAX_PHRASES = 4  # per hunk: the most specific first
MAX_PHRASE_CHARS = 160  # a long value (a YAML string, a URL) would drown the words around it
# Java imports whose class changed on the way (``org.junit.Assert`` → ``org.junit.jupiter.api.Assertions``,
# ``Before`` → ``BeforeEach``) read as "change type ..." before the package move.
STATIC_TYPES = True
BARE_FROM = True  # a FROM line's new image: also said without the image names
# A Gradle build's Java compatibility lines (``sourceCompatibility``, ``targetCompatibility``, a toolchain's
# ``languageVersion``, ``jvmTarget``) changed: said as the catalog says it, "update Java compatibility".
JAVA_COMPATIBILITY = True
# A Dockerfile instruction continued over several lines (``RUN a && \\`` then ``    b``) is read as one.
DOCKER_CONTINUATIONS = True
# A Gradle hunk's dependency edits: one of each kind (version upgrade, swap, addition, removal) first.
DEPENDENCY_TURNS = True
# ... a nested YAML key renamed: said as its dotted path, when the lines above show the whole path
YAML_PATHS = True
# A Java hunk changing several types is searched as one segment per type (``split_type_changes``).
SPLIT_TYPES = True
# A properties or YAML key renamed (its value kept, or also changed) reads as a key change first.
KEY_RENAMES = True

_VERSION = re.compile(r"(?<![\w.])v?(\d+(?:[._]\d+)*)(?:[-.+][A-Za-z][\w.\-]*)?(?![\w])")
_COORDINATE = re.compile(r"['\"]([\w.\-]+):([\w.\-]+)(?::([\w.\-${}]+))?['\"]")
_PLUGIN = re.compile(r"\bid\s*\(?\s*['\"]([\w.\-]+)['\"]\s*\)?(?:\s*version\s*\(?\s*['\"]([^'\"]+)['\"])?")
_FROM = re.compile(r"^\s*FROM\s+(?:--platform=\S+\s+)?(\S+)", re.IGNORECASE)
_USES = re.compile(r"^\s*-?\s*uses:\s*['\"]?([\w.\-/]+)@([\w.\-]+)")
_IMPORT = re.compile(r"^\s*import\s+(static\s+)?([\w.]+?)(?:\.\*)?\s*;")
_ANNOTATION = re.compile(r"^\s*@([A-Za-z_][\w.]*)")
_XML_TAG = re.compile(r"^\s*<([\w.\-]+)>([^<]*)</\1>")
_KEY_VALUE = re.compile(r"^\s*-?\s*([\w.\-\[\]]+)\s*[:=]\s*(.*)$")
_REPOSITORY = re.compile(r"^\s*(jcenter|mavenCentral|mavenLocal|google|gradlePluginPortal)\s*\(\)")
_CALL = re.compile(r"^\s*([A-Za-z_]\w*)\s*\(\s*\)\s*$")
_COMPATIBILITY = re.compile(
    r"^\s*(?:java\.)?(?:sourceCompatibility|targetCompatibility|languageVersion|jvmTarget|release)\b|^\s*toolchain\s*\{"
)
_JAVA_CONSTANT = re.compile(r"VERSION_(\d+(?:_\d+)?)|JvmTarget\.JVM_(\d+(?:_\d+)?)")


@dataclass(frozen=True)
class _Line:
    text: str
    head: str | None


_HEAD = re.compile(r"^[\s\-*]*<?/?([A-Za-z_@$][\w.\-$]*)")
_CAMEL = re.compile(r"[A-Z]+(?=[A-Z][a-z]|\d|\b)|[A-Z]?[a-z]+|[A-Z]+|\d+")


def _head(line: str) -> str | None:
    """The line's leading keyword as written, camel case spoken as words (``sourceCompatibility`` →
    ``source compatibility``): recipe descriptions use words, build files use identifiers."""
    match = _HEAD.match(line)
    if not match or len(match.group(1)) < 2:
        return None
    word = match.group(1)
    if "." in word or "-" in word or "_" in word:
        return word
    parts = _CAMEL.findall(word)
    if len(parts) < 2 or any(len(p) < 2 for p in parts):  # ``useJUnit`` stays as written
        return word
    return " ".join(p.lower() for p in parts)


def file_noun(kind: str, path: str) -> str:
    """How the docs name the file the hunk is in."""
    low = path.lower()
    if kind == "yaml" and ".github/workflows/" in low:
        return "GitHub Actions workflow"
    return {
        "gradle": "Gradle build",
        "maven": "Maven pom",
        "properties": "properties file",
        "yaml": "YAML file",
        "dockerfile": "Dockerfile",
        "java": "Java code",
        "kotlin": "Kotlin code",
        "xml": "XML file",
        "json": "JSON file",
        "markdown": "text file",
        "text": "text file",
    }.get(kind, f"{kind} file")


def versions(lines: Iterable[str]) -> list[str]:
    """Version-like numbers on the lines (``8.1`` of ``gradle-8.1-bin.zip``, ``17``, ``3.0.0-M2`` → 3.0.0),
    in order, each once."""
    out: list[str] = []
    for line in lines:
        for match in _VERSION.finditer(line):
            value = match.group(1).replace("_", ".")
            if value not in out and len(value) <= 12:
                out.append(value)
    return out


def _new_versions(change: Change) -> list[str]:
    old = set(versions(change.removed))
    return [v for v in versions(change.added) if v not in old]


def _strip_quotes(value: str) -> str:
    return value.strip().strip(",;").strip().strip("'\"")


def _pairs(change: Change) -> tuple[list[tuple[str, str]], list[str], list[str]]:
    """Removed and added lines paired by their leading keyword (else by position when the counts are
    equal), and the lines left over on each side."""
    removed = [line for line in change.removed if line.strip()]
    added = [line for line in change.added if line.strip()]
    by_head: dict[str, str] = {}
    for line in added:
        head = line_head(line)
        if head and head not in by_head:
            by_head[head] = line
    pairs: list[tuple[str, str]] = []
    left_removed: list[str] = []
    used: set[str] = set()
    for line in removed:
        head = line_head(line)
        if head and head in by_head and head not in used:
            pairs.append((line, by_head[head]))
            used.add(head)
        else:
            left_removed.append(line)
    left_added = [line for line in added if not any(line is new for _, new in pairs)]
    if left_removed and len(left_removed) == len(left_added):
        pairs += list(zip(left_removed, left_added, strict=True))
        left_removed, left_added = [], []
    # A line removed and added back unchanged (a newline at the end of the file) is no change.
    return [(old, new) for old, new in pairs if old.strip() != new.strip()], left_removed, left_added


def _file_words(path: str) -> str:
    """``gradle/wrapper/gradle-wrapper.properties`` → ``gradle wrapper``."""
    stem = PurePosixPath(path).name.split(".", 1)[0]
    return " ".join(part for part in re.split(r"[-_.]", stem) if part)


def describe(path: str, change: Change, context: Sequence[str] = (), above: Sequence[str] = ()) -> list[str]:
    """Short phrases saying what the hunk does, most specific first (at most ``MAX_PHRASES``). ``context``
    is the hunk's unchanged lines, ``above`` those of them before the change (the section header first)."""
    kind = change.kind
    noun = file_noun(kind, path)
    name = PurePosixPath(path).name
    if change.deleted_file:
        return ["delete files"]  # what is in the file does not matter, that it is gone does
    if change.new_file:
        if kind in {"java", "kotlin"}:
            return []  # new code is written by hand; no recipe creates a class from nothing
        if name in {".gitignore", ".dockerignore"}:
            return [f"add entries to {name}", f"create new file {name}"]
        return [f"create new file {name}", f"add {noun} {name}"]
    phrases: list[str] = []
    writer = _WRITERS.get(kind)
    if kind == "yaml":
        phrases += _yaml(path, change, list(context), above)
    elif writer is not None:
        phrases += writer(path, change, list(context))
    if kind in {"text", "markdown", "sql", "shell"} or not phrases:
        if name in {".gitignore", ".dockerignore"} and change.added and not change.removed:
            phrases.append(f"add entries to {name}")
        elif kind not in {"java", "kotlin"}:
            phrases.append(f"find and replace text in {noun} {name}")
    java = _java_level(change)
    if java and kind not in {"java", "kotlin"}:
        phrases.insert(1, f"upgrade Java version to {java} in {noun}")
    seen: set[str] = set()
    out = []
    for phrase in phrases:
        phrase = " ".join(phrase.split())[:MAX_PHRASE_CHARS]
        if phrase.lower() not in seen:
            seen.add(phrase.lower())
            out.append(phrase)
    return out[:MAX_PHRASES]


def _java_level(change: Change) -> str | None:
    """The Java version a build or CI file moves to: a changed line that names Java (or the JDK) and adds
    a version number."""
    for line in change.added:
        low = line.lower()
        if ("java" in low or "jdk" in low) and not _COORDINATE.search(line):
            new = [v for v in versions([line]) if v not in versions(change.removed)]
            if new:
                return new[0]
    return None


def _is_version(key: str, number: str) -> bool:
    """Whether a number a property takes is a version: dotted (``8.1``, ``2.17.1``), or the key says so
    (``java.version=17``). A bare ``server.port=9090`` or ``timeout=30`` is a value like any other."""
    return "." in number or "version" in key.lower()


def _properties(path: str, change: Change, context: list[str]) -> list[str]:
    name = PurePosixPath(path).name
    out: list[str] = []
    pairs, removed, added = _pairs(change)
    for old, new in pairs:
        key = _head(new) or "property"
        old_kv, new_kv = _KEY_VALUE.match(old), _KEY_VALUE.match(new)
        if KEY_RENAMES and old_kv and new_kv and old_kv.group(1) != new_kv.group(1):
            # A key renamed (``spring.datasource.initialization-mode`` → ``spring.sql.init.mode``): what
            # property migrations do; its value, kept or not, is the lesser news.
            out.append(f"change property key {old_kv.group(1)} to {new_kv.group(1)} in {name}")
            if _strip_quotes(old_kv.group(2)) != _strip_quotes(new_kv.group(2)):
                out.append(f"change property {new_kv.group(1)} value to {_strip_quotes(new_kv.group(2))} in {name}")
            continue
        new_versions = [v for v in versions([new]) if v not in versions([old]) and _is_version(key, v)]
        if new_versions:
            out.append(f"change {_file_words(path)} version to {new_versions[0]}")
            # The first phrase names the file; this one says the generic edit (a property's value changed)
            # with the file kind, so a file name's own words (``gradle-wrapper``) do not outweigh it.
            out.append(f"change property {key} value in properties file")
        else:
            value = _KEY_VALUE.match(new)
            out.append(f"change property {key} value to {_strip_quotes(value.group(2)) if value else ''} in {name}")
    for line in added:
        out.append(f"add property {_head(line) or ''} to {name}")
    for line in removed:
        out.append(f"delete property {_head(line) or ''} from {name}")
    return out


_YAML_BLOCK = re.compile(r"^(\s*)([\w.\-]+)\s*:\s*(?:#.*)?$")


def yaml_parents(above: Sequence[str], line: str) -> list[str] | None:
    """The mapping keys a YAML line is nested in, read off the unchanged lines above it (git names the
    top-level key in the hunk header), outermost first; None when they do not show the whole way up (a
    level skipped, a list item on the way), so no partial path is said."""
    indent = len(line) - len(line.lstrip())
    stack: list[tuple[int, str]] = []
    for text in above:
        if not text.strip() or text.lstrip().startswith("#"):
            continue
        depth = len(text) - len(text.lstrip())
        while stack and stack[-1][0] >= depth:
            stack.pop()
        if (block := _YAML_BLOCK.match(text)) is not None and depth < indent:
            stack.append((depth, block.group(2)))
        elif text.lstrip().startswith("-") and depth < indent:
            return None
    if indent == 0:
        return []
    depths = [d for d, _ in stack] + [indent]
    # the file's indentation step: the smallest one seen
    step = min(d for text in [*above, line] if text.strip() and (d := len(text) - len(text.lstrip())) > 0)
    if not stack or depths[0] != 0 or any(b - a != step for a, b in pairwise(depths)):
        return None
    return [key for _, key in stack]


def _yaml(path: str, change: Change, context: list[str], above: Sequence[str] = ()) -> list[str]:
    noun = file_noun("yaml", path)
    out: list[str] = []
    pairs, removed, added = _pairs(change)
    for old, new in pairs:
        uses_old, uses_new = _USES.match(old), _USES.match(new)
        if uses_old and uses_new:
            if uses_old.group(1) == uses_new.group(1):
                out.append(f"change GitHub action {uses_new.group(1)} version to {uses_new.group(2)}")
            else:
                out.append(f"change GitHub action {uses_old.group(1)} to {uses_new.group(1)}")
            continue
        old_kv, new_kv = _KEY_VALUE.match(old), _KEY_VALUE.match(new)
        if old_kv and new_kv:
            key, value = new_kv.group(1), _strip_quotes(new_kv.group(2))
            renamed = old_kv.group(1) != key
            if KEY_RENAMES and renamed and _strip_quotes(old_kv.group(2)) == value:
                # The key renamed, its value kept: a key change, not a new value; a nested key as its dotted
                # path (``spring.datasource.initialization-mode``), as property migrations name keys.
                parents = yaml_parents(above, old) if YAML_PATHS else None
                prefix = ".".join(parents) + "." if parents else ""
                out.append(f"change YAML key {prefix}{old_kv.group(1)} to {prefix}{key} in {noun}")
                continue
            out.append(f"change {key} to {value} in {noun}")
            if renamed:
                out.append(f"change YAML key {old_kv.group(1)} to {key}")
            else:
                out.append(f"change YAML value of {key}")
    for line in added:
        kv = _KEY_VALUE.match(line)
        if kv:
            out.append(f"add YAML key {kv.group(1)} in {noun}")
    for line in removed:
        kv = _KEY_VALUE.match(line)
        if kv:
            out.append(f"delete YAML key {kv.group(1)} from {noun}")
    return out


_DOCKER_INSTRUCTIONS = frozenset(
    [
        "from",
        "run",
        "cmd",
        "label",
        "maintainer",
        "expose",
        "env",
        "add",
        "copy",
        "entrypoint",
        "volume",
        "user",
        "workdir",
        "arg",
        "onbuild",
        "stopsignal",
        "healthcheck",
        "shell",
    ]
)


def _docker_instruction(line: str) -> str | None:
    """The instruction a Dockerfile line starts (``RUN``), if its first word is one."""
    words = line.split(None, 1)
    return words[0].upper() if words and words[0].lower() in _DOCKER_INSTRUCTIONS else None


def _continued(context: Sequence[str]) -> str | None:
    """The instruction the hunk's first changed line continues, read off the unchanged lines around it
    (those before, then those after): an instruction left open (its line ends in a backslash) and followed
    by a new instruction at the line start, or by nothing, was continued by the changed lines; else the
    last instruction continued over several lines (the hunk changed a line in its middle)."""
    current: str | None = None
    continued: str | None = None
    for line in context:
        text = line.strip()
        if not text or text.startswith("#"):
            continue
        starts = not line[:1].isspace() and _docker_instruction(line) is not None
        if current is not None and starts:
            return current
        if current is None and starts and text.endswith("\\"):
            current = text.rstrip("\\").strip()
        elif current is not None and not text.endswith("\\"):
            continued, current = current, None  # it ended among the unchanged lines
    return current or continued


def dockerfile_instructions(lines: Sequence[str], context: Sequence[str] = ()) -> list[str]:
    """A Dockerfile's changed lines as whole instructions: a line after one ending in a backslash continues
    it (``    apt-get install -y curl`` is part of the ``RUN`` above), and a hunk's first line that continues
    an instruction in the unchanged lines is read as that instruction. Comments and blank lines say nothing
    of what the build does."""
    out: list[str] = []
    open_ = False
    for line in lines:
        text = line.strip()
        if not text or text.startswith("#"):
            continue
        bare = text.rstrip("\\").strip()
        if open_ and out:
            out[-1] = f"{out[-1]} {bare}"
        elif not out and (line[:1].isspace() or _docker_instruction(line) is None) and (owner := _continued(context)):
            out.append(f"{owner} {bare}")
        else:
            out.append(bare)
        open_ = text.endswith("\\")
    return out


def _dockerfile(path: str, change: Change, context: list[str]) -> list[str]:
    out: list[str] = []
    owner = None
    if DOCKER_CONTINUATIONS:
        change = Change(
            change.kind,
            dockerfile_instructions(change.removed, context),
            dockerfile_instructions(change.added, context),
        )
        owner = _continued(context)
    pairs, removed, added = _pairs(change)
    for old, new in pairs:
        old_from, new_from = _FROM.match(old), _FROM.match(new)
        if old_from and new_from:
            old_image, new_image = old_from.group(1), new_from.group(1)
            old_name, new_name = old_image.split(":", 1)[0], new_image.split(":", 1)[0]
            if old_name == new_name:
                tag = new_image.partition(":")[2] or "latest"
                out.append(f"upgrade Docker image {new_name} version to {tag}")
            out.append(f"change Dockerfile FROM base image {old_image} to {new_image}")
            if BARE_FROM:
                # The image names find the recipes that know those images; without them the words are the
                # generic edit's own (``ChangeFrom``: "Change the base image in a Dockerfile FROM instruction").
                out.append("change the base image in a Dockerfile FROM instruction")
        elif (head := _head(new)) is not None:
            out.append(f"change Dockerfile {head.upper()} instruction")
    for line in added + removed:
        head = _head(line)
        if head:
            # lines added to (removed from) an instruction that stays: that instruction changed
            verb = "change" if owner and line.startswith(owner) else "add" if line in added else "remove"
            out.append(f"{verb} Dockerfile {head.upper()} instruction")
    return out


def _coordinate(line: str) -> tuple[str, str, str | None] | None:
    match = _COORDINATE.search(line)
    if not match or ("." not in match.group(1) + match.group(2) and not match.group(3)):
        return None
    return match.group(1), match.group(2), match.group(3)


def _likely_swap(
    gone: Sequence[tuple[str, str]], came: Sequence[tuple[str, str]]
) -> tuple[tuple[str, str], tuple[str, str]]:
    """The removed and added dependency most likely one replacing the other: the pair whose names share
    most words (``javax.validation:validation-api`` → ``jakarta.validation:jakarta.validation-api``), else
    the first of each."""

    def words(ga: tuple[str, str]) -> set[str]:
        return {w for w in re.split(r"[.:\-]", f"{ga[0]}:{ga[1]}") if w and w not in _GENERIC}

    return max(
        ((old, new) for old in gone for new in came),
        key=lambda pair: (len(words(pair[0]) & words(pair[1])), -gone.index(pair[0]), -came.index(pair[1])),
    )


def _compatibility(change: Change) -> str | None:
    """For a build script hunk that changes the Java compatibility lines: the level they move to ("" when
    the hunk does not say, e.g. the lines are only removed), else None. ``JavaVersion.VERSION_1_8`` reads
    as 1.8, ``JavaLanguageVersion.of(17)`` and ``'17'`` as 17."""
    lines = [line for line in change.removed + change.added if _COMPATIBILITY.match(line)]
    if not lines:
        return None
    old = {_compat_value(line) for line in change.removed} - {None}
    for line in change.added:
        value = _compat_value(line)
        if value is not None and value not in old:
            return value
    return ""


def _compat_value(line: str) -> str | None:
    if not _COMPATIBILITY.match(line):
        return None
    constant = _JAVA_CONSTANT.search(line)
    if constant:
        return (constant.group(1) or constant.group(2)).replace("_", ".")
    found = versions([line])
    return found[0] if found else None


def _gradle(path: str, change: Change, context: list[str]) -> list[str]:
    out: list[str] = []
    if JAVA_COMPATIBILITY and (level := _compatibility(change)) is not None:
        out.append(f"update Java compatibility {'to ' + level + ' ' if level else ''}in Gradle build")
    pairs, removed, added = _pairs(change)
    dep_removed = [c for line in change.removed if (c := _coordinate(line))]
    dep_added = [c for line in change.added if (c := _coordinate(line))]
    old_ga = {(g, a): v for g, a, v in dep_removed}
    new_ga = {(g, a): v for g, a, v in dep_added}
    upgrades = [
        f"upgrade Gradle dependency version {ga[0]}:{ga[1]} to {version}"
        for ga, version in new_ga.items()
        if ga in old_ga and version != old_ga[ga]
    ]
    came = [ga for ga in new_ga if ga not in old_ga]
    gone = [ga for ga in old_ga if ga not in new_ga]
    swaps = []
    if came and gone:
        old_dep, new_dep = _likely_swap(gone, came)
        swaps.append(f"change Gradle dependency {old_dep[0]}:{old_dep[1]} to {new_dep[0]}:{new_dep[1]}")
    adds = [f"add Gradle dependency {g}:{a}" for g, a in came[:2]]
    removes = [f"remove Gradle dependency {g}:{a}" for g, a in gone[:2]]
    if DEPENDENCY_TURNS:
        # Each kind of dependency edit once before any twice: a hunk bumping a dozen versions that also
        # swaps and drops a dependency says all three within the phrase budget.
        kinds = [upgrades, swaps, adds, removes]
        out += [kind[n] for n in range(max(map(len, kinds))) for kind in kinds if n < len(kind)]
    else:
        out += upgrades + swaps + adds + removes
    for old, new in pairs:
        if _coordinate(old) or _coordinate(new):
            continue
        plugin_old, plugin_new = _PLUGIN.search(old), _PLUGIN.search(new)
        if plugin_old and plugin_new:
            if plugin_old.group(1) == plugin_new.group(1):
                out.append(f"upgrade Gradle plugin version {plugin_new.group(1)} to {plugin_new.group(2) or ''}")
            else:
                out.append(f"change Gradle plugin {plugin_old.group(1)} to {plugin_new.group(1)}")
            continue
        head_old, head_new = _head(old), _head(new)
        if head_old and head_new and head_old != head_new:
            out.append(f"change {head_old} to {head_new} in Gradle build")
        elif head_new:
            kv = _KEY_VALUE.match(new)
            value = _strip_quotes(kv.group(2)) if kv else " ".join(new.split()[1:])
            out.append(f"change {head_new} to {value} in Gradle build")
    out += _gradle_lines(added, "add", "to")
    out += _gradle_lines(removed, "remove", "from")
    return out


def _gradle_lines(lines: Sequence[str], verb: str, place: str) -> list[str]:
    """Phrases for a build script's lines added (``add`` … ``to``) or removed (``remove`` … ``from``) without
    a counterpart: plugins, repositories, other blocks by their leading keyword (dependencies have their own
    phrases above)."""
    out: list[str] = []
    for line in lines:
        if _coordinate(line):
            continue
        plugin = _PLUGIN.search(line)
        if plugin:
            out.append(f"{verb} Gradle plugin {plugin.group(1)}")
        elif (repo := _REPOSITORY.match(line)) is not None:
            out.append(f"{verb} repository {repo.group(1)} {place} Gradle build")
        elif (head := _head(line)) is not None:
            out.append(f"{verb} {head} {place} Gradle build")
    return out


def _maven(path: str, change: Change, context: list[str]) -> list[str]:
    out: list[str] = []
    around = [line.strip() for line in context]
    artifact = next(
        (
            m.group(2)
            for line in reversed(context + change.added)
            if (m := _XML_TAG.match(line)) and m.group(1) == "artifactId"
        ),
        None,
    )
    in_parent = any(line.startswith("<parent>") for line in around)
    pairs, removed, added = _pairs(change)
    for old, new in pairs:
        old_tag, new_tag = _XML_TAG.match(old), _XML_TAG.match(new)
        if not (old_tag and new_tag):
            continue
        tag, value = new_tag.group(1), new_tag.group(2).strip()
        if tag == "version":
            what = "parent" if in_parent else ("plugin" if "plugin" in (artifact or "") else "dependency")
            out.append(f"upgrade Maven {what} version {artifact or ''} to {value}")
        elif tag in {"groupId", "artifactId"}:
            out.append(f"change Maven dependency {tag} {old_tag.group(2)} to {value}")
        else:
            out.append(f"change Maven property {tag} value to {value}")
    tags = [m.group(1) if (m := _XML_TAG.match(line)) else line.strip().strip("<>/") for line in added]
    for block in ("repository", "pluginRepository", "dependency", "plugin", "module", "exclusion"):
        if f"{block}" in tags:
            out.append(f"add Maven {block} to the pom")
    removed_tags = [line.strip().strip("<>/") for line in removed]
    for block in ("repository", "dependency", "plugin", "module"):
        if block in removed_tags:
            out.append(f"remove Maven {block} from the pom")
    if not out:
        for line in added[:2]:
            if (m := _XML_TAG.match(line)) is not None:
                out.append(f"add Maven property {m.group(1)}")
    return out


def _imports(lines: Sequence[str]) -> list[tuple[str, bool]]:
    return [(m.group(2), bool(m.group(1))) for line in lines if (m := _IMPORT.match(line))]


def _type_changes(
    old_imports: list[tuple[str, bool]], new_imports: list[tuple[str, bool]]
) -> tuple[list[tuple[str, str]], list[tuple[str, str]]]:
    """The types a hunk's imports change (``org.junit.Assert`` → ``org.junit.jupiter.api.Assertions``), in
    order, each once, and the package moves of the imports that keep their name."""
    old_by_name = {name.rsplit(".", 1)[-1]: name for name, _ in old_imports}
    moves: list[tuple[str, str]] = []
    types: list[tuple[str, str]] = []
    for name, static in new_imports:
        simple = name.rsplit(".", 1)[-1]
        old = old_by_name.get(simple)
        if old and old != name:
            old_owner, new_owner = old.rsplit(".", 1)[0], name.rsplit(".", 1)[0]
            # A static member kept its name while its class changed (``org.junit.Assert.assertEquals`` →
            # ``org.junit.jupiter.api.Assertions.assertEquals``): a type change, not only a package move.
            if static and STATIC_TYPES and old_owner.rsplit(".", 1)[-1] != new_owner.rsplit(".", 1)[-1]:
                types.append((old_owner, new_owner))
            else:
                moves.append((old_owner, new_owner))
    if STATIC_TYPES and moves:
        types += _renamed_on_the_way(old_imports, new_imports, set(moves))
    return list(dict.fromkeys(types)), moves


def split_type_changes(change: Change) -> list[Change]:
    """A Java hunk that changes several types (``org.junit.Before`` → ``BeforeEach`` and ``org.junit.Assert``
    → ``Assertions``) as one change per type: each is what a different recipe does, and a hunk searched as
    one unit names only its best. The first part keeps the first type's imports and every other line; each
    further type's import lines (the class, or its static members) become their own part."""
    if not SPLIT_TYPES or change.kind not in {"java", "kotlin"} or change.new_file or change.deleted_file:
        return [change]
    types, _ = _type_changes(_imports(change.removed), _imports(change.added))
    if len(types) < 2:
        return [change]
    parts: list[Change] = []
    removed, added = list(change.removed), list(change.added)
    for old_type, new_type in types[1:]:
        own_removed = [line for line in removed if _imports_type(line, old_type)]
        own_added = [line for line in added if _imports_type(line, new_type)]
        if not own_removed or not own_added:
            continue
        removed = [line for line in removed if line not in own_removed]
        added = [line for line in added if line not in own_added]
        parts.append(Change(change.kind, own_removed, own_added))
    return [Change(change.kind, removed, added), *parts]


def _imports_type(line: str, name: str) -> bool:
    """The line imports the type (or a static member of it, or all of them)."""
    match = _IMPORT.match(line)
    return match is not None and (match.group(2) == name or match.group(2).startswith(name + "."))


def _java(path: str, change: Change, context: list[str]) -> list[str]:
    out: list[str] = []
    old_imports, new_imports = _imports(change.removed), _imports(change.added)
    types, moves = _type_changes(old_imports, new_imports)
    for old_type, new_type in types[:2]:
        out.append(f"change type {old_type} to {new_type}")
    if moves:
        common = max(set(moves), key=moves.count)
        out.append(f"change package {_shared_prefix_move(*common)}")
    elif old_imports and new_imports and not types:
        out.append(f"change type {old_imports[0][0]} to {new_imports[0][0]}")
    elif old_imports and not new_imports and not [line for line in change.added if line.strip()]:
        out.append(f"remove unused imports {old_imports[0][0]}")
    test = "test" if re.search(r"(^|/)(src/)?test(s)?/|Test\.java$", path) else ""
    for old, new in zip(change.removed, change.added, strict=False):
        gone_mods, came_mods = _modifier_change(old, new)
        what = "class" if re.search(r"\b(class|interface|enum|record)\b", old + new) else "method"
        for modifier in gone_mods[:1]:
            out.append(f"remove {modifier} modifier from {test} {what}")
        for modifier in came_mods[:1]:
            out.append(f"add {modifier} modifier to {test} {what}")
    old_ann = [m.group(1) for line in change.removed if (m := _ANNOTATION.match(line))]
    new_ann = [m.group(1) for line in change.added if (m := _ANNOTATION.match(line))]
    gone = [a for a in old_ann if a not in new_ann]
    came = [a for a in new_ann if a not in old_ann]
    if gone and came:
        out.append(f"change annotation @{gone[0]} to @{came[0]}")
    elif gone:
        out.append(f"remove annotation @{gone[0]}")
    elif came:
        out.append(f"add annotation @{came[0]}")
    return out


def _renamed_on_the_way(
    old_imports: list[tuple[str, bool]], new_imports: list[tuple[str, bool]], moves: set[tuple[str, str]]
) -> list[tuple[str, str]]:
    """Classes renamed while their package moved as the hunk's other imports did (``org.junit.Before`` →
    ``org.junit.jupiter.api.BeforeEach``; a static wildcard ``org.junit.Assert.*`` → ``...Assertions.*``):
    the imports nothing else pairs, taken in order, of the same kind, between the packages of a move."""
    old_simple = {name.rsplit(".", 1)[-1] for name, _ in old_imports}
    new_simple = {name.rsplit(".", 1)[-1] for name, _ in new_imports}
    left_old = [(n, st) for n, st in old_imports if n.rsplit(".", 1)[-1] not in new_simple]
    left_new = [(n, st) for n, st in new_imports if n.rsplit(".", 1)[-1] not in old_simple]
    out: list[tuple[str, str]] = []
    for (old, old_static), (new, new_static) in zip(left_old, left_new, strict=False):
        old_class, new_class = old.rsplit(".", 1)[-1], new.rsplit(".", 1)[-1]
        if old_static != new_static or not (old_class[:1].isupper() and new_class[:1].isupper()):
            continue
        if (old.rsplit(".", 1)[0], new.rsplit(".", 1)[0]) in moves:
            out.append((old, new))
    return out


_MODIFIERS = ("public", "protected", "private", "static", "final", "abstract", "synchronized")


def _modifier_change(old: str, new: str) -> tuple[list[str], list[str]]:
    """Modifiers a declaration lost and gained, when nothing else on the line changed."""
    old_words, new_words = old.split(), new.split()
    strip_old = [w for w in old_words if w not in _MODIFIERS]
    strip_new = [w for w in new_words if w not in _MODIFIERS]
    if strip_old != strip_new or old_words == new_words:
        return [], []
    gone = [w for w in old_words if w in _MODIFIERS and w not in new_words]
    came = [w for w in new_words if w in _MODIFIERS and w not in old_words]
    return gone, came


def _shared_prefix_move(old: str, new: str) -> str:
    """``javax.validation.constraints`` → ``jakarta.validation.constraints`` reads as the package move."""
    old_parts, new_parts = old.split("."), new.split(".")
    while len(old_parts) > 2 and len(new_parts) > 2 and old_parts[-1] == new_parts[-1]:
        old_parts, new_parts = old_parts[:-1], new_parts[:-1]
    return f"{'.'.join(old_parts)} to {'.'.join(new_parts)}"


_WRITERS = {
    "properties": _properties,
    "yaml": _yaml,
    "dockerfile": _dockerfile,
    "gradle": _gradle,
    "maven": _maven,
    "java": _java,
    "kotlin": _java,
}


# -- the whole PR in words ---------------------------------------------------------------------------
MIN_FILES = 2  # a move or version seen in this many files reads as a migration of the whole project
MAX_WIDE = 3  # PR-level descriptions per diff
WIDE_PACKAGES = True  # the same package family moved in several files
# The same Java level in several build, CI and container files ("migrate to Java 17"). In two files (a CI
# workflow and the build) it is a routine bump: measured at 2, the Java-upgrade composites it adds pushed
# labelled recipes out on the check half (R@10 0.551 -> 0.536); at 3 they did not.
WIDE_JAVA = True
JAVA_MIN_FILES = 3
# Words of package and group names that say nothing about which library it is.
_GENERIC = frozenset({"org", "com", "io", "net", "dev", "api", "core", "java", "main", "impl", "internal", "util"})


@dataclass(frozen=True)
class Wide:
    """A PR-level description: phrases summarising what several of the diff's segments do together."""

    phrases: tuple[str, ...]
    segments: tuple[int, ...]  # the segments (indices) it summarises
    version: str | None = None  # the version the project moves to, when that is what it says


def package_moves(change: Change) -> list[tuple[str, str]]:
    """Package (or group) roots the change moves from and to: an import whose simple name stays while its
    package changes, a dependency whose group changes (Gradle coordinates, a Maven ``groupId``)."""
    out: list[tuple[str, str]] = []
    if change.kind in {"java", "kotlin"}:
        old = {m.group(2).rsplit(".", 1)[-1]: m.group(2) for line in change.removed if (m := _IMPORT.match(line))}
        for line in change.added:
            if (m := _IMPORT.match(line)) is None:
                continue
            name = m.group(2)
            before = old.get(name.rsplit(".", 1)[-1])
            if before and before != name:
                out.append((before.rsplit(".", 1)[0], name.rsplit(".", 1)[0]))
    elif change.kind == "gradle":
        gone = {c[0] for line in change.removed if (c := _coordinate(line))}
        came = {c[0] for line in change.added if (c := _coordinate(line))}
        if gone - came and came - gone:
            out.append((sorted(gone - came)[0], sorted(came - gone)[0]))
    elif change.kind == "maven":
        pairs, _, _ = _pairs(change)
        for old_line, new_line in pairs:
            old_tag, new_tag = _XML_TAG.match(old_line), _XML_TAG.match(new_line)
            if old_tag and new_tag and new_tag.group(1) == "groupId" and old_tag.group(2) != new_tag.group(2):
                out.append((old_tag.group(2).strip(), new_tag.group(2).strip()))
    return out


def _root_move(old: str, new: str) -> tuple[str, str]:
    """The roots of a package move: ``javax.ws.rs`` → ``jakarta.ws.rs`` is javax → jakarta (the shared tail
    dropped); ``org.junit`` → ``org.junit.jupiter.api`` is org.junit → org.junit.jupiter (one step past the
    shared head)."""
    old_parts, new_parts = old.split("."), new.split(".")
    while len(old_parts) > 1 and len(new_parts) > 1 and old_parts[-1] == new_parts[-1]:
        old_parts, new_parts = old_parts[:-1], new_parts[:-1]
    if new_parts[: len(old_parts)] == old_parts:
        new_parts = new_parts[: len(old_parts) + 1]
    return ".".join(old_parts), ".".join(new_parts)


def _family(move: tuple[str, str]) -> str:
    """Moves belong to one family when they share a library word (junit → org.junit.jupiter and
    org.junit → org.junit.jupiter.api), else when they move between the same two roots (javax → jakarta)."""
    old_words = {w for w in re.split(r"[.\-]", move[0]) if w not in _GENERIC}
    new_words = {w for w in re.split(r"[.\-]", move[1]) if w not in _GENERIC}
    shared = sorted(old_words & new_words)
    if shared:
        return shared[0]
    return f"{move[0].split('.')[0]} {move[1].split('.')[0]}"


def describe_pr(segments: Sequence[tuple[str, Change]]) -> list[Wide]:
    """What the PR does as a whole, when several files do the same: the same package family moved
    ("migrate javax to jakarta"), the same platform version moved to ("migrate to Java 17"). A change made
    in one file only is no migration of the project and yields nothing."""
    families: dict[str, list[tuple[int, str, tuple[str, str]]]] = {}
    java: dict[str, list[tuple[int, str]]] = {}
    for n, (path, change) in enumerate(segments):
        if change.deleted_file or change.new_file:
            continue
        for old_package, new_package in package_moves(change) if WIDE_PACKAGES else ():
            move = _root_move(old_package, new_package)
            families.setdefault(_family(move), []).append((n, path, move))
        if WIDE_JAVA and change.kind not in {"java", "kotlin"} and (level := _java_level(change)) is not None:
            java.setdefault(level.split(".")[0], []).append((n, path))
    out: list[tuple[int, Wide]] = []
    for found in families.values():
        files = {path for _, path, _ in found}
        if len(files) < MIN_FILES:
            continue
        # The roots most files move between (a file importing ten classes counts once).
        per_file = {(path, move) for _, path, move in found}
        old = _most_common([move[0] for _, move in per_file])
        new = _most_common([move[1] for _, move in per_file])
        # One phrase each: a second one (the moved sub-packages listed, "upgrade build to Java 17") changed
        # no ranking on the pr-cases and cost one more search.
        out.append((len(files), Wide((f"migrate {old} to {new}",), tuple(sorted({n for n, _, _ in found})))))
    for level, places in java.items():
        paths = {path for _, path in places}
        if len(paths) < JAVA_MIN_FILES:
            continue
        out.append((len(paths), Wide((f"migrate to Java {level}",), tuple(sorted({n for n, _ in places})), level)))
    out.sort(key=lambda item: -item[0])
    return [wide for _, wide in out[:MAX_WIDE]]


def _most_common(values: Sequence[str]) -> str:
    """The value seen most often; of equally common ones the shortest (the root, not a sub-package)."""
    return min(set(values), key=lambda v: (-values.count(v), len(v), v))
