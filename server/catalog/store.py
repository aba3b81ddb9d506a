"""Reading and writing the recipe catalog (plain SQL over the schema in ``schema.py``)."""

from __future__ import annotations

import difflib
import json
import logging
import re
import threading
import time
import uuid
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, TypeVar, cast

import numpy as np

from ..errors import CatalogUnavailable
from . import schema
from .db import Database
from .models import CatalogInfo, Module, Recipe

log = logging.getLogger(__name__)
_T = TypeVar("_T")


class CatalogNotReady(CatalogUnavailable):
    """The database is reachable but holds no usable catalog (empty, or an older schema)."""


@dataclass(frozen=True)
class StoredHashes:
    content_hash: str
    text_hash: str | None


def identifier_words(recipe_id: str) -> str:
    """Split an id into words for full-text search: ``org.openrewrite.java.ChangeMethodName`` →
    ``org openrewrite java Change Method Name ChangeMethodName``."""
    parts = re.split(r"[.\-_$]", recipe_id)
    words: list[str] = []
    for part in parts:
        if not part:
            continue
        split = re.findall(r"[A-Z]+(?=[A-Z][a-z]|\d|\b)|[A-Z]?[a-z]+|[A-Z]+|\d+", part)
        words.extend(split)
        if len(split) > 1:
            words.append(part)
    return " ".join(words)


