"""A heuristic, deterministic check that the recommended diff touches what each atomic intent names.

The orchestrator writes atomic intents as bullet lines that start with a backticked file path and put
every concrete token (keys, versions, image names, classes) in backticks. A token only counts as
checkable when ``pr.diff`` itself touches it: that keeps prose words and paraphrases (a Groovy block
described as ``java.toolchain.languageVersion``) from being reported as misses, and turns the check into
"does the recommended diff change, for this intent, what the PR changed".
"""

from __future__ import annotations

import fnmatch
import re
from dataclasses import dataclass, field

_BULLET = re.compile(r"^\s*(?:[-*+]|\d+[.)])\s+(.*\S)\s*$")
_BACKTICKED = re.compile(r"`([^`]+)`")
_PATH_LIKE = re.compile(
    r"(?<![\w/.-])((?:[\w.-]+/)+[\w.*-]+|[\w*-]+\.(?:java|kt|kts|groovy|gradle|xml|ya?ml|"
    r"properties|json|toml|md|sh|bat|cfg|conf|txt)|Dockerfile|gradlew)(?![\w/-])"
)
_VERSION = re.compile(r"(?<![\w.])\d+(?:\.\d+)+(?![\w.])")
_CLASS_NAME = re.compile(r"(?<![\w.])(?:[a-z]\w*\.)*[A-Z][a-z0-9]+(?:[A-Z][a-z0-9]*)+(?![\w])")
_DIFF_HEADER = re.compile(r"^diff --git a/(.*?) b/(.*)$")


@dataclass
class DiffIndex:
    """Changed (added or removed) lines of a unified git diff, by file path (pre- and post-image)."""

    changed: dict[str, list[str]] = field(default_factory=dict)

    @classmethod
    def parse(cls, text: str) -> DiffIndex:
        index = cls()
        paths: list[str] = []
        in_hunk = False
        for line in text.replace("\r\n", "\n").split("\n"):
            header = _DIFF_HEADER.match(line)
            if header:
                paths = sorted({header.group(1), header.group(2)})
                for path in paths:
                    index.changed.setdefault(path, [])
                in_hunk = False
            elif line.startswith("@@"):
                in_hunk = True
            elif in_hunk and line[:1] in "+-" and not line.startswith(("+++ ", "--- ")):
                for path in paths:
                    index.changed[path].append(_normalise(line[1:]))
        return index

    def files_matching(self, pattern: str) -> list[str]:
        """Paths equal to ``pattern``, ending with ``/pattern``, or matching it as a glob.

        A leading ``**/`` also matches at the top level (``**/Dockerfile`` matches ``Dockerfile``).
        """
        pattern = pattern.strip()
        pattern = pattern[2:] if pattern.startswith("./") else pattern
        globs = [pattern, pattern[3:]] if pattern.startswith("**/") else [pattern]
        return [
            path
            for path in self.changed
            if path == pattern or path.endswith("/" + pattern) or any(fnmatch.fnmatch(path, g) for g in globs)
        ]

    def touches(self, token: str, files: list[str] | None) -> bool:
        """Whether ``token`` occurs in a changed line (of ``files`` when given)."""
        needle = _normalise(token)
        if not needle:
            return False
        scope = files if files is not None else list(self.changed)
        return any(needle in line for path in scope for line in self.changed.get(path, ()))


@dataclass(frozen=True)
class AtomicIntent:
    text: str
    file: str | None  # the leading backticked path, if the line starts with one
    tokens: tuple[str, ...]  # other concrete tokens the line names


@dataclass(frozen=True)
class IntentVerdict:
    intent: AtomicIntent
    checkable: tuple[str, ...]  # tokens (the file first) that pr.diff touches
    missing: tuple[str, ...]  # checkable tokens the recommended diff does not touch
    file_outside_pr: bool = False  # the intent names a file that pr.diff does not change

    @property
    def verifiable(self) -> bool:
        return bool(self.checkable)

    @property
    def satisfied(self) -> bool:
        return self.verifiable and not self.missing


@dataclass(frozen=True)
class Coverage:
    verdicts: tuple[IntentVerdict, ...]

    @property
    def total(self) -> int:
        return len(self.verdicts)

    @property
    def verifiable(self) -> int:
        return sum(1 for v in self.verdicts if v.verifiable)

    @property
    def satisfied(self) -> int:
        return sum(1 for v in self.verdicts if v.satisfied)

    def summary(self) -> str:
        return f"{self.verifiable} of {self.total} intents verifiable, {self.satisfied} of {self.verifiable} satisfied"


def parse_atomic_intents(markdown: str) -> list[AtomicIntent]:
    """Every bullet line of ``intent-tree.md`` outside code fences is one atomic intent."""
    intents: list[AtomicIntent] = []
    in_fence = False
    for line in markdown.splitlines():
        if line.lstrip().startswith("```"):
            in_fence = not in_fence
            continue
        match = None if in_fence else _BULLET.match(line)
        if match:
            intents.append(_intent_from_line(match.group(1)))
    return intents


def _intent_from_line(text: str) -> AtomicIntent:
    backticked = [t.strip() for t in _BACKTICKED.findall(text) if t.strip()]
    file: str | None = None
    lead = re.match(r"`([^`]+)`\s*:", text)
    if lead:
        file = lead.group(1).strip()
    elif backticked and _PATH_LIKE.fullmatch(backticked[0]):
        file = backticked[0]
    prose = _BACKTICKED.sub(" ", text)
    candidates = [
        *backticked,
        *_PATH_LIKE.findall(prose),
        *_VERSION.findall(prose),
        *_CLASS_NAME.findall(prose),
    ]
    tokens: list[str] = []
    for token in candidates:
        if token != file and token not in tokens:
            tokens.append(token)
    return AtomicIntent(text=text, file=file, tokens=tuple(tokens))


def assess(intents: list[AtomicIntent], pr: DiffIndex, recommended: DiffIndex) -> Coverage:
    """Judge each intent: checkable tokens come from ``pr``; they must all be touched by ``recommended``."""
    verdicts: list[IntentVerdict] = []
    for intent in intents:
        checkable: list[str] = []
        missing: list[str] = []
        pr_files = pr.files_matching(intent.file) if intent.file else None
        if intent.file and pr_files:
            checkable.append(intent.file)
            if not recommended.files_matching(intent.file):
                missing.append(intent.file)
        rec_files = recommended.files_matching(intent.file) if intent.file and pr_files else None
        for token in intent.tokens:
            path_files = pr.files_matching(token) if _looks_like_path(token) else []
            if path_files:
                checkable.append(token)
                if not recommended.files_matching(token):
                    missing.append(token)
            elif pr.touches(token, pr_files):
                checkable.append(token)
                if not recommended.touches(token, rec_files):
                    missing.append(token)
        outside = bool(intent.file) and not pr_files
        verdicts.append(IntentVerdict(intent, tuple(checkable), tuple(missing), file_outside_pr=outside))
    return Coverage(tuple(verdicts))


def _looks_like_path(token: str) -> bool:
    return bool(_PATH_LIKE.fullmatch(token))


def _normalise(text: str) -> str:
    """Compare text loosely: quotes dropped, runs of whitespace collapsed."""
    return " ".join(text.replace('"', "").replace("'", "").split())
