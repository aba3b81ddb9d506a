"""The real Maven (when on PATH) reads the generated settings file: the OpenRewrite repository's credentials
arrive as ``${env.…}`` references and reach the repository, and the user's own mirror keeps applying.
Both repositories are loopback servers, so no traffic leaves the machine."""

from __future__ import annotations

import base64
import shutil
from pathlib import Path

import pytest
from fixtures.validation_support import (
    CI_RECIPE,
    InMemoryLookup,
    LoopbackRepository,
    commit_all,
    no_remote_preflight,  # noqa: F401  (autouse)
    write_files,
)

from rewrite_assist.server.validation.jdk import discover_jdks
from rewrite_assist.server.validation.repository import RepositorySettings
from rewrite_assist.server.validation.runner import RunOptions, ValidationRequest, validate_recipe
from rewrite_assist.server.validation.settings import EngineSettings

POM = """<project xmlns="http://maven.apache.org/POM/4.0.0"><modelVersion>4.0.0</modelVersion>
<groupId>c</groupId><artifactId>a</artifactId><version>1</version><packaging>pom</packaging>
<properties><maven.compiler.release>17</maven.compiler.release></properties></project>
"""


@pytest.mark.skipif(shutil.which("mvn") is None, reason="Maven (mvn) is not on PATH")
def test_real_maven_sends_the_referenced_credentials_and_keeps_the_users_mirror(tmp_path: Path) -> None:
    if not any(j.major == 17 for j in discover_jdks()):
        pytest.skip("no JDK 17 installed")
    token = "maven-loopback-token"
    with LoopbackRepository(user="bob", token=token) as repo, LoopbackRepository() as central:
        home = tmp_path / "home"
        write_files(
            home,
            {
                ".m2/settings.xml": f"<settings><localRepository>{tmp_path / 'm2'}</localRepository><mirrors>"
                f"<mirror><id>loop-central</id><mirrorOf>central</mirrorOf><url>{central.url}</url></mirror>"
                "</mirrors></settings>"
            },
        )
        project = tmp_path / "project"
        write_files(project, {"pom.xml": POM, ".gitignore": "target/\n"})
        commit_all(project)
        options = RunOptions(
            settings=EngineSettings(preflight=False),
            repository=RepositorySettings(repo.url, "codegenome", "bob", token, "test"),
            user_home=home,
            temp_dir=tmp_path,
        )
        request = ValidationRequest(repo=project, recipe_text=CI_RECIPE, output_dir=tmp_path / "out", timeout_s=300)
        result = validate_recipe(request, InMemoryLookup(), options=options)

    plugin_pom = "/maven/org/openrewrite/maven/rewrite-maven-plugin/6.46.1/rewrite-maven-plugin-6.46.1.pom"
    # Maven asked the OpenRewrite repository for the plugin with the right credentials (after the 401 challenge)
    assert (plugin_pom, True, True) in repo.requests, repo.requests
    # ... and Maven Central through the user's mirror
    assert any(path.endswith("rewrite-maven-plugin-6.46.1.pom") for path, _, _ in central.requests)
    assert result.status == "environment_error", result.diagnosis
    assert "rewrite-maven-plugin" in (result.diagnosis or "")
    log = (tmp_path / "out" / "run.log").read_text()
    assert token not in log and base64.b64encode(f"bob:{token}".encode()).decode() not in log
