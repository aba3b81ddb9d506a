"""Preflight and ``doctor`` against Maven repositories on 127.0.0.1 that demand basic auth: each outcome
(200 / 401 / 404 / unreachable / offline caches) and what a run or the doctor makes of it."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from fixtures.validation_support import (
    LoopbackRepository,
    RunEnv,
    closed_port_url,
    make_gradle_repo,
    make_maven_repo,
    no_remote_preflight,  # noqa: F401  (autouse)
    write_files,
)

from rewrite_assist.server.validation import doctor
from rewrite_assist.server.validation.repository import RepositorySettings
from rewrite_assist.server.validation.runner import RunOptions
from rewrite_assist.server.validation.settings import EngineSettings

USER, TOKEN = "alice", "preflight-token-91b2"
GITHUB = "org.openrewrite.recipe:rewrite-github-actions:3.29.0"
GRADLE_PLUGIN = "org.openrewrite:plugin:7.39.0"
BOM = "org.openrewrite.recipe:rewrite-recipe-bom:3.37.0"
MAVEN_PLUGIN = "org.openrewrite.maven:rewrite-maven-plugin:6.46.1"


@dataclass
class Env(RunEnv):
    repo: LoopbackRepository  # the OpenRewrite repository (auth)
    portal: LoopbackRepository  # the Gradle Plugin Portal (no auth)

    def options(self, user: str | None = USER, token: str | None = TOKEN, url: str | None = None) -> RunOptions:
        return RunOptions(
            jdk_search_dirs=[self.jdks],
            jdk_env={},
            settings=EngineSettings(gradle_plugin_repository=self.portal.url),
            temp_dir=self.work,
            runs_dir=self.tmp / "runs",
            repository=RepositorySettings(url or self.repo.url, "codegenome", user, token, "test"),
            user_home=self.home,
        )


@pytest.fixture
def env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Env]:
    base = RunEnv.create(tmp_path, monkeypatch)
    with LoopbackRepository(user=USER, token=TOKEN) as repo, LoopbackRepository() as portal:
        repo.serve(BOM, GITHUB, MAVEN_PLUGIN)
        portal.serve(GRADLE_PLUGIN)
        yield Env(base.tmp, base.home, base.jdks, base.work, base.standin, repo, portal)


def test_200_the_run_goes_on_and_the_log_says_what_was_checked(env: Env) -> None:
    result = env.run(make_gradle_repo(env.tmp / "g"), env.options(), output_dir=env.tmp / "out")
    assert result.status == "ok", result.diagnosis
    assert [(p.split("/")[-1], ok, sent) for p, ok, sent in env.repo.requests] == [
        ("rewrite-recipe-bom-3.37.0.pom", True, True),
        ("rewrite-github-actions-3.29.0.pom", True, True),
    ]
    # the plugin portal is asked without the repository's credentials
    assert [(p.split("/")[-1], sent) for p, _, sent in env.portal.requests] == [("plugin-7.39.0.pom", False)]
    log = (env.tmp / "out" / "run.log").read_text()
    assert f"preflight {GITHUB}: ok ({env.repo.url}/org/openrewrite/recipe/rewrite-github-actions/3.29.0/" in log
    assert len(env.standin.calls()) == 1

    assert env.run(make_maven_repo(env.tmp / "m"), env.options()).status == "ok"
    assert env.repo.requests[-2][0].endswith("rewrite-maven-plugin-6.46.1.pom")


@pytest.mark.parametrize(("user", "token", "says"), [(None, None, "none are set"), (USER, "wrong", "refused")])
def test_401_fails_fast_naming_the_repository_and_how_to_set_credentials(
    env: Env, user: str | None, token: str | None, says: str
) -> None:
    result = env.run(make_gradle_repo(env.tmp / "g"), env.options(user, token), output_dir=env.tmp / "out")
    assert result.status == "environment_error"
    diagnosis = result.diagnosis or ""
    assert diagnosis.startswith(f"preflight: repository {env.repo.url} answered HTTP 401")
    assert says in diagnosis and "REWRITE_ASSIST_MAVEN_TOKEN" in diagnosis and "--no-preflight" in diagnosis
    assert "\n" not in diagnosis
    assert env.standin.calls() == [] and list(env.work.iterdir()) == []  # before copying anything
    assert len(env.repo.requests) == 1  # fail fast: the first refusal ends the check
    assert "preflight failed" in (env.tmp / "out" / "run.log").read_text()


def test_404_fails_fast_naming_the_coordinates_and_the_override(env: Env) -> None:
    env.repo.paths.clear()
    env.repo.serve(BOM)
    result = env.run(make_gradle_repo(env.tmp / "g"), env.options())
    assert result.status == "environment_error" and env.standin.calls() == []
    diagnosis = result.diagnosis or ""
    assert f"not found in {env.repo.url}: {GITHUB}" in diagnosis
    assert "REWRITE_ASSIST_MODULE_VERSIONS=rewrite-github-actions=<version>" in diagnosis

    result = env.run(make_maven_repo(env.tmp / "m"), env.options())
    assert MAVEN_PLUGIN in (result.diagnosis or "") and "REWRITE_ASSIST_MAVEN_PLUGIN_VERSION" in (
        result.diagnosis or ""
    )


def test_an_overridden_version_is_what_preflight_asks_for(env: Env) -> None:
    options = env.options()
    options.settings = options.settings.model_copy(update={"module_versions": {"rewrite-github-actions": "3.1.0"}})
    result = env.run(make_gradle_repo(env.tmp / "g"), options)
    assert result.status == "environment_error"
    assert "org.openrewrite.recipe:rewrite-github-actions:3.1.0" in (result.diagnosis or "")
    assert env.repo.requests[-1][0].endswith("/rewrite-github-actions/3.1.0/rewrite-github-actions-3.1.0.pom")


def test_unreachable_repository_warns_and_goes_on(env: Env) -> None:
    result = env.run(make_gradle_repo(env.tmp / "g"), env.options(url=closed_port_url()))
    assert result.status == "ok"
    (warning,) = [w for w in result.warnings if "unreachable" in w]
    assert "going on: the build may still resolve through your own mirrors or caches" in warning
    assert len(env.standin.calls()) == 1


def test_preflight_can_be_skipped(env: Env, monkeypatch: pytest.MonkeyPatch) -> None:
    result = env.run(make_gradle_repo(env.tmp / "g"), env.options(None, None), preflight=False)
    assert result.status == "ok" and env.repo.requests == [] and env.portal.requests == []
    monkeypatch.setenv("REWRITE_ASSIST_PREFLIGHT", "off")
    assert EngineSettings.from_env().preflight is False
    monkeypatch.setenv("REWRITE_ASSIST_PREFLIGHT", "on")
    assert EngineSettings.from_env().preflight is True


def test_offline_checks_the_caches_and_names_what_is_missing(env: Env) -> None:
    result = env.run(make_maven_repo(env.tmp / "m"), env.options(), offline=True)
    assert result.status == "environment_error" and env.repo.requests == []
    diagnosis = result.diagnosis or ""
    assert f"the maven cache lacks: {MAVEN_PLUGIN}, {GITHUB}" in diagnosis and "without --offline" in diagnosis

    m2 = env.home / ".m2" / "repository"
    write_files(m2, {"org/openrewrite/maven/rewrite-maven-plugin/6.46.1/rewrite-maven-plugin-6.46.1.pom": "<p/>"})
    write_files(m2, {"org/openrewrite/recipe/rewrite-github-actions/3.29.0/rewrite-github-actions-3.29.0.pom": "<p/>"})
    result = env.run(make_maven_repo(env.tmp / "m2"), env.options(), offline=True, check_build=True)
    assert result.status == "ok", result.diagnosis
    rewrite_call, compile_call = env.standin.calls()
    assert "-o" in rewrite_call["argv"] and "-o" in compile_call["argv"]

    caches = env.home / ".gradle" / "caches" / "modules-2" / "files-2.1"
    for coords in (GRADLE_PLUGIN, BOM, GITHUB):
        group, artifact, version = coords.split(":")
        (caches / group / artifact / version).mkdir(parents=True)
    assert env.run(make_gradle_repo(env.tmp / "g"), env.options(), offline=True).status == "ok"
    assert "--offline" in env.standin.calls()[-1]["argv"]


def test_doctor_one_line_per_check(env: Env, tmp_path: Path) -> None:
    with LoopbackRepository() as central:
        central.serve(":".join((doctor.CENTRAL_PROBE.group_id, doctor.CENTRAL_PROBE.artifact_id, "3.9.9")))
        bindir = tmp_path / "bin"
        write_files(bindir, {"mvn": "#!/bin/sh\n"})
        (bindir / "mvn").chmod(0o755)

        def checks(token: str) -> list[doctor.Check]:
            return doctor.run_checks(
                env={"PATH": str(bindir)},
                user_home=env.home,
                repository=RepositorySettings(env.repo.url, "codegenome", USER, token, "test"),
                settings=EngineSettings(gradle_plugin_repository=env.portal.url),
                central_url=central.url,
                catalog=False,
                jdk_search_dirs=[env.jdks],
                jdk_env={},
            )

        good = checks(TOKEN)
        lines = [c.line() for c in good]
        assert [c.name for c in good] == [
            "JDKs",
            "Gradle",
            "Maven",
            "OpenRewrite repository",
            "Maven Central",
            "Gradle Plugin Portal",
        ]
        assert all("\n" not in line for line in lines)
        assert lines[0].startswith("[ok  ] JDKs: 17 (17.0.2) at ")
        assert lines[1].startswith("[warn] Gradle: no 'gradle' on PATH") and "-> install Gradle" in lines[1]
        assert lines[3] == f"[ok  ] OpenRewrite repository: {env.repo.url} reachable, auth OK ({BOM})"
        assert doctor.ready(good) and doctor.as_json(good)["ok"] is True

        bad = checks("wrong")
        line = next(c.line() for c in bad if c.name == "OpenRewrite repository")
        assert line.startswith(f"[FAIL] OpenRewrite repository: {env.repo.url}: HTTP 401, credentials refused -> set ")
        assert "REWRITE_ASSIST_MAVEN_TOKEN" in line and "wrong" not in line
        assert not doctor.ready(bad)
        data = json.loads(json.dumps(doctor.as_json(bad)))
        assert data["ok"] is False and {c["status"] for c in data["checks"]} >= {"ok", "warn", "fail"}
    # the unreachable case: a failed line with its fix, no traceback
    gone = doctor.run_checks(
        env={"PATH": ""},
        user_home=env.home,
        repository=RepositorySettings(closed_port_url(), "codegenome"),
        settings=EngineSettings(gradle_plugin_repository=env.portal.url),
        central_url=closed_port_url(),
        catalog=False,
        jdk_search_dirs=[env.jdks],
        jdk_env={},
    )
    unreachable = [c for c in gone if c.status == "fail"]
    assert [c.name for c in unreachable] == ["OpenRewrite repository", "Maven Central"]
    assert all("unreachable" in c.detail and c.fix for c in unreachable)


def test_doctor_command_on_the_session_catalog(
    catalog: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """`rewrite-assist doctor --offline`: the real catalog, the machine's JDKs, a Maven cache holding the plugin."""
    from rewrite_assist.__main__ import main

    monkeypatch.setenv("REWRITE_ASSIST_DATABASE_URL", catalog.db.url)
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.delenv("GRADLE_USER_HOME", raising=False)
    assert main(["doctor", "--offline"]) == 1  # empty caches: validate cannot run offline
    lines = capsys.readouterr().out.splitlines()
    assert (
        lines[0].startswith(f"[ok  ] catalog: {catalog.info().recipes} recipes")
        and "REWRITE_ASSIST_DATABASE_URL" in lines[0]
    )
    assert lines[-2].startswith("[FAIL] offline caches") and lines[-1].startswith("validate cannot run")
    assert all(line.startswith("[") for line in lines[:-1])

    write_files(
        tmp_path / ".m2" / "repository",
        {"org/openrewrite/maven/rewrite-maven-plugin/6.46.1/rewrite-maven-plugin-6.46.1.pom": "<project/>"},
    )
    code = main(["doctor", "--offline", "--json"])
    data = json.loads(capsys.readouterr().out)
    jdks = next(c for c in data["checks"] if c["name"] == "JDKs")
    assert code == (0 if jdks["status"] == "ok" else 1) and data["ok"] is (code == 0)
    assert {c["name"] for c in data["checks"]} >= {"catalog", "embedding", "JDKs", "Maven cache", "offline caches"}
