"""CLI: ``validate`` (run a recipe on a copy of a repository), ``lint-recipe`` (check a recipe YAML) and
``doctor`` (can this machine run ``validate``?).

Exit codes: 0 when the recipe ran and changed something (and compiled, with ``--check-build``) or lint
found no error; 1 when lint found errors, the machine lacks something (``environment_error``) or the run
failed, timed out or changed nothing; 2 for bad arguments (missing files, not a git repository, no build
file, ``--java-home`` not a JDK). ``doctor`` exits 0 only when everything ``validate`` needs is there.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import logging
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from ..errors import BadInput, UserError

log = logging.getLogger(__name__)


def register(subparsers: Any) -> None:
    p = subparsers.add_parser(
        "validate",
        help="run a recipe on an isolated copy of a repository with OpenRewrite and report its diff",
        description="Lint the recipe, run it with the project's build tool (Gradle init script or "
        "rewrite-maven-plugin) on a temporary copy, capture the diff and, with --pr-diff, score it.",
    )
    p.add_argument("--repo", required=True, type=Path, help="the git work tree to run on (never modified)")
    p.add_argument("--recipe", required=True, type=Path, help="recipe YAML file (rewrite.yml format)")
    p.add_argument("--recipe-name", help="recipe to run (optional when the file declares one recipe)")
    p.add_argument("--pr-diff", help="the PR's diff file, to score the recipe's diff against it")
    p.add_argument("--java-home", type=Path, help="JDK to run the build with (default: detected)")
    p.add_argument("--output-dir", type=Path, help="where recipe.diff, stats.json and run.log go")
    p.add_argument("--timeout", type=float, default=900.0, help="seconds before the run is stopped (default 900)")
    p.add_argument("--check-build", action="store_true", help="compile main and test sources after the recipe")
    p.add_argument(
        "--no-preflight",
        action="store_true",
        help="do not ask the repositories for the plugin and modules first (also REWRITE_ASSIST_PREFLIGHT=off)",
    )
    p.add_argument(
        "--offline", action="store_true", help="build offline against the local Gradle/Maven caches (checked first)"
    )
    p.add_argument("--json", action="store_true", help="print the full result as JSON on stdout")
    p.set_defaults(func=run_validate)

    p = subparsers.add_parser(
        "doctor",
        help="check this machine can run validate: catalog, model, JDKs, build tools, repositories and credentials",
    )
    p.add_argument("--offline", action="store_true", help="check the local caches instead of the repositories")
    p.add_argument("--json", action="store_true", help="print the checks as JSON on stdout")
    p.set_defaults(func=run_doctor)

    p = subparsers.add_parser(
        "lint-recipe",
        help="check a recipe YAML: structure, recipe names and options against the catalog",
    )
    p.add_argument("file", help="recipe YAML file, or - for stdin")
    p.add_argument("--recipe-name", help="recipe that would run (optional when the file declares one)")
    p.add_argument("--no-catalog", action="store_true", help="check the structure only, without the catalog")
    p.add_argument("--json", action="store_true", help="print the report as JSON on stdout")
    p.set_defaults(func=run_lint)


def open_lookup() -> Any:
    """The catalog store, or None (warned) when no catalog is available: lint still checks structure."""
    from ..catalog.db import Database, DatabaseUnavailable
    from ..catalog.store import CatalogNotReady, CatalogStore

    try:
        store = CatalogStore(Database.from_environment())
        store.check_ready()
        return store
    except (DatabaseUnavailable, CatalogNotReady) as exc:
        log.warning("recipe names are not checked: %s", exc)
        return None


@contextlib.contextmanager
def _catalog_errors() -> Iterator[None]:
    """A catalog database that fails mid-command is one line on stderr, not a traceback."""
    from ..catalog.db import DatabaseUnavailable
    from ..catalog.store import CatalogNotReady

    try:
        yield
    except (DatabaseUnavailable, CatalogNotReady) as exc:
        raise UserError(f"the recipe catalog failed: {exc}") from exc


def _read_recipe(arg: str) -> tuple[str, str]:
    from .inputs import load_recipe_arg

    if arg == "-":
        return "<stdin>", sys.stdin.read()
    return load_recipe_arg(arg)


def _print_issues(label: str, report: Any) -> None:
    for issue in [*report.errors, *report.warnings]:
        where = f"{label}:{issue.line}" if issue.line else label
        hint = f" (did you mean: {', '.join(issue.suggestions)})" if issue.suggestions else ""
        print(f"{where}: {issue.severity}: {issue.path}: {issue.message}{hint}")


def run_lint(args: argparse.Namespace) -> int:
    from .lint import lint_recipe

    label, text = _read_recipe(args.file)
    lookup = None if args.no_catalog else open_lookup()
    with _catalog_errors():
        report = lint_recipe(text, lookup, args.recipe_name)
    if args.json:
        print(report.model_dump_json(indent=2))
    else:
        _print_issues(label, report)
        runs = f"; runs {report.recipe_name}" if report.recipe_name else ""
        print(f"{label}: {report.summary()}{runs}")
    return 0 if report.ok else 1


def _progress(step: int, total: int, message: str) -> None:
    print(f"[{step}/{total}] {message}", file=sys.stderr, flush=True)


def _print_result(result: Any) -> None:
    print(f"status: {result.status}")
    print(f"recipe: {result.recipe_name}")
    if result.lint is not None and (result.lint.errors or result.lint.warnings):
        _print_issues("recipe", result.lint)
    if result.build_tool:
        print(f"build: {result.build_tool}; Java {result.java_version or '?'}; JDK {result.jdk_home}")
    if result.modules:
        print("modules: " + ", ".join(result.modules))
    if result.repository and result.build_tool:
        print(f"repository: {result.repository}")
    if result.files_changed:
        print(f"files changed ({len(result.files_changed)}): " + ", ".join(result.files_changed))
    if result.metrics:
        m = result.metrics
        print(
            f"metrics: precision {m['precision']}, recall {m['recall']}, f1 {m['f1_score']} "
            f"(TP {m['true_positives']}, FP {m['false_positives']}, FN {m['false_negatives']})"
        )
    if result.build_check is not None:
        print(f"build check: {'passed' if result.build_check.passed else 'FAILED'}")
    for warning in result.warnings:
        print(f"warning: {warning}")
    if result.diagnosis:
        print(f"diagnosis: {result.diagnosis}")
    for name, value in (("diff", result.diff_path), ("stats", result.stats_path), ("log", result.log_path)):
        if value:
            print(f"{name}: {value}")
    # Only an unexplained failure shows the log tail (stack frames left out); a diagnosis says enough.
    if result.status in {"build_failed", "timeout"} and result.log_tail and not _explained(result):
        print("log tail:\n" + result.log_tail)


def _explained(result: Any) -> bool:
    return bool(result.diagnosis) and not result.diagnosis.startswith(f"the {result.build_tool} run failed")


def run_validate(args: argparse.Namespace) -> int:
    from ..diffs import load_diff
    from .runner import ValidationRequest, validate_recipe

    if args.timeout <= 0:
        raise BadInput("--timeout must be a positive number of seconds")
    _, recipe_text = _read_recipe(str(args.recipe))
    pr_text, pr_label = None, "pr.diff"
    if args.pr_diff:
        pr_label, pr_text = load_diff(args.pr_diff, what="PR diff")
    request = ValidationRequest(
        repo=args.repo,
        recipe_text=recipe_text,
        recipe_name=args.recipe_name,
        pr_diff_text=pr_text,
        pr_diff_label=pr_label,
        java_home=args.java_home,
        timeout_s=args.timeout,
        check_build=args.check_build,
        output_dir=args.output_dir,
        preflight=False if args.no_preflight else None,
        offline=args.offline,
    )
    with _catalog_errors():
        result = validate_recipe(request, open_lookup(), progress=_progress)
    if args.json:
        print(json.dumps(result.model_dump(mode="json"), indent=2))
    else:
        _print_result(result)
    build_ok = result.build_check is None or result.build_check.passed
    return 0 if result.status == "ok" and build_ok else 1


def run_doctor(args: argparse.Namespace) -> int:
    from .doctor import as_json, ready, run_checks

    checks = run_checks(offline=args.offline)
    if args.json:
        print(json.dumps(as_json(checks), indent=2))
    else:
        for check in checks:
            print(check.line())
        verdict = "validate can run" if ready(checks) else "validate cannot run until the FAIL lines are fixed"
        print(verdict)
    return 0 if ready(checks) else 1
