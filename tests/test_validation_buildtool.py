"""The build-tool seam: the runner asks the detected tool for everything, so a third build tool is one class
(plus its entry in the registry) and no code chooses a tool by comparing names."""

from __future__ import annotations

import re
from collections.abc import Mapping
from pathlib import Path

import pytest
from fixtures.validation_support import (
    APP_JAVA,
    CI_DIFF,
    CI_RECIPE,
    CI_YML,
    InMemoryLookup,
    StandIn,
    commit_all,
    make_fake_jdk,
    no_remote_preflight,  # noqa: F401  (autouse)
    write_files,
    write_standin,
)

from rewrite_assist.server.validation import registry
from rewrite_assist.server.validation.buildtool import (
    Artifact,
    BuildSetup,
    BuildTool,
    RewriteContext,
    RewriteInvocation,
)
from rewrite_assist.server.validation.javaversion import JavaRequirement
from rewrite_assist.server.validation.registry import detect_build
from rewrite_assist.server.validation.runner import RunOptions, ValidationRequest, validate_recipe
from rewrite_assist.server.validation.settings import EngineSettings

VALIDATION = Path(__file__).resolve().parents[1] / "server" / "validation"


class SbtTool(BuildTool):
    """A made-up third tool: `build.sbt`, wrapper `sbtw` (the recording stand-in)."""

    name = "sbt"
    build_files = ("build.sbt",)
    wrapper = "sbtw"
    executable = "sbt"
    wrapper_exclusions = ("sbtw",)

    def rewrite_invocation(self, setup: BuildSetup, ctx: RewriteContext) -> RewriteInvocation:
        coords = ",".join(m.coordinates for m in ctx.modules)
        argv = [*setup.command(ctx.workdir), f"-Drewrite.configLocation={ctx.config_file}", f"rewriteRun {coords}"]
        return RewriteInvocation(argv, {"plugins.sbt": f"// {ctx.repository.url}\n"}, {"SBT_OPTS": "-Xmx1g"})

    def compile_args(self, settings: EngineSettings) -> list[str]:
        return ["test-compile"]  # what the stand-in recognises as a compile

    def java_requirement(self, project: Path) -> JavaRequirement:
        m = re.search(r"--release\", \"(\d+)", (project / "build.sbt").read_text())
        return JavaRequirement(int(m.group(1)), ["build.sbt: --release"]) if m else JavaRequirement(None)

    def plugin_artifacts(self, settings: EngineSettings) -> list[Artifact]:
        return [Artifact("org.openrewrite", "sbt-rewrite", "0.1.0")]

    def cached(self, artifact: Artifact, user_home: Path, env: Mapping[str, str]) -> bool:
        return False


def test_a_third_build_tool_is_one_class(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(registry, "BUILD_TOOLS", (*registry.BUILD_TOOLS, SbtTool()))
    repo = tmp_path / "repo"
    write_files(
        repo,
        {
            "build.sbt": 'javacOptions ++= Seq("--release", "17")\n',
            "src/main/java/com/example/App.java": APP_JAVA,
            ".github/workflows/ci.yml": CI_YML,
        },
    )
    write_standin(repo / "sbtw")
    commit_all(repo)
    diff = tmp_path / "ci.diff"
    diff.write_text(CI_DIFF)
    standin = StandIn(tmp_path, monkeypatch)
    standin.configure(rewrite={"apply_diff": str(diff)})
    options = RunOptions(
        jdk_search_dirs=[make_fake_jdk(tmp_path / "jdks", 17).parent],
        jdk_env={},
        settings=EngineSettings(preflight=False),
    )
    request = ValidationRequest(
        repo=repo, recipe_text=CI_RECIPE, pr_diff_text=CI_DIFF, check_build=True, output_dir=tmp_path / "out"
    )
    result = validate_recipe(request, InMemoryLookup(), options=options)
    assert result.status == "ok", result.diagnosis
    assert (result.build_tool, result.java_version, result.java_version_evidence) == (
        "sbt",
        17,
        ["build.sbt: --release"],
    )
    assert result.metrics is not None and result.metrics["f1_score"] == 1.0
    rewrite, compile_ = standin.calls()
    assert rewrite["tool"] == "sbtw" and rewrite["argv"][-1] == f"rewriteRun {result.modules[0]}"
    assert compile_["argv"] == ["test-compile"] and compile_["mode"] == "compile"
    assert result.build_check is not None and result.build_check.passed
    assert "plugins.sbt" in (tmp_path / "out" / "run.log").read_text()
    assert detect_build(repo, path_env="").name == "sbt"


def test_no_code_chooses_a_build_tool_by_name() -> None:
    compared = re.compile(r"""(==|!=|\bin)\s*\(?["'](gradle|maven)["']|["'](gradle|maven)["']\s*(==|!=)""")
    offenders = [
        f"{path.name}:{n}: {line.strip()}"
        for path in sorted(VALIDATION.glob("*.py"))
        for n, line in enumerate(path.read_text().splitlines(), 1)
        if compared.search(line)
    ]
    assert offenders == []
    # and the two tools really implement the whole interface
    for tool in registry.BUILD_TOOLS:
        assert not getattr(tool, "__abstractmethods__", None)
        assert tool.wrapper in " ".join(tool.wrapper_exclusions)
