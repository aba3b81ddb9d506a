"""The fast backend: the same all-MiniLM-L6-v2 vectors from ONNX Runtime, and a start without torch.

Why: on a small CPU, ONNX Runtime embeds queries and the catalog in a fraction of torch's time, and a
process whose model is already exported starts in a fraction of a second with a third of the memory,
because neither torch nor sentence-transformers is imported (README, Benchmarks, has the figures).

What: the Hugging Face BertModel plus mean pooling over the attention mask plus L2 normalization, exported
once by :mod:`.exporter` in a child process and verified there against sentence-transformers (cosine ≥
:data:`MIN_COSINE`). It is cached under ``REWRITE_ASSIST_HOME/models``, named by a hash of the model
directory's weight, config and tokenizer files and of :data:`EXPORT_FORMAT`, so other weights never reuse
a stale export. An unreadable cached file is removed and exported again.

Tokenization drives the model's ``tokenizer.json`` with the ``tokenizers`` library directly. That file
truncates at 128 and pads to 128, but sentence-transformers truncates at the model's ``max_seq_length``
(256, from ``sentence_bert_config.json``) and pads to the longest text of a batch, so both settings are
replaced; the length sentence-transformers used is recorded in the export's metadata.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import logging
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

from .. import config
from .common import quiet_tokenizers

log = logging.getLogger(__name__)

# Bump when the exported graph or its metadata change meaning, so old cache files are not reused.
EXPORT_FORMAT = 1
OPSET = 17
MIN_COSINE = 0.9999
INPUT_NAMES = ("input_ids", "attention_mask", "token_type_ids")
OUTPUT_NAME = "sentence_embedding"
EXPORT_TIMEOUT_S = 900

# Files that decide the vectors: weights, model/tokenizer/pooling configs, vocabularies.
_FINGERPRINT_SUFFIXES = (".json", ".safetensors", ".bin", ".txt", ".model")
# Other formats some model repositories ship beside the weights; large and irrelevant here.
_FINGERPRINT_SKIP_DIRS = {"onnx", "openvino", "coreml", "tflite"}

_TEMP_PREFIX = ".export-"
_META_FORMAT = "rewrite_assist.export_format"
_META_FINGERPRINT = "rewrite_assist.model_fingerprint"
_META_MAX_LENGTH = "rewrite_assist.max_seq_length"
_META_LOWER = "rewrite_assist.do_lower_case"


class OnnxNotApplicable(Exception):
    """ONNX Runtime cannot run this model here; the message says why. ``expected`` marks a deliberate setup
    (a hub name instead of a local directory) that needs no warning; ``permanent`` a verdict on the model
    itself (the exporter refused it), which will not change by trying again."""

    def __init__(self, reason: str, *, expected: bool = False, permanent: bool = False) -> None:
        super().__init__(reason)
        self.expected = expected
        self.permanent = permanent


def refusal_file(cache: Path) -> Path:
    """Where a refused export of the model ``cache`` would hold is remembered, with the reason."""
    return cache.with_suffix(".refused")


def remembered_refusal(cache: Path) -> OnnxNotApplicable | None:
    """The earlier refusal of this model's export, so ``auto`` does not spend seconds re-exporting it at
    every start; deleting the file (or changing the model files, hence the name) retries."""
    marker = refusal_file(cache)
    try:
        reason = marker.read_text(encoding="utf-8").strip()
    except OSError:
        return None
    return OnnxNotApplicable(f"an earlier export was refused ({reason}); delete {marker} to try again")


def remember_refusal(cache: Path, reason: OnnxNotApplicable) -> None:
    with contextlib.suppress(OSError):
        refusal_file(cache).parent.mkdir(parents=True, exist_ok=True)
        refusal_file(cache).write_text(str(reason) + "\n", encoding="utf-8")


def cpu_count() -> int:
    """The CPUs this process may run on (the affinity mask, which containers narrow; else all)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return max(1, os.cpu_count() or 1)


def applicable_model_dir(model_path: str) -> Path:
    """The model directory, if ONNX Runtime can serve it; otherwise :class:`OnnxNotApplicable`."""
    path = Path(model_path).expanduser()
    if not path.is_dir():
        raise OnnxNotApplicable(
            f"ONNX Runtime needs a local model directory and {model_path!r} is not one", expected=True
        )
    if not (path / "tokenizer.json").is_file():
        raise OnnxNotApplicable(f"{path} has no tokenizer.json (the fast tokenizer the ONNX path reads)")
    try:
        import onnxruntime  # noqa: F401
    except ImportError as exc:
        raise OnnxNotApplicable(f"onnxruntime cannot be imported ({exc}); `pip install onnxruntime`") from exc
    return path.resolve()


