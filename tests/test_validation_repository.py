"""Where OpenRewrite's artifacts come from: the repository settings, the Gradle init script and the Maven
settings file that declare it beside Maven Central, the credentials wired at run time, the user's own
settings kept, and version overrides recorded. Runs use the recording stand-in for gradlew/mvnw."""

from __future__ import annotations

import hashlib
import json
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest
from fixtures.validation_support import (
    CI_RECIPE,
    InMemoryLookup,
    RunEnv,
    make_gradle_repo,
    make_maven_repo,
    no_remote_preflight,  # noqa: F401  (autouse)
    write_files,
)

from rewrite_assist.server.validation.repository import CODE_GENOME_URL, RepositorySettings
from rewrite_assist.server.validation.runner import RunOptions, ValidationRequest, validate_recipe
from rewrite_assist.server.validation.settings import EngineSettings

TOKEN = "sentinel-token-7f3a9c"
USER = "alice@example.com"
NS = "{http://maven.apache.org/SETTINGS/1.0.0}"

USER_SETTINGS = """<?xml version="1.0" encoding="UTF-8"?>
<settings xmlns="http://maven.apache.org/SETTINGS/1.0.0">
  <localRepository>${user.home}/custom-m2</localRepository>
  <mirrors>
    <mirror><id>corp-mirror</id><mirrorOf>external:*,!codegenome</mirrorOf><url>https://nexus.corp/m2</url></mirror>
  </mirrors>
  <proxies>
    <proxy><id>corp-proxy</id><active>true</active><protocol>https</protocol><host>proxy.corp</host><port>3128</port></proxy>
  </proxies>
  <servers>
    <server><id>corp-mirror</id><username>bob</username><password>bobs-own-secret</password></server>
    <server><id>codegenome</id><username>old-user</username><password>old-secret</password></server>
  </servers>
</settings>
"""


class Env(RunEnv):
    def options(self, repository: RepositorySettings | None = None, **settings: Any) -> RunOptions:
        return RunOptions(
            jdk_search_dirs=[self.jdks],
            jdk_env={},
            settings=EngineSettings(preflight=False).model_copy(update=settings),
            temp_dir=self.work,
            runs_dir=self.tmp / "runs",
            repository=repository,
            user_home=self.home,
        )


@pytest.fixture
def env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Env:
    return Env.create(tmp_path, monkeypatch)


def test_repository_settings_sources(tmp_path: Path) -> None:
    home = tmp_path / "home"
    # nothing configured: the Code Genome Project, without credentials
    bare = RepositorySettings.from_environment({}, home)
    assert (bare.url, bare.server_id, bare.has_credentials) == (CODE_GENOME_URL, "codegenome", False)
    # the environment wins over everything
    env = {"REWRITE_ASSIST_MAVEN_USERNAME": USER, "REWRITE_ASSIST_MAVEN_TOKEN": TOKEN}
    write_files(home, {".m2/settings.xml": USER_SETTINGS})
    from_env = RepositorySettings.from_environment(env, home)
    assert (from_env.username, from_env.token, from_env.credentials_from) == (
        USER,
        TOKEN,
        "REWRITE_ASSIST_MAVEN_USERNAME/REWRITE_ASSIST_MAVEN_TOKEN",
    )
    assert TOKEN not in repr(from_env) and TOKEN not in from_env.describe()
    # ~/.m2/settings.xml: the server whose id is the repository's
    from_settings = RepositorySettings.from_environment({}, home)
    assert (from_settings.username, from_settings.token) == ("old-user", "old-secret")
    assert "settings.xml" in from_settings.credentials_from
    # a mirror URL: the id of the repository or mirror declared with that URL, ${env.X} passwords resolved
    write_files(
        home,
        {
            ".m2/settings.xml": "<settings><mirrors><mirror><id>art</id><url>https://art.corp/or/</url></mirror>"
            "</mirrors><servers><server><id>art</id><username>u</username><password>${env.ART_PW}</password>"
            "</server></servers></settings>"
        },
    )
    mirror = RepositorySettings.from_environment(
        {"REWRITE_ASSIST_MAVEN_REPOSITORY": "https://art.corp/or", "ART_PW": "pw"}, home
    )
    assert (mirror.url, mirror.server_id, mirror.username, mirror.token) == ("https://art.corp/or", "art", "u", "pw")
    assert not mirror.is_code_genome
    # ~/.gradle/gradle.properties (or $GRADLE_USER_HOME/gradle.properties)
    (home / ".m2/settings.xml").unlink()
    write_files(tmp_path / "gh", {"gradle.properties": "# creds\ncodegenomeUsername=g\ncodegenomePassword = gp\n"})
    gradle = RepositorySettings.from_environment({"GRADLE_USER_HOME": str(tmp_path / "gh")}, home)
    assert (gradle.username, gradle.token, gradle.credentials_from) == ("g", "gp", "~/.gradle/gradle.properties")


