"""Which build tool a project uses and how to invoke it.

The project's own wrapper wins (it pins the Gradle/Maven version the build was written for); the tool on
PATH is the fallback. A wrapper that lost its executable bit is run through ``sh`` rather than chmod-ed,
because changing the mode would show up in the recipe's diff.
"""

from __future__ import annotations

import os
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

GRADLE_FILES = ("settings.gradle.kts", "settings.gradle", "build.gradle.kts", "build.gradle")
MAVEN_FILES = ("pom.xml",)


class BuildToolError(Exception):
    """No usable build tool; the message says what was looked for."""


@dataclass(frozen=True)
class BuildSetup:
    tool: Literal["gradle", "maven"]
    wrapper: str | None  # file name of the wrapper script in the project root, if used
    executable: str | None  # the tool on PATH, when there is no wrapper
    build_files: tuple[str, ...]
    dsl: Literal["groovy", "kotlin"] | None = None

    def command(self, workdir: Path) -> list[str]:
        """The argv prefix that starts the build tool in ``workdir`` (a copy of the project)."""
        if self.wrapper:
            script = workdir / self.wrapper
            return [str(script)] if os.access(script, os.X_OK) else ["sh", str(script)]
        assert self.executable is not None
        return [self.executable]

    def describe(self) -> str:
        how = f"./{self.wrapper}" if self.wrapper else self.executable
        return f"{self.tool} ({how})"


def detect_build(project: Path, path_env: str | None = None) -> BuildSetup:
    """Detect Gradle (preferred when both are present) or Maven in ``project``."""
    gradle = tuple(f for f in GRADLE_FILES if (project / f).is_file())
    maven = tuple(f for f in MAVEN_FILES if (project / f).is_file())
    path_env = os.environ.get("PATH", "") if path_env is None else path_env
    if gradle:
        dsl: Literal["groovy", "kotlin"] = "kotlin" if any(f.endswith(".kts") for f in gradle) else "groovy"
        if (project / "gradlew").is_file():
            return BuildSetup("gradle", "gradlew", None, gradle, dsl)
        exe = shutil.which("gradle", path=path_env)
        if exe:
            return BuildSetup("gradle", None, exe, gradle, dsl)
        if not maven:
            raise BuildToolError(
                f"{project} is a Gradle build ({', '.join(gradle)}) but has no ./gradlew and there is no "
                "'gradle' on PATH. Add the Gradle wrapper to the project or install Gradle."
            )
    if maven:
        if (project / "mvnw").is_file():
            return BuildSetup("maven", "mvnw", None, maven)
        exe = shutil.which("mvn", path=path_env)
        if exe:
            return BuildSetup("maven", None, exe, maven)
        raise BuildToolError(
            f"{project} is a Maven build (pom.xml) but has no ./mvnw and there is no 'mvn' on PATH. "
            "Add the Maven wrapper to the project or install Maven."
        )
    raise BuildToolError(
        f"No build file in {project}: expected build.gradle(.kts) / settings.gradle(.kts) for Gradle or "
        "pom.xml for Maven at the top of the repository. Pass the directory that holds the build."
    )
