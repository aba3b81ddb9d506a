"""Empirical validation: run a recipe on a copy of the project with the real OpenRewrite and measure it.

Agents must never guess what a recipe does. This runs lint, detects the build tool and the JDK the build
needs, checks the repositories serve what the run needs (preflight), copies the project, runs OpenRewrite
without editing any build file, captures the diff, optionally checks the code still compiles, and scores
the diff against the PR. Arguments the caller must fix (not a git repo, no build file, a ``java_home``
that is no JDK) raise ``ValidationFailed``; everything else is a status of the returned result: the
machine lacks something (JDK, build tool, network, credentials, an artifact) → ``environment_error``
with a one-line diagnosis; the project's own build fails → ``build_failed``; plus lint errors, timeout,
no changes. Java stack traces stay in run.log.
"""

from __future__ import annotations

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
from . import moderne
from .buildtool import BuildSetup, BuildToolMissing, NoBuildFile, RewriteContext
from .diagnosis import diagnose, diagnose_failure
from .javaversion import JavaRequirement
from .jdk import (
    JdkInstall,
    JdkNotFound,
    discover_jdks,
    inspect_java_home,
    select_jdk,
)
from .lint import lint_recipe
from .models import BuildCheck, ModuleResolution, RecipeModule, ValidationResult
from .modules import resolve_modules
from .preflight import run_preflight
from .process import Cancelled, run_command, tail
from .registry import detect_build
from .repository import RepositorySettings
from .settings import EngineSettings
from .workspace import Workspace, WorkspaceError, check_git_work_tree

log = logging.getLogger(__name__)

ProgressFn = Callable[[int, int, str], None]
TOTAL_STEPS = 8
DIFF_INLINE_LIMIT = 30_000  # characters of diff returned inline; the file always has all of it
MODERNE_LICENSE = "Moderne Source Available License"

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
    preflight: bool | None = None  # None: the settings decide (REWRITE_ASSIST_PREFLIGHT)
    offline: bool = False  # build offline against the local caches (and preflight the caches)


@dataclass
class RunOptions:
    """Where to look for things; the defaults are the machine's. Tests point these at fixtures."""

    jdk_search_dirs: Sequence[Path] | None = None
    jdk_env: Mapping[str, str] | None = None  # variables JDK discovery reads (JAVA_HOME_<N>_X64, JAVA_HOME)
    settings: EngineSettings = field(default_factory=EngineSettings.from_env)
    temp_dir: Path | None = None  # parent of the per-run temporary copies (default: the system temp dir)
    runs_dir: Path | None = None  # parent of default output directories (default: REWRITE_ASSIST_HOME/runs)
    repository: RepositorySettings | None = None  # default: from the environment and the user's settings
    user_home: Path | None = None  # where ~/.m2 and ~/.gradle are read (default: the home directory)


def _default_output_dir(options: RunOptions, recipe_name: str) -> Path:
    from .. import config

    base = options.runs_dir or config.home_dir() / "runs"
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ")
    short = re.sub(r"[^\w.-]", "_", recipe_name.rsplit(".", 1)[-1])[:40]
    return base / f"{stamp}-{short}-{secrets.token_hex(3)}"


def _build_env(jdk: JdkInstall, extra: Mapping[str, str]) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
    env["JAVA_HOME"] = str(jdk.home)
    env["PATH"] = f"{jdk.home / 'bin'}{os.pathsep}{env.get('PATH', '')}"
    env.update(extra)
    return env


class _EnvironmentError(Exception):
    """Internal: the run cannot go on on this machine; becomes status ``environment_error``."""


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
        if request.java_home is not None:
            raise ValidationFailed(str(exc)) from exc
        raise _EnvironmentError(f"wrong or missing JDK: {exc}") from exc


def _apply_overrides(modules: ModuleResolution, settings: EngineSettings) -> dict[str, str]:
    """Pin module versions from REWRITE_ASSIST_MODULE_VERSIONS; returns {module: "catalog -> pinned"}."""
    applied: dict[str, str] = {}
    for module in modules.modules:
        pinned = settings.override_for(module.group_id, module.artifact_id)
        if pinned and pinned != module.version:
            applied[f"{module.group_id}:{module.artifact_id}"] = f"{module.version or 'unversioned'} -> {pinned}"
            module.version, module.overridden = pinned, True
    return applied


def _licence_warning(modules: Sequence[RecipeModule]) -> str | None:
    moderne = [m for m in modules if m.license == "moderne"]
    if not moderne:
        return None
    named = ", ".join(f"{m.group_id}:{m.artifact_id} ({', '.join(m.recipes[:2])})" for m in moderne)
    return (
        f"licence: needs module(s) under the {MODERNE_LICENSE}: {named}. The Code Genome Project serves them to "
        "Moderne customers only; prefer Apache-2.0 recipes when one does the job"
    )


