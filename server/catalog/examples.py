"""Recipe-page examples as rows of their own (``recipe_examples``), for search by the change itself.

The ``Recipe`` model stays the one source of truth (``get_recipe`` returns ``Recipe.examples`` from
``recipes.data``); these rows are derived from it at ingest, in the same transaction, with each file's
kind, removed and added lines, a full-text vector and an embedding of the changed lines. Like recipes,
each row carries a content hash and the hash of the text it embeds, so a re-run rewrites only changed
examples and re-embeds only changed text.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..diffs.features import Change, example_change
from .models import Recipe, RecipeExample
from .store import vector_literal

Key = tuple[str, int]  # (recipe id, ordinal on the page)


@dataclass(frozen=True)
class ExampleRow:
    recipe_id: str
    ordinal: int
    example: RecipeExample
    change: Change

    @property
    def key(self) -> Key:
        return (self.recipe_id, self.ordinal)

    def content_hash(self) -> str:
        payload = json.dumps(self.example.model_dump(mode="json"), sort_keys=True, ensure_ascii=False)
        return hashlib.sha256(payload.encode("utf-8")).hexdigest()

    def embedding_text(self) -> str:
        return self.change.text()

    def text_hash(self) -> str:
        return hashlib.sha256(self.embedding_text().encode("utf-8")).hexdigest()


def example_rows(recipes: Iterable[Recipe]) -> list[ExampleRow]:
    """Every example file of every recipe, with the change it shows."""
    rows = []
    for recipe in recipes:
        for ordinal, ex in enumerate(recipe.examples):
            change = example_change(file=ex.file, language=ex.language, before=ex.before, after=ex.after, diff=ex.diff)
            rows.append(ExampleRow(recipe.id, ordinal, ex, change))
    return rows


def stored_example_hashes(cur: Any, model_key: str) -> dict[Key, tuple[str, str | None]]:
    """Per stored example: its content hash and the hash of its embedded text for ``model_key``."""
    cur.execute("SELECT to_regclass('recipe_examples') IS NOT NULL")
    if not cur.fetchone()[0]:
        return {}
    cur.execute(
        "SELECT recipe_id, ordinal, content_hash, CASE WHEN model = %s THEN text_hash END FROM recipe_examples",
        (model_key,),
    )
    return {(rid, n): (ch, th) for rid, n, ch, th in cur.fetchall()}


def write_examples(
    cur: Any,
    rows: list[ExampleRow],
    *,
    model_key: str,
    embeddings: Mapping[Key, tuple[str, np.ndarray]],
) -> int:
    """Bring ``recipe_examples`` in line with ``rows`` on ``cur`` (the catalog write's transaction).

    Rows whose content hash is unchanged are left alone (their vector is replaced only when
    ``embeddings`` has one for them); rows no longer present are deleted. Returns the rows written.
    """
    from psycopg2.extras import execute_values

    stored = stored_example_hashes(cur, model_key)
    keep = {row.key for row in rows}
    gone = [key for key in stored if key not in keep]
    if gone:
        execute_values(
            cur,
            "DELETE FROM recipe_examples e USING (VALUES %s) AS g (recipe_id, ordinal) "
            "WHERE e.recipe_id = g.recipe_id AND e.ordinal = g.ordinal",
            gone,
        )
    changed = [row for row in rows if stored.get(row.key, ("", None))[0] != row.content_hash()]
    if changed:
        execute_values(
            cur,
            "INSERT INTO recipe_examples (recipe_id, ordinal, example, file, language, file_kind, parameters, "
            "before_text, after_text, diff, removed, added, content_hash, search_tsv) VALUES %s "
            "ON CONFLICT (recipe_id, ordinal) DO UPDATE SET example = EXCLUDED.example, file = EXCLUDED.file, "
            "language = EXCLUDED.language, file_kind = EXCLUDED.file_kind, parameters = EXCLUDED.parameters, "
            "before_text = EXCLUDED.before_text, after_text = EXCLUDED.after_text, diff = EXCLUDED.diff, "
            "removed = EXCLUDED.removed, added = EXCLUDED.added, content_hash = EXCLUDED.content_hash, "
            "search_tsv = EXCLUDED.search_tsv",
            [_row_values(row) for row in changed],
            template="(%s, %s, %s, %s, %s, %s, %s::jsonb, %s, %s, %s, %s, %s, %s, to_tsvector('simple', %s))",
            page_size=500,
        )
    if embeddings:
        execute_values(
            cur,
            "UPDATE recipe_examples e SET model = v.model, text_hash = v.text_hash, embedding = v.embedding "
            "FROM (VALUES %s) AS v (recipe_id, ordinal, model, text_hash, embedding) "
            "WHERE e.recipe_id = v.recipe_id AND e.ordinal = v.ordinal",
            [(rid, n, model_key, th, vector_literal(vec)) for (rid, n), (th, vec) in embeddings.items()],
            template="(%s, %s, %s, %s, %s::vector)",
            page_size=500,
        )
    return len(changed)


def _row_values(row: ExampleRow) -> tuple[Any, ...]:
    ex, change = row.example, row.change
    return (
        row.recipe_id,
        row.ordinal,
        ex.example,
        ex.file,
        ex.language,
        change.kind,
        json.dumps(ex.parameters, ensure_ascii=False),
        ex.before,
        ex.after,
        ex.diff,
        "\n".join(change.removed),
        "\n".join(change.added),
        row.content_hash(),
        " ".join(sorted(change.tokens_removed | change.tokens_added)),
    )


def as_array(vec: Any) -> np.ndarray:
    """A pgvector value as float32 (the adapter returns arrays or ``Vector`` objects by query shape)."""
    return np.asarray(vec.to_numpy() if hasattr(vec, "to_numpy") else vec, dtype=np.float32)


@dataclass(frozen=True)
class StoredExample:
    """One example as diff search reads it back."""

    recipe_id: str
    ordinal: int
    example: int
    file: str | None
    parameters: dict[str, str]
    change: Change


def load_examples(cur: Any, model_key: str) -> tuple[list[StoredExample], np.ndarray]:
    """Every example with a change, and the matrix of their embeddings (zero rows where none is stored)."""
    cur.execute(
        "SELECT recipe_id, ordinal, example, file, file_kind, parameters, removed, added, "
        "before_text IS NOT NULL AND after_text IS NULL, before_text IS NULL AND after_text IS NOT NULL, "
        "CASE WHEN model = %s THEN embedding END FROM recipe_examples "
        "WHERE removed <> '' OR added <> '' ORDER BY recipe_id, ordinal",
        (model_key,),
    )
    examples: list[StoredExample] = []
    vectors: list[np.ndarray | None] = []
    for rid, n, number, file, kind, params, removed, added, deleted, created, vec in cur.fetchall():
        change = Change(
            kind,
            removed.split("\n") if removed else [],
            added.split("\n") if added else [],
            deleted_file=bool(deleted),
            new_file=bool(created),
        )
        examples.append(StoredExample(rid, n, number, file, dict(params or {}), change))
        vectors.append(None if vec is None else as_array(vec))
    dim = next((len(v) for v in vectors if v is not None), 0)
    matrix = np.zeros((len(vectors), dim), dtype=np.float32)
    for i, v in enumerate(vectors):
        if v is not None:
            matrix[i] = v
    return examples, matrix
