"""The validation run end to end on fixture repositories whose gradlew/mvnw is a recording stand-in."""

from __future__ import annotations

import json
import re
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from fixtures.validation_support import (
    CI_DIFF,
    CI_RECIPE,
    InMemoryLookup,
    StandIn,
    make_fake_jdk,
    make_gradle_repo,
    make_maven_repo,
    no_remote_preflight,  # noqa: F401  (autouse)
    write_files,
)

from rewrite_assist.server.validation.models import ValidationResult
from rewrite_assist.server.validation.process import Cancelled
from rewrite_assist.server.validation.runner import (
    RunOptions,
    ValidationFailed,
    ValidationRequest,
    validate_recipe,
)
from rewrite_assist.server.validation.settings import EngineSettings


@dataclass
class Env:
    standin: StandIn
    options: RunOptions
    work: Path
    jdks: Path
    diff_file: Path
    tmp: Path
    progress: list[tuple[int, int, str]] = field(default_factory=list)


@pytest.fixture
def env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Env:
    jdks = tmp_path / "jdks"
    for major in (11, 17, 21):
        make_fake_jdk(jdks, major)
    diff_file = tmp_path / "ci.diff"
    diff_file.write_text(CI_DIFF)
    work = tmp_path / "work"
    work.mkdir()
    options = RunOptions(
        jdk_search_dirs=[jdks],
        jdk_env={},
        settings=EngineSettings(preflight=False),
        temp_dir=work,
        runs_dir=tmp_path / "runs",
        user_home=tmp_path / "home",
    )
    return Env(StandIn(tmp_path, monkeypatch), options, work, jdks, diff_file, tmp_path)


def run(env: Env, repo: Path, recipe: str = CI_RECIPE, **kw: Any) -> ValidationResult:
    env.progress.clear()
    request = ValidationRequest(repo=repo, recipe_text=recipe, **kw)
    return validate_recipe(request, InMemoryLookup(), options=env.options, progress=lambda *a: env.progress.append(a))


@pytest.mark.parametrize("dsl", ["groovy", "kotlin"])
def test_gradle_run_through_init_script(env: Env, dsl: str) -> None:
    repo = make_gradle_repo(env.tmp / f"repo-{dsl}", dsl)
    env.standin.configure(rewrite={"apply_diff": str(env.diff_file), "output": "BUILD SUCCESSFUL"})
    result = run(env, repo, pr_diff_text=CI_DIFF)

    assert result.status == "ok", result.diagnosis
    assert result.build_tool == "gradle"
    assert result.recipe_name == "com.example.UpgradeCi"
    assert result.java_version == 17
    assert result.jdk_home == str((env.jdks / "jdk-17").resolve())
    assert result.modules == ["org.openrewrite.recipe:rewrite-github-actions:3.29.0"]
    assert result.files_changed == [".github/workflows/ci.yml"]
    assert result.diff is not None and "+      - name: Set up JDK 21" in result.diff
    assert Path(str(result.diff_path)).read_text() == result.diff
    assert (result.metrics or {})["f1_score"] == 1.0 and (result.metrics or {})["true_positives"] == 4
    stats = json.loads(Path(str(result.stats_path)).read_text())
    assert list(stats)[:2] == ["diff_files", "metrics"] and stats["metrics"]["is_perfect_match"] is True
    assert "BUILD SUCCESSFUL" in Path(str(result.log_path)).read_text()
    assert [p[0] for p in env.progress] == [1, 2, 3, 4, 5, 6, 8]
    assert all(p[1] == 8 for p in env.progress)

    (call,) = env.standin.calls()
    assert call["tool"] == "gradlew"
    assert call["java_home"] == result.jdk_home
    assert call["argv"][-1] == "rewriteRun" and "--no-daemon" in call["argv"]
    script = call["init_script"]
    assert "activeRecipe('com.example.UpgradeCi')" in script
    assert "rewrite('org.openrewrite.recipe:rewrite-github-actions:3.29.0')" in script
    assert script.count("rewrite('") == 1  # exactly the needed module, nothing from a fixed list
    assert "'**/gradle-wrapper.jar'" in script and "'gradlew'" in script
    config_path = script.split("setConfigFile(new File('")[1].split("'")[0]
    assert not Path(config_path).exists()  # the temporary YAML went away with the copy
    assert Path(call["cwd"]).parent.parent == env.work
    assert list(env.work.iterdir()) == []
    assert not (repo / "rewrite.yml").exists()
    assert (repo / ".github/workflows/ci.yml").read_text().count("'17'") == 1  # original untouched


