"""check-run on run folders assembled from real PR cases (../shared/data/pr-cases).

Each run folder is built the way the workflow builds one: real ``pr.diff``, real recipe YAMLs and the
recipe diffs OpenRewrite produced for them, stats written by ``analyze_diffs`` (as validate_recipe writes
them), and the anchor project's own recommendation copied into ``result/``. The anchor picked its winner
independently, so a clean run passing also means our rule agrees with it on these cases.
"""

from __future__ import annotations

import argparse
import json
import shutil
from pathlib import Path

import pytest
from conftest import shared_data_dir

from rewrite_assist.agents import cli as workflow_cli
from rewrite_assist.agents.check_run import RunCheck, check_run
from rewrite_assist.agents.report import render_text
from rewrite_assist.server.catalog.lookup import RecipeLookup
from rewrite_assist.server.diffs import analyze_diffs

PR_CASES = shared_data_dir() / "pr-cases"
CHECKPOINT = "2025-12-06-opus-mcp"

# Written for this test from ecommerce-catalog-pr2's diff, in the shape the orchestrator prompt asks for (its
# title line, the PR's title, is read from the case's case.json in ../shared: ``build_run``).
ECOMMERCE_INTENT_TREE = """## Strategic goal
Move the project from Java 17 to Java 21.

## Docker: run on Java 21 images

### Switch base images
- `Dockerfile`: builder image `eclipse-temurin:17-jdk-alpine` → `eclipse-temurin:21-jdk-alpine`
- `Dockerfile`: runtime image `eclipse-temurin:17-jre-alpine` → `eclipse-temurin:21-jre-alpine`

## GitHub Actions: build with JDK 21

### setup-java
- `.github/workflows/ci.yml`: `java-version` `'17'` → `'21'`
- `.github/workflows/ci.yml`: step name `Set up JDK 17` → `Set up JDK 21`

## Gradle: Java 21 toolchain and Gradle 8.5

### Toolchain
- `build.gradle`: replace `sourceCompatibility` and `targetCompatibility` with `JavaLanguageVersion.of(21)`

### Wrapper
- `build.gradle`: wrapper task `gradleVersion` `8.1` → `8.5`

## Documentation: say Java 21

### README
- `README.md`: `Java 17` → `Java 21` in the technology stack and the prerequisites
- Keep the documentation consistent with the new runtime
"""


def case_dir(case: str) -> Path:
    path = PR_CASES / case
    if not (path / "pr.diff").is_file():
        pytest.skip(f"PR case {case} not found under {PR_CASES} (expected ../shared beside the checkout)")
    return path


def build_run(
    tmp_path: Path, case: str, checkpoint: str = CHECKPOINT, intent_tree: str | None = None
) -> tuple[Path, int]:
    """A complete run folder for ``case``; returns it and the option the anchor recommended."""
    src = case_dir(case)
    run = tmp_path / f"{case}-run"
    (run / "result").mkdir(parents=True)
    meta = json.loads((src / "case.json").read_text())
    pr_text = (src / "pr.diff").read_text()
    (run / "pr.diff").write_text(pr_text)
    (run / "pr.json").write_text(
        json.dumps(
            {
                "repo": meta["repo"],
                "pr_url": meta.get("pr_url"),
                "pr_number": meta.get("pr_number"),
                "base_commit": meta.get("default_commit"),
                "head_commit": meta.get("pr_commit"),
                "title": meta.get("pr_title"),
                "workspace": str(run / "workspace"),
            }
        )
    )
    title = f"# Intent tree: {meta.get('pr_title')}\n"
    (run / "intent-tree.md").write_text(f"{title}\n{intent_tree}" if intent_tree else title)
    recommended = None
    for n in (1, 2, 3):
        stem = f"recipe-{checkpoint}-option-{n}"
        stats = json.loads((src / f"stats-{checkpoint}-option-{n}.json").read_text())
        recommended = int(stats["recommended_option"].split("-")[1])
        shutil.copy(src / f"{stem}.yaml", run / f"option-{n}-recipe.yaml")
        shutil.copy(src / f"{stem}.diff", run / f"option-{n}-recipe.diff")
        (run / f"option-{n}-creation-analysis.md").write_text(f"## Approach\nfixture option {n}\n")
        analysis = analyze_diffs(pr_text, (src / f"{stem}.diff").read_text())
        (run / f"option-{n}-stats.json").write_text(analysis.to_json_text())
        (run / f"option-{n}-validation-analysis.md").write_text(
            f"# Validation: option-{n}\nStatus: ok\nBuild check: not run\n\n## Metrics\n..."
        )
    assert recommended is not None
    copy_as_recommended(run, recommended)
    return run, recommended


