"""Running OpenRewrite on a Maven build: the rewrite-maven-plugin's ``run`` goal, configured with -D flags.

Nothing is added to the POM: the plugin is addressed by its full coordinates, the recipe modules by
``rewrite.recipeArtifactCoordinates`` and the YAML by ``rewrite.configLocation``.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from .models import RecipeModule
from .settings import EngineSettings

WRAPPER_EXCLUSIONS = ("mvnw", "mvnw.cmd", "**/mvnw", "**/mvnw.cmd", "**/.mvn/wrapper/maven-wrapper.jar")


def rewrite_args(
    recipe_name: str,
    config_file: Path,
    modules: Sequence[RecipeModule],
    settings: EngineSettings,
    exclusions: Sequence[str] = WRAPPER_EXCLUSIONS,
) -> list[str]:
    args = [
        "-B",
        "-Dstyle.color=never",
        f"org.openrewrite.maven:rewrite-maven-plugin:{settings.maven_plugin_version}:run",
        f"-Drewrite.activeRecipes={recipe_name}",
        f"-Drewrite.configLocation={config_file}",
        f"-Drewrite.exclusions={','.join(exclusions)}",
        "-Drewrite.failOnInvalidActiveRecipes=true",
    ]
    # Without a catalog version, let Maven pick the newest release.
    coordinates = [m.coordinates if m.version else f"{m.coordinates}:LATEST" for m in modules]
    if coordinates:
        args.append(f"-Drewrite.recipeArtifactCoordinates={','.join(coordinates)}")
    return args


def compile_args() -> list[str]:
    return ["-B", "-Dstyle.color=never", "test-compile"]
