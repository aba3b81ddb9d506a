"""The ingest reports where its time went: embedding split into recipes and examples, the catalog write
into its steps (benchmarks read these: ``evaluation/bench_ingest.py``)."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_catalog import _subset_tarball

from rewrite_assist.ingestion.pipeline import ingest
from rewrite_assist.server.catalog.store import CatalogStore

pytestmark = pytest.mark.slow

WRITE_STEPS = ("recipes", "embeddings", "also", "index", "meta", "commit")


def test_stage_seconds_split_embedding_and_write(make_database, embedder, tmp_path: Path) -> None:
    store = CatalogStore(make_database("stages"))
    report = ingest(store, _subset_tarball(tmp_path / "a", count=6), embedder=embedder, progress=False)
    stages = report.stage_seconds
    assert report.embedded == 6 and report.examples_embedded > 0
    assert stages["embed_recipes"] > 0 and stages["embed_examples"] > 0
    assert stages["embed"] == pytest.approx(stages["embed_recipes"] + stages["embed_examples"], abs=0.02)
    parts = [stages[f"write_{step}"] for step in WRITE_STEPS]
    assert all(p >= 0 for p in parts) and stages["write_index"] > 0
    assert sum(parts) <= stages["write"] + 0.05

    again = ingest(store, _subset_tarball(tmp_path / "b", count=6), embedder=embedder, progress=False)
    assert again.embedded == 0 and again.stage_seconds["embed_recipes"] < stages["embed_recipes"]
    assert not any(key.startswith("write_") for key in again.stage_seconds)  # nothing changed: nothing written
