"""What a change looks like, in terms both a PR hunk and a recipe-page example can be described by.

Diff search compares a PR's hunks with the before/after examples on recipe pages. Both sides are turned
into the same features here, so the catalog (at ingest) and the search (at query time) cannot drift:
the file kind (Gradle, Maven, YAML, Dockerfile, Java, properties, ...), the removed and added lines, and
lexical tokens: identifiers, dotted names, coordinates, keys, versions, and "shape" tokens naming the
edit (``§FROM~version``: the tag of a ``FROM`` line changed; ``§file-deleted``).
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import PurePosixPath

# Language names of the docs' code blocks (and file suffixes) → one kind per build/config format.
_LANGUAGE_KINDS = {
    "java": "java",
    "kotlin": "kotlin",
    "kt": "kotlin",
    "groovy": "gradle",
    "gradle": "gradle",
    "kts": "gradle",
    "xml": "xml",
    "yaml": "yaml",
    "yml": "yaml",
    "properties": "properties",
    "dockerfile": "dockerfile",
    "docker": "dockerfile",
    "json": "json",
    "toml": "toml",
    "sql": "sql",
    "md": "markdown",
    "markdown": "markdown",
    "sh": "shell",
    "bash": "shell",
    "shell": "shell",
    "hcl": "terraform",
    "tf": "terraform",
    "py": "python",
    "python": "python",
    "js": "javascript",
    "ts": "javascript",
    "javascript": "javascript",
    "typescript": "javascript",
    "txt": "text",
    "text": "text",
    "csharp": "csharp",
    "cs": "csharp",
    "scala": "scala",
}

# Kinds that are source code, whose recipes work on the syntax tree (not build or configuration files).
CODE_KINDS = frozenset({"java", "kotlin", "scala", "python", "javascript", "csharp"})

_WORD = re.compile(r"[A-Za-z_$][\w$]*(?:[.\-][A-Za-z_$][\w$]*)*|\d+(?:\.\d+)*(?:[-.][A-Za-z0-9]+)*")
_SPLIT_CAMEL = re.compile(r"[A-Z]+(?=[A-Z][a-z]|\d|\b)|[A-Z]?[a-z]+|[A-Z]+|\d+")
_VERSIONISH = re.compile(r"^v?\d+(?:[._]\d+)*(?:[-.+]?[A-Za-z0-9]+)*$")
_HEAD = re.compile(r"^[\s\-*]*(<?/?[A-Za-z_@$][\w.\-$]*>?)")
_ALIGN_SPLIT = re.compile(r"([\s=:\"'/@,()<>;{}\[\]]+)")
_STOP = frozenset(
    [
        "the",
        "a",
        "an",
        "and",
        "or",
        "of",
        "to",
        "in",
        "is",
        "it",
        "this",
        "that",
        "for",
        "on",
        "with",
        "as",
        "be",
        "by",
        "are",
        "was",
        "not",
        "no",
        "new",
        "true",
        "false",
        "null",
        "return",
        "public",
        "private",
        "protected",
        "static",
        "final",
        "class",
        "void",
        "import",
        "package",
        "if",
        "else",
    ]
)


def file_kind(path: str | None, language: str | None = None, text: str = "") -> str:
    """The kind of file a change is in, from its path, else its code block's language, else its text."""
    if path:
        name = PurePosixPath(path).name.lower()
        if name == "pom.xml" or name.endswith(".pom"):
            return "maven"
        if name.endswith((".gradle", ".gradle.kts")) or name == "gradle.properties":
            return "gradle"
        if name.startswith("dockerfile") or name.endswith((".dockerfile", "containerfile")):
            return "dockerfile"
        if name in {"jenkinsfile"}:
            return "groovy"
        if name in {".gitignore", ".dockerignore"}:
            return "text"
        suffix = name.rsplit(".", 1)[-1] if "." in name else ""
        if suffix in _LANGUAGE_KINDS:
            return _LANGUAGE_KINDS[suffix]
    lang = (language or "").lower()
    if lang == "xml" and ("<modelVersion>" in text or "<artifactId>" in text):
        return "maven"
    if lang in _LANGUAGE_KINDS:
        return _LANGUAGE_KINDS[lang]
    return lang or "text"


