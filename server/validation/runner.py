"""Empirical validation: run a recipe on a copy of the project with the real OpenRewrite and measure it.

Agents must never guess what a recipe does. This runs lint, detects the build tool and the JDK the build
needs, copies the project, runs OpenRewrite without editing any build file, captures the diff, optionally
checks the code still compiles, and scores the diff against the PR. Environment problems the caller can
fix (not a git repo, no build file, no matching JDK) raise ``ValidationFailed``; outcomes of the run
itself (lint errors, build failure, timeout, no changes) are statuses of the returned result.
"""

from __future__ import annotations

import contextlib
import logging
import os
import re
import secrets
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import IO

from ..catalog.lookup import RecipeLookup
from ..errors import UserError
from . import gradle, maven, moderne
from .buildtool import BuildSetup, BuildToolError, detect_build
from .diagnosis import diagnose
from .javaversion import JavaRequirement, detect_java_version
from .jdk import (
    JdkInstall,
    JdkNotFound,
    discover_jdks,
    inspect_java_home,
    select_jdk,
)
from .lint import lint_recipe
from .models import BuildCheck, ModuleResolution, ValidationResult
from .modules import resolve_modules
from .process import Cancelled, run_command, tail
from .settings import EngineSettings
from .workspace import Workspace, WorkspaceError, check_git_work_tree

log = logging.getLogger(__name__)

ProgressFn = Callable[[int, int, str], None]
TOTAL_STEPS = 8
DIFF_INLINE_LIMIT = 30_000  # characters of diff returned inline; the file always has all of it

__all__ = ["Cancelled", "RunOptions", "ValidationFailed", "ValidationRequest", "validate_recipe"]


class ValidationFailed(UserError):
    """The run cannot start; ``bad_input`` says whether the caller's arguments are at fault (exit code 2)."""

    def __init__(self, message: str, *, bad_input: bool = True) -> None:
        super().__init__(message)
        self.bad_input = bad_input
        self.exit_code = 2 if bad_input else 1


@dataclass
class ValidationRequest:
    repo: Path
    recipe_text: str
    recipe_name: str | None = None
    pr_diff_text: str | None = None
    pr_diff_label: str = "pr.diff"  # where the PR diff came from, as stats.json records it
    java_home: Path | None = None
    timeout_s: float = 900.0
    check_build: bool = False
    output_dir: Path | None = None


@dataclass
class RunOptions:
    """Where to look for things; the defaults are the machine's. Tests point these at fixtures."""

    jdk_search_dirs: Sequence[Path] | None = None
    jdk_env: Mapping[str, str] | None = None  # variables JDK discovery reads (JAVA_HOME_<N>_X64, JAVA_HOME)
    settings: EngineSettings = field(default_factory=EngineSettings.from_env)
    temp_dir: Path | None = None  # parent of the per-run temporary copies (default: the system temp dir)
    runs_dir: Path | None = None  # parent of default output directories (default: REWRITE_ASSIST_HOME/runs)


def _default_output_dir(options: RunOptions, recipe_name: str) -> Path:
    from .. import config

    base = options.runs_dir or config.home_dir() / "runs"
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ")
    short = re.sub(r"[^\w.-]", "_", recipe_name.rsplit(".", 1)[-1])[:40]
    return base / f"{stamp}-{short}-{secrets.token_hex(3)}"


def _build_env(jdk: JdkInstall) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
    env["JAVA_HOME"] = str(jdk.home)
    env["PATH"] = f"{jdk.home / 'bin'}{os.pathsep}{env.get('PATH', '')}"
    return env


def _choose_jdk(
    request: ValidationRequest, requirement: JavaRequirement, options: RunOptions, warnings: list[str]
) -> JdkInstall:
    try:
        if request.java_home is not None:
            jdk = inspect_java_home(request.java_home)
            if requirement.version is not None and jdk.major != requirement.version:
                warnings.append(
                    f"java_home is JDK {jdk.major} but the build declares Java {requirement.version}; using java_home"
                )
            return jdk
        jdks = discover_jdks(options.jdk_search_dirs, options.jdk_env)
        return select_jdk(requirement.version, jdks, options.jdk_env)
    except JdkNotFound as exc:
        raise ValidationFailed(str(exc), bad_input=request.java_home is not None) from exc


