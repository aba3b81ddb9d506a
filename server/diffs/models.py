"""Result models of the diff analysis.

The field order of ``DiffAnalysis`` is the JSON order: ``diff_files`` and ``metrics`` come first and
carry exactly the keys of the anchor project's ``analyze_diffs.py`` output, so files written from
``to_reference_json()`` stay comparable with every stored ``stats.json``; everything after them is ours.
"""

from __future__ import annotations

import json
from typing import Any, Literal

from pydantic import BaseModel, Field

from ..errors import BadInput

ChangeKind = Literal["add", "remove"]


class DiffError(BadInput):
    """A diff that cannot be read or analysed; the message is one line meant for the caller."""


class DiffInputError(DiffError):
    """The argument is neither a readable diff file nor diff text (missing, a directory, too large)."""


class DiffParseError(DiffError):
    """The text is not a unified diff, or a section of it is malformed (for example a truncated hunk)."""


class DiffFiles(BaseModel):
    """Where the two diffs came from: a path, or a placeholder for inline text."""

    pr_diff: str
    recipe_diff: str


class DiffMetrics(BaseModel):
    """The reference scores. Every key and its meaning is the anchor scorer's, rounded to 4 places."""

    total_expected_changes: int = Field(description="changed lines in the PR diff (TP + FN)")
    total_resulting_changes: int = Field(description="changed lines in the recipe diff (TP + FP)")
    true_positives: int = Field(description="changed lines both diffs share")
    false_positives: int = Field(description="changed lines only the recipe made (extra)")
    false_negatives: int = Field(description="changed lines only the PR made (missing)")
    precision: float = Field(description="TP / (TP + FP); 0.0 when the recipe changed nothing")
    recall: float = Field(description="TP / (TP + FN); 0.0 when the PR changed nothing")
    f1_score: float = Field(description="harmonic mean of precision and recall; 0.0 when both are 0")
    is_perfect_match: bool = Field(description="no extra and no missing changed lines")


class FileMetrics(BaseModel):
    """The same scores restricted to one file, so a gap can be traced to where it is."""

    path: str = Field(description="file path without git's a/ or b/ prefix (the new path of a rename)")
    expected: int
    resulting: int
    true_positives: int
    false_positives: int
    false_negatives: int
    precision: float
    recall: float
    f1_score: float


class UnmatchedLine(BaseModel):
    """One changed line that has no counterpart in the other diff."""

    path: str = Field(description="file path without git's a/ or b/ prefix")
    change: ChangeKind = Field(description="add: a '+' line; remove: a '-' line")
    line_number: int | None = Field(
        description="line number in the new file (add) or the old file (remove), as that diff states it"
    )
    content: str = Field(description="the line's text without the +/- marker and line break")


class DiffSideInfo(BaseModel):
    """What preprocessing did to one input, so a surprising score can be explained."""

    files: int = Field(description="files with at least one changed line after preprocessing")
    changed_lines: int = Field(description="added + removed lines counted")
    binary_sections_removed: list[str] = Field(default_factory=list)
    duplicate_sections_removed: list[str] = Field(
        default_factory=list, description="later sections for a file already seen (OpenRewrite repeats some)"
    )
    excluded_files: list[str] = Field(
        default_factory=list, description="gradlew, gradlew.bat, rewrite.gradle and files matching `exclude`"
    )


class DiffInputs(BaseModel):
    pr: DiffSideInfo
    recipe: DiffSideInfo


class AnalysisOptions(BaseModel):
    """Options that change what is compared; all off by default so default scores match the reference."""

    ignore_whitespace: bool = False
    exclude: list[str] = Field(default_factory=list)


class DiffAnalysis(BaseModel):
    """How closely a recipe's diff reproduces a PR's diff, line by changed line."""

    diff_files: DiffFiles
    metrics: DiffMetrics
    summary: str = Field(description="one sentence for humans and agents")
    per_file: list[FileMetrics] = Field(description="files with any changed line, worst first")
    options: AnalysisOptions
    inputs: DiffInputs
    missing: list[UnmatchedLine] = Field(description="lines the PR changes and the recipe does not (FN)")
    extra: list[UnmatchedLine] = Field(description="lines the recipe changes and the PR does not (FP)")
    missing_omitted: int = Field(0, description="missing lines left out of `missing` by the cap")
    extra_omitted: int = Field(0, description="extra lines left out of `extra` by the cap")

    def to_reference_json(self, *, details: bool = False, extended: bool = True) -> dict[str, Any]:
        """The analysis as a JSON-ready dict whose first keys are the anchor scorer's output.

        ``extended=False`` gives exactly ``{"diff_files", "metrics"}`` (the anchor's ``stats.json``);
        otherwise the per-file breakdown, summary, options and input notes follow, and with
        ``details=True`` also the unmatched lines.
        """
        if not extended:
            return self.model_dump(mode="json", include={"diff_files", "metrics"})
        exclude = None if details else {"missing", "extra", "missing_omitted", "extra_omitted"}
        return self.model_dump(mode="json", exclude=exclude)

    def to_json_text(self, *, details: bool = False, extended: bool = True) -> str:
        """``to_reference_json`` serialised the way the anchor printed it (indent 2)."""
        return json.dumps(self.to_reference_json(details=details, extended=extended), indent=2)
