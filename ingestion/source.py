"""Where the recipe documentation comes from: a rewrite-docs checkout, its ``.tar.gz``, or a URL of one.

The reader loads every recipe page into memory in one pass (the whole snapshot is about 37 MiB of text):
a gzip tarball can only be read front to back, the parser needs all pages anyway to resolve "Used by"
links, and a downloaded archive can then be deleted straight away. Paths are reported relative to the
docs root (``docs/recipes/java/orderimports.md``) whatever the source, so a recipe's ``doc_path`` does not
change between a checkout, our snapshot and a GitHub archive with its ``rewrite-docs-<sha>/`` folder.
"""

from __future__ import annotations

import os
import re
import tarfile
import tempfile
import urllib.error
import urllib.request
import zlib
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType
from typing import Literal, NamedTuple

from ..server.errors import BadInput

DOCS_REPOSITORY = "openrewrite/rewrite-docs"
# The commit our shared snapshot was taken from (shared/data/openrewrite-docs/SOURCE.md).
DEFAULT_SOURCE_COMMIT = "7aca9c8d8b18953e2c5a33f21b662caa25154d40"
DEFAULT_SOURCE_URL = f"https://github.com/{DOCS_REPOSITORY}/archive/{DEFAULT_SOURCE_COMMIT}.tar.gz"

RECIPES_DIR = "docs/recipes/"
VERSIONS_PATH = "docs/reference/latest-versions-of-every-openrewrite-module.md"
DOWNLOAD_TIMEOUT_SECONDS = 120

_SHA = re.compile(r"\b[0-9a-f]{40}\b")
_HINT = "pass --source a rewrite-docs checkout, its .tar.gz, or a URL of one"

SourceKind = Literal["directory", "tarball", "url"]


class SourceError(BadInput):
    """The documentation source cannot be read; the message says what to do about it."""


class Page(NamedTuple):
    """One recipe page: its path relative to the docs root and its Markdown text."""

    path: str
    text: str


def is_recipe_page(relative_path: str) -> bool:
    """Recipe pages are ``docs/recipes/**/<slug>.md``; each category's README.md is only an index."""
    return (
        relative_path.startswith(RECIPES_DIR)
        and relative_path.endswith(".md")
        and relative_path.rsplit("/", 1)[-1] != "README.md"
    )


@dataclass
class DocsSource:
    """The pages of one documentation source, already read, plus what is known about where they came from.

    Usable as a context manager so callers can write ``with open_source(x) as docs:``; nothing stays open
    after :func:`open_source` returns, so leaving the block only releases the pages' memory.
    """

    location: str
    kind: SourceKind
    pages: list[Page]
    versions_text: str | None = None
    commit: str | None = None

    def __iter__(self) -> Iterator[Page]:
        return iter(self.pages)

    def __len__(self) -> int:
        return len(self.pages)

    def __enter__(self) -> DocsSource:
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.pages = []

    def describe(self) -> str:
        """One line for the catalog metadata: the path or URL, and the rewrite-docs commit when known."""
        if self.commit:
            return f"{self.location} ({DOCS_REPOSITORY}@{self.commit})"
        return self.location


def open_source(location: str | os.PathLike[str] | None = None) -> DocsSource:
    """Read all recipe pages from a directory, a ``.tar.gz`` file or an http(s)/file URL of a tarball.

    ``None`` means :data:`DEFAULT_SOURCE_URL`, the pinned rewrite-docs commit on GitHub.
    """
    if location is None:
        location = DEFAULT_SOURCE_URL
    text = os.fspath(location)
    if re.match(r"^[a-zA-Z][a-zA-Z0-9+.-]*://", text):
        return _read_url(text)
    path = Path(text).expanduser()
    if not path.exists():
        raise SourceError(f"Docs source {path} does not exist; {_HINT}.")
    if path.is_dir():
        return _read_directory(path)
    return _read_tarball(path, location=str(path.resolve()), kind="tarball")


def _read_url(url: str) -> DocsSource:
    """Download the tarball to a temporary file, read it, and delete the file again."""
    fd, tmp_name = tempfile.mkstemp(prefix="rewrite-docs-", suffix=".tar.gz")
    try:
        with os.fdopen(fd, "wb") as out:
            try:
                with urllib.request.urlopen(url, timeout=DOWNLOAD_TIMEOUT_SECONDS) as response:
                    while chunk := response.read(1 << 20):
                        out.write(chunk)
            except (urllib.error.URLError, OSError, ValueError) as exc:
                reason = getattr(exc, "reason", exc)
                raise SourceError(f"Could not download {url}: {reason}; check the network or {_HINT} instead.") from exc
        docs = _read_tarball(Path(tmp_name), location=url, kind="url")
    finally:
        os.unlink(tmp_name)
    docs.commit = docs.commit or _sha_in(url)
    return docs


