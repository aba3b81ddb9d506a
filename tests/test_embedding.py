"""The embedding backends: ONNX Runtime must give sentence-transformers' vectors, tokenize the same way, export
once per model and cache, recover from a bad cache file, and fall back (or fail) as the setting says."""

from __future__ import annotations

import json
import logging
import os
import shutil
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from conftest import docs_snapshot

from rewrite_assist.server import config
from rewrite_assist.server.embedding import Embedder, EmbeddingModelError, exporter, onnx_backend, resolve_model_path
from rewrite_assist.server.embedding.onnx_backend import OnnxBackend, OnnxNotApplicable
from rewrite_assist.server.embedding.torch_backend import TorchBackend
from rewrite_assist.server.errors import CatalogUnavailable

# Real-looking embedding texts beside the snapshot's: queries, identifiers, odd characters, > 256 word pieces.
HANDWRITTEN = [
    "migrate to junit 5",
    "SWITCH THE CI JDK From AdoptOpenJDK TO Temurin",
    "jdk: adopt => temurin",
    "org.openrewrite.java.spring.boot3.UpgradeSpringBoot_3_2",
    "Change method name\n(Change Method Name)\nRename a method.\nOptions: methodPattern, newMethodName, matchOverrides",
    "Ünïcödé café — naïve façade 中文字符 emoji 🎉 tab\there\nnew line  `code`  <b>bold</b> &amp; ${var} C++ C#",
    "https://docs.openrewrite.org/recipes/java/migrate/upgradetojava21?x=1&y=2#options",
    "",
    "   ",
    "a " * 300,
    "Upgrade every dependency of the build to its latest release, including plugins and the Gradle wrapper. " * 8,
]


@pytest.fixture(scope="module")
def torch_embedder(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Embedder]:
    """The reference: REWRITE_ASSIST_EMBEDDING_BACKEND=torch, in a home of its own (to see it writes nothing)."""
    home = tmp_path_factory.mktemp("torch-home")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("REWRITE_ASSIST_HOME", str(home))
        patch.setenv("REWRITE_ASSIST_EMBEDDING_BACKEND", "torch")
        model = Embedder()
        model.load()
        assert not (home / "models").exists()
    yield model


@pytest.fixture(scope="module")
def recipe_texts() -> list[str]:
    """~200 texts as ingestion embeds them (every 20th page of the snapshot) plus long raw page excerpts."""
    from rewrite_assist.ingestion.embedded_text import embedding_text
    from rewrite_assist.ingestion.page import parse_page
    from rewrite_assist.ingestion.source import open_source

    if not docs_snapshot().exists():
        return HANDWRITTEN * 18
    with open_source(docs_snapshot()) as source:
        pages = source.pages[::20]
    texts = [embedding_text(parse_page(page.path, page.text), {}) for page in pages]
    texts += [page.text[:4000] for page in pages[:12]]  # far beyond 256 word pieces: truncated
    return texts + HANDWRITTEN


