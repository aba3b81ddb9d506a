"""The reference backend: sentence-transformers on torch, CPU.

Its vectors are the definition of correct (every catalog so far was built with it), the ONNX export is made
from it and checked against it, and it runs the model wherever ONNX Runtime cannot: a hub name instead of a
local directory, no onnxruntime, or an export that does not reproduce these vectors.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import numpy as np

from .common import INSTALL_HINT, EmbeddingModelError, quiet_tokenizers


@contextmanager
def no_loading_bar() -> Iterator[None]:
    """transformers (5.x) draws a "Loading weights" bar on stderr at every model load. A CLI answering one
    search, or a server whose stderr is its log, would show it as noise (and a command whose output is piped
    to a closed reader fails on it), so the load runs with transformers' bars off, restored afterwards."""
    try:
        from transformers.utils import logging as hf_logging
    except ImportError:  # an older transformers draws no such bar
        yield
        return
    was_on = hf_logging.is_progress_bar_enabled()
    hf_logging.disable_progress_bar()
    try:
        yield
    finally:
        if was_on:
            hf_logging.enable_progress_bar()


class TorchBackend:
    name = "torch"

    def __init__(self, model_path: str) -> None:
        quiet_tokenizers()
        if os.path.isdir(model_path):
            os.environ.setdefault("HF_HUB_OFFLINE", "1")
        try:
            from sentence_transformers import SentenceTransformer

            with no_loading_bar():
                self.model: Any = SentenceTransformer(model_path, device="cpu")
            # The fast tokenizer changes its truncation/padding state inside each encode call, and two
            # threads doing that at once fail with "Already borrowed": one encode at a time (torch uses
            # every core for one batch anyway). The ONNX backend sets its tokenizer once and needs no lock.
            self._encode_lock = threading.Lock()
        except Exception as exc:
            raise EmbeddingModelError(
                f"Could not load the embedding model from {model_path!r}: {exc}. {INSTALL_HINT}"
            ) from exc

    @property
    def max_seq_length(self) -> int:
        return int(self.model.max_seq_length)

    def encode(self, texts: list[str], *, batch_size: int, show_progress: bool) -> np.ndarray:
        # sentence-transformers sorts by length and batches itself.
        with self._encode_lock:
            vectors = self.model.encode(
                texts,
                batch_size=batch_size,
                normalize_embeddings=True,
                convert_to_numpy=True,
                show_progress_bar=show_progress,
            )
        return np.asarray(vectors, dtype=np.float32)
