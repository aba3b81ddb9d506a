"""The layout of one ``/rewrite-assist`` run folder, as the prompts define it, and what each phase leaves.

The prompts and ``check-run`` must agree on file names; they are defined here once, and the orchestrator
prompt spells out the same names (the tests check both sides).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

PLANNED_OPTIONS = (1, 2, 3)
REFINED_OPTION = 3
RESULT_DIR = "result"
RECOMMENDED_YAML = f"{RESULT_DIR}/recommended-recipe.yaml"
RECOMMENDED_DIFF = f"{RESULT_DIR}/recommended-recipe.diff"
RECOMMENDED_STATS = f"{RESULT_DIR}/recommended-stats.json"
SUMMARY = f"{RESULT_DIR}/summary.md"

_OPTION_FILE = re.compile(r"^option-(\d+)-")
_STATUS_LINE = re.compile(r"^\s*Status:\s*([A-Za-z_]+)", re.MULTILINE)
_BUILD_LINE = re.compile(r"^\s*Build check:\s*(passed|failed|not run)\b", re.MULTILINE | re.IGNORECASE)
_RECOMMENDED_LINE = re.compile(r"^\s*Recommended:\s*(?:option-(\d+)|(none))\b", re.MULTILINE | re.IGNORECASE)


def recipe_yaml(n: int | str) -> str:
    return f"option-{n}-recipe.yaml"


def creation_analysis(n: int | str) -> str:
    return f"option-{n}-creation-analysis.md"


def recipe_diff(n: int | str) -> str:
    return f"option-{n}-recipe.diff"


def stats_json(n: int | str) -> str:
    return f"option-{n}-stats.json"


def validation_analysis(n: int | str) -> str:
    return f"option-{n}-validation-analysis.md"


def option_numbers(run_dir: Path) -> list[int]:
    """The planned options plus any other option number that has a file in the folder."""
    found = {int(m.group(1)) for p in run_dir.iterdir() if (m := _OPTION_FILE.match(p.name))}
    return sorted(found | set(PLANNED_OPTIONS))


@dataclass(frozen=True)
class ValidationHeader:
    """The first lines of ``option-N-validation-analysis.md``: what validate_recipe reported."""

    status: str | None
    build_check: str | None  # "passed", "failed", "not run"


def read_validation_header(path: Path) -> ValidationHeader | None:
    """None when the analysis file does not exist; fields are None when a line is missing."""
    if not path.is_file():
        return None
    head = "\n".join(path.read_text(encoding="utf-8", errors="replace").splitlines()[:10])
    status = _STATUS_LINE.search(head)
    build = _BUILD_LINE.search(head)
    return ValidationHeader(
        status=status.group(1).lower() if status else None,
        build_check=build.group(1).lower() if build else None,
    )


def read_recommended_claim(path: Path) -> tuple[bool, int | None]:
    """``(found, option)`` from the summary's ``Recommended: option-N`` / ``Recommended: none`` line."""
    if not path.is_file():
        return False, None
    match = _RECOMMENDED_LINE.search(path.read_text(encoding="utf-8", errors="replace"))
    if not match:
        return False, None
    return True, int(match.group(1)) if match.group(1) else None


def phase_artifacts(options: list[int]) -> dict[str, list[str]]:
    """Artifacts each phase should leave, for the given option numbers."""
    first = [n for n in options if n != REFINED_OPTION]
    refined = [n for n in options if n == REFINED_OPTION]
    return {
        "repository setup": ["pr.diff", "pr.json"],
        "intent extraction": ["intent-tree.md"],
        "recipe mapping": [f for n in first for f in (recipe_yaml(n), creation_analysis(n))],
        "validation": [f for n in first for f in (recipe_diff(n), stats_json(n), validation_analysis(n))],
        "refinement": [
            f
            for n in refined
            for f in (
                recipe_yaml(n),
                creation_analysis(n),
                recipe_diff(n),
                stats_json(n),
                validation_analysis(n),
            )
        ],
        "decision": [RECOMMENDED_YAML, RECOMMENDED_DIFF, RECOMMENDED_STATS, SUMMARY],
    }