@pytest.mark.parametrize("dsl", ["groovy", "kotlin"])
def test_gradle_init_script_declares_the_repository_central_and_runtime_credentials(env: Env, dsl: str) -> None:
    repo = make_gradle_repo(env.tmp / "repo", dsl)
    repository = RepositorySettings(CODE_GENOME_URL, "codegenome", USER, TOKEN, "test")
    result = env.run(repo, env.options(repository))
    assert result.status == "ok", result.diagnosis
    (call,) = env.standin.calls()
    script = call["init_script"]
    initscript, project = script.split("rootProject {", 1)
    for block in (initscript, project):
        assert f"url = '{CODE_GENOME_URL}'" in block and "mavenCentral()" in block
        assert "System.getenv('REWRITE_ASSIST_MAVEN_TOKEN')" in block  # read when the script runs
        assert "includeGroupByRegex('org\\\\.openrewrite(\\\\..*)?')" in block  # it hosts only org/openrewrite
    assert "url = 'https://plugins.gradle.org/m2'" in initscript  # the plugin itself
    assert "findProperty('codegenomePassword')" in project
    assert "drm.repositories" in script  # builds declaring repositories in settings get them there
    assert (
        "repositories.isEmpty()" not in script
        and "rewrite('org.openrewrite.recipe:rewrite-github-actions:3.29.0')" in script
    )
    assert TOKEN not in script and USER not in script
    # the build got the credentials through its environment
    assert call["username"] == USER and call["token_sha256"] == hashlib.sha256(TOKEN.encode()).hexdigest()
    assert "REWRITE_ASSIST_MAVEN_USERNAME" in Path(result.log_path or "").read_text()  # script in run.log


def test_a_mirror_without_credentials(env: Env) -> None:
    mirror = RepositorySettings("https://nexus.corp/repository/openrewrite", "nexus")
    repo = make_gradle_repo(env.tmp / "g")
    assert env.run(repo, env.options(mirror)).status == "ok"
    script = env.standin.calls()[0]["init_script"]
    assert "url = 'https://nexus.corp/repository/openrewrite'" in script
    assert "includeGroupByRegex" not in script  # a mirror may serve everything
    assert env.standin.calls()[0]["token_sha256"] is None

    repo = make_maven_repo(env.tmp / "m")
    assert env.run(repo, env.options(mirror)).status == "ok"
    settings = ET.fromstring(env.standin.calls()[1]["settings_xml"])
    assert [s.findtext(f"{NS}id") for s in settings.iter(f"{NS}server")] == []
    urls = [r.findtext(f"{NS}url") for r in settings.iter(f"{NS}repository")]
    assert urls == ["https://nexus.corp/repository/openrewrite", "https://repo.maven.apache.org/maven2"]


def test_maven_settings_keep_the_users_own_and_reference_credentials(env: Env) -> None:
    write_files(env.home, {".m2/settings.xml": USER_SETTINGS})
    repo = make_maven_repo(env.tmp / "repo")
    repository = RepositorySettings(CODE_GENOME_URL, "codegenome", USER, TOKEN, "test")
    result = env.run(repo, env.options(repository))
    assert result.status == "ok", result.diagnosis
    (call,) = env.standin.calls()
    argv = call["argv"]
    settings_file = Path(argv[argv.index("-s") + 1])
    assert not settings_file.exists()  # removed with the run's scratch directory
    text = call["settings_xml"]
    for secret in (TOKEN, USER, "bobs-own-secret", "old-secret"):
        assert secret not in text
    root = ET.fromstring(text)
    # the user's own settings survive
    assert root.findtext(f"{NS}localRepository") == "${user.home}/custom-m2"
    assert root.find(f"{NS}mirrors/{NS}mirror/{NS}url").text == "https://nexus.corp/m2"  # type: ignore[union-attr]
    assert root.find(f"{NS}proxies/{NS}proxy/{NS}host").text == "proxy.corp"  # type: ignore[union-attr]
    servers = {s.findtext(f"{NS}id"): s for s in root.iter(f"{NS}server")}
    assert set(servers) == {"corp-mirror", "codegenome"}
    assert servers["corp-mirror"].findtext(f"{NS}username") == "bob"
    assert servers["corp-mirror"].findtext(f"{NS}password") == "${env.REWRITE_ASSIST_SERVER_SECRET_0}"
    assert servers["codegenome"].findtext(f"{NS}username") == "${env.REWRITE_ASSIST_MAVEN_USERNAME}"
    assert servers["codegenome"].findtext(f"{NS}password") == "${env.REWRITE_ASSIST_MAVEN_TOKEN}"
    # a profile, active, declaring the repository and Maven Central for dependencies and plugins
    (profile,) = root.iter(f"{NS}profile")
    assert profile.findtext(f"{NS}id") == "rewrite-assist"
    assert [a.text for a in root.iter(f"{NS}activeProfile")] == ["rewrite-assist"]
    for section, kind in (("repositories", "repository"), ("pluginRepositories", "pluginRepository")):
        declared = [(r.findtext(f"{NS}id"), r.findtext(f"{NS}url")) for r in profile.iter(f"{NS}{kind}")]
        assert declared == [("codegenome", CODE_GENOME_URL), ("central", "https://repo.maven.apache.org/maven2")], (
            section
        )
    # the values travel in the build's environment only
    assert call["username"] == USER and call["token_sha256"] == hashlib.sha256(TOKEN.encode()).hexdigest()
    assert call["secret_env"] == ["REWRITE_ASSIST_SERVER_SECRET_0"]
    assert "org.openrewrite.maven:rewrite-maven-plugin:6.46.1:run" in argv