def _cosines(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return np.asarray((a * b).sum(axis=1))


def test_default_backend_is_onnx_with_the_torch_vectors(
    embedder: Embedder, torch_embedder: Embedder, recipe_texts: list[str]
) -> None:
    assert embedder.backend_name == "onnx" and torch_embedder.backend_name == "torch"
    assert len(recipe_texts) >= 200
    ours = embedder.encode(recipe_texts)
    reference = torch_embedder.encode(recipe_texts)
    assert ours.shape == reference.shape == (len(recipe_texts), config.EMBEDDING_DIM)
    assert ours.dtype == np.float32
    np.testing.assert_allclose(np.linalg.norm(ours, axis=1), 1.0, atol=1e-5)
    assert _cosines(ours, reference).min() >= 0.9999
    # batch size and neighbours do not change a vector
    alone = np.vstack([embedder.encode([t]) for t in recipe_texts[:5] + HANDWRITTEN[-3:]])
    assert _cosines(alone, embedder.encode(recipe_texts[:5] + HANDWRITTEN[-3:], batch_size=3)).min() >= 0.99999


def _st_features(torch_embedder: Embedder, texts: list[str]) -> dict[str, np.ndarray]:
    backend = torch_embedder.load()
    assert isinstance(backend, TorchBackend)
    model = backend.model
    features = model.preprocess(texts) if hasattr(model, "preprocess") else model.tokenize(texts)
    return {key: features[key].numpy() for key in ("input_ids", "attention_mask", "token_type_ids")}


def test_tokenizer_matches_sentence_transformers(
    embedder: Embedder, torch_embedder: Embedder, recipe_texts: list[str]
) -> None:
    backend = embedder.load()
    assert isinstance(backend, OnnxBackend)
    assert backend.tokenizer.max_length == 256  # sentence_bert_config.json, not tokenizer.json's 128
    texts = HANDWRITTEN + recipe_texts[::10]
    for batch in (texts, HANDWRITTEN[:3], ["x"]):
        ours = backend.tokenizer(batch)
        theirs = _st_features(torch_embedder, batch)
        for key in ours:
            assert np.array_equal(ours[key], theirs[key]), key
    long = backend.tokenizer(["word " * 1000])["input_ids"][0]
    assert len(long) == 256 and long[0] == 101 and long[-1] == 102  # [CLS] … [SEP], truncated at 256
    assert np.array_equal(
        backend.tokenizer(["Migrate TO JUnit"])["input_ids"], backend.tokenizer(["migrate to junit"])["input_ids"]
    )


def test_a_second_embedder_loads_the_cached_export(embedder: Embedder, rewrite_home: Path, monkeypatch) -> None:
    exports = sorted((rewrite_home / "models").iterdir())
    assert len(exports) == 1 and exports[0].suffix == ".onnx", exports  # one export, no temporaries left
    before = exports[0].stat().st_mtime_ns

    def no_export(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("the cached export should have been used")

    monkeypatch.setattr(onnx_backend, "export_in_subprocess", no_export)
    second = Embedder()
    backend = second.load()
    assert isinstance(backend, OnnxBackend) and backend.path == exports[0]
    assert exports[0].stat().st_mtime_ns == before
    np.testing.assert_allclose(second.encode(HANDWRITTEN), embedder.encode(HANDWRITTEN), atol=1e-6)


def test_cached_load_imports_neither_torch_nor_sentence_transformers(embedder: Embedder) -> None:
    script = (
        "import json, sys, time\n"
        "started = time.perf_counter()\n"
        "from rewrite_assist.server.embedding import Embedder\n"
        "e = Embedder(); e.encode(['migrate to junit 5'])\n"
        "heavy = [m for m in ('torch', 'sentence_transformers', 'transformers') if m in sys.modules]\n"
        "print(json.dumps({'backend': e.backend_name, 'heavy': heavy, 's': time.perf_counter() - started}))\n"
    )
    env = {**os.environ, "REWRITE_ASSIST_EMBEDDING_BACKEND": "onnx"}  # the session's home holds the export
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120, env=env)
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)  # nothing else on stdout
    assert report["backend"] == "onnx" and report["heavy"] == [], report


def _only_export(home: Path) -> Path:
    (cached,) = (home / "models").glob("*.onnx")
    return cached


def _fresh_home_with(home: Path, monkeypatch: Any, name: str, content: bytes) -> Path:
    """Point REWRITE_ASSIST_HOME at ``home`` with one file ``models/name`` holding ``content``."""
    monkeypatch.setenv("REWRITE_ASSIST_HOME", str(home))
    (home / "models").mkdir()
    path = home / "models" / name
    path.write_bytes(content)
    return path


def test_a_corrupt_cache_file_is_exported_again_once(
    embedder: Embedder, rewrite_home: Path, tmp_path: Path, monkeypatch, capfd
) -> None:
    cached = _only_export(rewrite_home)
    broken = _fresh_home_with(tmp_path, monkeypatch, cached.name, cached.read_bytes()[:4096])  # truncated
    calls = []
    real_export = onnx_backend.export_in_subprocess

    def counting_export(*args: Any, **kwargs: Any) -> float:
        calls.append(args)
        return real_export(*args, **kwargs)

    monkeypatch.setattr(onnx_backend, "export_in_subprocess", counting_export)
    repaired = Embedder()
    assert repaired.load().name == "onnx" and len(calls) == 1
    assert broken.stat().st_size > 1_000_000
    assert sorted(p.name for p in (tmp_path / "models").iterdir()) == [cached.name]
    np.testing.assert_allclose(repaired.encode(HANDWRITTEN), embedder.encode(HANDWRITTEN), atol=1e-5)
    assert Embedder().load().name == "onnx" and len(calls) == 1  # from the cache now
    assert capfd.readouterr().out == ""  # the export printed nothing where the MCP server speaks JSON-RPC


