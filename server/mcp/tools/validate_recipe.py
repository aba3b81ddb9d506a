"""MCP tool ``validate_recipe``: run a recipe with real OpenRewrite on a copy of the repository.

The build runs in a worker thread; progress goes to the client at each step, and a cancelled request
stops the build (its whole process group) and still removes the temporary copy before returning.
The runner is imported on first use: the server's start (and its ``initialize`` answer) need only the
tool's signature.
"""

from __future__ import annotations

import logging
import threading
from pathlib import Path
from typing import Annotated, Any

import anyio
import anyio.from_thread
import anyio.to_thread
from mcp.server.mcpserver import Context
from pydantic import Field

from ...limits import (
    MAX_NAME_CHARS,
    check_diff_arg,
    check_optional,
    check_path_text,
    check_recipe_arg,
    check_yaml_text,
)
from ...validation.inputs import load_recipe_arg
from ...validation.models import ValidationResult
from ..registry import Tool, get_state
from ..security import check_path, require_local_files

log = logging.getLogger(__name__)

DESCRIPTION = """Run an OpenRewrite recipe on the repository and report exactly what it changes.

Never guess what a recipe does: run it here. Works on a temporary copy (the repository is never modified;
uncommitted changes are copied as they are). Lints the recipe first (status lint_failed with the errors),
detects Gradle or Maven and the Java version the build declares, picks a matching JDK, runs OpenRewrite
without editing build files (declaring exactly the recipe modules the recipe needs), and returns the diff
(`diff` inline when small, always at `diff_path`), the files changed and, given the PR diff, the
precision/recall/F1 metrics against it. check_build=true also compiles main and test sources afterwards
(build_check.passed): a recipe that breaks the build is not a good recipe. Statuses: ok, lint_failed,
build_failed (the project's own build failed: see `diagnosis` and `log_tail`), environment_error (this
machine lacks a JDK, build tool, network or credentials: `diagnosis` says which), timeout,
no_changes. Runs take minutes; lint_recipe first."""


def _resolve(path: str | None, what: str) -> Path | None:
    return check_path(check_path_text(path, what)) if path else None


def _load_pr_diff(pr_diff: str | None) -> tuple[str, str | None]:
    """(label, text) of the PR diff argument; (label, None) when there is none."""
    if pr_diff is None or not pr_diff.strip():
        return "pr.diff", None
    from ...diffs import load_diff

    return load_diff(pr_diff, what="PR diff", check_path=check_path)


async def validate_recipe_tool(
    ctx: Context[Any, Any],
    repo_path: Annotated[str, Field(description="the git work tree to run on (only read, never modified)")],
    recipe: Annotated[str, Field(description="path to the recipe YAML file, or the YAML text itself")],
    recipe_name: Annotated[
        str | None, Field(description="the recipe to run (optional when the file declares one recipe)")
    ] = None,
    pr_diff: Annotated[
        str | None, Field(description="the PR's diff (path or text), to score the recipe's diff against")
    ] = None,
    java_home: Annotated[str | None, Field(description="JDK to build with (default: detected)")] = None,
    timeout_s: Annotated[float, Field(description="seconds before the run is stopped", ge=10, le=7200)] = 900,
    check_build: Annotated[bool, Field(description="compile main and test sources after the recipe")] = False,
    output_dir: Annotated[
        str | None,
        Field(description="directory for recipe.diff, stats.json and run.log (default: a new one)"),
    ] = None,
) -> ValidationResult:
    from ...validation.runner import ValidationRequest, validate_recipe

    require_local_files("validate_recipe")
    state = get_state(ctx)
    check_optional(recipe_name, "recipe_name", max_chars=MAX_NAME_CHARS, one_line=True)
    _, recipe_text = load_recipe_arg(check_recipe_arg(recipe), check_path=check_path)
    check_yaml_text(recipe_text)
    pr_label, pr_text = _load_pr_diff(None if pr_diff is None else check_diff_arg(pr_diff, "pr_diff"))
    request = ValidationRequest(
        repo=check_path(check_path_text(repo_path, "repo_path")),
        recipe_text=recipe_text,
        recipe_name=recipe_name,
        pr_diff_text=pr_text,
        pr_diff_label=pr_label,
        java_home=_resolve(java_home, "java_home"),
        timeout_s=timeout_s,
        check_build=check_build,
        output_dir=_resolve(output_dir, "output_dir"),
    )
    lookup = state.store()
    lookup.check_ready()

    def progress(step: int, total: int, message: str) -> None:
        try:
            anyio.from_thread.run(ctx.report_progress, step, total, message)
        except Exception as exc:  # progress is best effort; the run goes on without it
            log.debug("progress not reported: %s", exc)

    cancel = threading.Event()
    finished = threading.Event()

    def work() -> ValidationResult:
        try:
            return validate_recipe(request, lookup, progress=progress, cancel=cancel)
        finally:
            finished.set()

    try:
        return await anyio.to_thread.run_sync(work, abandon_on_cancel=True)
    except anyio.get_cancelled_exc_class():
        cancel.set()  # stops the build; the worker removes the copy, and we wait for that
        with anyio.CancelScope(shield=True):
            await anyio.to_thread.run_sync(finished.wait)
        raise


TOOL = Tool(
    validate_recipe_tool,
    name="validate_recipe",
    title="Run a recipe on the repository (on a copy)",
    description=DESCRIPTION,
    read_only=False,
    idempotent=False,
    open_world=True,
)
