"""The ranking snapshot's disk cache: what it reads back is the snapshot the database gives, it is keyed by
catalog revision, and a damaged file costs a rebuild, never a wrong ranking."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import numpy as np
import pytest

from rewrite_assist.server.catalog.store import catalog_revision
from rewrite_assist.server.config import MODEL_KEY
from rewrite_assist.server.search import snapshot_cache
from rewrite_assist.server.search.snapshot import RankingSnapshot, load_snapshot

MODEL = MODEL_KEY


@pytest.fixture(scope="module")
def reference(catalog) -> RankingSnapshot:
    return load_snapshot(catalog, catalog.check_ready(), MODEL)


def assert_same(a: RankingSnapshot, b: RankingSnapshot) -> None:
    for f in dataclasses.fields(RankingSnapshot):
        x, y = getattr(a, f.name), getattr(b, f.name)
        if isinstance(x, np.ndarray):  # the recipe and example vectors, the examples' owners
            assert isinstance(y, np.ndarray) and x.dtype == y.dtype and np.array_equal(x, y), f.name
        elif f.name == "postings":
            assert x.keys() == y.keys()
            for lexeme, (positions, ranks) in x.items():
                assert np.array_equal(positions, y[lexeme][0]) and np.array_equal(ranks, y[lexeme][1]), lexeme
        else:
            assert x == y, f.name


def test_encoded_snapshot_decodes_to_the_same_snapshot(reference: RankingSnapshot) -> None:
    assert len(reference.rows) > 4000 and len(reference.postings) > 1000
    assert_same(snapshot_cache.decode(snapshot_cache.encode(reference)), reference)


def test_load_or_build_writes_once_then_reads(
    reference: RankingSnapshot, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("REWRITE_ASSIST_HOME", str(tmp_path))
    builds: list[int] = []

    def build() -> RankingSnapshot:
        builds.append(1)
        return reference

    first = snapshot_cache.load_or_build(reference.revision, MODEL, build)
    second = snapshot_cache.load_or_build(reference.revision, MODEL, build)
    assert first is reference and len(builds) == 1
    assert second is not reference
    assert_same(second, reference)
    path = snapshot_cache.cache_path(reference.revision, MODEL)
    assert path.parent == tmp_path / "cache" and path.exists()
    assert snapshot_cache.cache_path("another revision", MODEL) != path  # a new ingest never reads the old file
    assert snapshot_cache.cache_path(reference.revision, "another-model") != path


def test_damaged_cache_file_is_rebuilt(
    reference: RankingSnapshot, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setenv("REWRITE_ASSIST_HOME", str(tmp_path))
    path = snapshot_cache.cache_path(reference.revision, MODEL)
    path.parent.mkdir(parents=True)
    path.write_bytes(b"not a pickle")
    got = snapshot_cache.load_or_build(reference.revision, MODEL, lambda: reference)
    assert got is reference and "ignoring the ranking snapshot cache" in caplog.text
    assert_same(snapshot_cache.load_or_build(reference.revision, MODEL, lambda: pytest.fail("rebuilt")), reference)


def test_old_cache_files_are_pruned(
    reference: RankingSnapshot, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("REWRITE_ASSIST_HOME", str(tmp_path))
    small = dataclasses.replace(reference, postings={}, rows={})
    for n in range(snapshot_cache.KEEP + 3):
        snapshot_cache.load_or_build(f"revision {n}", MODEL, lambda: small)
    assert len(list((tmp_path / "cache").glob("ranking-*.pickle"))) == snapshot_cache.KEEP


def test_search_uses_the_revision_of_the_catalog(catalog, reference: RankingSnapshot) -> None:
    assert reference.revision == catalog_revision(catalog.check_ready())
