"""The labelled PR sets of the diff search's evaluation, by name: one table that ``eval diff-search --set``, the
evaluation and the rerank's training script all read. Paths only, so the CLI can offer the names without loading
the evaluation."""

from __future__ import annotations

from pathlib import Path

DATA = Path(__file__).resolve().parent / "data"
# The fresh PR sets nobody tuned on: (case folders, labels). "held-out" was measured once and then became
# development data for round 7; "held-out-2" was written after that, for round 7's one blind reading, and was
# development data for round 8; "held-out-3" was written while round 8 was built, for its one blind reading;
# "held-out-4" was written after round 8 and is left unread for the next round (pr-heldout4-plan.md);
# "held-out-5" was written while round 9 was built and is left unread for the round after it (pr-heldout5-plan.md);
# "held-out-6" was written while round 10 was built, for the round after that (pr-heldout6-plan.md);
# "held-out-7" was written while round 11 was built, for the round after that (pr-heldout7-plan.md);
# "held-out-8" was written while round 12 was built, for the round after that (pr-heldout8-plan.md);
# "held-out-9" was written while round 13 was built, for the round after that (pr-heldout9-plan.md), and read after
# round 14; "held-out-10" was written while round 14 was built, for the round after it (pr-heldout10-plan.md), and
# read after round 15; "held-out-11", written while round 15 was built, for the round after it (round 16), read after
# round 16; "held-out-12", written after round 15's reading, for round 17 (pr-heldout12-plan.md); "held-out-13",
# written after round 16's reading, for round 18 (pr-heldout13-plan.md); "held-out-14", written after round 17's
# reading, for round 19 (pr-heldout14-plan.md); "held-out-15", written during round 18, for round 20
# (pr-heldout15-plan.md); "held-out-16", written during round 20, for round 21 (pr-heldout16-plan.md);
# "held-out-17", written while round 21 was tried, for round 22 (pr-heldout17-plan.md; its ids reuse the first set's
# prefix "ph", with other numbers and slugs); "held-out-18", written while round 21 was fitted, for round 23
# (pr-heldout18-plan.md); "held-out-19", written during round 23, for round 24 (pr-heldout19-plan.md).
HELDOUT_SETS = {
    "held-out": (DATA / "pr-heldout", DATA / "pr-heldout-labels.jsonl"),
    "held-out-2": (DATA / "pr-heldout2", DATA / "pr-heldout2-labels.jsonl"),
    "held-out-3": (DATA / "pr-heldout3", DATA / "pr-heldout3-labels.jsonl"),
    "held-out-4": (DATA / "pr-heldout4", DATA / "pr-heldout4-labels.jsonl"),
    "held-out-5": (DATA / "pr-heldout5", DATA / "pr-heldout5-labels.jsonl"),
    "held-out-6": (DATA / "pr-heldout6", DATA / "pr-heldout6-labels.jsonl"),
    "held-out-7": (DATA / "pr-heldout7", DATA / "pr-heldout7-labels.jsonl"),
    "held-out-8": (DATA / "pr-heldout8", DATA / "pr-heldout8-labels.jsonl"),
    "held-out-9": (DATA / "pr-heldout9", DATA / "pr-heldout9-labels.jsonl"),
    "held-out-10": (DATA / "pr-heldout10", DATA / "pr-heldout10-labels.jsonl"),
    "held-out-11": (DATA / "pr-heldout11", DATA / "pr-heldout11-labels.jsonl"),
    "held-out-12": (DATA / "pr-heldout12", DATA / "pr-heldout12-labels.jsonl"),
    "held-out-13": (DATA / "pr-heldout13", DATA / "pr-heldout13-labels.jsonl"),
    "held-out-14": (DATA / "pr-heldout14", DATA / "pr-heldout14-labels.jsonl"),
    "held-out-15": (DATA / "pr-heldout15", DATA / "pr-heldout15-labels.jsonl"),
    "held-out-16": (DATA / "pr-heldout16", DATA / "pr-heldout16-labels.jsonl"),
    "held-out-17": (DATA / "pr-heldout17", DATA / "pr-heldout17-labels.jsonl"),
    "held-out-18": (DATA / "pr-heldout18", DATA / "pr-heldout18-labels.jsonl"),
    "held-out-19": (DATA / "pr-heldout19", DATA / "pr-heldout19-labels.jsonl"),
}