def fingerprint(model_dir: Path) -> str:
    """SHA-256 over the relative paths and contents of the files that decide the vectors.

    Hashing the weights (90 MB) costs a short-lived CLI process a good part of its start, so the digest is
    remembered in ``REWRITE_ASSIST_HOME/cache/`` per model folder, with each file's size and modification time: any
    change to the files (a reinstall, an edit) makes it hash them again."""
    files = []
    for root, dirs, names in os.walk(model_dir):
        dirs[:] = sorted(d for d in dirs if not d.startswith(".") and d not in _FINGERPRINT_SKIP_DIRS)
        for name in names:
            if name.endswith(_FINGERPRINT_SUFFIXES) and not name.startswith(".") and not name.startswith("README"):
                files.append(Path(root) / name)
    files.sort(key=lambda f: f.relative_to(model_dir).as_posix())
    stats = [(f.relative_to(model_dir).as_posix(), f.stat()) for f in files]
    signature: list[list[Any]] = [[path, st.st_size, st.st_mtime_ns] for path, st in stats]  # JSON-comparable
    remembered = _remembered_fingerprints()
    entry = remembered.get(str(model_dir))
    if isinstance(entry, dict) and entry.get("files") == signature and isinstance(entry.get("digest"), str):
        return str(entry["digest"])
    hashed_at = time.time_ns()
    digest = hashlib.sha256(f"rewrite-assist onnx export format {EXPORT_FORMAT}\n".encode())
    for file in files:
        with open(file, "rb") as handle:
            content = hashlib.file_digest(handle, "sha256").hexdigest()
        digest.update(f"{file.relative_to(model_dir).as_posix()}\0{content}\n".encode())
    # As git does for its index: a file modified just before hashing could change again within the
    # timestamp's granularity without its size or time changing, so such a digest is not remembered.
    if all(st.st_mtime_ns < hashed_at - _STABLE_NS for _path, st in stats):
        remembered[str(model_dir)] = {"files": signature, "digest": digest.hexdigest()}
        _remember_fingerprints(remembered)
    return digest.hexdigest()


_STABLE_NS = 2_000_000_000


def _fingerprints_file() -> Path:
    return config.home_dir() / "cache" / "model-fingerprints.json"


