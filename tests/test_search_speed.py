"""What keeps a warm find_recipes fast without changing what it returns: numpy's BLAS on one thread, one
parse of the phrases per search call (the Moderne-only hint reuses it), the hint ranked in another thread
while the dense statement runs, and one round trip for the catalog check and for the dense settings."""

from __future__ import annotations

import pytest
from conftest import dev_text

from rewrite_assist.server.catalog.store import CatalogNotReady, CatalogStore
from rewrite_assist.server.config import MODEL_KEY
from rewrite_assist.server.search import hybrid, legs, moderne
from rewrite_assist.server.search.models import SearchFilters
from rewrite_assist.server.search.snapshot import snapshot_for
from rewrite_assist.server.search.tuning import DEFAULT_TUNING

pytestmark = pytest.mark.slow

DROPWIZARD5 = "io.moderne.java.dropwizard.MigrateToDropwizard5"
DROPWIZARD_INTENT = [
    "upgrade a Dropwizard 4 application to Dropwizard 5",
    "migrate Dropwizard 4.x to 5.0.x",
    "bump io.dropwizard dependencies to version 5",
]


def test_blas_runs_on_one_thread_once_the_model_is_loaded(embedder) -> None:
    from threadpoolctl import threadpool_info

    embedder.load()
    blas = [pool for pool in threadpool_info() if pool["user_api"] == "blas"]
    assert blas, "numpy's BLAS was not found"
    assert all(pool["num_threads"] == 1 for pool in blas), blas


def test_phrases_are_parsed_once_per_memo(catalog: CatalogStore) -> None:
    snapshot = snapshot_for(catalog, catalog.check_ready(), MODEL_KEY)
    texts = [dev_text("q006"), "-junit migrate Temurin"]  # a dev intent naming a workflow, and an exclusion
    memo: dict[str, str] = {}
    with catalog.db.connection() as conn, conn.cursor() as cur:
        fresh = legs.lexical_terms(cur, texts, snapshot.doc_freq, len(snapshot.rows), max_df=0.1)
        filled = legs.lexical_terms(cur, texts, snapshot.doc_freq, len(snapshot.rows), max_df=0.1, memo=memo)
    assert set(memo) == set(texts) and "'workflow'" in memo[texts[0]] and "!'junit'" in memo[texts[1]]
    # A full memo needs no database at all (the hint runs without a cursor) and gives the same terms.
    again = legs.lexical_terms(None, texts, snapshot.doc_freq, len(snapshot.rows), max_df=0.1, memo=memo)
    assert fresh == filled == again
    assert any(t.lexemes for t in again) and again[1].excluded
    with pytest.raises(RuntimeError, match="without a cursor"):
        legs.lexical_terms(None, ["an unparsed phrase"], snapshot.doc_freq, len(snapshot.rows), memo=memo)


def test_the_hint_ranked_in_its_thread_equals_the_hint_ranked_in_line(catalog: CatalogStore, embedder) -> None:
    result = hybrid.find_recipes(catalog, embedder, DROPWIZARD_INTENT, limit=5)
    assert result.moderne_hint is not None and DROPWIZARD5 in result.moderne_hint.best

    # The same hint computed step by step in this thread, with its own round trip for the phrases.
    tuning = hybrid.configured_tuning()
    queries = hybrid.normalize_queries(DROPWIZARD_INTENT)
    filters = moderne.search_filters(SearchFilters(), False)
    only = moderne.moderne_only(filters)
    vectors = embedder.encode(queries)
    with catalog.db.connection() as conn, conn.cursor() as cur:
        snapshot = snapshot_for(catalog, catalog.check_ready(cur=cur), tuning.model_key)
        search = hybrid._ranked(cur, snapshot, queries, filters, tuning, lambda: vectors, hybrid.DEFAULT_MIN_SCORE)
        others = hybrid._Search(cur, snapshot, queries, only, tuning, exact=True)
        others.gather(lambda: vectors)
        others.score()
        others.drop_weak(hybrid.DEFAULT_MIN_SCORE)
    kept = search.candidates
    ordered = sorted(kept, key=lambda rid: (-kept[rid].score, rid))
    assert [h.id for h in result.hits] == ordered[:5]
    assert result.moderne_hint == moderne.moderne_hint(search.pool, others.pool, "score", ordered, 5)
    assert all(snapshot.rows[rid].availability == "moderne-only" for rid in others.candidates)


def test_catalog_check_in_one_statement_and_on_an_empty_database(catalog: CatalogStore, make_database) -> None:
    empty = CatalogStore(make_database("speedmeta"))
    assert empty.meta() == {}
    with pytest.raises(CatalogNotReady, match="rewrite-assist ingest"):
        empty.check_ready()
    with empty.db.connection() as conn, conn.cursor() as cur:
        assert empty.meta(cur=cur) == {}  # the missing table rolled back only its own statement
        cur.execute("SELECT 1")  # and the transaction is usable afterwards
        assert cur.fetchone() == (1,)
        cur.execute("CREATE TEMP TABLE kept (x int) ON COMMIT DROP")
        assert empty.meta(cur=cur) == {}  # inside an open transaction: looked up first, nothing rolled back
        cur.execute("SELECT count(*) FROM kept")
        assert cur.fetchone() == (0,)
    plain = catalog.meta()
    assert plain["schema_version"] and plain["ingested_at"]
    with catalog.db.connection() as conn, conn.cursor() as cur:
        cur.execute("SELECT 1")
        assert catalog.meta(cur=cur) == plain  # the two-statement path agrees
    statements = []

    class Counting:
        def __init__(self, cur) -> None:
            self.cur, self.connection = cur, cur.connection

        def execute(self, sql, *args):
            statements.append(sql)
            return self.cur.execute(sql, *args)

        def fetchall(self):
            return self.cur.fetchall()

    with catalog.db.connection() as conn, conn.cursor() as cur:
        assert catalog.meta(cur=Counting(cur)) == plain
    assert len(statements) == 1


def test_dense_settings_apply_to_the_statement(catalog: CatalogStore, embedder) -> None:
    vectors = embedder.encode(["migrate the project from JUnit 4 to JUnit 5"])
    snapshot = snapshot_for(catalog, catalog.check_ready(), MODEL_KEY)
    for filters, scan in ((SearchFilters(availability="docs"), "relaxed_order"), (SearchFilters(), "off")):
        with catalog.db.connection() as conn, conn.cursor() as cur:
            search = hybrid._ranked(
                cur, snapshot, ["x"], filters, DEFAULT_TUNING, lambda: vectors, hybrid.DEFAULT_MIN_SCORE
            )
            assert search.candidates
            cur.execute("SELECT current_setting('hnsw.ef_search'), current_setting('hnsw.iterative_scan')")
            assert cur.fetchone() == (str(max(DEFAULT_TUNING.ef_search, DEFAULT_TUNING.dense_candidates)), scan)
        with catalog.db.connection() as conn, conn.cursor() as cur:  # SET LOCAL: gone with the transaction
            cur.execute("SELECT current_setting('hnsw.iterative_scan')")
            assert cur.fetchone() == ("off",)