def _check_build(
    setup: BuildSetup,
    ws: Workspace,
    settings: EngineSettings,
    env: Mapping[str, str],
    log_file: IO[bytes],
    log_path: Path,
    deadline: float,
    cancel: threading.Event | None,
) -> BuildCheck:
    argv = [*setup.command(ws.project), *setup.tool.compile_args(settings)]
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


def _run_record(
    result: ValidationResult, setup: BuildSetup, settings: EngineSettings, overrides: dict[str, str]
) -> dict[str, object]:
    """What stats.json records about how the run was made: the exact coordinates used."""
    plugins = [a.coordinates for a in setup.tool.plugin_artifacts(settings)]
    return {
        "build_tool": setup.name,
        "plugins": plugins,
        "modules": result.modules,
        "module_overrides": overrides,
        "repository": result.repository,
        "offline": settings.offline,
    }


def _metrics(
    pr_text: str, pr_label: str, diff_text: str, out_dir: Path, result: ValidationResult, run: dict[str, object]
) -> None:
    import json

    from ..diffs import DiffError, analyze_diffs

    try:
        analysis = analyze_diffs(pr_text, diff_text, pr_label=pr_label, recipe_label=str(out_dir / "recipe.diff"))
    except DiffError as exc:
        result.warnings.append(f"metrics not computed: {exc}")
        return
    stats = out_dir / "stats.json"
    data = json.loads(analysis.to_json_text())
    data["run"] = run
    stats.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
    result.metrics = analysis.metrics.model_dump(mode="json")
    result.stats_path = str(stats)


def _redact_file(path: Path, repository: RepositorySettings) -> None:
    """A build may echo what it was given; the token never stays in a file we leave behind."""
    if not repository.secrets() or not path.is_file():
        return
    text = path.read_text(encoding="utf-8", errors="replace")
    clean = repository.redact(text)
    if clean != text:
        path.write_text(clean, encoding="utf-8")


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
    settings = options.settings
    updates: dict[str, object] = {}
    if request.offline:
        updates["offline"] = True
    if request.preflight is not None:
        updates["preflight"] = request.preflight
    if updates:
        settings = settings.model_copy(update=updates)
    user_home = options.user_home or Path.home()
    repository = options.repository or RepositorySettings.from_environment(home=user_home)

    def step(n: int, message: str) -> None:
        log.debug("validate step %d/%d: %s", n, TOTAL_STEPS, message)
        if progress is not None:
            progress(n, TOTAL_STEPS, message)
        if cancel is not None and cancel.is_set():
            raise Cancelled("validation cancelled")

    step(1, "linting the recipe")
    report = lint_recipe(request.recipe_text, lookup, request.recipe_name)
    result = ValidationResult(
        status="lint_failed", recipe_name=report.recipe_name, lint=report, repository=repository.describe()
    )
    if not report.ok or report.recipe_name is None:
        result.diagnosis = "lint failed: " + "; ".join(f"{e.path}: {e.message}" for e in report.errors[:3])
        result.duration_s = round(time.monotonic() - started, 2)
        return result
    if needs_moderne := moderne.moderne_only_in(lookup, report.catalog_recipes):
        raise ValidationFailed(moderne.refusal(needs_moderne))  # before any build: the plugins cannot run it
    try:
        _prepare_and_run(request, result, lookup, options, settings, repository, user_home, deadline, step, cancel)
    except _EnvironmentError as exc:
        result.status = "environment_error"
        result.diagnosis = repository.redact(str(exc))
        result.log_tail = None
    if result.log_path:
        _redact_file(Path(result.log_path), repository)
        if result.status not in {"environment_error"}:
            result.log_tail = repository.redact(tail(Path(result.log_path)))
    result.duration_s = round(time.monotonic() - started, 2)
    return result


