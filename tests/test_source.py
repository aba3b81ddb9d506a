"""Reading recipe pages from a directory, a .tar.gz (with or without a top folder) and a URL."""

from __future__ import annotations

import io
import tarfile
import tempfile
import urllib.request
from pathlib import Path

import pytest
from conftest import docs_snapshot

from rewrite_assist.ingestion import source as source_module
from rewrite_assist.ingestion.source import (
    DEFAULT_SOURCE_COMMIT,
    DEFAULT_SOURCE_URL,
    VERSIONS_PATH,
    SourceError,
    is_recipe_page,
    open_source,
)

SNAPSHOT = docs_snapshot()
SHA = "0123456789abcdef0123456789abcdef01234567"

FILES = {
    "docs/recipes/java/orderimports.md": "# Order imports\n",
    "docs/recipes/java/README.md": "# Java\n",
    "docs/recipes/core/find$inner.md": "# Find\n",
    "docs/reference/" + VERSIONS_PATH.rsplit("/", 1)[1]: "| Module | Version | License |\n",
    "docs/other/page.md": "# not a recipe\n",
    "LICENSE": "Apache\n",
}
EXPECTED_PAGES = ["docs/recipes/core/find$inner.md", "docs/recipes/java/orderimports.md"]


def write_tree(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        target = root / name
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")


def write_tarball(path: Path, files: dict[str, str], *, prefix: str = "", pax_comment: str | None = None) -> Path:
    headers = {"comment": pax_comment} if pax_comment else {}
    with tarfile.open(path, "w:gz", format=tarfile.PAX_FORMAT, pax_headers=headers) as archive:
        for name, text in files.items():
            data = text.encode("utf-8")
            info = tarfile.TarInfo(prefix + name)
            info.size = len(data)
            archive.addfile(info, io.BytesIO(data))
    return path


def test_recipe_page_filter_excludes_readmes_and_other_docs() -> None:
    assert is_recipe_page("docs/recipes/java/orderimports.md")
    assert not is_recipe_page("docs/recipes/java/README.md")
    assert not is_recipe_page("docs/reference/all-recipes.md")
    assert not is_recipe_page("docs/recipes/java/image.png")


def test_directory_checkout(tmp_path: Path) -> None:
    write_tree(tmp_path, FILES)
    with open_source(tmp_path) as docs:
        assert [page.path for page in docs] == EXPECTED_PAGES
        assert docs.pages[1].text == "# Order imports\n"
        assert docs.versions_text == "| Module | Version | License |\n"
        assert docs.kind == "directory"
        assert docs.describe() == str(tmp_path.resolve())


def test_directory_reads_commit_of_git_checkout(tmp_path: Path) -> None:
    write_tree(tmp_path, FILES)
    write_tree(tmp_path, {".git/HEAD": "ref: refs/heads/master\n", ".git/refs/heads/master": SHA + "\n"})
    docs = open_source(tmp_path)
    assert docs.commit == SHA
    assert docs.describe().endswith(f"(openrewrite/rewrite-docs@{SHA})")


def test_unpacked_archive_with_single_top_folder(tmp_path: Path) -> None:
    write_tree(tmp_path / f"rewrite-docs-{SHA}", FILES)
    docs = open_source(tmp_path)
    assert [page.path for page in docs] == EXPECTED_PAGES


def test_directory_without_recipe_folder_is_an_error(tmp_path: Path) -> None:
    write_tree(tmp_path, {"docs/blog/post.md": "x"})
    with pytest.raises(SourceError, match=r"has no docs/recipes/ folder; pass --source"):
        open_source(tmp_path)


def test_directory_with_recipe_folder_but_no_pages_is_an_error(tmp_path: Path) -> None:
    write_tree(tmp_path, {"docs/recipes/README.md": "# Recipes"})
    with pytest.raises(SourceError, match="No recipe pages"):
        open_source(tmp_path)


def test_tarball_without_top_folder(tmp_path: Path) -> None:
    archive = write_tarball(tmp_path / "docs.tar.gz", FILES)
    docs = open_source(archive)
    assert [page.path for page in docs] == EXPECTED_PAGES
    assert docs.versions_text is not None
    assert docs.kind == "tarball"
    assert docs.commit is None


def test_tarball_with_github_top_folder_strips_it_and_reads_the_commit(tmp_path: Path) -> None:
    archive = write_tarball(tmp_path / "docs.tar.gz", FILES, prefix=f"rewrite-docs-{SHA}/")
    docs = open_source(archive)
    assert [page.path for page in docs] == EXPECTED_PAGES
    assert docs.commit == SHA


def test_tarball_commit_from_pax_comment_as_github_writes_it(tmp_path: Path) -> None:
    archive = write_tarball(tmp_path / "docs.tar.gz", FILES, prefix="rewrite-docs-master/", pax_comment=SHA)
    assert open_source(archive).commit == SHA


def test_tarball_commit_from_source_notes_next_to_it(tmp_path: Path) -> None:
    archive = write_tarball(tmp_path / "recipes.tar.gz", FILES)
    (tmp_path / "SOURCE.md").write_text(
        f"Main source: **openrewrite/rewrite-docs**, newest commit `{SHA}`.\n"
        f"Second source: generator commit `{'f' * 40}`.\n"
    )
    assert open_source(archive).commit == SHA


def test_missing_path_is_an_error(tmp_path: Path) -> None:
    with pytest.raises(SourceError, match=r"does not exist; pass --source"):
        open_source(tmp_path / "nowhere.tar.gz")


def test_corrupt_tarball_is_an_error(tmp_path: Path) -> None:
    broken = tmp_path / "broken.tar.gz"
    broken.write_bytes(b"\x1f\x8b\x08\x00this is not gzip data at all")
    with pytest.raises(SourceError, match=r"not a readable \.tar\.gz archive"):
        open_source(broken)


def test_truncated_tarball_is_an_error(tmp_path: Path) -> None:
    archive = write_tarball(tmp_path / "docs.tar.gz", {**FILES, "docs/recipes/big.md": "x" * 200_000})
    data = archive.read_bytes()
    archive.write_bytes(data[: len(data) // 2])
    with pytest.raises(SourceError):
        open_source(archive)


def test_tarball_without_recipe_pages_is_an_error(tmp_path: Path) -> None:
    archive = write_tarball(tmp_path / "docs.tar.gz", {"docs/blog/post.md": "x", "README.md": "y"})
    with pytest.raises(SourceError, match="No recipe pages"):
        open_source(archive)


def test_deeply_nested_docs_folder_is_not_taken_for_the_docs(tmp_path: Path) -> None:
    nested = {f"a/b/{name}": text for name, text in FILES.items()}
    archive = write_tarball(tmp_path / "docs.tar.gz", nested)
    with pytest.raises(SourceError, match="No recipe pages"):
        open_source(archive)


def test_file_url_downloads_reads_and_removes_the_temporary_copy(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    archive = write_tarball(tmp_path / "docs.tar.gz", FILES, prefix=f"rewrite-docs-{SHA}/")
    downloads = tmp_path / "downloads"
    downloads.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(downloads))
    url = archive.as_uri()
    docs = open_source(url)
    assert [page.path for page in docs] == EXPECTED_PAGES
    assert docs.kind == "url"
    assert docs.location == url
    assert docs.describe() == f"{url} (openrewrite/rewrite-docs@{SHA})"
    assert list(downloads.iterdir()) == []


def test_unreachable_url_is_an_error(tmp_path: Path) -> None:
    with pytest.raises(SourceError, match=r"Could not download .*; check the network"):
        open_source((tmp_path / "missing.tar.gz").as_uri())


def test_default_source_is_the_pinned_github_archive(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    assert (f"https://github.com/openrewrite/rewrite-docs/archive/{DEFAULT_SOURCE_COMMIT}.tar.gz") == DEFAULT_SOURCE_URL
    archive = write_tarball(tmp_path / "docs.tar.gz", FILES, prefix="rewrite-docs-x/")
    requested: list[str] = []

    def fake_urlopen(url: str, timeout: float) -> io.BufferedReader:
        requested.append(url)
        return archive.open("rb")

    monkeypatch.setattr(urllib.request, "urlopen", fake_urlopen)
    docs = open_source(None)
    assert requested == [DEFAULT_SOURCE_URL]
    assert docs.commit == DEFAULT_SOURCE_COMMIT
    assert len(docs) == 2


def test_source_error_is_a_value_error() -> None:
    assert issubclass(SourceError, ValueError)
    assert source_module.SourceError is SourceError


@pytest.mark.skipif(not SNAPSHOT.is_file(), reason=f"shared docs snapshot not found at {SNAPSHOT}")
def test_shared_snapshot() -> None:
    with open_source(SNAPSHOT) as docs:
        assert len(docs) == 4118
        assert docs.commit == DEFAULT_SOURCE_COMMIT
        assert docs.versions_text is not None and "org.openrewrite.recipe:rewrite-recipe-bom" in docs.versions_text
        assert all(is_recipe_page(page.path) for page in docs)
