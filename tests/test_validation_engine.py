"""One run with the real OpenRewrite engine (rewrite-maven-plugin), where Java, Maven and the network exist."""

from __future__ import annotations

import shutil
import socket
from pathlib import Path

import pytest
from fixtures.validation_support import InMemoryLookup, commit_all, write_files

from rewrite_assist.server.validation.jdk import discover_jdks
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


def _skip_reason() -> str | None:
    if shutil.which("mvn") is None:
        return "Maven (mvn) is not on PATH"
    if not any(j.major == 17 for j in discover_jdks()):
        return "no JDK 17 installed"
    try:
        socket.create_connection(("repo.maven.apache.org", 443), timeout=5).close()
    except OSError as exc:
        return f"no network access to Maven Central ({exc}); OpenRewrite cannot be downloaded"
    return None


def test_real_openrewrite_run(tmp_path: Path) -> None:
    reason = _skip_reason()
    if reason:
        pytest.skip(reason)
    repo = tmp_path / "repo"
    write_files(repo, {"pom.xml": POM, "notes/greeting.txt": "hello world\n", ".gitignore": "target/\n"})
    commit_all(repo)
    request = ValidationRequest(repo=repo, recipe_text=RECIPE, timeout_s=900, output_dir=tmp_path / "out")
    result = validate_recipe(request, InMemoryLookup(), options=RunOptions(temp_dir=tmp_path))
    assert result.status == "ok", (result.diagnosis, result.log_tail)
    assert result.files_changed == ["notes/greeting.txt"]
    assert "+goodbye world" in (result.diff or "")
    assert (repo / "notes/greeting.txt").read_text() == "hello world\n"
