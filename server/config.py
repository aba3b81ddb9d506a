"""Settings read from the environment, in one place.

``REWRITE_ASSIST_DATABASE_URL`` selects an external PostgreSQL; otherwise the embedded server keeps its
data under ``REWRITE_ASSIST_HOME`` (default: the user data dir). ``REWRITE_ASSIST_MODEL`` overrides the
embedding model (a local path or a hub name) and ``REWRITE_ASSIST_EMBEDDING_BACKEND`` how it runs (``auto``:
ONNX Runtime when possible, else torch; ``onnx``; ``torch``). ``REWRITE_ASSIST_FUSION`` picks how
``find_recipes`` fuses query variations and legs (``score``, the measured default, or ``rrf``).
"""

from __future__ import annotations

import os
from pathlib import Path

import platformdirs

EMBEDDING_MODEL_NAME = "sentence-transformers/all-MiniLM-L6-v2"
EMBEDDING_DIM = 384
# The key the catalog's vectors are stored and searched under (``recipe_embeddings.model``): ingestion writes
# it, every search reads it. A model that embeds differently needs a key of its own.
MODEL_KEY = "all-MiniLM-L6-v2"
EMBEDDING_BACKENDS = ("auto", "onnx", "torch")
FUSIONS = ("score", "rrf")


def home_dir() -> Path:
    """Where the embedded database and run artefacts live."""
    env = os.environ.get("REWRITE_ASSIST_HOME")
    return Path(env).expanduser() if env else Path(platformdirs.user_data_dir("rewrite-assist"))


def database_url() -> str | None:
    """The external database URL, or None for the embedded server."""
    return os.environ.get("REWRITE_ASSIST_DATABASE_URL") or None


def model_setting() -> str | None:
    """An explicit embedding-model path or name, if the user set one."""
    return os.environ.get("REWRITE_ASSIST_MODEL") or None


def embedding_backend() -> str:
    """How to run the embedding model: ``auto`` (default), ``onnx`` or ``torch``; ValueError on anything else."""
    value = (os.environ.get("REWRITE_ASSIST_EMBEDDING_BACKEND") or "auto").strip().lower()
    if value not in EMBEDDING_BACKENDS:
        raise ValueError(
            f"REWRITE_ASSIST_EMBEDDING_BACKEND must be one of {', '.join(EMBEDDING_BACKENDS)}, "
            f"not {os.environ.get('REWRITE_ASSIST_EMBEDDING_BACKEND')!r}."
        )
    return value


def models_dir() -> Path:
    """Where exported (ONNX) copies of the embedding model are cached."""
    return home_dir() / "models"


def api_token() -> str | None:
    """Bearer token required by the HTTP transport, if set."""
    return os.environ.get("REWRITE_ASSIST_TOKEN") or None


def fusion() -> str:
    """How find_recipes fuses variations and legs: ``score`` (default) or ``rrf``; ValueError otherwise."""
    value = (os.environ.get("REWRITE_ASSIST_FUSION") or "score").strip().lower()
    if value not in FUSIONS:
        given = os.environ.get("REWRITE_ASSIST_FUSION")
        raise ValueError(f"REWRITE_ASSIST_FUSION must be one of {', '.join(FUSIONS)}, not {given!r}.")
    return value


DEFAULT_DB_POOL_SIZE = 8
DEFAULT_DB_POOL_TIMEOUT_S = 30.0


def _positive(name: str, default: float, kind: type) -> float:
    raw = (os.environ.get(name) or "").strip()
    if not raw:
        return default
    try:
        value = kind(raw)
    except ValueError:
        value = 0
    if value <= 0:
        raise ValueError(f"{name} must be a positive {kind.__name__}, not {raw!r}.")
    return float(value)


def db_pool_size() -> int:
    """Most database connections one process opens (``REWRITE_ASSIST_DB_POOL_SIZE``, default 8).

    Calls beyond it wait for a free connection; the MCP server runs tool calls on 4 worker threads per
    connection, so a burst queues in the pool rather than in the event loop."""
    return int(_positive("REWRITE_ASSIST_DB_POOL_SIZE", DEFAULT_DB_POOL_SIZE, int))


def db_pool_timeout() -> float:
    """Seconds a call waits for a free connection before failing as busy (``REWRITE_ASSIST_DB_POOL_TIMEOUT``)."""
    return _positive("REWRITE_ASSIST_DB_POOL_TIMEOUT", DEFAULT_DB_POOL_TIMEOUT_S, float)
