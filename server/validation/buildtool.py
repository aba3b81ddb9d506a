"""The build-tool seam: what the runner needs from Gradle, Maven or any other build tool, and detection.

The runner never asks "is this Gradle?": it asks the detected :class:`BuildTool` for the arguments that run
a recipe, the compile check, the files to exclude from the diff, the Java version the build declares and
the artifacts preflight must find. A third build tool is one module implementing :class:`BuildTool`,
listed in :data:`BUILD_TOOLS` (``registry.py``, which also detects the one a project uses).

The project's own wrapper wins (it pins the tool version the build was written for); the tool on PATH is
the fallback. A wrapper that lost its executable bit is run through ``sh`` rather than chmod-ed, because
changing the mode would show up in the recipe's diff.
"""

from __future__ import annotations

import os
import shutil
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from ..errors import BadInput, EnvironmentProblem

if TYPE_CHECKING:
    from .javaversion import JavaRequirement
    from .models import RecipeModule
    from .repository import RepositorySettings
    from .settings import EngineSettings


class BuildToolError(Exception):
    """No usable build tool; the message says what was looked for."""


class NoBuildFile(BuildToolError, BadInput):
    """The directory holds no build file any known tool reads: the caller passed the wrong directory."""


class BuildToolMissing(BuildToolError, EnvironmentProblem):
    """The project is a build of a known tool, but neither its wrapper nor the tool on PATH is there."""


@dataclass(frozen=True)
class Artifact:
    """Coordinates a run needs; ``source`` says which repository serves them (preflight checks it)."""

    group_id: str
    artifact_id: str
    version: str | None
    source: str = "modules"  # "modules": the OpenRewrite repository; "plugins": the tool's plugin repository

    @property
    def coordinates(self) -> str:
        base = f"{self.group_id}:{self.artifact_id}"
        return f"{base}:{self.version}" if self.version else base


@dataclass(frozen=True)
class RewriteInvocation:
    """How to run the recipe: the argv, the files written for it (name → text, shown in run.log), extra env."""

    argv: list[str]
    files: dict[str, str] = field(default_factory=dict)
    env: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class RewriteContext:
    """Everything a build tool needs to write its rewrite invocation."""

    workdir: Path  # the project copy
    scratch: Path  # temporary files that go away with the copy
    recipe_name: str
    config_file: Path
    modules: Sequence[RecipeModule]
    settings: EngineSettings
    repository: RepositorySettings
    user_home: Path


class BuildTool(ABC):
    """One build tool (Gradle, Maven, ...): detection and everything a run asks of it."""

    name: str  # "gradle", "maven": what results report
    build_files: tuple[str, ...]  # any of these at the project root marks a build of this tool
    wrapper: str  # the wrapper script's file name
    executable: str  # the tool's name on PATH
    wrapper_exclusions: tuple[str, ...]  # files the run must never change (wrapper scripts and jars)

    def detect(self, project: Path, path_env: str) -> BuildSetup | None:
        """The setup to run this project with, None when it is not a build of this tool; raises when the
        project is one but no wrapper and no executable exists."""
        files = tuple(f for f in self.build_files if (project / f).is_file())
        if not files:
            return None
        if (project / self.wrapper).is_file():
            return BuildSetup(self, self.wrapper, None, files)
        exe = shutil.which(self.executable, path=path_env)
        if exe:
            return BuildSetup(self, None, exe, files)
        raise BuildToolMissing(
            f"{project} is a {self.display_name} build ({', '.join(files)}) but has no ./{self.wrapper} and there "
            f"is no '{self.executable}' on PATH. Add the {self.display_name} wrapper to the project or install "
            f"{self.display_name}."
        )

    @property
    def display_name(self) -> str:
        return self.name.capitalize()

    @abstractmethod
    def rewrite_invocation(self, setup: BuildSetup, ctx: RewriteContext) -> RewriteInvocation:
        """The command (and the files it reads) that runs the recipe without editing any build file."""

    @abstractmethod
    def compile_args(self, settings: EngineSettings) -> list[str]:
        """Arguments that compile main and test sources (the build check after the recipe)."""

    @abstractmethod
    def java_requirement(self, project: Path) -> JavaRequirement:
        """The Java version the build files declare, with where each declaration was found."""

    @abstractmethod
    def plugin_artifacts(self, settings: EngineSettings) -> list[Artifact]:
        """The OpenRewrite build plugin (and BOM) a run resolves, for preflight."""

    @abstractmethod
    def cached(self, artifact: Artifact, user_home: Path, env: Mapping[str, str]) -> bool:
        """Whether the tool's local cache holds ``artifact`` (preflight of ``--offline`` runs)."""

    def warnings(self, project: Path, setup: BuildSetup) -> list[str]:
        """Things about this project the caller should know before trusting the run."""
        return []


@dataclass(frozen=True)
class BuildSetup:
    tool: BuildTool
    wrapper: str | None  # file name of the wrapper script in the project root, if used
    executable: str | None  # the tool on PATH, when there is no wrapper
    build_files: tuple[str, ...]

    @property
    def name(self) -> str:
        return self.tool.name

    def command(self, workdir: Path) -> list[str]:
        """The argv prefix that starts the build tool in ``workdir`` (a copy of the project)."""
        if self.wrapper:
            script = workdir / self.wrapper
            return [str(script)] if os.access(script, os.X_OK) else ["sh", str(script)]
        assert self.executable is not None
        return [self.executable]

    def describe(self) -> str:
        how = f"./{self.wrapper}" if self.wrapper else self.executable
        return f"{self.tool.name} ({how})"