def _rewrite_command(
    setup: BuildSetup,
    workdir: Path,
    scratch: Path,
    recipe_name: str,
    modules: ModuleResolution,
    settings: EngineSettings,
) -> tuple[list[str], str | None]:
    """The argv that runs the recipe, and the init script text (Gradle only)."""
    config_file = scratch / "rewrite.yml"
    if setup.tool == "gradle":
        script = gradle.init_script(recipe_name, config_file, modules.declared, settings)
        script_path = scratch / "rewrite-init.gradle"
        script_path.write_text(script, encoding="utf-8")
        return [*setup.command(workdir), *gradle.rewrite_args(script_path)], script
    return [
        *setup.command(workdir),
        *maven.rewrite_args(recipe_name, config_file, modules.declared, settings),
    ], None


def _check_build(
    setup: BuildSetup,
    ws: Workspace,
    env: Mapping[str, str],
    log_file: IO[bytes],
    log_path: Path,
    deadline: float,
    cancel: threading.Event | None,
) -> BuildCheck:
    args = gradle.compile_args() if setup.tool == "gradle" else maven.compile_args()
    argv = [*setup.command(ws.project), *args]
    log_file.write(b"\n[rewrite-assist] build check: compiling main and test sources after the recipe\n")
    start_offset = log_file.tell()
    outcome = run_command(argv, ws.project, env, log_file, deadline=deadline, cancel=cancel)
    log_file.flush()
    with log_path.open("rb") as fh:
        fh.seek(start_offset)
        section = fh.read().decode("utf-8", errors="replace")
    passed = outcome.exit_code == 0 and not outcome.timed_out
    return BuildCheck(
        passed=passed,
        command=argv,
        exit_code=outcome.exit_code,
        duration_s=round(outcome.duration_s, 2),
        timed_out=outcome.timed_out,
        log_tail="\n".join(section.splitlines()[-30:])[-3000:],
        diagnosis=None if passed else diagnose(section),
    )


def _metrics(pr_text: str, pr_label: str, diff_text: str, out_dir: Path, result: ValidationResult) -> None:
    from ..diffs import DiffError, analyze_diffs

    try:
        analysis = analyze_diffs(pr_text, diff_text, pr_label=pr_label, recipe_label=str(out_dir / "recipe.diff"))
    except DiffError as exc:
        result.warnings.append(f"metrics not computed: {exc}")
        return
    stats = out_dir / "stats.json"
    stats.write_text(analysis.to_json_text() + "\n", encoding="utf-8")
    result.metrics = analysis.metrics.model_dump(mode="json")
    result.stats_path = str(stats)


def _uses_rewrite_plugin(project: Path, setup: BuildSetup) -> bool:
    for name in setup.build_files:
        with contextlib.suppress(OSError):
            if "org.openrewrite.rewrite" in (project / name).read_text(encoding="utf-8", errors="replace"):
                return True
    return False


def validate_recipe(
    request: ValidationRequest,
    lookup: RecipeLookup | None,
    *,
    options: RunOptions | None = None,
    progress: ProgressFn | None = None,
    cancel: threading.Event | None = None,
) -> ValidationResult:
    """Run the whole validation; see the module docstring for what raises and what becomes a status."""
    options = options or RunOptions()
    started = time.monotonic()
    deadline = started + request.timeout_s

    def step(n: int, message: str) -> None:
        log.debug("validate step %d/%d: %s", n, TOTAL_STEPS, message)
        if progress is not None:
            progress(n, TOTAL_STEPS, message)
        if cancel is not None and cancel.is_set():
            raise Cancelled("validation cancelled")

    step(1, "linting the recipe")
    report = lint_recipe(request.recipe_text, lookup, request.recipe_name)
    result = ValidationResult(status="lint_failed", recipe_name=report.recipe_name, lint=report)
    if not report.ok or report.recipe_name is None:
        result.diagnosis = "lint failed: " + "; ".join(f"{e.path}: {e.message}" for e in report.errors[:3])
        result.duration_s = round(time.monotonic() - started, 2)
        return result
    recipe_name = report.recipe_name
    if needs_moderne := moderne.moderne_only_in(lookup, report.catalog_recipes):
        raise ValidationFailed(moderne.refusal(needs_moderne))

    step(2, "detecting the build tool")
    repo = request.repo.expanduser().resolve()
    try:
        check_git_work_tree(repo)
        setup = detect_build(repo)
    except (WorkspaceError, BuildToolError) as exc:
        raise ValidationFailed(str(exc)) from exc
    result.build_tool = setup.tool
    if setup.tool == "gradle" and _uses_rewrite_plugin(repo, setup):
        result.warnings.append(
            "the build applies the OpenRewrite plugin itself; the generated init script may conflict with it"
        )

    step(3, "finding the JDK the build needs")
    requirement = detect_java_version(repo, setup.tool)
    result.java_version = requirement.version
    result.java_version_evidence = requirement.evidence
    jdk = _choose_jdk(request, requirement, options, result.warnings)
    result.jdk_home, result.jdk_version = str(jdk.home), jdk.version
    modules = resolve_modules(lookup, report.catalog_recipes)
    result.modules = [m.coordinates for m in modules.declared]
    if modules.recipes_without_module:
        result.warnings.append(
            "no module known for: " + ", ".join(modules.recipes_without_module) + " (relying on the plugin's own)"
        )

    out_dir = (request.output_dir or _default_output_dir(options, recipe_name)).expanduser().resolve()
    out_dir.mkdir(parents=True, exist_ok=True)
    result.output_dir = str(out_dir)
    log_path = out_dir / "run.log"
    result.log_path = str(log_path)

    step(4, "copying the project to an isolated workspace")
    try:
        with Workspace(repo, options.temp_dir) as ws:
            _run_in_workspace(ws, request, result, setup, jdk, modules, options.settings, deadline, step, cancel)
    except WorkspaceError as exc:
        raise ValidationFailed(str(exc), bad_input=False) from exc
    result.log_tail = tail(log_path)
    result.duration_s = round(time.monotonic() - started, 2)
    return result


