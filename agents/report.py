"""Plain-text rendering of a ``check-run`` report: one section per check, problems listed last."""

from __future__ import annotations

from .check_run import (
    ArtifactState,
    DecisionCheck,
    IntentCheck,
    RunCheck,
    mismatch_text,
)


def render_text(report: RunCheck) -> str:
    lines = [f"check-run: {report.run_dir}", ""]
    lines += _artifacts(report)
    lines += _stats(report)
    lines += _lint(report)
    lines += _decision(report.decision)
    lines += _intents(report.intents)
    if report.problems:
        lines.append(f"Problems ({len(report.problems)})")
        lines += [f"  - {p}" for p in report.problems]
        lines.append("")
    lines.append("Result: OK" if report.ok else f"Result: {len(report.problems)} problem(s)")
    return "\n".join(lines)


def _artifacts(report: RunCheck) -> list[str]:
    lines = ["Artifacts"]
    phases: dict[str, list[ArtifactState]] = {}
    for artifact in report.artifacts:
        phases.setdefault(artifact.phase, []).append(artifact)
    for phase, items in phases.items():
        present = sum(1 for a in items if a.state == "present")
        odd = "".join(
            f"; {a.state.upper()} {a.path}" + (f" ({a.note})" if a.note else "") for a in items if a.state != "present"
        )
        lines.append(f"  {phase}: {present} of {len(items)} present{odd}")
    return [*lines, ""]


def _stats(report: RunCheck) -> list[str]:
    lines = ["Stats (recomputed from pr.diff and each option-N-recipe.diff)"]
    if not report.stats:
        lines.append("  no option produced a diff or stats")
    for s in report.stats:
        if s.state == "match" and s.recomputed:
            m = s.recomputed
            lines.append(
                f"  option-{s.option}: match (precision {m.get('precision')}, recall {m.get('recall')}, "
                f"F1 {m.get('f1_score')})"
            )
        elif s.state == "mismatch":
            lines.append(f"  option-{s.option}: MISMATCH: {mismatch_text(s)}")
        else:
            lines.append(f"  option-{s.option}: {s.state.upper()}: {s.note}")
    return [*lines, ""]


def _lint(report: RunCheck) -> list[str]:
    lines = ["Lint"]
    if not report.lint:
        lines.append("  no recipe YAML found")
    notes = {c.note for c in report.lint if not c.catalog_checked}
    shared = notes.pop() if len(notes) == 1 and all(not c.catalog_checked for c in report.lint) else None
    if shared:
        lines.append(f"  {shared}: YAML structure only")
    for c in report.lint:
        scope = "" if c.catalog_checked or shared else f"; {c.note}"
        if c.state == "ok":
            lines.append(f"  {c.path}: ok ({c.warnings} warning(s){scope})")
        else:
            lines.append(f"  {c.path}: ERRORS: " + "; ".join(c.errors) + scope)
    return [*lines, ""]


def _decision(d: DecisionCheck) -> list[str]:
    lines = ["Decision (rule: ran and builds; then F1, precision, fewer entries, fewer text replacements)"]
    lines.append("  option  status      build     F1      precision  entries  text  metrics     eligible")
    for r in d.options:
        eligible = "yes" if r.eligible else f"no ({r.ineligible_reason})"
        lines.append(
            f"  {r.option:<6}  {r.status or '?':<10}  {r.build_check or '?':<8}  {_num(r.f1):<6}  "
            f"{_num(r.precision):<9}  {_num(r.entries):<7}  {_num(r.text_entries):<4}  "
            f"{r.metrics_source:<10}  {eligible}"
        )
    picks = f"option-{d.expected}" if d.expected is not None else "no option"
    chosen = f"option-{d.recommended}" if d.recommended_known else "unknown"
    if d.summary_claim_found and d.summary_claim is None:
        chosen = "none"
    verdict = "agrees" if d.agrees else "DISAGREES"
    lines.append(f"  rule picks {picks}; the run recommends {chosen}: {verdict}")
    lines += [f"  {reason}" for reason in d.reasons]
    return [*lines, ""]


def _intents(i: IntentCheck) -> list[str]:
    if i.state == "skipped":
        return ["Intent coverage", f"  skipped: {i.note}", ""]
    lines = [f"Intent coverage (against {i.diff_used})", f"  {i.summary}"]
    for row in i.unsatisfied:
        lines.append(f"  not satisfied: {row.text}  [missing: {', '.join(row.missing)}]")
    for text in i.unverifiable:
        lines.append(f"  unverifiable: {text}")
    for text in i.outside_pr:
        lines.append(f"  NAMES A FILE THE PR DOES NOT CHANGE: {text}")
    return [*lines, ""]


def _num(value: float | int | None) -> str:
    return "-" if value is None else str(value)