def test_maven_run_on_the_command_line(env: Env) -> None:
    repo = make_maven_repo(env.tmp / "mvn")
    env.standin.configure(rewrite={"apply_diff": str(env.diff_file)})
    out = env.tmp / "out"
    result = run(env, repo, output_dir=out, pr_diff_text=CI_DIFF)
    assert result.status == "ok"
    assert result.build_tool == "maven" and result.java_version == 17
    assert result.java_version_evidence == [
        "pom.xml: <maven.compiler.release>${java.version}</maven.compiler.release>",
        "pom.xml: <java.version>17</java.version>",
    ]
    assert sorted(p.name for p in out.iterdir()) == ["recipe.diff", "run.log", "stats.json"]
    (call,) = env.standin.calls()
    argv = call["argv"]
    assert "org.openrewrite.maven:rewrite-maven-plugin:6.46.1:run" in argv
    assert "-Drewrite.activeRecipes=com.example.UpgradeCi" in argv
    assert "-Drewrite.recipeArtifactCoordinates=org.openrewrite.recipe:rewrite-github-actions:3.29.0" in argv
    assert call["config"] == CI_RECIPE  # the YAML handed to -Drewrite.configLocation
    assert "mvnw" in next(a for a in argv if a.startswith("-Drewrite.exclusions="))


def test_check_build_reports_compilation(env: Env) -> None:
    repo = make_gradle_repo(env.tmp / "repo")
    env.standin.configure(
        rewrite={"apply_diff": str(env.diff_file)},
        compile={"output": "App.java:3: error: cannot find symbol", "exit": 1},
    )
    result = run(env, repo, check_build=True)
    assert result.status == "ok"
    check = result.build_check
    assert check is not None and not check.passed and check.exit_code == 1
    assert check.command[-2:] == ["compileJava", "compileTestJava"]
    assert "cannot find symbol" in check.log_tail and (check.diagnosis or "").startswith("compile error")
    assert [c["mode"] for c in env.standin.calls()] == ["rewrite", "compile"]

    env.standin.configure(rewrite={"apply_diff": str(env.diff_file)})
    rerun = run(env, repo, check_build=True).build_check
    assert rerun is not None and rerun.passed


def test_no_changes(env: Env) -> None:
    repo = make_gradle_repo(env.tmp / "repo")
    env.standin.configure(rewrite={"write": {"build/reports/rewrite/rewrite.patch": "x", ".gradle/x": "y"}})
    result = run(env, repo, pr_diff_text=CI_DIFF)
    assert result.status == "no_changes"
    assert result.files_changed == []  # build outputs written by the run do not count
    assert (result.metrics or {})["recall"] == 0.0 and (result.metrics or {})["false_negatives"] == 4


@pytest.mark.parametrize(
    ("output", "status", "diagnosis"),
    [
        (
            "> Could not resolve org.openrewrite.recipe:rewrite-github-actions:3.29.0.",
            "environment_error",
            "missing module",
        ),
        (
            "Caused by: java.lang.IllegalArgumentException: Unsupported class file major version 65",
            "environment_error",
            "wrong JDK",
        ),
        ("java.net.UnknownHostException: plugins.gradle.org", "environment_error", "no network"),
        (
            "> Could not GET 'https://artifacts.codegenomeproject.org/maven/x.pom'. Received status code 401 from "
            "server: Unauthorized",
            "environment_error",
            "credentials refused",
        ),
        ("Recipe(s) not found: com.example.UpgradeCi", "build_failed", "recipe not found"),
        ("weird failure", "build_failed", "the gradle run failed with exit code 1"),
    ],
)
def test_build_failure_is_diagnosed(env: Env, output: str, status: str, diagnosis: str) -> None:
    repo = make_gradle_repo(env.tmp / "repo")
    trace = "\n".join(f"\tat org.example.Frame{i}.run(Frame{i}.java:{i})" for i in range(40))
    env.standin.configure(rewrite={"output": f"{output}\n{trace}\n\t... 12 more", "exit": 1})
    result = run(env, repo)
    assert result.status == status
    assert (result.diagnosis or "").startswith(diagnosis) and "\n" not in (result.diagnosis or "")
    if status == "build_failed":
        assert output in (result.log_tail or "")
        assert "Frame" not in (result.log_tail or "") and "more" not in (
            result.log_tail or ""
        )  # traces stay in run.log
    else:
        assert result.log_tail is None and str(result.log_path) in (result.diagnosis or "")
    if diagnosis == "credentials refused":
        assert "REWRITE_ASSIST_MAVEN_TOKEN" in (result.diagnosis or "")
    assert "Frame39" in Path(str(result.log_path)).read_text()
    assert result.diff_path is None
    assert list(env.work.iterdir()) == []


