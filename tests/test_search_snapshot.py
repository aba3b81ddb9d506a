"""The in-memory ranking snapshot and the one-statement SQL legs behind find_recipes.

The snapshot must agree with the database it was read from (filters, names, vectors, document
frequencies) and be replaced when an ingest writes a new catalog revision; the batched SQL legs must
give each variation exactly what a statement of its own would.
"""

from __future__ import annotations

import numpy as np
import pytest
from conftest import dev_text

from rewrite_assist.server.config import MODEL_KEY
from rewrite_assist.server.search import legs
from rewrite_assist.server.search.models import SearchFilters
from rewrite_assist.server.search.snapshot import exact_matches, republished_copies, snapshot_for

pytestmark = pytest.mark.slow

# Two queries of our own, and a dev intent naming a rare word (``workflow_dispatch``), read from ../shared.
OWN_QUERIES = [
    "migrate the project from JUnit 4 to JUnit 5",
    "replace org.junit.Test with org.junit.jupiter.api.Test",
]


@pytest.fixture(scope="module")
def queries() -> list[str]:
    return [*OWN_QUERIES, dev_text("q006")]


@pytest.fixture(scope="module")
def snapshot(catalog):
    return snapshot_for(catalog, catalog.check_ready(), MODEL_KEY)


def test_republished_copies_rule() -> None:
    rows = [
        ("org.openrewrite.java.migrate.jakarta.JavaxToJakarta", "Migrate", "to jakarta"),
        ("io.quarkus.updates.core.JavaxToJakarta", "Migrate", "to jakarta"),  # same class name elsewhere
        ("org.apache.camel.Renamed", "Same text", "same description"),
        ("io.other.Different", "Same text", "same description"),  # same name + description elsewhere
        ("io.other.Alone", "Alone", "unique"),
        ("io.other.sub.Alone2", "Alone", "other description"),  # same display name only: not a copy
    ]
    assert republished_copies(rows) == {
        "io.quarkus.updates.core.JavaxToJakarta",
        "org.apache.camel.Renamed",
        "io.other.Different",
    }


def test_snapshot_matches_the_catalog(catalog, snapshot) -> None:
    quarkus = "io.quarkus.updates.core.quarkus30.JavaxPersistenceToJakartaPersistence"
    canonical = "org.openrewrite.java.migrate.jakarta.JavaxPersistenceToJakartaPersistence"
    assert snapshot.rows[quarkus].facts.republished_copy
    assert not snapshot.rows[canonical].facts.republished_copy
    assert len(snapshot.rows) == catalog.info().recipes == len(snapshot.index)
    norms = np.linalg.norm(snapshot.vectors, axis=1)
    assert np.allclose(norms, 1.0, atol=1e-3)
    with catalog.db.connection() as conn, conn.cursor() as cur:
        cur.execute(
            "SELECT e.recipe_id, 1 - (e.embedding <=> %s) FROM recipe_embeddings e WHERE e.model = %s LIMIT 25",
            (snapshot.vectors[0], MODEL_KEY),
        )
        in_sql = dict(cur.fetchall())
        cur.execute("SELECT count(*) FROM recipes WHERE search_tsv @@ 'junit'::tsquery")
        junit_docs = cur.fetchone()[0]
    in_memory = snapshot.cosines(list(in_sql), snapshot.vectors[:1])
    for rid, cosine in in_sql.items():
        assert in_memory[rid][0] == pytest.approx(cosine, abs=1e-5)
    assert snapshot.doc_freq("junit") == junit_docs > 0


@pytest.mark.parametrize(
    "filters",
    [
        SearchFilters(module="rewrite-testing-frameworks"),
        SearchFilters(tag="testing"),
        SearchFilters(license="moderne", composite=True),
        SearchFilters(composite=False),
    ],
)
def test_in_memory_filters_agree_with_sql(catalog, snapshot, filters) -> None:
    where, params = legs.filter_sql(filters)
    with catalog.db.connection() as conn, conn.cursor() as cur:
        cur.execute(f"SELECT r.id FROM recipes r WHERE true{where}", params)
        in_sql = {row[0] for row in cur.fetchall()}
    assert in_sql
    assert set(snapshot.passing(snapshot.rows, filters)) == in_sql


def test_exact_matches_by_id_and_class_name(snapshot) -> None:
    ids, classes = legs.named_in("run org.openrewrite.java.ChangeMethodName, then UpgradeSpringBoot_3_0")
    found = exact_matches(snapshot, ids, classes)
    assert found["org.openrewrite.java.ChangeMethodName"] == 1.0
    spring = [rid for rid in found if rid.endswith(".UpgradeSpringBoot_3_0")]
    assert spring and all(found[rid] == 0.5 for rid in spring)
    assert exact_matches(snapshot, *legs.named_in("nothing named here")) == {}


