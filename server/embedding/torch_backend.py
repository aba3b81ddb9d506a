"""The reference backend: sentence-transformers on torch, CPU.

Its vectors are the definition of correct (every catalog so far was built with it), the ONNX export is made
from it and checked against it, and it runs the model wherever ONNX Runtime cannot: a hub name instead of a
local directory, no onnxruntime, or an export that does not reproduce these vectors.
"""

from __future__ import annotations

import os
import threading
from typing import Any

import numpy as np

from .common import INSTALL_HINT, EmbeddingModelError, quiet_tokenizers


class TorchBackend:
    name = "torch"

    def __init__(self, model_path: str) -> None:
        quiet_tokenizers()
        if os.path.isdir(model_path):
            os.environ.setdefault("HF_HUB_OFFLINE", "1")
        try:
            from sentence_transformers import SentenceTransformer

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