def copy_as_recommended(run: Path, n: int) -> None:
    shutil.copy(run / f"option-{n}-recipe.yaml", run / "result" / "recommended-recipe.yaml")
    shutil.copy(run / f"option-{n}-recipe.diff", run / "result" / "recommended-recipe.diff")
    shutil.copy(run / f"option-{n}-stats.json", run / "result" / "recommended-stats.json")
    (run / "result" / "summary.md").write_text(f"Recommended: option-{n}\n\n| option | ... |\n")


def check(run: Path) -> RunCheck:
    return check_run(run, lookup=None, lookup_note="no catalog in this test")


@pytest.mark.parametrize(
    "case",
    [
        "ecommerce-catalog-pr2",
        "simple-blog-platform-pr3",
        "task-management-api-pr3",
        "user-management-service-pr3",
        "weather-monitoring-service-pr3",
    ],
)
def test_clean_runs_pass_and_rule_agrees_with_the_anchor(tmp_path: Path, case: str) -> None:
    run, recommended = build_run(tmp_path, case)
    report = check(run)
    assert report.problems == [], render_text(report)
    assert report.ok
    assert {s.option: s.state for s in report.stats} == {1: "match", 2: "match", 3: "match"}
    assert report.decision.expected == recommended
    assert report.decision.recommended == recommended
    assert report.decision.agrees
    assert all(a.state == "present" for a in report.artifacts)


def test_lint_without_catalog_is_reported_as_structure_only(tmp_path: Path) -> None:
    run, _ = build_run(tmp_path, "ecommerce-catalog-pr2")
    report = check(run)
    assert [c.path for c in report.lint] == [
        "option-1-recipe.yaml",
        "option-2-recipe.yaml",
        "option-3-recipe.yaml",
        "result/recommended-recipe.yaml",
    ]
    assert all(not c.catalog_checked for c in report.lint)
    assert all("not checked (no catalog in this test)" in c.note for c in report.lint)
    assert "recipe ids and options not checked" in render_text(report)


def test_broken_recipe_yaml_is_a_lint_problem(tmp_path: Path) -> None:
    run, _ = build_run(tmp_path, "ecommerce-catalog-pr2")
    (run / "option-1-recipe.yaml").write_text("type: specs.openrewrite.org/v1beta/recipe\nrecipeList: [\n")
    report = check(run)
    lint = {c.path: c for c in report.lint}
    assert lint["option-1-recipe.yaml"].state == "errors"
    assert lint["option-2-recipe.yaml"].state == "ok"
    assert any(p.startswith("lint: option-1-recipe.yaml:") for p in report.problems)


def test_altered_stats_number_is_reported_with_both_values(tmp_path: Path) -> None:
    run, _ = build_run(tmp_path, "ecommerce-catalog-pr2")
    path = run / "option-1-stats.json"
    stats = json.loads(path.read_text())
    assert stats["metrics"]["f1_score"] == 0.3846
    stats["metrics"]["f1_score"] = 0.91
    stats["metrics"]["true_positives"] = 19
    path.write_text(json.dumps(stats))
    report = check(run)
    option1 = next(s for s in report.stats if s.option == 1)
    assert option1.state == "mismatch"
    assert option1.mismatches == {
        "true_positives": {"recorded": 19, "recomputed": 10},
        "f1_score": {"recorded": 0.91, "recomputed": 0.3846},
    }
    assert (
        "stats mismatch: option-1-stats.json: true_positives recorded 19 vs recomputed 10; "
        "f1_score recorded 0.91 vs recomputed 0.3846"
    ) in report.problems
    assert [s.state for s in report.stats if s.option != 1] == ["match", "match"]


def test_fabricated_stats_that_would_change_the_decision_are_flagged(tmp_path: Path) -> None:
    run, _ = build_run(tmp_path, "ecommerce-catalog-pr2")
    path = run / "option-1-stats.json"
    stats = json.loads(path.read_text())
    stats["metrics"].update(f1_score=1.0, precision=1.0, recall=1.0)
    path.write_text(json.dumps(stats))
    copy_as_recommended(run, 1)  # the run believed its own fabricated numbers
    report = check(run)
    assert report.decision.expected == 2
    assert report.decision.expected_from_recorded == 1
    assert not report.decision.agrees
    assert (
        "decision: recommended option-1, but the rule picks option-2; "
        "option-2 before option-1: higher F1 (1.0 vs 0.3846)"
    ) in report.problems
    assert "decision: the recorded stats would pick option-1, the recomputed ones option-2" in report.problems


def test_stats_without_a_diff_cannot_be_reproduced(tmp_path: Path) -> None:
    run, _ = build_run(tmp_path, "ecommerce-catalog-pr2")
    (run / "option-3-recipe.diff").unlink()
    report = check(run)
    option3 = next(s for s in report.stats if s.option == 3)
    assert option3.state == "no diff"
    assert "missing: option-3-recipe.diff (refinement)" in report.problems
    assert any(p.startswith("stats no diff: option-3-stats.json:") for p in report.problems)