def test_a_refused_export_is_not_kept(torch_embedder: Embedder, tmp_path: Path) -> None:
    """What the exporter child does when verification fails (run in-process here, with the loaded model)."""
    reference = torch_embedder.load()
    assert isinstance(reference, TorchBackend)
    model_dir = Path(resolve_model_path())
    dest = tmp_path / "models" / "refused.onnx"
    with pytest.raises(OnnxNotApplicable, match="does not reproduce the torch vectors"):
        exporter.export(reference, model_dir, onnx_backend.fingerprint(model_dir), dest, min_cosine=1.01)
    assert list(dest.parent.iterdir()) == []  # neither the file nor its temporary


def test_auto_falls_back_to_torch_when_the_export_is_refused(
    embedder: Embedder, rewrite_home: Path, tmp_path: Path, monkeypatch, caplog
) -> None:
    cached = _only_export(rewrite_home)
    _fresh_home_with(tmp_path, monkeypatch, cached.name, b"not an onnx model")

    attempts: list[int] = []

    def refused(*args: Any, **kwargs: Any) -> float:
        attempts.append(1)
        raise OnnxNotApplicable(
            "the ONNX export does not reproduce the torch vectors (min cosine 0.98 < 0.9999)", permanent=True
        )

    monkeypatch.setattr(onnx_backend, "export_in_subprocess", refused)
    with caplog.at_level(logging.INFO, logger="rewrite_assist.server.embedding"):
        model = Embedder()
        assert model.load().name == "torch"
    assert "embedding with torch instead of ONNX Runtime: the ONNX export does not reproduce" in caplog.text
    assert "unusable" in caplog.text
    marker = onnx_backend.refusal_file(tmp_path / "models" / cached.name)
    assert list((tmp_path / "models").iterdir()) == [marker]  # the bad file removed, the verdict kept
    assert model.encode(["migrate to junit 5"]).shape == (1, config.EMBEDDING_DIM)
    assert Embedder().load().name == "torch" and attempts == [1]  # the next start does not export again
    monkeypatch.setenv("REWRITE_ASSIST_EMBEDDING_BACKEND", "onnx")
    with pytest.raises(EmbeddingModelError, match=r"an earlier export was refused \(the ONNX export does not"):
        Embedder().encode(["x"])
    marker.unlink()  # deleting the verdict retries
    with pytest.raises(EmbeddingModelError, match="does not reproduce the torch vectors"):
        Embedder().encode(["x"])
    assert attempts == [1, 1]


def test_a_failed_export_is_tried_again(embedder: Embedder, rewrite_home: Path, tmp_path: Path, monkeypatch) -> None:
    """A crash or timeout says nothing about the model: unlike a refusal, it is not remembered."""
    _fresh_home_with(tmp_path, monkeypatch, "unrelated.txt", b"")
    attempts: list[int] = []

    def crashed(*args: Any, **kwargs: Any) -> float:
        attempts.append(1)
        raise OnnxNotApplicable("the export did not finish in 600 s")

    monkeypatch.setattr(onnx_backend, "export_in_subprocess", crashed)
    assert Embedder().load().name == "torch"
    assert Embedder().load().name == "torch"
    assert attempts == [1, 1]
    assert not list((tmp_path / "models").glob("*.refused"))


def test_verification_catches_a_drifting_export(embedder: Embedder, torch_embedder: Embedder, monkeypatch) -> None:
    candidate, reference = embedder.load(), torch_embedder.load()
    assert isinstance(candidate, OnnxBackend) and isinstance(reference, TorchBackend)
    honest = candidate.encode

    def drifting(texts: list[str], *, batch_size: int, show_progress: bool) -> np.ndarray:
        vectors = honest(texts, batch_size=batch_size, show_progress=show_progress)
        if batch_size == 1:  # wrong only without padding: the single-text pass must be checked too
            vectors = vectors + 0.02
            vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
        return vectors

    monkeypatch.setattr(candidate, "encode", drifting)
    with pytest.raises(OnnxNotApplicable, match="min cosine"):
        exporter.verify(candidate, reference)


def test_torch_setting_uses_torch(torch_embedder: Embedder) -> None:
    assert isinstance(torch_embedder.load(), TorchBackend)
    assert torch_embedder.encode(["migrate to junit 5"]).shape == (1, config.EMBEDDING_DIM)