def _run_in_workspace(
    ws: Workspace,
    request: ValidationRequest,
    result: ValidationResult,
    setup: BuildSetup,
    jdk: JdkInstall,
    modules: ModuleResolution,
    settings: EngineSettings,
    deadline: float,
    step: Callable[[int, str], None],
    cancel: threading.Event | None,
) -> None:
    """Steps 5-8 inside the copy: run the recipe, capture the diff, check the build, score."""
    assert ws.snapshot is not None and result.recipe_name and result.output_dir and result.log_path
    recipe_name, out_dir, log_path = result.recipe_name, Path(result.output_dir), Path(result.log_path)
    if ws.snapshot.uncommitted:
        result.warnings.append(
            f"{len(ws.snapshot.uncommitted)} uncommitted file(s) in the repository were copied as they are "
            "and are part of the baseline (not of the recipe's diff)"
        )
    (ws.scratch / "rewrite.yml").write_text(request.recipe_text, encoding="utf-8")
    argv, script = _rewrite_command(setup, ws.project, ws.scratch, recipe_name, modules, settings)
    env = _build_env(jdk)
    with log_path.open("wb") as log_file:
        log_file.write(f"[rewrite-assist] recipe {recipe_name}; {setup.describe()}; JDK {jdk.describe()}\n".encode())
        if script is not None:
            log_file.write(b"[rewrite-assist] init script:\n" + script.encode() + b"\n")

        step(5, f"running {recipe_name} with {setup.tool}")
        outcome = run_command(argv, ws.project, env, log_file, deadline=deadline, cancel=cancel)
        log_text = log_path.read_text(encoding="utf-8", errors="replace")
        if outcome.timed_out:
            result.status = "timeout"
            result.diagnosis = f"timeout: the run took longer than {request.timeout_s:g}s and was stopped"
            return
        if outcome.exit_code != 0:
            result.status = "build_failed"
            result.diagnosis = diagnose(log_text) or (
                f"the {setup.tool} run failed with exit code {outcome.exit_code}; see the log tail"
            )
            return

        step(6, "capturing the diff")
        diff_text, files = ws.capture_diff()
        diff_path = out_dir / "recipe.diff"
        diff_path.write_text(diff_text, encoding="utf-8")
        result.diff_path = str(diff_path)
        result.files_changed = files
        result.status = "ok" if diff_text.strip() else "no_changes"
        result.diff_truncated = len(diff_text) > DIFF_INLINE_LIMIT
        result.diff = None if result.diff_truncated else diff_text
        if result.status == "no_changes":
            result.diagnosis = diagnose(log_text)
        if request.check_build:
            step(7, "checking the code still compiles")
            result.build_check = _check_build(setup, ws, env, log_file, log_path, deadline, cancel)
    if request.pr_diff_text is not None:
        step(8, "scoring the diff against the PR")
        _metrics(request.pr_diff_text, request.pr_diff_label, diff_text, out_dir, result)