def test_timeout_stops_the_build_and_removes_the_copy(env: Env) -> None:
    repo = make_gradle_repo(env.tmp / "repo")
    env.standin.configure(rewrite={"sleep": 60})
    start = time.monotonic()
    result = run(env, repo, timeout_s=1.5)
    assert time.monotonic() - start < 20
    assert result.status == "timeout"
    assert "timed out" in (result.log_tail or "")
    assert list(env.work.iterdir()) == []


def test_cancellation_stops_the_build_and_removes_the_copy(env: Env) -> None:
    repo = make_gradle_repo(env.tmp / "repo")
    env.standin.configure(rewrite={"sleep": 60})
    cancel = threading.Event()

    def progress(step: int, total: int, message: str) -> None:
        if step == 5:
            threading.Timer(0.5, cancel.set).start()

    request = ValidationRequest(repo=repo, recipe_text=CI_RECIPE)
    with pytest.raises(Cancelled):
        validate_recipe(request, InMemoryLookup(), options=env.options, progress=progress, cancel=cancel)
    assert list(env.work.iterdir()) == []


def test_lint_failure_stops_before_any_build(env: Env) -> None:
    repo = make_gradle_repo(env.tmp / "repo")
    bad = CI_RECIPE.replace("SetupJavaUpgradeJavaVersion", "SetupJavaUpgradeJavaVersions")
    result = run(env, repo, recipe=bad)
    assert result.status == "lint_failed"
    assert "unknown recipe" in (result.diagnosis or "")
    assert (
        result.lint is not None
        and result.lint.errors[0].suggestions[0] == "org.openrewrite.github.SetupJavaUpgradeJavaVersion"
    )
    assert env.standin.calls() == []
    invalid = run(env, repo, recipe="type: [unclosed\n")
    assert invalid.status == "lint_failed" and "invalid YAML" in (invalid.diagnosis or "")


def test_uncommitted_changes_are_used_and_never_lost(env: Env) -> None:
    repo = make_gradle_repo(env.tmp / "repo")
    wip = "class Wip {}\n"
    (repo / "Wip.java").write_text(wip)
    ci = repo / ".github/workflows/ci.yml"
    ci.write_text(ci.read_text() + "# local edit\n")
    env.standin.configure(rewrite={"apply_diff": str(env.diff_file)})
    result = run(env, repo)
    assert result.status == "ok"
    assert result.files_changed == [".github/workflows/ci.yml"]
    assert "+# local edit" not in (result.diff or "")  # part of the baseline, not of the recipe's change
    assert any("uncommitted" in w for w in result.warnings)
    assert (repo / "Wip.java").read_text() == wip and ci.read_text().endswith("# local edit\n")


def test_environment_errors(env: Env) -> None:
    plain = env.tmp / "plain"
    write_files(plain, {"build.gradle": ""})
    with pytest.raises(ValidationFailed, match="not a git work tree") as info:
        run(env, plain)
    assert info.value.bad_input

    from fixtures.validation_support import commit_all

    nobuild = env.tmp / "nobuild"
    write_files(nobuild, {"README.md": "hi\n"})
    commit_all(nobuild)
    with pytest.raises(ValidationFailed, match="No build file"):
        run(env, nobuild)

    repo = make_gradle_repo(env.tmp / "repo")
    (repo / "build.gradle").write_text((repo / "build.gradle").read_text().replace("of(17)", "of(25)"))
    missing_jdk = run(env, repo)
    assert missing_jdk.status == "environment_error" and env.standin.calls() == []
    assert re.match(
        r"wrong or missing JDK: .*needs Java 25 but no JDK 25 was found \(found: ", missing_jdk.diagnosis or ""
    )
    # an explicit java_home wins, with a warning
    result_jdk = make_fake_jdk(env.tmp / "other", 21)
    env.standin.configure(rewrite={"apply_diff": str(env.diff_file)})
    result = run(env, repo, java_home=result_jdk)
    assert result.status == "ok" and result.jdk_version == "21.0.2"
    assert any("java_home is JDK 21 but the build declares Java 25" in w for w in result.warnings)
    with pytest.raises(ValidationFailed, match="is not a JDK"):
        run(env, repo, java_home=env.tmp)
    assert list(env.work.iterdir()) == []
