"""The model fingerprint is remembered per model folder, and any change to the files recomputes it."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from rewrite_assist.server.embedding import onnx_backend


@pytest.fixture
def model_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("REWRITE_ASSIST_HOME", str(tmp_path / "home"))
    folder = tmp_path / "model"
    folder.mkdir()
    (folder / "config.json").write_text('{"hidden_size": 384}')
    (folder / "model.safetensors").write_bytes(b"weights" * 1000)
    settle(folder)
    return folder


def settle(folder: Path) -> None:
    """Date the files an hour back: a digest of files modified moments ago is not remembered."""
    for file in folder.iterdir():
        stat = file.stat()
        os.utime(file, ns=(stat.st_atime_ns, stat.st_mtime_ns - 3_600_000_000_000))


def test_fingerprint_is_remembered_and_follows_changes(model_dir: Path) -> None:
    first = onnx_backend.fingerprint(model_dir)
    memo = onnx_backend.config.home_dir() / "cache" / "model-fingerprints.json"
    data = json.loads(memo.read_text())
    assert data[str(model_dir)]["digest"] == first
    # The remembered digest is what a second call returns while the files are unchanged...
    data[str(model_dir)]["digest"] = "remembered"
    memo.write_text(json.dumps(data))
    assert onnx_backend.fingerprint(model_dir) == "remembered"
    # ...and any change to a file (content, size or time) makes it hash the files again.
    weights = model_dir / "model.safetensors"
    weights.write_bytes(b"other weights" * 1000)
    settle(model_dir)
    changed = onnx_backend.fingerprint(model_dir)
    assert changed not in (first, "remembered")
    stat = weights.stat()
    os.utime(weights, ns=(stat.st_atime_ns, stat.st_mtime_ns + 1_000_000))
    assert onnx_backend.fingerprint(model_dir) == changed  # same content: same digest, recomputed


def test_files_modified_moments_ago_are_hashed_every_time(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("REWRITE_ASSIST_HOME", str(tmp_path / "home"))
    folder = tmp_path / "fresh"
    folder.mkdir()
    (folder / "model.safetensors").write_bytes(b"v1")
    first = onnx_backend.fingerprint(folder)
    (folder / "model.safetensors").write_bytes(b"v2")  # same size, possibly the same timestamp
    assert onnx_backend.fingerprint(folder) != first
    assert not (onnx_backend.config.home_dir() / "cache" / "model-fingerprints.json").exists()


def test_unreadable_memo_is_ignored(model_dir: Path) -> None:
    memo = onnx_backend.config.home_dir() / "cache" / "model-fingerprints.json"
    memo.parent.mkdir(parents=True)
    memo.write_text("{not json")
    digest = onnx_backend.fingerprint(model_dir)
    assert len(digest) == 64 and json.loads(memo.read_text())[str(model_dir)]["digest"] == digest
