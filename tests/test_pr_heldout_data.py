"""The fresh PR held-out set (evaluation/data/pr-heldout/): every case the labeller was handed through READY is
complete and self-consistent, so a count or a file list in case.json can not drift from the diff it describes."""

from __future__ import annotations

import json
import re
from datetime import datetime
from pathlib import Path

import pytest
from unidiff import PatchSet

HELDOUT = Path(__file__).resolve().parents[1] / "evaluation" / "data" / "pr-heldout"
ID_PATTERN = re.compile(r"^ph\d\d-[a-z0-9]+(?:-[a-z0-9]+)*$")
KEYS = {
    "case_id",
    "pr_title",
    "intent",
    "build_system",
    "files_changed",
    "lines_added",
    "lines_removed",
    "written",
}


def ready_ids() -> list[str]:
    ready = HELDOUT / "READY"
    if not ready.exists():
        return []
    return [line.strip() for line in ready.read_text().splitlines() if line.strip()]


def test_ready_lists_every_case_folder_once():
    ids = ready_ids()
    assert ids, "READY lists no case"
    assert len(ids) == len(set(ids)), "an id is listed twice in READY"
    folders = {p.name for p in HELDOUT.iterdir() if p.is_dir()}
    assert folders == set(ids), "case folders and READY disagree"
    assert all(ID_PATTERN.match(i) for i in ids), ids


@pytest.mark.parametrize("case_id", ready_ids())
def test_case_diff_parses_and_counts_match(case_id: str):
    folder = HELDOUT / case_id
    diff_text = (folder / "pr.diff").read_text()
    patch = PatchSet(diff_text)
    assert len(patch) >= 1
    assert diff_text.startswith("diff --git ")

    case = json.loads((folder / "case.json").read_text())
    assert case.keys() >= KEYS
    assert case["case_id"] == case_id
    assert case["files_changed"] == len(patch)
    assert case["lines_added"] == patch.added
    assert case["lines_removed"] == patch.removed
    if "files" in case:
        assert case["files"] == [f.path for f in patch]
    assert set(case["build_system"]) == {"before", "after"}
    assert isinstance(case["build_system"]["before"], dict) and case["build_system"]["before"]
    assert isinstance(case["build_system"]["after"], dict) and case["build_system"]["after"]
    datetime.strptime(case["written"], "%Y-%m-%dT%H:%M:%SZ")


@pytest.mark.parametrize("case_id", ready_ids())
def test_intent_reads_like_a_pr_description(case_id: str):
    case = json.loads((HELDOUT / case_id / "case.json").read_text())
    intent = case["intent"]
    assert case["pr_title"].strip()
    # 1-4 sentences written by a developer; recipe names would give the answer away.
    assert 1 <= len(re.findall(r"[.!?](?:\s|$)", intent)) <= 4, intent
    assert "openrewrite" not in intent.lower()
    assert "recipe" not in intent.lower()