def words(text: str) -> list[str]:
    """Lexical tokens of a line: dotted names and coordinates whole, their parts, camel-case parts."""
    out: list[str] = []
    for match in _WORD.finditer(text):
        token = match.group(0)
        low = token.lower()
        if len(low) < 2 or low in _STOP:
            continue
        out.append(low)
        if "." in token or "-" in token:
            for part in re.split(r"[.\-]", token):
                if len(part) > 1 and part.lower() not in _STOP:
                    out.append(part.lower())
        if not looks_like_version(token):
            parts = camel_parts(token)
            if len(parts) > 1:
                out.extend(p.lower() for p in parts if len(p) > 2)
    return out


def head_as_written(line: str) -> str | None:
    """The line's leading identifier as written (``FROM``, ``distributionUrl``, ``version`` of ``<version>``)."""
    match = _HEAD.match(line)
    return match.group(1).strip("<>/") if match else None


def line_head(line: str) -> str | None:
    """The line's leading keyword, lower-cased (``from``, ``distributionurl``, ``java-version``, ``version``)."""
    head = head_as_written(line)
    return head.lower() if head is not None and len(head) > 1 else None


def camel_parts(word: str) -> list[str]:
    """``ExpectedException`` → ``Expected``, ``Exception``; ``JUnit5`` → ``J``, ``Unit``, ``5``."""
    return _SPLIT_CAMEL.findall(word)


def looks_like_version(token: str) -> bool:
    """``17``, ``2.15.1``, ``v1_2``, ``3.0.0-M2``: a version rather than a name."""
    return _VERSIONISH.match(token) is not None


@dataclass
class Change:
    """One hunk (or one example file): its kind, removed and added lines, and derived tokens."""

    kind: str
    removed: list[str]
    added: list[str]
    deleted_file: bool = False
    new_file: bool = False
    tokens_removed: set[str] = field(default_factory=set)
    tokens_added: set[str] = field(default_factory=set)
    shapes: set[str] = field(default_factory=set)

    def __post_init__(self) -> None:
        for line in self.removed:
            self.tokens_removed.update(words(line))
        for line in self.added:
            self.tokens_added.update(words(line))
        self.shapes = change_shapes(self)

    @property
    def is_empty(self) -> bool:
        return not self.removed and not self.added

    def tokens(self) -> set[str]:
        return self.tokens_removed | self.tokens_added | self.shapes

    def text(self, limit: int = 1200) -> str:
        """The text embedded for this change: its kind, then the removed and added lines."""
        lines = [f"{self.kind} change"]
        lines += [f"- {line.strip()}" for line in self.removed if line.strip()]
        lines += [f"+ {line.strip()}" for line in self.added if line.strip()]
        return "\n".join(lines)[:limit]


# A Maven change inside ``<dependencyManagement>`` carries this shape token, on the PR's side and the examples'.
MANAGED_SHAPE = "§maven:managed"
MANAGED_SHAPES = True


def open_section(above: Sequence[str], tag: str, closed_by: Sequence[str] = ()) -> bool | None:
    """Whether the lines above a change leave the XML element ``tag`` open: True after its opening tag, False
    after its closing tag or the opening of an element in ``closed_by`` (one that cannot sit inside it), None
    when none of them shows."""
    inside: bool | None = None
    for line in above:
        if f"<{tag}>" in line:
            inside = True
        elif f"</{tag}>" in line or any(f"<{other}>" in line for other in closed_by):
            inside = False
    return inside


def in_managed_section(above: Sequence[str], added: Sequence[str] = ()) -> bool:
    """A Maven change sits inside ``<dependencyManagement>``: the lines above it open one they do not close,
    or the added lines open one themselves. Managed and direct dependencies have recipes of their own
    (``ChangeManagedDependencyGroupIdAndArtifactId`` beside ``ChangeDependencyGroupIdAndArtifactId``)."""
    return bool(open_section(above, "dependencyManagement")) or any("<dependencyManagement>" in line for line in added)


def lines_above(text: str, change: Change) -> list[str]:
    """The lines of a whole file (an example's before or after text) above its first changed line."""
    lines = text.split("\n")
    first = next((line.strip() for line in change.removed or change.added if line.strip()), None)
    if first is None:
        return []
    for n, line in enumerate(lines):
        if line.strip() == first:
            return lines[:n]
    return []


