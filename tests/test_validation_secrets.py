"""The repository token never leaks: a sentinel token goes through every path a run can take (CLI text and
JSON, the MCP tool, Gradle and Maven, preflight against a loopback repository, a build that echoes it, a
refused token, bad arguments, doctor), then every artifact is searched for it: the init script and
settings file as the build saw them, the argv, run.log, stats.json, recipe.diff, the tool result, CLI
output, log records, error messages and object reprs."""

from __future__ import annotations

import base64
import json
import logging
import tempfile
from pathlib import Path

import pytest
from fixtures.validation_support import (
    CI_DIFF,
    CI_RECIPE,
    InMemoryLookup,
    LoopbackRepository,
    StandIn,
    make_fake_jdk,
    make_gradle_repo,
    make_maven_repo,
    no_remote_preflight,  # noqa: F401  (autouse)
    write_files,
)
from test_validation_tools import call

from rewrite_assist.__main__ import main
from rewrite_assist.server.validation import cli as validation_cli
from rewrite_assist.server.validation import doctor
from rewrite_assist.server.validation.repository import RepositorySettings
from rewrite_assist.server.validation.runner import RunOptions, ValidationFailed, ValidationRequest, validate_recipe

SENTINEL = "SENTINEL-tok-5e1d0c4b"
USER = "sentinel-user"
FORMS = (SENTINEL, base64.b64encode(f"{USER}:{SENTINEL}".encode()).decode(), SENTINEL.lower())
USER_SETTINGS = (
    '<settings xmlns="http://maven.apache.org/SETTINGS/1.0.0"><servers><server><id>other</id>'
    "<username>o</username><password>other-literal-secret</password></server></servers></settings>"
)


def leaks(text: str) -> list[str]:
    return [form for form in FORMS if form in text]


