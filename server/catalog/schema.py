"""The catalog's database schema: the one place that defines tables, indexes and the schema version.

Bump ``SCHEMA_VERSION`` whenever a statement below changes; a catalog on an older version is reported
to users as "re-run `rewrite-assist ingest`" rather than failing with SQL errors.
"""

from __future__ import annotations

import re

from ..config import EMBEDDING_DIM

SCHEMA_VERSION = 3  # 2: recipe_examples; 3: recipes.availability (Moderne-only entries)

# HNSW build parameters (pgvector defaults, stated explicitly so a dump restores the same index).
HNSW_M = 16
HNSW_EF_CONSTRUCTION = 64

TABLES = f"""
CREATE EXTENSION IF NOT EXISTS vector;

CREATE TABLE IF NOT EXISTS catalog_meta (
    key   text PRIMARY KEY,
    value text NOT NULL
);

CREATE TABLE IF NOT EXISTS modules (
    group_id    text NOT NULL,
    artifact_id text NOT NULL,
    version     text,
    license     text NOT NULL DEFAULT 'unknown',
    PRIMARY KEY (group_id, artifact_id)
);

CREATE TABLE IF NOT EXISTS recipes (
    id            text PRIMARY KEY,
    display_name  text NOT NULL,
    description   text NOT NULL DEFAULT '',
    tags          text[] NOT NULL DEFAULT '{{}}',
    license       text NOT NULL DEFAULT 'unknown',
    group_id      text,
    artifact_id   text,
    npm_package   text,
    is_composite  boolean NOT NULL DEFAULT false,
    option_count  integer NOT NULL DEFAULT 0,
    used_by_count integer NOT NULL DEFAULT 0,
    doc_path      text NOT NULL DEFAULT '',
    data          jsonb NOT NULL,
    content_hash  text NOT NULL,
    search_tsv    tsvector NOT NULL
);

CREATE INDEX IF NOT EXISTS recipes_search_tsv_idx ON recipes USING gin (search_tsv);
CREATE INDEX IF NOT EXISTS recipes_lower_id_idx ON recipes (lower(id));
CREATE INDEX IF NOT EXISTS recipes_artifact_idx ON recipes (artifact_id);

-- 'docs' (a page in rewrite-docs) or 'moderne-only' (Moderne's recipe list only). Added here, filled from
-- each row's data, so that re-ingesting a catalog of schema version 1 upgrades it in place. Searches filter
-- it in the same statement as the other columns; no index of its own (two values, half the rows each).
DO $$ BEGIN
    IF NOT EXISTS (SELECT 1 FROM information_schema.columns WHERE table_schema = current_schema()
                   AND table_name = 'recipes' AND column_name = 'availability') THEN
        ALTER TABLE recipes ADD COLUMN availability text NOT NULL DEFAULT 'docs';
        UPDATE recipes SET availability = data->>'availability' WHERE data ? 'availability';
    END IF;
END $$;

CREATE TABLE IF NOT EXISTS recipe_embeddings (
    recipe_id text NOT NULL REFERENCES recipes (id) ON DELETE CASCADE,
    model     text NOT NULL,
    text_hash text NOT NULL,
    embedding vector({EMBEDDING_DIM}) NOT NULL,
    PRIMARY KEY (recipe_id, model)
);

-- One row per file of a recipe page's examples (derived from recipes.data at ingest, written in the same
-- transaction): searchable by the changed lines' full text and embedding (diff search).
CREATE TABLE IF NOT EXISTS recipe_examples (
    recipe_id    text NOT NULL REFERENCES recipes (id) ON DELETE CASCADE,
    ordinal      integer NOT NULL,
    example      integer NOT NULL,
    file         text,
    language     text,
    file_kind    text NOT NULL,
    parameters   jsonb NOT NULL DEFAULT '{{}}',
    before_text  text,
    after_text   text,
    diff         text,
    removed      text NOT NULL DEFAULT '',
    added        text NOT NULL DEFAULT '',
    content_hash text NOT NULL,
    search_tsv   tsvector NOT NULL,
    model        text,
    text_hash    text,
    embedding    vector({EMBEDDING_DIM}),
    PRIMARY KEY (recipe_id, ordinal)
);

CREATE INDEX IF NOT EXISTS recipe_examples_search_tsv_idx ON recipe_examples USING gin (search_tsv);
"""

ALL_TABLES = ("recipe_examples", "recipe_embeddings", "recipes", "modules", "catalog_meta")


def hnsw_index_name(model_key: str) -> str:
    """A stable, valid identifier for the per-model partial HNSW index."""
    slug = re.sub(r"[^a-z0-9]+", "_", model_key.lower()).strip("_")
    return f"recipe_embeddings_hnsw_{slug}"[:63]


def hnsw_index_sql(model_key: str) -> str:
    """One partial HNSW cosine index per embedding model key.

    Each search filters on one model; a partial index makes ``WHERE model = '<key>' ORDER BY embedding <=>
    q LIMIT n`` an exact index scan instead of a filtered one that could return too few rows.
    """
    literal = model_key.replace("'", "''")
    return (
        f"CREATE INDEX IF NOT EXISTS {hnsw_index_name(model_key)} ON recipe_embeddings "
        f"USING hnsw (embedding vector_cosine_ops) WITH (m = {HNSW_M}, ef_construction = {HNSW_EF_CONSTRUCTION}) "
        f"WHERE model = '{literal}'"
    )
