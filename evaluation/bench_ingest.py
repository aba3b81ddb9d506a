"""Benchmark: full ingest, unchanged re-ingest and dump size, on a throwaway embedded PostgreSQL.

    python -m rewrite_assist.evaluation.bench_ingest [--source ../shared/data/openrewrite-docs/recipes.tar.gz]

Goals (2-core machine): full ingest ≤ 60 s, unchanged re-ingest ≤ 5 s, dump ≤ 30 MB. Peak memory is the
process's maximum resident set size (model + parsed pages + vectors). The full ingest includes loading the
model on the configured backend (``REWRITE_ASSIST_EMBEDDING_BACKEND``), reported with its time; with ONNX on a
fresh ``REWRITE_ASSIST_HOME`` that load includes the one-time export. Prints one JSON object.
"""

from __future__ import annotations

import argparse
import json
import resource
import shutil
import sys
import tempfile
import time
from pathlib import Path

DEFAULT_SOURCE = Path(__file__).resolve().parents[2] / "shared" / "data" / "openrewrite-docs" / "recipes.tar.gz"


def peak_rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--source", default=str(DEFAULT_SOURCE))
    args = parser.parse_args()

    from ..ingestion.dump import write_dump
    from ..ingestion.pipeline import ingest
    from ..server.catalog.db import Database, start_embedded, stop_embedded
    from ..server.catalog.store import CatalogStore
    from ..server.config import MODEL_KEY
    from ..server.embedding import Embedder

    home = Path(tempfile.mkdtemp(prefix="rewrite-assist-bench-"))
    home.chmod(0o755)
    try:
        started = time.perf_counter()
        store = CatalogStore(Database(start_embedded(home), "embedded"))
        db_start = time.perf_counter() - started

        embedder = Embedder()
        started = time.perf_counter()
        embedder.load()  # on a fresh REWRITE_ASSIST_HOME this includes the one-time ONNX export
        model_load_s = time.perf_counter() - started
        full = ingest(store, args.source, embedder=embedder, progress=False)
        full_s = time.perf_counter() - started  # includes loading the model, as a user's first ingest does
        peak_full = peak_rss_mb()

        started = time.perf_counter()
        again = ingest(store, args.source, embedder=Embedder(), progress=False)
        unchanged_s = time.perf_counter() - started

        dump = home / "catalog.sql.gz"
        started = time.perf_counter()
        write_dump(store, dump, model_key=MODEL_KEY)
        dump_s = time.perf_counter() - started
        result = {
            "recipes": full.recipes,
            "embedded_db_start_s": round(db_start, 2),
            "embedding_backend": embedder.backend_name,
            "model_load_s": round(model_load_s, 2),
            "full_ingest_s": round(full_s, 1),
            "full_ingest_peak_rss_mb": round(peak_full),
            "full_ingest_stages_s": full.stage_seconds,
            "unchanged_reingest_s": round(unchanged_s, 2),
            "unchanged_reingest_embedded": again.embedded,
            "dump_mb": round(dump.stat().st_size / 1e6, 1),
            "dump_s": round(dump_s, 1),
            "goals": {"full_ingest_s": 60, "unchanged_reingest_s": 5, "dump_mb": 30},
        }
        print(json.dumps(result, indent=2))
        store.db.close()
    finally:
        stop_embedded(home)
        shutil.rmtree(home, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