def test_the_token_is_in_no_artifact(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.DEBUG)
    home = tmp_path / "home"
    write_files(home, {".m2/settings.xml": USER_SETTINGS})
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.delenv("GRADLE_USER_HOME", raising=False)
    work = tmp_path / "work"
    work.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(work))
    monkeypatch.setattr(validation_cli, "open_lookup", InMemoryLookup)
    jdk = make_fake_jdk(tmp_path / "jdks", 17)
    diff = tmp_path / "ci.diff"
    diff.write_text(CI_DIFF)
    recipe = tmp_path / "rewrite.yml"
    recipe.write_text(CI_RECIPE)
    standin = StandIn(tmp_path, monkeypatch)
    gradle_repo = make_gradle_repo(tmp_path / "gradle-repo")
    maven_repo = make_maven_repo(tmp_path / "maven-repo")
    seen: list[str] = []  # every text a caller gets back

    with LoopbackRepository(user=USER, token=SENTINEL) as repo, LoopbackRepository() as portal:
        repo.serve(
            "org.openrewrite.recipe:rewrite-recipe-bom:3.37.0",
            "org.openrewrite.recipe:rewrite-github-actions:3.29.0",
            "org.openrewrite.maven:rewrite-maven-plugin:6.46.1",
        )
        portal.serve("org.openrewrite:plugin:7.39.0")
        monkeypatch.setenv("REWRITE_ASSIST_MAVEN_REPOSITORY", repo.url)
        monkeypatch.setenv("REWRITE_ASSIST_GRADLE_PLUGIN_REPOSITORY", portal.url)
        monkeypatch.setenv("REWRITE_ASSIST_MAVEN_USERNAME", USER)
        monkeypatch.setenv("REWRITE_ASSIST_MAVEN_TOKEN", SENTINEL)
        monkeypatch.setenv("REWRITE_ASSIST_PREFLIGHT", "on")

        def cli(*args: str) -> int:
            code = main(["validate", "--recipe", str(recipe), "--java-home", str(jdk), *args])
            out, err = capsys.readouterr()
            seen.extend([out, err])
            return code

        standin.configure(rewrite={"apply_diff": str(diff)})
        assert cli("--repo", str(gradle_repo), "--pr-diff", str(diff), "--check-build", "--json",
                   "--output-dir", str(tmp_path / "out-gradle")) == 0  # fmt: skip
        assert json.loads(seen[-2])["status"] == "ok"
        assert cli("--repo", str(maven_repo), "--pr-diff", str(diff), "--output-dir", str(tmp_path / "out-maven")) == 0
        assert "status: ok" in seen[-2]
        # all preflight requests carried the credentials, so they were really used
        assert repo.requests and all(ok for _, ok, _ in repo.requests)

        # a build that prints the token and fails on a refused credential
        standin.configure(rewrite={"output": f"token={SENTINEL}\nReceived status code 401 from server", "exit": 1})
        assert cli("--repo", str(gradle_repo), "--output-dir", str(tmp_path / "out-echo")) == 1
        assert "status: environment_error" in seen[-2] and "credentials refused" in seen[-2]
        assert "****" in (tmp_path / "out-echo" / "run.log").read_text()  # redacted, not just absent

        # the MCP tool
        standin.configure(rewrite={"apply_diff": str(diff)})
        result = call(
            "validate_recipe",
            {"repo_path": str(gradle_repo), "recipe": CI_RECIPE, "pr_diff": CI_DIFF, "java_home": str(jdk),
             "output_dir": str(tmp_path / "out-tool")},
        )  # fmt: skip
        assert not result.is_error
        seen.extend(c.text for c in result.content if hasattr(c, "text"))
        seen.append(json.dumps(result.structured_content))

    # a refused token (the repository wants another one): preflight fails fast
    with LoopbackRepository(user=USER, token="another-token") as strict, LoopbackRepository() as portal:
        strict.serve("org.openrewrite.recipe:rewrite-recipe-bom:3.37.0")
        portal.serve("org.openrewrite:plugin:7.39.0")
        monkeypatch.setenv("REWRITE_ASSIST_MAVEN_REPOSITORY", strict.url)
        monkeypatch.setenv("REWRITE_ASSIST_GRADLE_PLUGIN_REPOSITORY", portal.url)
        assert cli("--repo", str(gradle_repo), "--json", "--output-dir", str(tmp_path / "out-401")) == 1
        data = json.loads(seen[-2])
        assert data["status"] == "environment_error" and "credentials were refused" in data["diagnosis"]
        checks = doctor.run_checks(catalog=False, central_url=strict.url, jdk_search_dirs=[], jdk_env={})
        seen.extend(c.line() for c in checks)
        seen.append(json.dumps(doctor.as_json(checks)))

    # bad arguments and errors
    assert cli("--repo", str(tmp_path / "not-a-repo")) == 2
    with pytest.raises(ValidationFailed) as info:
        request = ValidationRequest(repo=tmp_path / "not-a-repo", recipe_text=CI_RECIPE)
        validate_recipe(request, InMemoryLookup(), options=RunOptions())
    seen.extend([str(info.value), repr(info.value)])
    settings = RepositorySettings.from_environment()
    assert settings.token == SENTINEL  # the token was there all along
    seen.extend([repr(settings), settings.describe(), repr(RunOptions(repository=settings))])
    seen.extend(record.getMessage() for record in caplog.records)

    for text in seen:
        assert not leaks(text), text
    scanned = 0
    for path in tmp_path.rglob("*"):
        if path.is_file() and path != standin.config_path:  # the test's own instructions to the stand-in
            content = path.read_bytes().decode("utf-8", errors="replace")
            assert not leaks(content), path
            scanned += 1
    written = [json.loads(line) for line in standin.record_path.read_text().splitlines()]
    assert any("init_script" in c for c in written) and any("settings_xml" in c for c in written)
    assert all(c["token_sha256"] for c in written)  # every build had the token, in its environment only
    assert "other-literal-secret" not in standin.record_path.read_text()  # the user's own secrets too
    for name in ("recipe.diff", "stats.json", "run.log"):
        assert (tmp_path / "out-gradle" / name).is_file()
    assert scanned > 50 and list(work.iterdir()) == []
