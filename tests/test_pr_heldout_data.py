"""The fresh PR held-out sets (evaluation/data/pr-heldout/, pr-heldout2/ ... pr-heldout19/): every case the
labeller was handed through READY is complete and self-consistent, so a count or a file list in case.json can not
drift from the diff it describes. All sets share one layout, so one parametrised test covers them."""

from __future__ import annotations

import json
import re
from datetime import datetime
from pathlib import Path

import pytest
from unidiff import PatchSet

DATA = Path(__file__).resolve().parents[1] / "evaluation" / "data"
# folder -> the id prefix its cases carry (ph: first fresh set, pq: second, pt: third, pu: fourth, pv: fifth,
# pw: sixth, px: seventh, py: eighth, pz: ninth, pk: tenth, pm: eleventh, pn: twelfth, pd: thirteenth,
# pe: fourteenth, pf: fifteenth, pg: sixteenth, ph again for the seventeenth (its ids differ from the first
# set's), pj: eighteenth, pl: nineteenth; each written after the sets before it had been used to improve the search)
SETS = {
    "pr-heldout": "ph",
    "pr-heldout2": "pq",
    "pr-heldout3": "pt",
    "pr-heldout4": "pu",
    "pr-heldout5": "pv",
    "pr-heldout6": "pw",
    "pr-heldout7": "px",
    "pr-heldout8": "py",
    "pr-heldout9": "pz",  # pz: ninth
    "pr-heldout10": "pk",  # pk: tenth
    "pr-heldout11": "pm",  # pm: eleventh
    "pr-heldout12": "pn",  # pn: twelfth
    "pr-heldout13": "pd",  # pd: thirteenth
    "pr-heldout14": "pe",  # pe: fourteenth
    "pr-heldout15": "pf",  # pf: fifteenth
    "pr-heldout16": "pg",  # pg: sixteenth
    "pr-heldout17": "ph",  # ph: seventeenth
    "pr-heldout18": "pj",  # pj: eighteenth
    "pr-heldout19": "pl",  # pl: nineteenth
}
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


def id_pattern(prefix: str) -> re.Pattern[str]:
    return re.compile(rf"^{prefix}\d\d-[a-z0-9]+(?:-[a-z0-9]+)*$")


def ready_ids(folder: str) -> list[str]:
    ready = DATA / folder / "READY"
    if not ready.exists():
        return []
    return [line.strip() for line in ready.read_text().splitlines() if line.strip()]


def all_cases() -> list[tuple[str, str]]:
    return [(folder, case_id) for folder in SETS for case_id in ready_ids(folder)]


@pytest.mark.parametrize("folder", sorted(SETS))
def test_ready_lists_every_case_folder_once(folder: str):
    ids = ready_ids(folder)
    assert ids, f"{folder}/READY lists no case"
    assert len(ids) == len(set(ids)), "an id is listed twice in READY"
    folders = {p.name for p in (DATA / folder).iterdir() if p.is_dir()}
    assert folders == set(ids), "case folders and READY disagree"
    pattern = id_pattern(SETS[folder])
    assert all(pattern.match(i) for i in ids), ids


def test_sets_do_not_share_a_case_id():
    ids = [case_id for _, case_id in all_cases()]
    assert len(ids) == len(set(ids))


@pytest.mark.parametrize(("folder", "case_id"), all_cases())
def test_case_diff_parses_and_counts_match(folder: str, case_id: str):
    case_dir = DATA / folder / case_id
    diff_text = (case_dir / "pr.diff").read_text()
    patch = PatchSet(diff_text)
    assert len(patch) >= 1
    assert diff_text.startswith("diff --git ")

    case = json.loads((case_dir / "case.json").read_text())
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


@pytest.mark.parametrize(("folder", "case_id"), all_cases())
def test_intent_reads_like_a_pr_description(folder: str, case_id: str):
    case = json.loads((DATA / folder / case_id / "case.json").read_text())
    intent = case["intent"]
    assert case["pr_title"].strip()
    # 1-4 sentences written by a developer; recipe names would give the answer away.
    assert 1 <= len(re.findall(r"[.!?](?:\s|$)", intent)) <= 4, intent
    assert "openrewrite" not in intent.lower()
    assert "recipe" not in intent.lower()