class CatalogStore:
    """The catalog in one PostgreSQL database. Implements ``RecipeLookup``."""

    def __init__(self, db: Database) -> None:
        self.db = db
        self._ids_cache: list[str] | None = None
        self._moderne_ids: frozenset[str] = frozenset()
        self._memo: dict[str, tuple[str, Any]] = {}
        self._memo_lock = threading.Lock()

    def memo(self, key: str, revision: str, build: Callable[[], _T]) -> _T:
        """``build()``'s result, computed once per catalog ``revision`` (see ``catalog_revision``).

        For read-only data derived from the whole catalog (the search's ranking snapshot): a new revision,
        written by any ingest, replaces it; concurrent first callers build it once.
        """
        cached = self._memo.get(key)
        if cached is not None and cached[0] == revision:
            return cast(_T, cached[1])
        with self._memo_lock:
            cached = self._memo.get(key)
            if cached is None or cached[0] != revision:
                cached = (revision, build())
                self._memo[key] = cached
            return cast(_T, cached[1])

    # -- schema -------------------------------------------------------------------------------------
    def meta(self, *, cur: Any = None) -> dict[str, str]:
        """Catalog metadata; an empty dict when the database has no catalog tables yet.

        One round trip when the cursor's connection has no transaction open (every search starts with this
        read): the metadata is read directly, and a missing table rolls back a transaction that held only
        that statement. Inside an open transaction, whose earlier work a rollback would lose, the table is
        looked up first."""
        import psycopg2
        from psycopg2.extensions import TRANSACTION_STATUS_IDLE

        with self.db.cursor(cur) as c:
            if c.connection.info.transaction_status == TRANSACTION_STATUS_IDLE:
                try:
                    c.execute("SELECT key, value FROM catalog_meta")
                except psycopg2.errors.UndefinedTable:
                    c.connection.rollback()
                    return {}
                return dict(c.fetchall())
            c.execute("SELECT to_regclass('catalog_meta') IS NOT NULL")
            if not c.fetchone()[0]:
                return {}
            c.execute("SELECT key, value FROM catalog_meta")
            return dict(c.fetchall())

    def check_ready(self, *, cur: Any = None) -> dict[str, str]:
        """Raise ``CatalogNotReady`` with the fix when the catalog cannot serve queries (on ``cur`` when
        the caller holds one)."""
        meta = self.meta(cur=cur)
        if not meta or "ingested_at" not in meta:
            raise CatalogNotReady(
                "The recipe catalog is empty. Build it with `rewrite-assist ingest` (half a minute to several minutes, "
                "depending on the CPU), then retry."
            )
        version = int(meta.get("schema_version", "0"))
        if version != schema.SCHEMA_VERSION:
            raise CatalogNotReady(
                f"The catalog was built with schema version {version}, this rewrite-assist expects "
                f"{schema.SCHEMA_VERSION}. Rebuild it with `rewrite-assist ingest`, then retry."
            )
        return meta

    def info(self) -> CatalogInfo:
        meta = self.meta()
        counts = {"recipes": 0, "composites": 0, "with_options": 0, "modules": 0, "moderne_only": 0}
        if meta:
            with self.db.connection() as conn, conn.cursor() as cur:
                cur.execute(
                    "SELECT count(*), count(*) FILTER (WHERE is_composite), "
                    "count(*) FILTER (WHERE option_count > 0), "
                    "count(*) FILTER (WHERE data->>'availability' = 'moderne-only') FROM recipes"
                )
                counts["recipes"], counts["composites"], counts["with_options"], counts["moderne_only"] = cur.fetchone()
                cur.execute("SELECT count(*) FROM modules")
                counts["modules"] = cur.fetchone()[0]
        return CatalogInfo(
            **counts,
            embedding_model=meta.get("embedding_model"),
            source=meta.get("source"),
            ingested_at=meta.get("ingested_at"),
            database=self.db.kind,
            schema_version=int(meta["schema_version"]) if "schema_version" in meta else None,
        )

    # -- reads --------------------------------------------------------------------------------------
    def get_recipe(self, recipe_id: str) -> Recipe | None:
        rows = self.get_recipes([recipe_id])
        return rows.get(recipe_id)

    def get_recipes(self, recipe_ids: Iterable[str], *, cur: Any = None) -> dict[str, Recipe]:
        """The recipes with these ids (unknown ids are left out); on ``cur`` when the caller holds one."""
        ids = list(dict.fromkeys(recipe_ids))
        if not ids:
            return {}
        with self.db.cursor(cur) as c:
            c.execute("SELECT id, data FROM recipes WHERE id = ANY(%s)", (ids,))
            return {rid: Recipe.model_validate(data) for rid, data in c.fetchall()}

    def all_ids(self) -> list[str]:
        if self._ids_cache is None:
            with self.db.connection() as conn, conn.cursor() as cur:
                cur.execute("SELECT id, data->>'availability' = 'moderne-only' FROM recipes ORDER BY id")
                rows = cur.fetchall()
            self._moderne_ids = frozenset(rid for rid, moderne in rows if moderne)
            self._ids_cache = [r[0] for r in rows]
        return self._ids_cache

    def _prefer_docs(self, matches: list[str]) -> list[str]:
        """Of several ids sharing a class name, the ones with a page, if any (a Moderne-only namesake
        must not make a class name that used to resolve ambiguous)."""
        with_page = [rid for rid in matches if rid not in self._moderne_ids]
        return with_page if len(matches) > 1 and with_page else matches

    def resolve_id(self, query: str) -> str | None:
        """Exact id, then case-insensitive id, then a unique class-name (last segment) match."""
        query = query.strip()
        with self.db.connection() as conn, conn.cursor() as cur:
            cur.execute("SELECT id FROM recipes WHERE id = %s", (query,))
            row = cur.fetchone()
            if row:
                return str(row[0])
            cur.execute("SELECT id FROM recipes WHERE lower(id) = lower(%s)", (query,))
            rows = cur.fetchall()
            if len(rows) == 1:
                return str(rows[0][0])
        suffix = query.rsplit(".", 1)[-1].lower()
        matches = self._prefer_docs([rid for rid in self.all_ids() if rid.rsplit(".", 1)[-1].lower() == suffix])
        if len(matches) == 1:
            return matches[0]
        if "." in query:  # a dotted tail such as "github.SetupJavaAdoptOpenJDKToTemurin"
            tail = "." + query.lower()
            matches = self._prefer_docs([rid for rid in self.all_ids() if rid.lower().endswith(tail)])
            if len(matches) == 1:
                return matches[0]
        return None

    def closest_ids(self, name: str, limit: int = 5) -> list[str]:
        """Ids most similar to ``name``, comparing whole ids and class names."""
        ids = self.all_ids()
        if not ids or not name.strip():
            return []
        name_l = name.strip().lower()
        by_class: dict[str, list[str]] = {}
        for rid in ids:
            by_class.setdefault(rid.rsplit(".", 1)[-1].lower(), []).append(rid)
        scored: dict[str, float] = {}
        pool = limit * 4  # Moderne-only look-alikes are dropped below; leave room for recipes with a page
        for rid in difflib.get_close_matches(name_l, [i.lower() for i in ids], n=pool, cutoff=0.5):
            for orig in ids:
                if orig.lower() == rid:
                    scored[orig] = max(scored.get(orig, 0), difflib.SequenceMatcher(None, name_l, rid).ratio())
        cls = name_l.rsplit(".", 1)[-1]
        for match in difflib.get_close_matches(cls, list(by_class), n=pool, cutoff=0.6):
            ratio = difflib.SequenceMatcher(None, cls, match).ratio()
            for orig in by_class[match]:
                scored[orig] = max(scored.get(orig, 0), ratio)
        # A Moderne-only id is offered only when it is nearly the name asked for (a recipe that moved to
        # io.moderne keeps its class name): otherwise 3,611 of them would crowd out usable suggestions.
        ranked = sorted(
            ((rid, score) for rid, score in scored.items() if rid not in self._moderne_ids or score >= 0.9),
            key=lambda kv: (-kv[1], kv[0] in self._moderne_ids, kv[0]),
        )
        return [rid for rid, _ in ranked[:limit]]

    def stored_hashes(self, model_key: str) -> dict[str, StoredHashes]:
        """Per recipe: its content hash and the hash of the text embedded for ``model_key``."""
        if not self.meta():
            return {}
        with self.db.connection() as conn, conn.cursor() as cur:
            cur.execute(
                "SELECT r.id, r.content_hash, e.text_hash FROM recipes r "
                "LEFT JOIN recipe_embeddings e ON e.recipe_id = r.id AND e.model = %s",
                (model_key,),
            )
            return {rid: StoredHashes(ch, th) for rid, ch, th in cur.fetchall()}

    # -- writes -------------------------------------------------------------------------------------
    def write_catalog(
        self,
        *,
        recipes: list[Recipe],
        changed_ids: set[str],
        modules: list[Module],
        embeddings: Mapping[str, tuple[str, np.ndarray]],
        model_key: str,
        meta: Mapping[str, str],
        also: Callable[[Any], object] | None = None,
        timings: dict[str, float] | None = None,
    ) -> int:
        """Replace the catalog in ONE transaction: a failure leaves the previous catalog intact.

        ``changed_ids`` are rewritten; recipes absent from ``recipes`` are deleted; ``embeddings`` maps
        recipe id → (text hash, vector) for the ones to (re-)embed; ``also(cursor)`` writes derived tables
        (the examples) inside the same transaction. Returns the number of removed recipes. ``timings``, when
        given, receives the seconds of each step (recipes, embeddings, also, index, meta, commit).
        """
        from psycopg2.extras import execute_values

        steps = timings if timings is not None else {}
        mark = time.perf_counter()

        def step(name: str) -> None:
            nonlocal mark
            now = time.perf_counter()
            steps[name] = round(now - mark, 2)
            mark = now

        keep = [r.id for r in recipes]
        with self.db.connection() as conn, conn.cursor() as cur:
            cur.execute(schema.TABLES)
            cur.execute("DELETE FROM recipes WHERE NOT (id = ANY(%s))", (keep,))
            removed = cur.rowcount
            rows = [self._recipe_row(r) for r in recipes if r.id in changed_ids]
            if rows:
                execute_values(
                    cur,
                    "INSERT INTO recipes (id, display_name, description, tags, license, group_id, artifact_id, "
                    "npm_package, is_composite, option_count, used_by_count, doc_path, availability, data, "
                    "content_hash, search_tsv) VALUES %s "
                    "ON CONFLICT (id) DO UPDATE SET display_name = EXCLUDED.display_name, "
                    "description = EXCLUDED.description, tags = EXCLUDED.tags, license = EXCLUDED.license, "
                    "group_id = EXCLUDED.group_id, artifact_id = EXCLUDED.artifact_id, "
                    "npm_package = EXCLUDED.npm_package, is_composite = EXCLUDED.is_composite, "
                    "option_count = EXCLUDED.option_count, used_by_count = EXCLUDED.used_by_count, "
                    "doc_path = EXCLUDED.doc_path, availability = EXCLUDED.availability, data = EXCLUDED.data, "
                    "content_hash = EXCLUDED.content_hash, "
                    "search_tsv = EXCLUDED.search_tsv",
                    rows,
                    template="(%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s::jsonb, %s, "
                    "setweight(to_tsvector('english', %s), 'A') || setweight(to_tsvector('english', %s), 'B') "
                    "|| setweight(to_tsvector('english', %s), 'C'))",
                    page_size=500,
                )
            step("recipes")
            _upsert_embeddings(cur, model_key, embeddings)
            step("embeddings")
            if also is not None:
                also(cur)
            step("also")
            # After the bulk insert: building the HNSW graph once is much cheaper than growing it row by row.
            cur.execute(schema.hnsw_index_sql(model_key))
            step("index")
            cur.execute("DELETE FROM modules")
            if modules:
                execute_values(
                    cur,
                    "INSERT INTO modules (group_id, artifact_id, version, license) VALUES %s ON CONFLICT DO NOTHING",
                    [(m.group_id, m.artifact_id, m.version, m.license) for m in modules],
                )
            full_meta = {"schema_version": str(schema.SCHEMA_VERSION), "catalog_revision": uuid.uuid4().hex, **meta}
            execute_values(
                cur,
                "INSERT INTO catalog_meta (key, value) VALUES %s "
                "ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value",
                list(full_meta.items()),
            )
            step("meta")
        step("commit")
        self._ids_cache = None
        return removed

    def write_embeddings(self, model_key: str, embeddings: Mapping[str, tuple[str, np.ndarray]]) -> None:
        """Store vectors for an extra model key (e.g. the reference baseline's embedded text)."""
        with self.db.connection() as conn, conn.cursor() as cur:
            _upsert_embeddings(cur, model_key, embeddings)
            cur.execute(schema.hnsw_index_sql(model_key))

    @staticmethod
    def _recipe_row(r: Recipe) -> tuple[Any, ...]:
        return (
            r.id,
            r.display_name,
            r.description,
            r.tags,
            r.license,
            r.group_id,
            r.artifact_id,
            r.npm_package,
            r.is_composite,
            len(r.options),
            len(r.used_by),
            r.doc_path,
            r.availability,
            json.dumps(r.model_dump(mode="json"), ensure_ascii=False),
            r.content_hash(),
            f"{identifier_words(r.id)} {r.display_name}",
            " ".join(r.tags),
            r.description,
        )