def _remembered_fingerprints() -> dict[str, Any]:
    try:
        data = json.loads(_fingerprints_file().read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def _remember_fingerprints(data: dict[str, Any]) -> None:
    """Best effort (a read-only home only costs the hashing next time); atomic, so readers never see half."""
    path = _fingerprints_file()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
        tmp.write_text(json.dumps(data, indent=1), encoding="utf-8")
        os.replace(tmp, path)
    except OSError as exc:
        log.debug("could not remember the model fingerprint in %s: %s", path, exc)


def cache_file(digest: str) -> Path:
    return config.models_dir() / f"embedding-f{EXPORT_FORMAT}-{digest[:24]}.onnx"


class TextTokenizer:
    """The model's ``tokenizer.json`` with sentence-transformers' settings: truncation at ``max_length``,
    special tokens, no fixed padding (batches are padded to their longest text in :meth:`pad`)."""

    def __init__(self, tokenizer_file: Path, max_length: int, lowercase: bool = False) -> None:
        from tokenizers import Tokenizer

        quiet_tokenizers()
        self._tokenizer = Tokenizer.from_file(str(tokenizer_file))
        padding = self._tokenizer.padding or {}
        pad_id = padding.get("pad_id")
        if pad_id is None:
            pad_id = self._tokenizer.token_to_id("[PAD]")
        self.pad_id = int(pad_id or 0)
        self._tokenizer.no_padding()
        self._tokenizer.enable_truncation(max_length)
        self.max_length = max_length
        self.lowercase = lowercase

    def encode(self, texts: list[str]) -> list[Any]:
        """One ``tokenizers.Encoding`` per text, unpadded."""
        if self.lowercase:
            texts = [t.lower() for t in texts]
        return list(self._tokenizer.encode_batch(texts, add_special_tokens=True))

    def pad(self, encodings: list[Any]) -> dict[str, np.ndarray]:
        """int64 ``input_ids``, ``attention_mask``, ``token_type_ids`` padded to the longest encoding."""
        width = max((len(e.ids) for e in encodings), default=0)
        ids = np.full((len(encodings), width), self.pad_id, dtype=np.int64)
        mask = np.zeros((len(encodings), width), dtype=np.int64)
        types = np.zeros((len(encodings), width), dtype=np.int64)
        for row, encoding in enumerate(encodings):
            n = len(encoding.ids)
            ids[row, :n] = encoding.ids
            mask[row, :n] = encoding.attention_mask
            types[row, :n] = encoding.type_ids
        return {"input_ids": ids, "attention_mask": mask, "token_type_ids": types}

    def __call__(self, texts: list[str]) -> dict[str, np.ndarray]:
        return self.pad(self.encode(texts))


class OnnxBackend:
    """An ONNX Runtime session over an export plus its tokenizer; ``encode`` is safe from several threads
    (``InferenceSession.run`` is, and the tokenizer is configured once, here)."""

    name = "onnx"

    def __init__(self, onnx_file: Path, model_dir: Path, *, expected_fingerprint: str | None = None) -> None:
        import onnxruntime as ort

        options = ort.SessionOptions()
        options.intra_op_num_threads = cpu_count()
        options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
        options.log_severity_level = 3  # errors only (ONNX Runtime logs to stderr, never stdout)
        # Idle worker threads sleep instead of spinning: a search runs SQL and Python right after embedding,
        # and spinning threads would take those cores away.
        options.add_session_config_entry("session.intra_op.allow_spinning", "0")
        self.path = onnx_file
        self._session = ort.InferenceSession(str(onnx_file), options, providers=["CPUExecutionProvider"])
        meta = self._session.get_modelmeta().custom_metadata_map
        if meta.get(_META_FORMAT) != str(EXPORT_FORMAT):
            raise ValueError(f"export format {meta.get(_META_FORMAT)!r}, expected {EXPORT_FORMAT}")
        if expected_fingerprint and meta.get(_META_FINGERPRINT) != expected_fingerprint:
            raise ValueError("exported from other model files")
        self.tokenizer = TextTokenizer(
            model_dir / "tokenizer.json", int(meta[_META_MAX_LENGTH]), meta.get(_META_LOWER) == "1"
        )
        self._inputs = [i.name for i in self._session.get_inputs()]
        probe = self.encode(["rewrite-assist"], batch_size=1, show_progress=False)  # also warms the session up
        if (
            probe.ndim != 2
            or probe.shape[0] != 1
            or not np.isfinite(probe).all()
            or abs(np.linalg.norm(probe) - 1) > 1e-3
        ):
            raise ValueError(f"the session returns no normalized vector (shape {probe.shape})")
        self.dimension = int(probe.shape[1])

    def encode(self, texts: list[str], *, batch_size: int, show_progress: bool) -> np.ndarray:
        """Length-sorted batches (by word pieces, so little padding), results back in input order."""
        encodings = self.tokenizer.encode(texts)
        order = sorted(range(len(texts)), key=lambda i: -len(encodings[i].ids))
        size = max(1, batch_size)
        starts = range(0, len(order), size)
        if show_progress:
            from tqdm import tqdm

            starts = tqdm(starts, desc="Batches", unit="batch", file=sys.stderr)
        out: np.ndarray | None = None
        for start in starts:
            rows = order[start : start + size]
            feed = self.tokenizer.pad([encodings[i] for i in rows])
            vectors = self._session.run([OUTPUT_NAME], {name: feed[name] for name in self._inputs})[0]
            if out is None:
                out = np.empty((len(texts), vectors.shape[1]), dtype=np.float32)
            out[rows] = vectors
        if out is None:
            return np.zeros((0, getattr(self, "dimension", config.EMBEDDING_DIM)), dtype=np.float32)
        return out


def load_cached(path: Path, model_dir: Path, digest: str) -> OnnxBackend | None:
    """The cached export, or None when there is none or it is unusable (then it is removed)."""
    if not path.is_file():
        return None
    try:
        return OnnxBackend(path, model_dir, expected_fingerprint=digest)
    except Exception as exc:
        log.warning("cached ONNX export %s is unusable (%s); exporting it again", path, exc)
        with contextlib.suppress(OSError):
            path.unlink()
        return None


def export_in_subprocess(model_dir: Path, digest: str, dest: Path) -> float:
    """Export and verify ``model_dir`` into ``dest`` in a child process (see :mod:`.exporter` for why);
    returns the verified minimum cosine, or raises :class:`OnnxNotApplicable` with the child's reason."""
    command = [
        sys.executable,
        "-m",
        "rewrite_assist.server.embedding.exporter",
        *("--model", str(model_dir), "--digest", digest, "--output", str(dest), "--min-cosine", repr(MIN_COSINE)),
    ]
    try:
        # stdin too is kept away from the child: an MCP server's stdin is the JSON-RPC channel.
        done = subprocess.run(
            command, stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=EXPORT_TIMEOUT_S
        )
    except subprocess.TimeoutExpired as exc:
        raise OnnxNotApplicable(f"the export did not finish in {EXPORT_TIMEOUT_S} s") from exc
    except OSError as exc:
        raise OnnxNotApplicable(f"the exporter could not start: {exc}") from exc
    result: Any = None
    lines = done.stdout.strip().splitlines()
    with contextlib.suppress(ValueError, IndexError):
        result = json.loads(lines[-1])
    if not isinstance(result, dict):
        result = {}
    if done.returncode == 0 and result.get("ok"):
        return float(result["min_cosine"])
    reason = result.get("reason") or " / ".join(done.stderr.strip().splitlines()[-3:]) or f"exit {done.returncode}"
    raise OnnxNotApplicable(str(reason), permanent=done.returncode == 3)  # 3: the exporter refused the model
