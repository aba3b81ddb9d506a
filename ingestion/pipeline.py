"""The ingestion pipeline: docs source → parsed recipes → embeddings → catalog, incrementally.

Like simonw/llm's embed-multi, every recipe carries a content hash and every vector the hash of the text
it embeds: a re-run re-embeds only what changed and deletes what disappeared, all in one transaction.
"""

from __future__ import annotations

import logging
import time
from pathlib import Path

from pydantic import BaseModel, Field

from ..server.catalog.examples import example_rows, stored_example_hashes, write_examples
from ..server.catalog.models import SkippedPage
from ..server.catalog.store import CatalogStore, now_iso
from ..server.config import MODEL_KEY
from ..server.embedding import Embedder
from ..server.errors import UserError
from .embedded_text import embedding_text, text_hash
from .moderne_list import merge_moderne, parse_moderne_list
from .parser import parse_source
from .source import DocsSource, open_source

log = logging.getLogger(__name__)


class IngestError(UserError):
    """Ingestion could not complete; the previous catalog is untouched."""


class IngestReport(BaseModel):
    source: str
    recipes: int
    composites: int
    with_options: int
    modules: int
    moderne_only: int = Field(0, description="entries from the Moderne-only list (no page; Moderne CLI/platform)")
    moderne_with_page: int = Field(0, description="ids of the Moderne-only list that have a page (the page wins)")
    parsed_changed: int
    embedded: int
    examples: int = 0
    examples_written: int = 0
    examples_embedded: int = 0
    unchanged: int
    removed: int
    skipped: list[SkippedPage] = Field(default_factory=list)
    seconds: float
    stage_seconds: dict[str, float] = Field(default_factory=dict, description="parse, embed, write times and parts")

    def summary(self) -> str:
        lines = [
            f"Catalog: {self.recipes} recipes ({self.composites} composites, {self.with_options} with options), "
            f"{self.modules} modules, from {self.source}",
            f"Moderne-only: {self.moderne_only} of them have no page (they run with the Moderne CLI/platform); "
            f"{self.moderne_with_page} ids of the Moderne list have a page and count as docs recipes",
            f"Changed: {self.parsed_changed} written, {self.embedded} embedded, {self.unchanged} unchanged, "
            f"{self.removed} removed; {len(self.skipped)} pages skipped; {self.seconds:.1f} s",
            f"Examples: {self.examples} files, {self.examples_written} written, {self.examples_embedded} embedded",
        ]
        lines += [f"  skipped {s.path}: {s.reason}" for s in self.skipped]
        return "\n".join(lines)


