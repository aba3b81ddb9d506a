"""One run with the real OpenRewrite engine per build tool (rewrite-maven-plugin, rewrite-gradle-plugin), where
Java, the build tool, the network and credentials for the OpenRewrite repository exist. Elsewhere they skip
with the reason, before any traffic leaves the machine when no credentials are configured."""

from __future__ import annotations

import shutil
import socket
import urllib.parse
from pathlib import Path

import pytest
from fixtures.validation_support import InMemoryLookup, commit_all, write_files

from rewrite_assist.server.validation.jdk import discover_jdks
from rewrite_assist.server.validation.repository import RepositorySettings
from rewrite_assist.server.validation.runner import RunOptions, ValidationRequest, validate_recipe

pytestmark = pytest.mark.engine

RECIPE = """type: specs.openrewrite.org/v1beta/recipe
name: com.example.Greeting
displayName: Change the greeting
recipeList:
  - org.openrewrite.text.FindAndReplace:
      find: hello
      replace: goodbye
      filePattern: "**/*.txt"
"""
POM = """<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>com.example</groupId><artifactId>engine-test</artifactId><version>1.0</version>
  <properties><maven.compiler.release>17</maven.compiler.release></properties>
</project>
"""


GRADLE_BUILD = """plugins { id 'java' }
repositories { mavenCentral() }
java { toolchain { languageVersion = JavaLanguageVersion.of(17) } }
"""


def _skip_reason(executable: str, tool: str) -> str | None:
    if shutil.which(executable) is None:
        return f"{tool} ({executable}) is not on PATH"
    if not any(j.major == 17 for j in discover_jdks()):
        return "no JDK 17 installed"
    repository = RepositorySettings.from_environment()
    if not repository.has_credentials and repository.is_code_genome:
        return (
            "no credentials for the Code Genome Project (set REWRITE_ASSIST_MAVEN_USERNAME/_TOKEN, or "
            "REWRITE_ASSIST_MAVEN_REPOSITORY to a mirror): OpenRewrite's modules cannot be downloaded"
        )
    host = urllib.parse.urlsplit(repository.url).hostname or ""
    for name, port in ((host, 443), ("repo.maven.apache.org", 443)):
        try:
            socket.create_connection((name, port), timeout=5).close()
        except OSError as exc:
            return f"no network access to {name} ({exc}); OpenRewrite cannot be downloaded"
    return None


@pytest.mark.parametrize("tool", ["maven", "gradle"])
def test_real_openrewrite_run(tmp_path: Path, tool: str) -> None:
    reason = _skip_reason("mvn", "Maven") if tool == "maven" else _skip_reason("gradle", "Gradle")
    if reason:
        pytest.skip(reason)
    repo = tmp_path / "repo"
    build = (
        {"pom.xml": POM, ".gitignore": "target/\n"}
        if tool == "maven"
        else {
            "build.gradle": GRADLE_BUILD,
            "settings.gradle": "rootProject.name = 'engine-test'\n",
            ".gitignore": "build/\n.gradle/\n",
        }
    )
    write_files(repo, {**build, "notes/greeting.txt": "hello world\n"})
    commit_all(repo)
    request = ValidationRequest(repo=repo, recipe_text=RECIPE, timeout_s=900, output_dir=tmp_path / "out")
    result = validate_recipe(request, InMemoryLookup(), options=RunOptions(temp_dir=tmp_path))
    assert result.status == "ok", (result.diagnosis, result.log_tail)
    assert result.build_tool == tool
    assert result.files_changed == ["notes/greeting.txt"]
    assert "+goodbye world" in (result.diff or "")
    assert (repo / "notes/greeting.txt").read_text() == "hello world\n"