def test_recipe_diff_that_is_not_a_diff_is_reported_not_raised(tmp_path: Path) -> None:
    run, _ = build_run(tmp_path, "ecommerce-catalog-pr2")
    (run / "option-1-recipe.diff").write_text("BUILD SUCCESSFUL in 12s\n")
    report = check(run)
    option1 = next(s for s in report.stats if s.option == 1)
    assert option1.state == "unreadable"
    assert option1.note.startswith("cannot analyse option-1-recipe.diff: ")
    assert any(p.startswith("stats unreadable: option-1-stats.json: cannot analyse") for p in report.problems)


def test_missing_artifact_is_named_with_its_phase(tmp_path: Path) -> None:
    run, _ = build_run(tmp_path, "task-management-api-pr3")
    (run / "option-2-validation-analysis.md").unlink()
    (run / "intent-tree.md").unlink()
    report = check(run)
    assert report.problems[:2] == [
        "missing: intent-tree.md (intent extraction)",
        "missing: option-2-validation-analysis.md (validation)",
    ]
    assert report.intents.state == "skipped"
    assert "intent-tree.md" in report.intents.note


def test_failed_validation_excuses_its_diff_and_stats(tmp_path: Path) -> None:
    run, _ = build_run(tmp_path, "ecommerce-catalog-pr2")
    for name in ("option-1-recipe.diff", "option-1-stats.json"):
        (run / name).unlink()
    (run / "option-1-validation-analysis.md").write_text(
        "# Validation: option-1\nStatus: lint_failed\nBuild check: not run\n"
    )
    report = check(run)
    states = {a.path: a for a in report.artifacts}
    assert states["option-1-recipe.diff"].state == "not expected"
    assert states["option-1-recipe.diff"].note == "validation status lint_failed"
    assert report.ok, report.problems
    row = next(r for r in report.decision.options if r.option == 1)
    assert not row.eligible and row.ineligible_reason == "status lint_failed"


def test_failed_build_makes_an_option_ineligible(tmp_path: Path) -> None:
    run, recommended = build_run(tmp_path, "task-management-api-pr3")
    assert recommended == 3
    (run / "option-3-validation-analysis.md").write_text("# Validation: option-3\nStatus: ok\nBuild check: failed\n")
    report = check(run)
    assert report.decision.expected == 1  # options 1 and 2 tie on every metric and count
    assert "option-1 before option-2: full tie, lower option number" in report.decision.reasons
    assert (
        "decision: recommended option-3, but the rule picks option-1; option-3 is not eligible: build check failed"
    ) in report.problems


def test_wrong_decision_is_reported_with_the_deciding_step(tmp_path: Path) -> None:
    run, recommended = build_run(tmp_path, "user-management-service-pr3")
    assert recommended == 2
    copy_as_recommended(run, 3)
    report = check(run)
    assert not report.decision.agrees
    assert report.decision.recommended == 3 and report.decision.expected == 2
    assert (
        "decision: recommended option-3, but the rule picks option-2; "
        "option-2 before option-3: higher F1 (0.7143 vs 0.6667)"
    ) in report.problems


def test_summary_naming_another_option_than_the_result_copy(tmp_path: Path) -> None:
    run, _ = build_run(tmp_path, "ecommerce-catalog-pr2")
    (run / "result" / "summary.md").write_text("Recommended: option-3\n")
    report = check(run)
    assert "decision: summary names option-3, but the result YAML copies option-2" in report.problems


def test_result_diff_that_is_not_a_copy(tmp_path: Path) -> None:
    run, _ = build_run(tmp_path, "ecommerce-catalog-pr2")
    shutil.copy(run / "option-1-recipe.diff", run / "result" / "recommended-recipe.diff")
    report = check(run)
    assert "decision: result/recommended-recipe.diff is not a copy of option-2-recipe.diff" in report.problems


def test_no_recommendation_needs_no_result_files(tmp_path: Path) -> None:
    run, _ = build_run(tmp_path, "ecommerce-catalog-pr2")
    for n in (1, 2, 3):
        (run / f"option-{n}-validation-analysis.md").write_text("Status: timeout\nBuild check: not run\n")
        (run / f"option-{n}-recipe.diff").unlink()
        (run / f"option-{n}-stats.json").unlink()
    for name in ("recommended-recipe.yaml", "recommended-recipe.diff", "recommended-stats.json"):
        (run / "result" / name).unlink()
    (run / "result" / "summary.md").write_text("Recommended: none\n\nEvery option timed out.\n")
    report = check(run)
    assert report.problems == [], report.problems
    assert report.decision.expected is None and report.decision.agrees


