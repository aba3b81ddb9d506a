"""``rewrite-assist db dump``: the catalog as one compressed, portable SQL file.

pg_dump from the embedded PostgreSQL 18 writes settings older servers reject (``transaction_timeout``,
``\\restrict``), so the dump is written here instead: the schema statements from ``schema.py``, the rows as
``COPY … FROM stdin`` blocks, then the indexes. It restores into any PostgreSQL 16+ with pgvector via
``psql -v ON_ERROR_STOP=1`` and is what the Docker image loads at first start.
"""

from __future__ import annotations

import gzip
import io
from pathlib import Path

from ..server.catalog import schema
from ..server.catalog.store import CatalogStore

# (table, columns, WHERE clause) in dependency order.
_TABLES: tuple[tuple[str, str, str], ...] = (
    ("catalog_meta", "key, value", ""),
    ("modules", "group_id, artifact_id, version, license", ""),
    (
        "recipes",
        "id, display_name, description, tags, license, group_id, artifact_id, npm_package, is_composite, "
        "option_count, used_by_count, doc_path, availability, data, content_hash, search_tsv",
        "",
    ),
    ("recipe_embeddings", "recipe_id, model, text_hash, embedding", "WHERE model = %(model)s"),
    (
        "recipe_examples",
        "recipe_id, ordinal, example, file, language, file_kind, parameters, before_text, after_text, diff, "
        "removed, added, content_hash, search_tsv, model, text_hash, embedding",
        "",
    ),
)


def write_dump(store: CatalogStore, output: Path, *, model_key: str) -> dict[str, int]:
    """Write the gzip-compressed SQL dump; returns row counts per table."""
    counts: dict[str, int] = {}
    output.parent.mkdir(parents=True, exist_ok=True)
    tmp = output.with_name(output.name + ".partial")
    with gzip.open(tmp, "wt", encoding="utf-8", compresslevel=9) as out:
        out.write("-- rewrite-assist recipe catalog. Restore: psql -v ON_ERROR_STOP=1 -f <this file, unzipped>\n")
        out.write("SET client_encoding = 'UTF8';\nSET standard_conforming_strings = on;\nBEGIN;\n")
        out.write(schema.TABLES.strip() + "\n")
        with store.db.connection() as conn, conn.cursor() as cur:
            for table, columns, where in _TABLES:
                buffer = io.StringIO()
                query = cur.mogrify(
                    f"COPY (SELECT {columns} FROM {table} {where} ORDER BY 1, 2) TO STDOUT",
                    {"model": model_key},
                ).decode()
                cur.copy_expert(query, buffer)
                data = buffer.getvalue()
                counts[table] = data.count("\n")
                out.write(f"COPY {table} ({columns}) FROM stdin;\n{data}\\.\n")
        out.write(schema.hnsw_index_sql(model_key) + ";\n")
        out.write("COMMIT;\nANALYZE;\n")
    tmp.replace(output)
    return counts
