"""Making the ONNX copy of the model: export with torch, verify against sentence-transformers, cache atomically.

Runs in a child process (``python -m rewrite_assist.server.embedding.exporter``, started by
:func:`.onnx_backend.export_in_subprocess`) so the process that embeds never imports torch: a server or an
ingest that exports on its first run stays as small as one that finds the export cached (about 200 MB
instead of 750 MB resident for the model). The child prints one JSON line on stdout, its result; everything
else it or its libraries say goes to stderr.

The graph is the Hugging Face model, mean pooling over the attention mask and L2 normalization, traced with
torch's TorchScript exporter (opset 17, dynamic batch and sequence axes). It is kept only if it reproduces
the torch vectors on :data:`PROBE_TEXTS` (short, 128-256 and beyond 256 word pieces, odd characters, empty;
each alone and all in one padded batch, since padding is where a traced attention mask would go wrong) to a
cosine of at least ``MIN_COSINE``, and it is written to a temporary file renamed into place, so a reader
never sees half a file.
"""

from __future__ import annotations

import argparse
import contextlib
import inspect
import json
import logging
import os
import sys
import tempfile
import time
import warnings
from pathlib import Path
from typing import Any

from .common import EmbeddingModelError
from .onnx_backend import (
    _META_FINGERPRINT,
    _META_FORMAT,
    _META_LOWER,
    _META_MAX_LENGTH,
    _TEMP_PREFIX,
    EXPORT_FORMAT,
    INPUT_NAMES,
    MIN_COSINE,
    OPSET,
    OUTPUT_NAME,
    OnnxBackend,
    OnnxNotApplicable,
    TextTokenizer,
)
from .torch_backend import TorchBackend

log = logging.getLogger(__name__)

_LONG_DESCRIPTION = (
    "Migrates JUnit 4.x tests to JUnit Jupiter: replaces org.junit.Test with org.junit.jupiter.api.Test, "
    "@Before and @After with @BeforeEach and @AfterEach, @BeforeClass and @AfterClass with @BeforeAll and "
    "@AfterAll, @Ignore with @Disabled, Assert with Assertions (moving the message argument last), "
    "ExpectedException rules and @Test(expected) with assertThrows, TemporaryFolder with @TempDir, "
    "and updates the Maven and Gradle dependencies from junit:junit to org.junit.jupiter:junit-jupiter. "
)
# Short, 128-256 word pieces, beyond 256 (truncated), odd characters, empty: where tokenizers or padding differ.
PROBE_TEXTS = (
    "migrate to junit 5",
    "Upgrade to Spring Boot 3.2\n(Upgrade Spring Boot 3 2)\nTags: spring, boot\nOptions: newVersion",
    "org.openrewrite.java.spring.boot3.UpgradeSpringBoot_3_2",
    "Migrate to JUnit 5\n(Junit4to5 Migration)\n" + _LONG_DESCRIPTION * 2,
    "JUnit 4 → Jupiter\n" + _LONG_DESCRIPTION * 6,
    'Ünïcödé café — naïve façade, 中文字符, emoji 🎉🚀, tab\there, `code`, <tag attr="x">, &amp; ${placeholder}, C#',
    "",
    "   \n\t ",
)


def export(
    reference: TorchBackend, model_dir: Path, digest: str, dest: Path, *, min_cosine: float = MIN_COSINE
) -> float:
    """Export ``reference``'s model to ``dest``, keeping it only if it reproduces the reference vectors;
    returns the smallest probe cosine."""
    try:
        import onnx
        import torch
    except ImportError as exc:
        raise OnnxNotApplicable(
            f"exporting the model needs torch and the onnx package ({exc}); `pip install onnx`"
        ) from exc
    st = reference.model
    hf_model, lowercase = _supported_parts(st)
    tokenizer = TextTokenizer(model_dir / "tokenizer.json", reference.max_seq_length, lowercase)
    example = tokenizer(["an example", "a second, longer example sentence: batches are padded"])
    accepted = inspect.signature(hf_model.forward).parameters
    names = [n for n in INPUT_NAMES if n in accepted]
    if names[:2] != ["input_ids", "attention_mask"]:
        raise OnnxNotApplicable(f"{type(hf_model).__name__} does not take input_ids and attention_mask")
    dest.parent.mkdir(parents=True, exist_ok=True)
    _remove_stale_temporaries(dest.parent)
    handle, tmp_name = tempfile.mkstemp(prefix=_TEMP_PREFIX, suffix=".onnx", dir=dest.parent)
    os.close(handle)
    tmp = Path(tmp_name)
    try:
        module = _mean_pooled(hf_model, names).eval()
        axes = {n: {0: "batch", 1: "sequence"} for n in names} | {OUTPUT_NAME: {0: "batch"}}
        # The exporter's deprecation and tracer warnings are noise here: the result is verified below.
        with torch.no_grad(), warnings.catch_warnings():
            warnings.simplefilter("ignore")
            torch.onnx.export(
                module,
                tuple(torch.from_numpy(example[n]) for n in names),
                str(tmp),
                input_names=names,
                output_names=[OUTPUT_NAME],
                dynamic_axes=axes,
                opset_version=OPSET,
                do_constant_folding=True,
                dynamo=False,
            )
        # Metadata without loading the 90 MB graph again: serialized protobuf messages merge when
        # concatenated (repeated fields append), so a ModelProto holding only metadata_props is appended.
        metadata = onnx.ModelProto()
        for key, value in {
            _META_FORMAT: str(EXPORT_FORMAT),
            _META_FINGERPRINT: digest,
            _META_MAX_LENGTH: str(reference.max_seq_length),
            _META_LOWER: "1" if lowercase else "0",
            "rewrite_assist.exported_with": f"torch {torch.__version__}, onnx {onnx.__version__}",
        }.items():
            entry = metadata.metadata_props.add()
            entry.key, entry.value = key, value
        with open(tmp, "ab") as graph_file:
            graph_file.write(metadata.SerializeToString())
        backend = OnnxBackend(tmp, model_dir, expected_fingerprint=digest)
        cosine = verify(backend, reference, min_cosine=min_cosine)
        del backend
        tmp.chmod(0o644)
        os.replace(tmp, dest)
        return cosine
    finally:
        with contextlib.suppress(OSError):
            tmp.unlink()


