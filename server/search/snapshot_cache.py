"""The ranking snapshot kept on disk per catalog revision, so a short-lived process (one CLI search) reads
it in milliseconds instead of rebuilding it from SQL.

The file lives under ``REWRITE_ASSIST_HOME/cache/`` and is named by everything that determines its content:
the catalog revision (new on every ingest), the embedding model key, and a fingerprint of the code that
builds and reads snapshots (``snapshot.py``, ``priors.py`` and this module), so a changed ranking never
reads a stale file. Any problem reading or writing it falls back to building from the database.

A pickle of the snapshot as it is loads slowly (thousands of small arrays and frozen dataclasses), so the
postings are packed into three arrays and the rows into plain tuples, rebuilt on load.
"""

from __future__ import annotations

import dataclasses
import hashlib
import logging
import os
import pickle
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from .. import config

log = logging.getLogger(__name__)

FORMAT = 1
KEEP = 4  # cache files kept per home (other catalogs or models may share it)
_fingerprint: str | None = None


def code_fingerprint() -> str:
    """A digest of the modules whose code defines what a snapshot holds."""
    global _fingerprint
    if _fingerprint is None:
        digest = hashlib.sha256(f"format {FORMAT}".encode())
        for name in ("snapshot.py", "priors.py", "intent.py"):  # everything load_snapshot computes facts with
            digest.update(Path(__file__).with_name(name).read_bytes())
        digest.update(Path(__file__).read_bytes())
        _fingerprint = digest.hexdigest()[:16]
    return _fingerprint


def cache_path(revision: str, model_key: str) -> Path:
    key = hashlib.sha256(f"{revision}\0{model_key}\0{code_fingerprint()}".encode()).hexdigest()[:24]
    return config.home_dir() / "cache" / f"ranking-{key}.pickle"


def load_or_build(revision: str, model_key: str, build: Callable[[], Any]) -> Any:
    """The snapshot from the disk cache, else ``build()``, which is then written to the cache."""
    if not revision:
        return build()
    path = cache_path(revision, model_key)
    try:
        with path.open("rb") as handle:
            snapshot = decode(pickle.load(handle))
        log.info("ranking snapshot read from %s", path)
        return snapshot
    except FileNotFoundError:
        pass
    except Exception as exc:  # corrupt or unreadable: rebuild and overwrite
        log.warning("ignoring the ranking snapshot cache %s: %s", path, exc)
    snapshot = build()
    try:
        _write(path, encode(snapshot))
    except Exception as exc:  # a read-only home only costs speed
        log.warning("could not cache the ranking snapshot at %s: %s", path, exc)
    return snapshot


def _write(path: Path, payload: dict[str, Any]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".ranking-", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as handle:
            pickle.dump(payload, handle, protocol=pickle.HIGHEST_PROTOCOL)
        os.replace(tmp, path)
    finally:
        Path(tmp).unlink(missing_ok=True)
    older = sorted(path.parent.glob("ranking-*.pickle"), key=lambda p: p.stat().st_mtime, reverse=True)[KEEP:]
    for stale in older:
        stale.unlink(missing_ok=True)


# -- encoding: any dataclass snapshot whose fields are plain values, arrays, dicts of dataclass rows or
# -- dicts of (array, array) postings -------------------------------------------------------------------


def _is_postings(value: Any) -> bool:
    if not isinstance(value, dict) or not value:
        return False
    first = next(iter(value.values()))
    return isinstance(first, tuple) and len(first) == 2 and all(isinstance(a, np.ndarray) for a in first)


def _is_rows(value: Any) -> bool:
    return isinstance(value, dict) and bool(value) and dataclasses.is_dataclass(next(iter(value.values())))


def _flatten(obj: Any) -> tuple[Any, ...]:
    return tuple(
        _flatten(v) if dataclasses.is_dataclass(v) else v
        for v in (getattr(obj, f.name) for f in dataclasses.fields(obj))
    )


def _shape(sample: Any) -> tuple[type, tuple[Any, ...]]:
    """The classes needed to rebuild ``sample`` from ``_flatten(sample)``."""
    return type(sample), tuple(
        _shape(getattr(sample, f.name)) if dataclasses.is_dataclass(getattr(sample, f.name)) else None
        for f in dataclasses.fields(sample)
    )


def _rebuild(shape: tuple[type, tuple[Any, ...]], values: tuple[Any, ...]) -> Any:
    cls, parts = shape
    return cls(*[v if part is None else _rebuild(part, v) for part, v in zip(parts, values, strict=True)])


def encode(snapshot: Any) -> dict[str, Any]:
    fields: dict[str, Any] = {}
    for f in dataclasses.fields(snapshot):
        value = getattr(snapshot, f.name)
        if _is_postings(value):
            keys = list(value)
            firsts = [value[k][0] for k in keys]
            offsets = np.cumsum([0, *(len(a) for a in firsts)])
            fields[f.name] = (
                "postings",
                "\0".join(keys),
                offsets,
                np.concatenate(firsts),
                np.concatenate([value[k][1] for k in keys]),
            )
        elif _is_rows(value):
            rows = list(value.values())
            fields[f.name] = ("rows", list(value), _shape(rows[0]), [_flatten(r) for r in rows])
        else:
            fields[f.name] = ("plain", value)
    return {"format": FORMAT, "class": type(snapshot), "fields": fields}


def decode(payload: dict[str, Any]) -> Any:
    if payload.get("format") != FORMAT:
        raise ValueError(f"cache format {payload.get('format')} is not {FORMAT}")
    values: dict[str, Any] = {}
    for name, stored in payload["fields"].items():
        kind = stored[0]
        if kind == "postings":
            _, joined, offsets, firsts, seconds = stored
            keys = joined.split("\0") if joined else []
            values[name] = {
                k: (firsts[offsets[n] : offsets[n + 1]], seconds[offsets[n] : offsets[n + 1]])
                for n, k in enumerate(keys)
            }
        elif kind == "rows":
            _, ids, shape, flat = stored
            values[name] = {rid: _rebuild(shape, v) for rid, v in zip(ids, flat, strict=True)}
        else:
            values[name] = stored[1]
    return payload["class"](**values)
