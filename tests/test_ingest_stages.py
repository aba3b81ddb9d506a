"""The ingest reports where its time went (embedding split into recipes and examples, the catalog write
into its steps: ``evaluation/bench_ingest.py`` shows them), and its faster vector text form stores every
float32 exactly."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from test_catalog import _subset_tarball

from rewrite_assist.ingestion.pipeline import ingest
from rewrite_assist.server.catalog.store import CatalogStore, vector_literal
from rewrite_assist.server.config import EMBEDDING_DIM, MODEL_KEY

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
    assert all(p >= 0 for p in parts)  # each step rounded to 0.01 s: a tiny catalog may show 0.0
    assert sum(parts) <= stages["write"] + 0.05

    again = ingest(store, _subset_tarball(tmp_path / "b", count=6), embedder=embedder, progress=False)
    assert again.embedded == 0 and again.stage_seconds["embed_recipes"] < stages["embed_recipes"]
    assert not any(key.startswith("write_") for key in again.stage_seconds)  # nothing changed: nothing written


def test_vectors_are_stored_bit_for_bit(make_database, embedder, tmp_path: Path) -> None:
    """The 9-digit text form the writes use gives PostgreSQL back every float32 exactly."""
    store = CatalogStore(make_database("vectors"))
    ingest(store, _subset_tarball(tmp_path / "a", count=3), embedder=embedder, progress=False)
    ids = sorted(store.stored_hashes(MODEL_KEY))
    rng = np.random.default_rng(7)
    vectors = rng.standard_normal((len(ids), EMBEDDING_DIM)).astype(np.float32)
    vectors[0, :4] = [np.float32(1e-45), np.float32(-3.4028235e38), np.float32(1 / 3), np.float32(-0.0)]
    store.write_embeddings("bit-check", {rid: ("h", vectors[n]) for n, rid in enumerate(ids)})
    with store.db.connection() as conn, conn.cursor() as cur:
        cur.execute(
            "SELECT recipe_id, vector_send(embedding) FROM recipe_embeddings "
            "WHERE model = 'bit-check' ORDER BY recipe_id"
        )
        rows = cur.fetchall()
    record = np.dtype([("dim", ">i2"), ("unused", ">i2"), ("values", ">f4", (EMBEDDING_DIM,))])
    stored = np.stack([np.frombuffer(bytes(packed), dtype=record)["values"][0] for _, packed in rows])
    assert [rid for rid, _ in rows] == ids
    assert np.array_equal(stored.astype(np.float32).view(np.uint32), vectors.view(np.uint32))
    assert literal_round_trips(vectors)


def literal_round_trips(vectors: np.ndarray) -> bool:
    parsed = [np.array(vector_literal(v)[1:-1].split(","), dtype=np.float32) for v in vectors]
    return all(np.array_equal(p.view(np.uint32), v.view(np.uint32)) for p, v in zip(parsed, vectors, strict=True))