def _read_tarball(path: Path, *, location: str, kind: SourceKind) -> DocsSource:
    pages: list[Page] = []
    versions: str | None = None
    prefix: str | None = None
    commit: str | None = None
    try:
        with tarfile.open(path, mode="r:*") as archive:
            commit = _sha_in(archive.pax_headers.get("comment", ""))
            for member in archive:
                if not member.isfile():
                    continue
                if prefix is None:
                    prefix = _docs_prefix(member.name)
                if prefix is None or not member.name.startswith(prefix):
                    continue
                relative = member.name[len(prefix) :]
                if not (is_recipe_page(relative) or relative == VERSIONS_PATH):
                    continue
                handle = archive.extractfile(member)
                if handle is None:
                    continue
                content = handle.read().decode("utf-8", errors="replace")
                if relative == VERSIONS_PATH:
                    versions = content
                else:
                    pages.append(Page(relative, content))
    except (tarfile.TarError, EOFError, zlib.error, OSError) as exc:
        # tarfile lists every compression it tried, one per line: the gist is that this is no archive at all
        reason = "not a tar archive" if "could not be opened successfully" in str(exc) else " ".join(str(exc).split())
        raise SourceError(
            f"{location} is not a readable .tar.gz archive ({reason}); re-download it or {_HINT}."
        ) from exc
    if not pages:
        raise SourceError(f"No recipe pages ({RECIPES_DIR}**/*.md) in {location}; {_HINT}.")
    commit = commit or _sha_in(prefix or "") or _sha_from_source_notes(path)
    pages.sort()
    return DocsSource(location=location, kind=kind, pages=pages, versions_text=versions, commit=commit)


def _docs_prefix(member_name: str) -> str | None:
    """The folder the archive keeps the docs under: ``""``, or one top folder like ``rewrite-docs-<sha>/``.

    Only those two layouts are accepted, so an unrelated ``docs/`` deeper in some other archive is not
    mistaken for the recipe documentation.
    """
    name = member_name.removeprefix("./")
    offset = len(member_name) - len(name)
    if name.startswith("docs/"):
        return member_name[:offset]
    top, _, rest = name.partition("/")
    if rest.startswith("docs/"):
        return member_name[: offset + len(top) + 1]
    return None


def _read_directory(path: Path) -> DocsSource:
    root = _docs_root(path)
    recipes_dir = root / RECIPES_DIR
    pages = [
        Page(relative, file.read_text(encoding="utf-8", errors="replace"))
        for file in sorted(recipes_dir.rglob("*.md"))
        if file.is_file() and is_recipe_page(relative := file.relative_to(root).as_posix())
    ]
    if not pages:
        raise SourceError(f"No recipe pages ({RECIPES_DIR}**/*.md) under {root}; {_HINT}.")
    versions_file = root / VERSIONS_PATH
    versions = versions_file.read_text(encoding="utf-8") if versions_file.is_file() else None
    return DocsSource(
        location=str(root.resolve()),
        kind="directory",
        pages=pages,
        versions_text=versions,
        commit=_git_head(root),
    )


def _docs_root(path: Path) -> Path:
    """The checkout root: ``path``, or its only subfolder with ``docs/recipes`` (an unpacked archive)."""
    if (path / RECIPES_DIR).is_dir():
        return path
    candidates = [child for child in path.iterdir() if (child / RECIPES_DIR).is_dir()]
    if len(candidates) == 1:
        return candidates[0]
    raise SourceError(f"{path} has no {RECIPES_DIR} folder; {_HINT}.")


def _sha_in(text: str) -> str | None:
    match = _SHA.search(text)
    return match.group(0) if match else None


def _git_head(root: Path) -> str | None:
    """The checked-out commit of a git checkout, read from ``.git`` without running git."""
    git = root / ".git"
    try:
        head = (git / "HEAD").read_text().strip()
        if head.startswith("ref: "):
            ref = head[5:]
            ref_file = git / ref
            if ref_file.is_file():
                return _sha_in(ref_file.read_text())
            packed = git / "packed-refs"
            if packed.is_file():
                for line in packed.read_text().splitlines():
                    if line.endswith(" " + ref):
                        return _sha_in(line)
            return None
        return _sha_in(head)
    except OSError:
        return None


def _sha_from_source_notes(tarball: Path) -> str | None:
    """The commit named in a SOURCE.md shipped next to the tarball (how our snapshot records provenance).

    The notes name the newest rewrite-docs commit first; later hashes are of other repositories.
    """
    notes = tarball.parent / "SOURCE.md"
    try:
        text = notes.read_text(encoding="utf-8")
    except OSError:
        return None
    anchor = text.find(DOCS_REPOSITORY)
    return _sha_in(text[anchor:]) if anchor >= 0 else None
