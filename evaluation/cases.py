"""Retrieval test sets: one JSON object per line (see ``shared/data/retrieval-dev/README.md``)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, Field, ValidationError, field_validator

from ..server.errors import BadInput

Mode = Literal["multi", "single"]


class CaseFileError(BadInput):
    """The test set file is missing or malformed; the message names the line."""


class RetrievalCase(BaseModel):
    """One intent an agent would search for, with graded judgments of the catalog's recipes."""

    id: str
    intent: str
    variations: list[str] = Field(default_factory=list)
    relevant: dict[str, int]
    category: str = "other"
    kind: str = "specific"

    @field_validator("relevant")
    @classmethod
    def _graded(cls, value: dict[str, int]) -> dict[str, int]:
        if not value or not any(g > 0 for g in value.values()):
            raise ValueError("needs at least one recipe with grade >= 1")
        return value

    def queries(self, mode: Mode) -> list[str]:
        """What an agent sends: the intent with its variations (``multi``) or the intent alone (``single``)."""
        return [self.intent, *self.variations] if mode == "multi" else [self.intent]

    @property
    def half(self) -> str:
        """A stable split of a test set into two halves (parity of the id's number, else its length), so a
        lever can be checked on cases it was not looked at on."""
        digits = re.findall(r"\d+", self.id)
        n = int(digits[-1]) if digits else len(self.id)
        return "even" if n % 2 == 0 else "odd"


def load_cases(path: Path) -> list[RetrievalCase]:
    """Parse a JSONL test set; blank lines are skipped, anything else malformed is an error."""
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except OSError as exc:
        raise CaseFileError(f"cannot read test set {path}: {exc.strerror or exc}") from exc
    cases: list[RetrievalCase] = []
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            cases.append(RetrievalCase.model_validate(json.loads(line)))
        except (json.JSONDecodeError, ValidationError) as exc:
            first = str(exc).splitlines()[0]
            raise CaseFileError(f"{path}:{number}: not a retrieval case ({first})") from exc
    if not cases:
        raise CaseFileError(f"{path} holds no cases")
    return cases