def _remove_stale_temporaries(directory: Path) -> None:
    """Temporary files of exports whose process died (an hour is far beyond any export's few seconds)."""
    cutoff = time.time() - 3600
    for leftover in directory.glob(f"{_TEMP_PREFIX}*"):
        with contextlib.suppress(OSError):
            if leftover.stat().st_mtime < cutoff:
                leftover.unlink()


def verify(candidate: OnnxBackend, reference: TorchBackend, *, min_cosine: float = MIN_COSINE) -> float:
    """Minimum cosine between the two backends' probe vectors, alone and in one padded batch; below
    ``min_cosine`` raises :class:`OnnxNotApplicable`."""
    probes = list(PROBE_TEXTS)
    expected = reference.encode(probes, batch_size=len(probes), show_progress=False)
    batched = candidate.encode(probes, batch_size=len(probes), show_progress=False)
    alone = candidate.encode(probes, batch_size=1, show_progress=False)
    if batched.shape != expected.shape or alone.shape != expected.shape:
        raise OnnxNotApplicable(f"the ONNX export returns shape {batched.shape}, torch {expected.shape}")
    cosine = float(min((batched * expected).sum(axis=1).min(), (alone * expected).sum(axis=1).min()))
    if not cosine >= min_cosine:  # also catches NaN
        raise OnnxNotApplicable(
            f"the ONNX export does not reproduce the torch vectors (min cosine {cosine:.6f} < {min_cosine})"
        )
    return cosine


def _supported_parts(st: Any) -> tuple[Any, bool]:
    """(Hugging Face model, lower-case flag) of a Transformer → mean Pooling → [Normalize]
    sentence-transformers model; anything else is not what the exported graph computes."""
    modules = list(st)
    kinds = [type(m).__name__ for m in modules]
    if kinds[:2] != ["Transformer", "Pooling"] or kinds[2:] not in ([], ["Normalize"]):
        raise OnnxNotApplicable(f"the model's modules are {kinds}, not Transformer → Pooling → Normalize")
    pooling = modules[1]
    mode = getattr(pooling, "pooling_mode", None)
    if mode is None and hasattr(pooling, "get_pooling_mode_str"):
        mode = pooling.get_pooling_mode_str()
    if mode != "mean":
        raise OnnxNotApplicable(f"the model pools with {mode!r}, the export only does mean pooling")
    transformer = modules[0]
    hf_model = getattr(transformer, "auto_model", None)
    if hf_model is None:
        hf_model = getattr(transformer, "model", None)
    if hf_model is None:
        raise OnnxNotApplicable("the sentence-transformers Transformer module exposes no Hugging Face model")
    return hf_model, bool(getattr(transformer, "do_lower_case", False))


def _mean_pooled(hf_model: Any, names: list[str]) -> Any:
    """A torch module computing what sentence-transformers does after tokenization: the model, mean
    pooling over the attention mask (clamped like sentence-transformers' Pooling), L2 normalization."""
    import torch

    class MeanPooled(torch.nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.model = hf_model

        def forward(self, *inputs: torch.Tensor) -> torch.Tensor:
            kwargs = dict(zip(names, inputs, strict=True))
            hidden = self.model(**kwargs).last_hidden_state
            mask = kwargs["attention_mask"].unsqueeze(-1).to(hidden.dtype)
            mean = (hidden * mask).sum(dim=1) / mask.sum(dim=1).clamp(min=1e-9)
            return torch.nn.functional.normalize(mean, p=2, dim=1)

    return MeanPooled()


def main(argv: list[str] | None = None) -> int:
    """Child-process entry point: export, verify, cache; one JSON line on stdout (exit 0, 3 refused, 1 failed)."""
    parser = argparse.ArgumentParser(description="Export the embedding model to ONNX (internal).")
    parser.add_argument("--model", required=True, help="local sentence-transformers model directory")
    parser.add_argument("--digest", required=True, help="fingerprint of the model files (onnx_backend.fingerprint)")
    parser.add_argument("--output", required=True, help="the cache file to create")
    parser.add_argument("--min-cosine", type=float, default=MIN_COSINE)
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.WARNING, stream=sys.stderr, format="%(name)s: %(message)s")
    result_stream, sys.stdout = sys.stdout, sys.stderr  # stray prints must not garble the result line
    started = time.perf_counter()
    code = 0
    try:
        reference = TorchBackend(args.model)
        cosine = export(reference, Path(args.model), args.digest, Path(args.output), min_cosine=args.min_cosine)
        result: dict[str, Any] = {"ok": True, "min_cosine": cosine, "seconds": round(time.perf_counter() - started, 2)}
    except (OnnxNotApplicable, EmbeddingModelError) as exc:
        result, code = {"ok": False, "reason": str(exc)}, 3
    except Exception as exc:
        log.exception("export failed")
        result, code = {"ok": False, "reason": f"{type(exc).__name__}: {exc}"}, 1
    result_stream.write(json.dumps(result) + "\n")
    result_stream.flush()
    return code


if __name__ == "__main__":
    sys.exit(main())