# Lines of the same leading keyword are paired by the names they share (``guava:21.0`` with ``guava:33.0``, not
# with the next ``implementation`` line), else in order.
PAIR_BY_NAMES = True


def pair_lines(removed: Sequence[str], added: Sequence[str]) -> tuple[list[tuple[str, str]], list[str], list[str]]:
    """Removed and added lines paired: one source of truth for every reader (the words, the substitution
    tokens). Blank lines are left out; a removed line pairs with an added line of the same leading keyword,
    the one sharing most names with it (``PAIR_BY_NAMES``), else the first; the lines left over on both
    sides pair in order when their counts agree. Returns the pairs and the lines left over on each side;
    a line taken out and put back unchanged (a newline at the end of the file) is no pair."""
    old_lines = [line for line in removed if line.strip()]
    new_lines = [line for line in added if line.strip()]
    waiting: dict[str | None, list[int]] = {}
    for j, line in enumerate(new_lines):
        waiting.setdefault(line_head(line), []).append(j)
    used: set[int] = set()
    pairs: list[tuple[int, int]] = []
    left_old: list[int] = []
    for i, line in enumerate(old_lines):
        head = line_head(line)
        free = [j for j in waiting.get(head, ()) if j not in used] if head is not None else []
        if not free:
            left_old.append(i)
            continue
        if PAIR_BY_NAMES and len(free) > 1:
            names = _line_names(line)
            best = max(free, key=lambda j: (len(names & _line_names(new_lines[j])), -j))
        else:
            best = free[0]
        used.add(best)
        pairs.append((i, best))
    left_new = [j for j in range(len(new_lines)) if j not in used]
    if left_old and len(left_old) == len(left_new):
        pairs += list(zip(left_old, left_new, strict=True))
        left_old, left_new = [], []
    pairs.sort()
    out = [(old_lines[i], new_lines[j]) for i, j in pairs if old_lines[i].strip() != new_lines[j].strip()]
    return out, [old_lines[i] for i in left_old], [new_lines[j] for j in left_new]


def _line_names(line: str) -> set[str]:
    """The line's words that are not versions: what identifies the thing a line declares."""
    return {w for w in words(line) if not looks_like_version(w)}


def change_shapes(change: Change) -> set[str]:
    """Tokens naming the edit: per leading keyword, whether a version or a name changed, or a line came
    or went; whole-file deletions and creations."""
    shapes: set[str] = {f"§kind:{change.kind}"}
    if change.deleted_file:
        shapes.add("§file-deleted")
    if change.new_file:
        shapes.add("§file-added")
    removed_heads = {h: line for line in change.removed if (h := line_head(line))}
    added_heads = {h: line for line in change.added if (h := line_head(line))}
    for head, old in removed_heads.items():
        new = added_heads.get(head)
        if new is None:
            shapes.add(f"§{head}~removed")
            continue
        gone = set(words(old)) - set(words(new))
        came = set(words(new)) - set(words(old))
        if gone or came:
            versions = all(looks_like_version(t) for t in gone | came)
            shapes.add(f"§{head}~{'version' if versions else 'name'}")
            shapes.add(f"§{head}~changed")
    for head in added_heads.keys() - removed_heads.keys():
        shapes.add(f"§{head}~added")
    if change.removed and not change.added:
        shapes.add(f"§{change.kind}:only-removed")
    elif change.added and not change.removed:
        shapes.add(f"§{change.kind}:only-added")
    ratio_pairs = zip(change.removed, change.added, strict=False) if len(change.removed) == len(change.added) else ()
    for old, new in ratio_pairs:
        shapes.update(_pair_shapes(old, new))
    return shapes


def _pair_shapes(old: str, new: str) -> set[str]:
    """How one line became another: only versions changed, a package moved, a type or name changed."""
    old_words = _WORD.findall(old)
    new_words = _WORD.findall(new)
    gone = [w for w in old_words if w not in new_words]
    came = [w for w in new_words if w not in old_words]
    if not gone and not came:
        return set()
    if all(looks_like_version(t) for t in gone + came):
        return {"§version-bump"}
    out = set()
    dotted_old = [w for w in gone if w.count(".") >= 1 and not looks_like_version(w)]
    dotted_new = [w for w in came if w.count(".") >= 1 and not looks_like_version(w)]
    if dotted_old and dotted_new:
        if dotted_old[0].rsplit(".", 1)[-1] == dotted_new[0].rsplit(".", 1)[-1]:
            out.add("§package-move")
        else:
            out.add("§type-change")
    else:
        out.add("§value-change")
    return out