def test_dense_leg_is_one_indexed_statement_that_equals_one_query_per_variation(catalog, embedder, queries) -> None:
    vectors = embedder.encode(queries)
    with catalog.db.connection() as conn, conn.cursor() as cur:
        cur.execute("SET LOCAL hnsw.ef_search = 100")
        batched = legs.dense_candidates(cur, vectors, SearchFilters(), model_key=MODEL_KEY, depth=20)
        sql, params = legs.dense_statement(vectors, SearchFilters(), model_key=MODEL_KEY, depth=20)
        cur.execute("EXPLAIN " + sql, params)
        plan = "\n".join(r[0] for r in cur.fetchall())
        one_by_one: dict[str, set[int]] = {}
        for n, vector in enumerate(vectors):
            for rid, variations in legs.dense_candidates(
                cur, vector[None, :], SearchFilters(), model_key=MODEL_KEY, depth=20
            ).items():
                assert variations == {0}
                one_by_one.setdefault(rid, set()).add(n)
    assert "recipe_embeddings_hnsw_" in plan, plan
    assert batched == one_by_one
    assert {n for found in batched.values() for n in found} == {0, 1, 2}


def test_lexical_leg_equals_postgresql_ranking_each_variation(catalog, snapshot, queries) -> None:
    """The in-memory sums over the snapshot's postings give what PostgreSQL computes for one variation
    directly: Σ idf · ts_rank over the recipes matching any term, with filters, best first."""
    filters = SearchFilters(composite=False)
    where, params = legs.filter_sql(filters)
    with catalog.db.connection() as conn, conn.cursor() as cur:
        terms = legs.lexical_terms(cur, queries, snapshot.doc_freq, len(snapshot.rows), max_df=0.1)
        in_memory = legs.lexical_leg(snapshot, terms, filters, depth=30)
        for variation, got in zip(terms, in_memory, strict=True):
            cur.execute(
                "SELECT r.id, sum(t.idf * ts_rank(r.search_tsv, quote_literal(t.lex)::tsquery, 1)) AS s "
                "FROM recipes r JOIN unnest(%(lex)s::text[], %(idf)s::float8[]) AS t(lex, idf) "
                f"ON r.search_tsv @@ quote_literal(t.lex)::tsquery WHERE true{where} "
                "GROUP BY r.id ORDER BY s DESC, r.id LIMIT 30",
                {**params, "lex": variation.lexemes, "idf": variation.idf},
            )
            rows = cur.fetchall()
            expected = {rid: float(score) / float(rows[0][1]) for rid, score in rows}
            assert list(got) == list(expected)
            assert got == pytest.approx(expected, rel=1e-6)
    assert all(max(scores.values()) == 1.0 for scores in in_memory)
    unfiltered = legs.lexical_leg(snapshot, terms, SearchFilters(), depth=30)
    assert "org.openrewrite.github.AddManualTrigger" in unfiltered[2]
    assert all(not snapshot.rows[rid].facts.is_composite for scores in in_memory for rid in scores)
    common = [lx for t in terms for lx in t.lexemes if snapshot.doc_freq(lx) > 0.1 * len(snapshot.rows)]
    assert common == []  # terms in more than a tenth of the catalog are left to the dense leg


def test_parse_tsquery_splits_wanted_and_excluded_lexemes() -> None:
    wanted, excluded = legs.parse_tsquery("'migrat' & 'junit' & '4' & 'junit' & !'vintag' | 'o''brien' <-> 'x'")
    assert wanted == ["migrat", "junit", "4", "o'brien", "x"]
    assert excluded == ["vintag"]
    assert legs.parse_tsquery("") == ([], [])


def test_websearch_syntax_in_the_full_text_leg(catalog, snapshot) -> None:
    """``-word`` excludes recipes containing it from the full-text matches (it used to count as a match);
    ``or`` is not a search term."""
    with catalog.db.connection() as conn, conn.cursor() as cur:
        plain, negated = legs.lexical_terms(
            cur,
            ["setup-java distribution temurin", "setup-java distribution -temurin or semeru"],
            snapshot.doc_freq,
            len(snapshot.rows),
        )
        with_word, without_word = legs.lexical_leg(snapshot, [plain, negated], SearchFilters(), depth=50)
    assert "temurin" in plain.lexemes and negated.excluded == ["temurin"] and "temurin" not in negated.lexemes
    assert "or" not in negated.lexemes and "semeru" in negated.lexemes
    containing = set(snapshot.recipe_ids[n] for n in snapshot.postings["temurin"][0])
    assert containing & set(with_word)
    assert not containing & set(without_word)


def test_a_new_catalog_revision_replaces_the_snapshot(make_database, embedder) -> None:
    from rewrite_assist.server.catalog.models import Recipe
    from rewrite_assist.server.catalog.store import CatalogStore

    store = CatalogStore(make_database("revision"))

    def write(recipes: list[Recipe], changed: list[Recipe]) -> None:
        vectors = embedder.encode([r.description for r in changed])
        store.write_catalog(
            recipes=recipes,
            changed_ids={r.id for r in changed},
            modules=[],
            embeddings={r.id: ("h", vectors[n]) for n, r in enumerate(changed)},
            model_key=MODEL_KEY,
            meta={"ingested_at": "2026-11-22T00:00:00+00:00", "source": "hand-built"},  # same "second" both times
        )

    base = Recipe(id="org.example.First", display_name="First", description="Change a Maven dependency version.")
    write([base], [base])
    first = snapshot_for(store, store.check_ready(), MODEL_KEY)
    assert snapshot_for(store, store.check_ready(), MODEL_KEY) is first  # same revision: reused, not reloaded
    extra = Recipe(id="org.example.NewlyAdded", display_name="Newly added", description="A recipe added later.")
    write([base, extra], [extra])
    second = snapshot_for(store, store.check_ready(), MODEL_KEY)
    assert second is not first
    assert extra.id in second.rows and extra.id not in first.rows
