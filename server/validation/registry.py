"""The build tools validation knows, in order of preference (Gradle wins when a project has both), and
the choice of the one a project is built with.

A new build tool is a module implementing ``buildtool.BuildTool`` and one entry here.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path

from .buildtool import BuildSetup, BuildTool, BuildToolMissing, NoBuildFile
from .gradle import GradleTool
from .maven import MavenTool

BUILD_TOOLS: tuple[BuildTool, ...] = (GradleTool(), MavenTool())


def detect_build(project: Path, path_env: str | None = None, tools: Sequence[BuildTool] | None = None) -> BuildSetup:
    """The first tool of ``tools`` (default: all, in order of preference) this project can be built with."""
    path_env = os.environ.get("PATH", "") if path_env is None else path_env
    missing: BuildToolMissing | None = None
    for tool in BUILD_TOOLS if tools is None else tools:
        try:
            setup = tool.detect(project, path_env)
        except BuildToolMissing as exc:
            missing = missing or exc
            continue
        if setup is not None:
            return setup
    if missing is not None:
        raise missing
    names = " or ".join(
        f"{'/'.join(t.build_files)} for {t.display_name}" for t in (BUILD_TOOLS if tools is None else tools)
    )
    raise NoBuildFile(
        f"No build file in {project}: expected {names} at the top of the repository. "
        "Pass the directory that holds the build."
    )