def test_intent_coverage_on_the_recommended_diff(tmp_path: Path) -> None:
    run, _ = build_run(tmp_path, "ecommerce-catalog-pr2", intent_tree=ECOMMERCE_INTENT_TREE)
    report = check(run)
    assert report.intents.summary == "7 of 8 intents verifiable, 7 of 7 satisfied"
    assert report.intents.unverifiable == ["Keep the documentation consistent with the new runtime"]
    assert report.intents.diff_used == "result/recommended-recipe.diff"


def test_intent_naming_a_file_the_pr_leaves_alone_is_a_problem(tmp_path: Path) -> None:
    tree = ECOMMERCE_INTENT_TREE + "- `settings.gradle`: rename the root project\n"
    run, _ = build_run(tmp_path, "ecommerce-catalog-pr2", intent_tree=tree)
    report = check(run)
    assert report.intents.outside_pr == ["`settings.gradle`: rename the root project"]
    assert report.problems == [
        "intent-tree.md: names a file pr.diff does not change: `settings.gradle`: rename the root project"
    ]


def test_intent_coverage_names_what_a_weaker_option_misses(tmp_path: Path) -> None:
    run, _ = build_run(tmp_path, "ecommerce-catalog-pr2", intent_tree=ECOMMERCE_INTENT_TREE)
    copy_as_recommended(run, 1)
    report = check(run)
    assert report.intents.summary == "7 of 8 intents verifiable, 4 of 7 satisfied"
    missed = {row.text: row.missing for row in report.intents.unsatisfied}
    assert missed["`.github/workflows/ci.yml`: step name `Set up JDK 17` → `Set up JDK 21`"] == [
        "Set up JDK 17",
        "Set up JDK 21",
    ]
    wrapper = "`build.gradle`: wrapper task `gradleVersion` `8.1` → `8.5`"
    assert missed[wrapper] == ["gradleVersion", "8.1", "8.5"]
    text = render_text(report)
    assert "4 of 7 satisfied" in text and "unverifiable: Keep the documentation" in text


def _run_cli(argv: list[str]) -> int:
    parser = argparse.ArgumentParser()
    workflow_cli.register(parser.add_subparsers())
    args = parser.parse_args(argv)
    return int(args.func(args))


def test_cli_exit_codes_and_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    run, _ = build_run(tmp_path, "ecommerce-catalog-pr2")
    assert _run_cli(["check-run", str(run), "--json", "--no-lint"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["problems"] == [] and data["decision"]["expected"] == 2
    assert data["lint"][0]["note"] == "recipe ids and options not checked (--no-lint given)"
    (run / "option-2-stats.json").write_text("{}")
    assert _run_cli(["check-run", str(run), "--no-lint"]) == 1
    out = capsys.readouterr().out
    assert "option-2: UNREADABLE: option-2-stats.json has no 'metrics' object" in out
    assert out.rstrip().endswith("problem(s)")


def test_cli_rejects_what_is_not_a_run_folder(tmp_path: Path) -> None:
    from rewrite_assist.server.errors import UserError as CommandError

    with pytest.raises(CommandError, match="is not a directory") as missing:
        _run_cli(["check-run", str(tmp_path / "nope"), "--no-lint"])
    assert missing.value.exit_code == 2
    with pytest.raises(CommandError, match="not a /rewrite-assist run folder") as empty:
        _run_cli(["check-run", str(tmp_path), "--no-lint"])
    assert empty.value.exit_code == 2


@pytest.mark.slow
def test_lint_against_the_real_catalog(tmp_path: Path, catalog: RecipeLookup) -> None:
    run, _ = build_run(tmp_path, "ecommerce-catalog-pr2")
    path = run / "option-1-recipe.yaml"
    path.write_text(
        path.read_text().replace(
            "org.openrewrite.gradle.UpdateGradleWrapper", "org.openrewrite.gradle.UpdateGradleWraper"
        )
    )
    report = check_run(run, lookup=catalog)
    lint = {c.path: c for c in report.lint}
    assert all(c.catalog_checked and not c.note for c in report.lint)
    assert lint["option-2-recipe.yaml"].state == "ok", lint["option-2-recipe.yaml"].errors
    assert lint["option-1-recipe.yaml"].state == "errors"
    assert any("UpdateGradleWraper" in error for error in lint["option-1-recipe.yaml"].errors)


def test_no_catalog_ingested_means_no_database_is_started(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("REWRITE_ASSIST_HOME", str(tmp_path / "home"))
    monkeypatch.delenv("REWRITE_ASSIST_DATABASE_URL", raising=False)
    lookup, note = workflow_cli._open_catalog()
    assert lookup is None
    assert note == "no catalog: none ingested yet; run `rewrite-assist ingest`"
    assert not (tmp_path / "home").exists()
