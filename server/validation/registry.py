"""The build tools validation knows, in order of preference (Gradle wins when a project has both).

A new build tool is a module implementing ``buildtool.BuildTool`` and one entry here.
"""

from __future__ import annotations

from .buildtool import BuildTool
from .gradle import GradleTool
from .maven import MavenTool

BUILD_TOOLS: tuple[BuildTool, ...] = (GradleTool(), MavenTool())