def changed_lines(diff: str) -> tuple[list[str], list[str]]:
    """Removed and added lines of a recipe page's ``diff`` block (hunk headers, no file headers)."""
    removed: list[str] = []
    added: list[str] = []
    for line in diff.split("\n"):
        if line.startswith(("+++ ", "--- ", "@@")):
            continue
        if line.startswith("-"):
            removed.append(line[1:])
        elif line.startswith("+"):
            added.append(line[1:])
    return removed, added


def example_change(
    *,
    file: str | None,
    language: str | None,
    before: str | None,
    after: str | None,
    diff: str | None,
) -> Change:
    """The change one example shows: from its diff block, else computed from before/after."""
    sample = (after or before or "")[:4000]
    kind = file_kind(file, language, sample)
    if before is not None and after is None:
        return Change(kind, before.split("\n"), [], deleted_file=True)
    if before is None and after is not None:
        return Change(kind, [], after.split("\n"), new_file=True)
    if diff:
        removed, added = changed_lines(diff)
        return Change(kind, removed, added)
    if before is not None and after is not None and before != after:
        removed, added = [], []
        for line in difflib.unified_diff(before.split("\n"), after.split("\n"), lineterm="", n=0):
            if line.startswith(("+++", "---", "@@")):
                continue
            (removed if line.startswith("-") else added).append(line[1:])
        return Change(kind, removed, added)
    return Change(kind, [], [])


def _align_tokens(line: str) -> list[str]:
    return [t for t in _ALIGN_SPLIT.split(line) if t and not _ALIGN_SPLIT.fullmatch(t)]


def corresponding_value(value: str, example_lines: Sequence[str], pr_lines: Iterable[str]) -> str | None:
    """The value in ``pr_lines`` standing where ``value`` stands in ``example_lines``.

    The example line holding ``value`` and the PR line with the same leading keyword are split into
    tokens and aligned; the PR token aligned with the one holding ``value`` (minus the same prefix and
    suffix, as in ``gradle-<7.4.2>-bin.zip``) is the answer, also when it equals the example's own value (the
    PR may move to the version the example shows). None when nothing lines up, or what lines up is another
    kind of value.
    """
    pr = list(pr_lines)
    for ex_line in example_lines:
        if value not in ex_line:
            continue
        head = line_head(ex_line)
        ex_tokens = _align_tokens(ex_line)
        index = next((i for i, t in enumerate(ex_tokens) if value in t), None)
        if index is None:
            continue
        prefix, _, suffix = ex_tokens[index].partition(value)
        for pr_line in pr:
            if head is not None and line_head(pr_line) != head:
                continue
            pr_tokens = _align_tokens(pr_line)
            matcher = difflib.SequenceMatcher(a=ex_tokens, b=pr_tokens, autojunk=False)
            for tag, i1, i2, j1, j2 in matcher.get_opcodes():
                if i1 <= index < i2 and tag in {"replace", "equal"} and i2 - i1 == j2 - j1:
                    found = pr_tokens[j1 + index - i1]
                    if found.startswith(prefix) and found.endswith(suffix) and len(found) > len(prefix + suffix):
                        found = found[len(prefix) : len(found) - len(suffix)]
                        if _lines_up(value, found):
                            return found
    return None


def _lines_up(value: str, found: str) -> bool:
    """Is ``found`` the same kind of value as the example's ``value``? A version stands for a version; a
    plain word (an artifact id, a name) is not replaced by a dotted name, which is the signature of a
    misalignment (the PR's line laid out otherwise, its group id standing where the example had the artifact
    id). A dotted example value may stand for a plain one (group ``org.openrewrite`` for ``junit``). No
    suggestion beats a wrong one."""
    if looks_like_version(value) != looks_like_version(found):
        return False
    return "." in value or "." not in found