def vector_literal(vector: np.ndarray) -> str:
    """pgvector's text form with 9 significant digits, which give back every float32 exactly: the pgvector
    adapter's full ``repr`` of each float takes twice as long to format (thousands of vectors per ingest;
    every query vector of a search) and half again as much text to send and parse."""
    return "[" + ",".join(map("{:.9g}".format, np.asarray(vector, dtype=np.float32).tolist())) + "]"


def _upsert_embeddings(cur: Any, model_key: str, embeddings: Mapping[str, tuple[str, np.ndarray]]) -> None:
    """Insert or replace (recipe, model) vectors with the hash of the text they embed."""
    if not embeddings:
        return
    from psycopg2.extras import execute_values

    execute_values(
        cur,
        "INSERT INTO recipe_embeddings (recipe_id, model, text_hash, embedding) VALUES %s "
        "ON CONFLICT (recipe_id, model) DO UPDATE SET text_hash = EXCLUDED.text_hash, embedding = EXCLUDED.embedding",
        [(rid, model_key, th, vector_literal(vec)) for rid, (th, vec) in embeddings.items()],
        template="(%s, %s, %s, %s::vector)",
        page_size=500,
    )


def catalog_revision(meta: Mapping[str, str]) -> str:
    """What changes whenever the catalog's content does: a fresh ``catalog_revision`` per write (catalogs
    written before it existed fall back to their ingest time)."""
    return meta.get("catalog_revision") or meta.get("ingested_at", "")


def now_iso() -> str:
    return datetime.now(UTC).replace(microsecond=0).isoformat()