def test_version_overrides_are_used_and_recorded(env: Env, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("REWRITE_ASSIST_MODULE_VERSIONS", "rewrite-github-actions=3.20.0, rewrite-recipe-bom=3.30.0")
    options = env.options()
    options.settings = EngineSettings.from_env().model_copy(update={"preflight": False})
    result = env.run(make_gradle_repo(env.tmp / "g"), options, output_dir=env.tmp / "out-g")
    assert result.status == "ok" and result.modules == ["org.openrewrite.recipe:rewrite-github-actions:3.20.0"]
    script = env.standin.calls()[0]["init_script"]
    assert "rewrite('org.openrewrite.recipe:rewrite-github-actions:3.20.0!!')" in script  # strictly, over the BOM
    assert "rewrite-recipe-bom:3.30.0" in script
    log = (env.tmp / "out-g" / "run.log").read_text()
    assert "version override org.openrewrite.recipe:rewrite-github-actions: 3.29.0 -> 3.20.0" in log
    run = json.loads((env.tmp / "out-g" / "stats.json").read_text())["run"]
    assert run["modules"] == ["org.openrewrite.recipe:rewrite-github-actions:3.20.0"]
    assert run["plugins"] == ["org.openrewrite:plugin:7.39.0", "org.openrewrite.recipe:rewrite-recipe-bom:3.30.0"]
    assert run["module_overrides"] == {"org.openrewrite.recipe:rewrite-github-actions": "3.29.0 -> 3.20.0"}

    result = env.run(make_maven_repo(env.tmp / "m"), options, output_dir=env.tmp / "out-m")
    argv = env.standin.calls()[1]["argv"]
    assert "-Drewrite.recipeArtifactCoordinates=org.openrewrite.recipe:rewrite-github-actions:3.20.0" in argv
    run = json.loads((env.tmp / "out-m" / "stats.json").read_text())["run"]
    assert run["build_tool"] == "maven" and run["plugins"] == ["org.openrewrite.maven:rewrite-maven-plugin:6.46.1"]

    monkeypatch.setenv("REWRITE_ASSIST_MODULE_VERSIONS", "rewrite-spring")
    from rewrite_assist.server.errors import EnvironmentProblem

    with pytest.raises(EnvironmentProblem, match="REWRITE_ASSIST_MODULE_VERSIONS has a bad entry 'rewrite-spring'"):
        EngineSettings.from_env()


def test_licence_warning_names_the_moderne_module(env: Env) -> None:
    lookup = InMemoryLookup()
    for rid in ("org.openrewrite.github.SetupJavaUpgradeJavaVersion",):
        lookup.recipes[rid] = lookup.recipes[rid].model_copy(update={"license": "moderne"})
    request = ValidationRequest(repo=make_gradle_repo(env.tmp / "g"), recipe_text=CI_RECIPE)
    result = validate_recipe(request, lookup, options=env.options())
    assert result.status == "ok"
    (warning,) = [w for w in result.warnings if w.startswith("licence")]
    assert "org.openrewrite.recipe:rewrite-github-actions" in warning and "Apache-2.0" in warning
    assert result.lint is not None
    (lint_warning,) = [w for w in result.lint.warnings if w.message.startswith("licence")]
    assert "rewrite-github-actions" in lint_warning.message and "org.openrewrite.text" not in lint_warning.message


def test_no_build_tool_is_an_environment_error(env: Env, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import shutil

    repo = make_gradle_repo(env.tmp / "repo")
    (repo / "gradlew").unlink()
    from fixtures.validation_support import commit_all

    commit_all(repo, "no wrapper")
    bindir = tmp_path / "bin"
    bindir.mkdir()
    (bindir / "git").symlink_to(shutil.which("git") or "/usr/bin/git")
    monkeypatch.setenv("PATH", str(bindir))  # git, but no gradle and no mvn
    result = env.run(repo, env.options())
    assert result.status == "environment_error"
    assert result.diagnosis is not None and result.diagnosis.startswith("no build tool:")
    assert "no ./gradlew and there is no 'gradle' on PATH" in result.diagnosis
    assert env.standin.calls() == [] and list(env.work.iterdir()) == []
