"""``check-run``: re-verify a ``/rewrite-assist`` run folder deterministically, without a model.

Agents can leave artifacts that look right and are not: stats for a diff that was never produced,
numbers typed from memory, a "winner" picked by taste. Every check here recomputes from the files that
tools wrote (``pr.diff``, each ``option-N-recipe.diff``, the recipe YAMLs) and reports what disagrees.
It never modifies the run.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, Field

from ..server.catalog.lookup import RecipeLookup
from ..server.diffs import DiffError, DiffMetrics
from . import run_layout as layout
from .decision import (
    RAN_STATUSES,
    OptionOutcome,
    RecipeShape,
    decide,
    recipe_shape,
    why_before,
)
from .intents import DiffIndex, assess, parse_atomic_intents

METRIC_KEYS = tuple(DiffMetrics.model_fields)  # the reference stats.json metric keys, in order
FLOAT_TOLERANCE = 5e-5  # stats are rounded to 4 decimals


class ArtifactState(BaseModel):
    phase: str
    path: str
    state: Literal["present", "missing", "empty", "not expected"]
    note: str = ""


class StatsCheck(BaseModel):
    option: int
    state: Literal["match", "mismatch", "no stats", "no diff", "unreadable"]
    mismatches: dict[str, dict[str, Any]] = Field(default_factory=dict)  # key → {recorded, recomputed}
    recomputed: dict[str, Any] | None = None
    note: str = ""


class LintCheck(BaseModel):
    path: str
    state: Literal["ok", "errors"]
    catalog_checked: bool  # False: only the YAML structure was linted, recipe ids and options were not
    errors: list[str] = Field(default_factory=list)
    warnings: int = 0
    note: str = ""


class OptionRow(BaseModel):
    option: int
    status: str | None
    build_check: str | None
    f1: float | None
    precision: float | None
    entries: int | None
    text_entries: int | None
    metrics_source: Literal["recomputed", "recorded", "none"]
    eligible: bool
    ineligible_reason: str | None = None


class DecisionCheck(BaseModel):
    options: list[OptionRow]
    expected: int | None  # the rule's winner on recomputed metrics
    expected_from_recorded: int | None  # the rule's winner on the numbers the run recorded
    ranking: list[int]
    reasons: list[str]
    recommended: int | None  # option whose YAML result/recommended-recipe.yaml copies
    recommended_known: bool  # False when the result YAML is missing or copies no option
    summary_claim: int | None
    summary_claim_found: bool
    agrees: bool
    problems: list[str] = Field(default_factory=list)


class IntentRow(BaseModel):
    text: str
    checked: list[str]
    missing: list[str]


class IntentCheck(BaseModel):
    state: Literal["checked", "skipped"]
    note: str = ""
    diff_used: str | None = None
    total: int = 0
    verifiable: int = 0
    satisfied: int = 0
    summary: str = ""
    unsatisfied: list[IntentRow] = Field(default_factory=list)
    unverifiable: list[str] = Field(default_factory=list)
    outside_pr: list[str] = Field(default_factory=list, description="intents naming a file pr.diff leaves alone")


class RunCheck(BaseModel):
    run_dir: str
    artifacts: list[ArtifactState]
    stats: list[StatsCheck]
    lint: list[LintCheck]
    decision: DecisionCheck
    intents: IntentCheck
    problems: list[str]

    @property
    def ok(self) -> bool:
        return not self.problems


def check_run(run_dir: Path, lookup: RecipeLookup | None, lookup_note: str = "no catalog") -> RunCheck:
    """Run every check on ``run_dir``.

    ``lookup`` None lints only the YAML structure; each lint entry then says that recipe ids and options
    were not checked, and why (``lookup_note``), so a missing catalog never reads as a clean lint.
    """
    options = layout.option_numbers(run_dir)
    headers = {n: layout.read_validation_header(run_dir / layout.validation_analysis(n)) for n in options}
    claim_found, claim = layout.read_recommended_claim(run_dir / layout.SUMMARY)
    no_recommendation = claim_found and claim is None

    artifacts = _check_artifacts(run_dir, options, headers, no_recommendation)
    stats = [_check_stats(run_dir, n) for n in options if _has_option_output(run_dir, n)]
    lint = _check_lint(run_dir, options, lookup, lookup_note)
    decision = _check_decision(run_dir, options, headers, {s.option: s for s in stats}, (claim_found, claim))
    intents = _check_intents(run_dir, decision)

    problems = [f"missing: {a.path} ({a.phase})" for a in artifacts if a.state == "missing"]
    problems += [f"empty: {a.path} ({a.phase})" for a in artifacts if a.state == "empty"]
    problems += [_stats_problem(s) for s in stats if s.state not in ("match",)]
    problems += [f"lint: {c.path}: {'; '.join(c.errors) or c.note}" for c in lint if c.state == "errors"]
    problems += decision.problems
    problems += [f"intent-tree.md: names a file pr.diff does not change: {text}" for text in intents.outside_pr]
    return RunCheck(
        run_dir=str(run_dir),
        artifacts=artifacts,
        stats=stats,
        lint=lint,
        decision=decision,
        intents=intents,
        problems=problems,
    )


# -- artifacts --------------------------------------------------------------------------------------


def _check_artifacts(
    run_dir: Path,
    options: list[int],
    headers: dict[int, layout.ValidationHeader | None],
    no_recommendation: bool,
) -> list[ArtifactState]:
    states: list[ArtifactState] = []
    for phase, paths in layout.phase_artifacts(options).items():
        for rel in paths:
            path = run_dir / rel
            reason = _not_expected_reason(rel, options, headers, no_recommendation)
            if path.is_file():
                empty = path.stat().st_size == 0 and not _may_be_empty(rel, headers)
                states.append(ArtifactState(phase=phase, path=rel, state="empty" if empty else "present"))
            elif reason:
                states.append(ArtifactState(phase=phase, path=rel, state="not expected", note=reason))
            else:
                states.append(ArtifactState(phase=phase, path=rel, state="missing"))
    return states


def _not_expected_reason(
    rel: str, options: list[int], headers: dict[int, layout.ValidationHeader | None], no_recommendation: bool
) -> str | None:
    if no_recommendation and rel != layout.SUMMARY and rel.startswith(layout.RESULT_DIR + "/"):
        return "summary says there is no recommendation"
    for n in options:
        status = header.status if (header := headers.get(n)) else None
        if status and status not in RAN_STATUSES and rel in (layout.recipe_diff(n), layout.stats_json(n)):
            return f"validation status {status}"
    return None


def _may_be_empty(rel: str, headers: dict[int, layout.ValidationHeader | None]) -> bool:
    """An empty recipe diff is legitimate when the recipe ran and changed nothing."""
    for n, header in headers.items():
        if rel in (layout.recipe_diff(n), layout.RECOMMENDED_DIFF) and header and header.status == "no_changes":
            return True
    return False


def _has_option_output(run_dir: Path, n: int) -> bool:
    return (run_dir / layout.stats_json(n)).is_file() or (run_dir / layout.recipe_diff(n)).is_file()


# -- stats ------------------------------------------------------------------------------------------


def recompute_metrics(pr_diff: str, recipe_diff: str) -> dict[str, Any]:
    """The analyze_diffs metrics for two diff texts (the same code validate_recipe uses)."""
    from ..server.diffs import analyze_diffs

    return analyze_diffs(pr_diff, recipe_diff).metrics.model_dump(mode="json")


def recorded_metrics(stats: Any) -> dict[str, Any] | None:
    """The metrics object of a stats file: ``metrics`` of the analyze_diffs JSON."""
    if isinstance(stats, dict) and isinstance(stats.get("metrics"), dict):
        return dict(stats["metrics"])
    return None


def _check_stats(run_dir: Path, n: int) -> StatsCheck:
    stats_path, diff_path = run_dir / layout.stats_json(n), run_dir / layout.recipe_diff(n)
    pr_path = run_dir / "pr.diff"
    if not stats_path.is_file():
        return StatsCheck(option=n, state="no stats", note=f"{diff_path.name} exists without {stats_path.name}")
    if not diff_path.is_file():
        return StatsCheck(
            option=n,
            state="no diff",
            note=f"{stats_path.name} has no {diff_path.name} to come from: its numbers cannot be reproduced",
        )
    if not pr_path.is_file():
        return StatsCheck(option=n, state="unreadable", note="pr.diff is missing; nothing to recompute against")
    try:
        recorded = recorded_metrics(json.loads(_read(stats_path)))
    except json.JSONDecodeError as exc:
        return StatsCheck(option=n, state="unreadable", note=f"{stats_path.name} is not JSON: {exc}")
    if recorded is None:
        return StatsCheck(option=n, state="unreadable", note=f"{stats_path.name} has no 'metrics' object")
    try:
        recomputed = recompute_metrics(_read(pr_path), _read(diff_path))
    except DiffError as exc:  # a diff the analyser rejects is a finding, not a crash
        return StatsCheck(option=n, state="unreadable", note=f"cannot analyse {diff_path.name}: {exc}")
    mismatches = {
        key: {"recorded": recorded.get(key), "recomputed": recomputed.get(key)}
        for key in METRIC_KEYS
        if not _same(recorded.get(key), recomputed.get(key))
    }
    return StatsCheck(
        option=n, state="mismatch" if mismatches else "match", mismatches=mismatches, recomputed=recomputed
    )


def _same(recorded: Any, recomputed: Any) -> bool:
    if isinstance(recorded, bool) or isinstance(recomputed, bool):
        return recorded is recomputed
    if isinstance(recorded, int | float) and isinstance(recomputed, int | float):
        return abs(float(recorded) - float(recomputed)) <= FLOAT_TOLERANCE
    return bool(recorded == recomputed)


def mismatch_text(check: StatsCheck) -> str:
    """``key recorded X vs recomputed Y; ...`` for each metric that differs."""
    return "; ".join(
        f"{key} recorded {values['recorded']} vs recomputed {values['recomputed']}"
        for key, values in check.mismatches.items()
    )


def _stats_problem(check: StatsCheck) -> str:
    name = layout.stats_json(check.option)
    if check.state == "mismatch":
        return f"stats mismatch: {name}: {mismatch_text(check)}"
    return f"stats {check.state}: {name}: {check.note}"


# -- lint -------------------------------------------------------------------------------------------


def _check_lint(run_dir: Path, options: list[int], lookup: RecipeLookup | None, lookup_note: str) -> list[LintCheck]:
    from ..server.validation.lint import lint_recipe

    paths = [layout.recipe_yaml(n) for n in options] + [layout.RECOMMENDED_YAML]
    checks: list[LintCheck] = []
    for rel in paths:
        path = run_dir / rel
        if not path.is_file():
            continue
        report = lint_recipe(_read(path), lookup)
        checks.append(
            LintCheck(
                path=rel,
                state="ok" if report.ok else "errors",
                catalog_checked=report.catalog_checked,
                errors=[f"{issue.path}: {issue.message}" for issue in report.errors],
                warnings=len(report.warnings),
                note="" if report.catalog_checked else f"recipe ids and options not checked ({lookup_note})",
            )
        )
    return checks


# -- decision ---------------------------------------------------------------------------------------


def _check_decision(
    run_dir: Path,
    options: list[int],
    headers: dict[int, layout.ValidationHeader | None],
    stats: dict[int, StatsCheck],
    claim: tuple[bool, int | None],
) -> DecisionCheck:
    rows: list[OptionRow] = []
    truth: list[OptionOutcome] = []
    recorded: list[OptionOutcome] = []
    for n in options:
        if not (run_dir / layout.recipe_yaml(n)).is_file():
            continue
        header = headers.get(n)
        shape = _shape(run_dir / layout.recipe_yaml(n))
        check = stats.get(n)
        rec_metrics = _recorded_for(run_dir, n)
        true_metrics = check.recomputed if check and check.recomputed else None
        source: Literal["recomputed", "recorded", "none"] = (
            "recomputed" if true_metrics else "recorded" if rec_metrics else "none"
        )
        status, build = (header.status, header.build_check) if header else (None, None)
        outcome = _outcome(n, status, build, true_metrics or rec_metrics, shape)
        truth.append(outcome)
        recorded.append(_outcome(n, status, build, rec_metrics, shape))
        rows.append(
            OptionRow(
                option=n,
                status=status,
                build_check=build,
                f1=outcome.f1,
                precision=outcome.precision,
                entries=shape.entries if shape else None,
                text_entries=shape.text_entries if shape else None,
                metrics_source=source,
                eligible=outcome.eligible,
                ineligible_reason=outcome.ineligible_reason(),
            )
        )
    expected = decide(truth)
    from_recorded = decide(recorded)
    recommended, known = _recommended_option(run_dir, [r.option for r in rows])
    claim_found, claim_option = claim
    problems: list[str] = []
    agrees = known and recommended == expected.winner
    if not claim_found:
        problems.append(f"decision: {layout.SUMMARY} has no 'Recommended: option-N' line")
    elif known and claim_option != recommended:
        problems.append(
            f"decision: summary names option-{claim_option}, but the result YAML copies option-{recommended}"
        )
    if claim_found and claim_option is None:
        agrees = expected.winner is None
        if not agrees:
            problems.append(f"decision: summary recommends none, but the rule picks option-{expected.winner}")
    elif not known:
        problems.append(f"decision: {layout.RECOMMENDED_YAML} is missing or is not a copy of any option's recipe")
    elif not agrees:
        by_number = {o.number: o for o in truth}
        chosen = by_number.get(recommended) if recommended is not None else None
        if expected.winner is None or chosen is None:
            detail = "no option is eligible" if expected.winner is None else "it is not an option"
        else:
            detail = why_before(by_number[expected.winner], chosen)
        winner = f"option-{expected.winner}" if expected.winner else "no option"
        problems.append(f"decision: recommended option-{recommended}, but the rule picks {winner}; {detail}")
    if from_recorded.winner != expected.winner:
        problems.append(
            f"decision: the recorded stats would pick option-{from_recorded.winner}, the recomputed ones "
            f"option-{expected.winner}"
        )
    if known and recommended is not None:
        problems += _copy_problems(run_dir, recommended)
    return DecisionCheck(
        options=rows,
        expected=expected.winner,
        expected_from_recorded=from_recorded.winner,
        ranking=list(expected.ranking),
        reasons=list(expected.reasons),
        recommended=recommended,
        recommended_known=known,
        summary_claim=claim_option,
        summary_claim_found=claim_found,
        agrees=agrees,
        problems=problems,
    )


def _outcome(
    n: int, status: str | None, build: str | None, metrics: dict[str, Any] | None, shape: RecipeShape | None
) -> OptionOutcome:
    f1 = metrics.get("f1_score") if metrics else None
    precision = metrics.get("precision") if metrics else None
    return OptionOutcome(
        number=n,
        status=status,
        build_check=build,
        f1=float(f1) if isinstance(f1, int | float) else None,
        precision=float(precision) if isinstance(precision, int | float) else None,
        shape=shape,
    )


def _recorded_for(run_dir: Path, n: int) -> dict[str, Any] | None:
    try:
        return recorded_metrics(json.loads(_read(run_dir / layout.stats_json(n))))
    except (OSError, ValueError):
        return None


def _shape(path: Path) -> RecipeShape | None:
    try:
        return recipe_shape(_read(path))
    except (OSError, ValueError):
        return None


def _recommended_option(run_dir: Path, options: list[int]) -> tuple[int | None, bool]:
    """Which option ``result/recommended-recipe.yaml`` is a copy of (compared without trailing space)."""
    path = run_dir / layout.RECOMMENDED_YAML
    if not path.is_file():
        return None, False
    text = _canonical(_read(path))
    for n in options:
        if _canonical(_read(run_dir / layout.recipe_yaml(n))) == text:
            return n, True
    return None, False


def _copy_problems(run_dir: Path, n: int) -> list[str]:
    problems: list[str] = []
    for result, source in (
        (layout.RECOMMENDED_DIFF, layout.recipe_diff(n)),
        (layout.RECOMMENDED_STATS, layout.stats_json(n)),
    ):
        a, b = run_dir / result, run_dir / source
        if a.is_file() and b.is_file() and a.read_bytes() != b.read_bytes():
            problems.append(f"decision: {result} is not a copy of {source}")
    return problems


def _canonical(text: str) -> str:
    return "\n".join(line.rstrip() for line in text.strip().splitlines())


# -- intents ----------------------------------------------------------------------------------------


def _check_intents(run_dir: Path, decision: DecisionCheck) -> IntentCheck:
    tree, pr = run_dir / "intent-tree.md", run_dir / "pr.diff"
    diff_rel = layout.RECOMMENDED_DIFF
    if not (run_dir / diff_rel).is_file() and decision.expected is not None:
        diff_rel = layout.recipe_diff(decision.expected)
    missing = [p.name for p in (tree, pr) if not p.is_file()]
    if not (run_dir / diff_rel).is_file():
        missing.append(diff_rel)
    if missing:
        return IntentCheck(state="skipped", note=f"needs {', '.join(missing)}")
    intents = parse_atomic_intents(_read(tree))
    if not intents:
        return IntentCheck(state="skipped", note="intent-tree.md has no atomic intents (bullet lines)")
    coverage = assess(intents, DiffIndex.parse(_read(pr)), DiffIndex.parse(_read(run_dir / diff_rel)))
    return IntentCheck(
        state="checked",
        diff_used=diff_rel,
        total=coverage.total,
        verifiable=coverage.verifiable,
        satisfied=coverage.satisfied,
        summary=coverage.summary(),
        unsatisfied=[
            IntentRow(text=v.intent.text, checked=list(v.checkable), missing=list(v.missing))
            for v in coverage.verdicts
            if v.verifiable and not v.satisfied
        ],
        unverifiable=[v.intent.text for v in coverage.verdicts if not v.verifiable],
        outside_pr=[v.intent.text for v in coverage.verdicts if v.file_outside_pr],
    )


def _read(path: Path) -> str:
    """Artifacts are text; undecodable bytes must show up as a finding, not a traceback."""
    return path.read_text(encoding="utf-8", errors="replace")