def _prepare_and_run(
    request: ValidationRequest,
    result: ValidationResult,
    lookup: RecipeLookup | None,
    options: RunOptions,
    settings: EngineSettings,
    repository: RepositorySettings,
    user_home: Path,
    deadline: float,
    step: Callable[[int, str], None],
    cancel: threading.Event | None,
) -> None:
    assert result.lint is not None and result.recipe_name is not None
    recipe_name = result.recipe_name
    step(2, "detecting the build tool")
    repo = request.repo.expanduser().resolve()
    try:
        check_git_work_tree(repo)
        setup = detect_build(repo)
    except (WorkspaceError, NoBuildFile) as exc:
        raise ValidationFailed(str(exc)) from exc
    except BuildToolMissing as exc:
        raise _EnvironmentError(f"no build tool: {exc}") from exc
    result.build_tool = setup.name
    result.warnings.extend(setup.tool.warnings(repo, setup))

    step(3, "finding the JDK the build needs")
    requirement = setup.tool.java_requirement(repo)
    result.java_version = requirement.version
    result.java_version_evidence = requirement.evidence
    jdk = _choose_jdk(request, requirement, options, result.warnings)
    result.jdk_home, result.jdk_version = str(jdk.home), jdk.version
    modules = resolve_modules(lookup, result.lint.catalog_recipes)
    overrides = _apply_overrides(modules, settings)
    result.modules = [m.coordinates for m in modules.declared]
    if modules.recipes_without_module:
        result.warnings.append(
            "no module known for: " + ", ".join(modules.recipes_without_module) + " (relying on the plugin's own)"
        )
    licence = _licence_warning(modules.modules)
    if licence:
        result.warnings.append(licence)

    out_dir = (request.output_dir or _default_output_dir(options, recipe_name)).expanduser().resolve()
    out_dir.mkdir(parents=True, exist_ok=True)
    result.output_dir = str(out_dir)
    log_path = out_dir / "run.log"
    result.log_path = str(log_path)
    header = [
        f"[rewrite-assist] recipe {recipe_name}; {setup.describe()}; JDK {jdk.describe()}",
        f"[rewrite-assist] repository {repository.describe()}; Maven Central beside it"
        + ("; offline" if settings.offline else ""),
        "[rewrite-assist] plugins: " + ", ".join(a.coordinates for a in setup.tool.plugin_artifacts(settings)),
        "[rewrite-assist] modules: " + (", ".join(result.modules) or "none beyond the plugin's own"),
        *(f"[rewrite-assist] version override {k}: {v}" for k, v in overrides.items()),
    ]
    if settings.preflight:
        env = {**os.environ}
        preflight = run_preflight(setup.tool, result.modules, settings, repository, user_home, env)
        header += [f"[rewrite-assist] {line}" for line in preflight.lines()]
        result.warnings.extend(preflight.warnings)
        if preflight.problem:
            log_path.write_text("\n".join(header) + "\n", encoding="utf-8")
            raise _EnvironmentError(f"preflight: {preflight.problem}")
    else:
        header.append("[rewrite-assist] preflight skipped")
    run = _run_record(result, setup, settings, overrides)

    step(4, "copying the project to an isolated workspace")
    try:
        with Workspace(repo, options.temp_dir) as ws:
            _run_in_workspace(
                ws,
                request,
                result,
                setup,
                jdk,
                modules,
                settings,
                repository,
                user_home,
                header,
                run,
                deadline,
                step,
                cancel,
            )
    except WorkspaceError as exc:
        raise ValidationFailed(str(exc), bad_input=False) from exc


def _run_in_workspace(
    ws: Workspace,
    request: ValidationRequest,
    result: ValidationResult,
    setup: BuildSetup,
    jdk: JdkInstall,
    modules: ModuleResolution,
    settings: EngineSettings,
    repository: RepositorySettings,
    user_home: Path,
    header: list[str],
    run: dict[str, object],
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
    config_file = ws.scratch / "rewrite.yml"
    config_file.write_text(request.recipe_text, encoding="utf-8")
    ctx = RewriteContext(
        ws.project, ws.scratch, recipe_name, config_file, modules.declared, settings, repository, user_home
    )
    invocation = setup.tool.rewrite_invocation(setup, ctx)
    env = _build_env(jdk, invocation.env)
    with log_path.open("wb") as log_file:
        log_file.write(("\n".join(header) + "\n").encode())
        for name, text in invocation.files.items():
            log_file.write(f"[rewrite-assist] {name}:\n{text}\n".encode())

        step(5, f"running {recipe_name} with {setup.name}")
        outcome = run_command(invocation.argv, ws.project, env, log_file, deadline=deadline, cancel=cancel)
        log_text = log_path.read_text(encoding="utf-8", errors="replace")
        if outcome.timed_out:
            result.status = "timeout"
            result.diagnosis = f"timeout: the run took longer than {request.timeout_s:g}s and was stopped"
            return
        if outcome.exit_code != 0:
            found = diagnose_failure(log_text)
            if found is not None and found.environment:
                how = f" {repository.how_to_authenticate()}." if found.kind == "auth" else ""
                result.status = "environment_error"
                result.diagnosis = f"{found.message}{how} Full log: {log_path}"
                return
            result.status = "build_failed"
            result.diagnosis = (
                found.message
                if found
                else (f"the {setup.name} run failed with exit code {outcome.exit_code}; see the log tail")
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
            result.build_check = _check_build(setup, ws, settings, env, log_file, log_path, deadline, cancel)
    if request.pr_diff_text is not None:
        step(8, "scoring the diff against the PR")
        _metrics(request.pr_diff_text, request.pr_diff_label, diff_text, out_dir, result, run)