def ingest(
    store: CatalogStore,
    source: str | Path | DocsSource | None,
    *,
    embedder: Embedder,
    strict: bool = False,
    progress: bool = True,
) -> IngestReport:
    """Build or update the catalog in ``store`` from ``source`` (directory, .tar.gz, URL, None = default,
    or an already opened ``DocsSource``)."""
    started = time.perf_counter()
    with source if isinstance(source, DocsSource) else open_source(source) as docs:
        parsed = parse_source(docs, progress=progress)
        listed = parse_moderne_list(docs.moderne_text) if docs.moderne_text else None
        source_label = docs.describe()
    moderne = merge_moderne(parsed.recipes, listed.recipes if listed is not None else [])
    if listed is not None:
        parsed.skipped.extend(listed.skipped)
    else:
        log.info("%s has no Moderne recipe list: the catalog will not know Moderne-only recipes", source_label)
    stages = {"parse": time.perf_counter() - started}
    if strict and parsed.skipped:
        first = parsed.skipped[0]
        raise IngestError(
            f"{len(parsed.skipped)} page(s) could not be parsed (first: {first.path}: {first.reason}); "
            "nothing was written. Re-run without --strict to skip them."
        )
    if not parsed.recipes:
        raise IngestError(f"No recipe pages could be parsed from {source_label}; nothing was written.")
    recipes = parsed.recipes + moderne.added

    stored = store.stored_hashes(MODEL_KEY)
    names = {r.id: r.display_name for r in recipes}
    changed: set[str] = set()
    to_embed: dict[str, tuple[str, str]] = {}
    for recipe in recipes:
        previous = stored.get(recipe.id)
        if previous is None or previous.content_hash != recipe.content_hash():
            changed.add(recipe.id)
        text = embedding_text(recipe, names)
        th = text_hash(text)
        if previous is None or previous.text_hash != th:
            to_embed[recipe.id] = (th, text)

    rows = example_rows(recipes)
    if store.meta():
        with store.db.cursor() as cur:
            stored_examples = stored_example_hashes(cur, MODEL_KEY)
    else:
        stored_examples = {}
    examples_to_embed = {
        row.key: (row.text_hash(), row.embedding_text())
        for row in rows
        if not row.change.is_empty and stored_examples.get(row.key, ("", None))[1] != row.text_hash()
    }
    examples_changed = set(stored_examples) != {row.key for row in rows} or any(
        stored_examples[row.key][0] != row.content_hash() for row in rows if row.key in stored_examples
    )

    vectors = {}
    example_vectors = {}
    mark = time.perf_counter()
    if to_embed:
        ids = list(to_embed)
        log.info("embedding %d recipe(s)", len(ids))
        matrix = embedder.encode([to_embed[i][1] for i in ids], show_progress=progress)
        vectors = {rid: (to_embed[rid][0], matrix[n]) for n, rid in enumerate(ids)}
    stages["embed_recipes"] = time.perf_counter() - mark
    if examples_to_embed:
        keys = list(examples_to_embed)
        log.info("embedding %d example(s)", len(keys))
        matrix = embedder.encode([examples_to_embed[k][1] for k in keys], show_progress=progress)
        example_vectors = {k: (examples_to_embed[k][0], matrix[n]) for n, k in enumerate(keys)}
    stages["embed"] = time.perf_counter() - mark
    stages["embed_examples"] = stages["embed"] - stages["embed_recipes"]
    mark = time.perf_counter()

    unchanged = len([r for r in recipes if r.id not in changed and r.id not in to_embed])
    composites = sum(1 for r in recipes if r.is_composite)
    with_options = sum(1 for r in recipes if r.options)
    meta = {
        "source": source_label,
        "ingested_at": now_iso(),
        "embedding_model": embedder.model_name,
        "embedding_key": MODEL_KEY,
        "recipe_count": str(len(recipes)),
    }
    written: list[int] = []
    write_stages: dict[str, float] = {}
    if (
        changed
        or vectors
        or examples_changed
        or example_vectors
        or set(stored) != {r.id for r in recipes}
        or not store.meta().get("ingested_at")
    ):
        removed = store.write_catalog(
            recipes=recipes,
            changed_ids=changed,
            modules=parsed.modules,
            embeddings=vectors,
            model_key=MODEL_KEY,
            meta=meta,
            also=lambda cur: written.append(write_examples(cur, rows, model_key=MODEL_KEY, embeddings=example_vectors)),
            timings=write_stages,
        )
    else:
        removed = 0
    stages["write"] = time.perf_counter() - mark
    stages.update({f"write_{step}": seconds for step, seconds in write_stages.items()})
    return IngestReport(
        source=source_label,
        recipes=len(recipes),
        composites=composites,
        with_options=with_options,
        modules=len(parsed.modules),
        moderne_only=len(moderne.added),
        moderne_with_page=len(moderne.with_page),
        parsed_changed=len(changed),
        embedded=len(vectors),
        examples=len(rows),
        examples_written=sum(written),
        examples_embedded=len(example_vectors),
        unchanged=unchanged,
        removed=removed,
        skipped=parsed.skipped,
        seconds=round(time.perf_counter() - started, 2),
        stage_seconds={k: round(v, 2) for k, v in stages.items()},
    )