def test_an_invalid_setting_is_a_clear_error(monkeypatch) -> None:
    monkeypatch.setenv("REWRITE_ASSIST_EMBEDDING_BACKEND", "gpu")
    with pytest.raises(ValueError, match="auto, onnx, torch"):
        config.embedding_backend()
    with pytest.raises(EmbeddingModelError, match="REWRITE_ASSIST_EMBEDDING_BACKEND must be one of auto, onnx, torch"):
        Embedder().encode(["x"])
    monkeypatch.setenv("REWRITE_ASSIST_EMBEDDING_BACKEND", " ONNX ")
    assert config.embedding_backend() == "onnx"
    monkeypatch.delenv("REWRITE_ASSIST_EMBEDDING_BACKEND")
    assert config.embedding_backend() == "auto"


def test_forced_onnx_without_onnxruntime_fails_with_the_fix(monkeypatch) -> None:
    monkeypatch.setitem(sys.modules, "onnxruntime", None)  # `import onnxruntime` raises ImportError
    monkeypatch.setenv("REWRITE_ASSIST_EMBEDDING_BACKEND", "onnx")
    with pytest.raises(EmbeddingModelError, match="onnxruntime") as failure:
        Embedder().encode(["x"])
    assert isinstance(failure.value, CatalogUnavailable)
    assert "pip install onnxruntime" in str(failure.value) and "auto" in str(failure.value)


def test_forced_onnx_with_a_hub_name_fails_and_auto_knows_why(monkeypatch) -> None:
    monkeypatch.setenv("REWRITE_ASSIST_EMBEDDING_BACKEND", "onnx")
    with pytest.raises(EmbeddingModelError, match="local model directory"):
        Embedder(config.EMBEDDING_MODEL_NAME).encode(["x"])
    with pytest.raises(OnnxNotApplicable) as reason:
        onnx_backend.applicable_model_dir(config.EMBEDDING_MODEL_NAME)
    assert reason.value.expected  # auto uses torch for it without a warning


def test_auto_without_onnxruntime_uses_torch(tmp_path: Path, monkeypatch, caplog) -> None:
    monkeypatch.setitem(sys.modules, "onnxruntime", None)
    monkeypatch.setenv("REWRITE_ASSIST_HOME", str(tmp_path))
    with caplog.at_level(logging.WARNING, logger="rewrite_assist.server.embedding"):
        assert Embedder().load().name == "torch"
    assert "onnxruntime cannot be imported" in caplog.text


def test_the_cache_key_follows_weights_and_configs_not_docs(tmp_path: Path) -> None:
    model = tmp_path / "model"
    shutil.copytree(
        resolve_model_path(), model, ignore=shutil.ignore_patterns("*.safetensors", "*.bin")
    )  # weights replaced by a small stand-in: the key only reads bytes
    (model / "model.safetensors").write_bytes(b"weights v1")
    first = onnx_backend.fingerprint(model)
    (model / "README.md").write_text("other docs")
    assert onnx_backend.fingerprint(model) == first
    (model / "model.safetensors").write_bytes(b"weights v2")
    second = onnx_backend.fingerprint(model)
    assert second != first
    (model / "1_Pooling" / "config.json").write_text('{"pooling_mode_cls_token": true}')
    assert onnx_backend.fingerprint(model) not in (first, second)
    assert onnx_backend.cache_file(first) != onnx_backend.cache_file(second)
    assert f"-f{onnx_backend.EXPORT_FORMAT}-" in onnx_backend.cache_file(first).name


def test_encode_from_several_threads(embedder: Embedder) -> None:
    texts = HANDWRITTEN[:9]
    expected = embedder.encode(texts)
    results: list[np.ndarray] = []
    errors: list[BaseException] = []

    def work() -> None:
        try:
            for _ in range(3):
                results.append(embedder.encode(texts))
        except BaseException as exc:
            errors.append(exc)

    threads = [threading.Thread(target=work) for _ in range(3)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not errors and len(results) == 9
    for result in results:
        np.testing.assert_allclose(result, expected, atol=1e-6)


def test_empty_input(embedder: Embedder) -> None:
    assert embedder.encode([]).shape == (0, config.EMBEDDING_DIM)


def test_a_later_backend_load_keeps_every_blas_on_one_thread(embedder: Embedder, torch_embedder: Embedder) -> None:
    """The torch backend's stack loads a BLAS library of its own (scipy's) after the ONNX model: the limit is
    set again after each load, or that library's workers would spin beside the model's."""
    from threadpoolctl import threadpool_info

    assert embedder.backend_name == "onnx" and torch_embedder.backend_name == "torch"
    blas = [pool for pool in threadpool_info() if pool["user_api"] == "blas"]
    assert blas, "no BLAS library found"
    assert all(pool["num_threads"] == 1 for pool in blas), blas
