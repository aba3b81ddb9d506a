"""Versions of the OpenRewrite build plugins and BOM a run uses, pinned, overridable from the environment.

Pinned rather than ``latest.release`` so a run is reproducible and works from a warm offline cache. The
defaults are the versions in the docs snapshot's module table; override them with
``REWRITE_ASSIST_GRADLE_PLUGIN_VERSION``, ``REWRITE_ASSIST_MAVEN_PLUGIN_VERSION`` and
``REWRITE_ASSIST_RECIPE_BOM_VERSION`` (an empty BOM version declares no BOM).
"""

from __future__ import annotations

import os
from collections.abc import Mapping

from pydantic import BaseModel

DEFAULT_GRADLE_PLUGIN_VERSION = "7.39.0"
DEFAULT_MAVEN_PLUGIN_VERSION = "6.46.1"
DEFAULT_RECIPE_BOM_VERSION = "3.37.0"


class EngineSettings(BaseModel):
    gradle_plugin_version: str = DEFAULT_GRADLE_PLUGIN_VERSION
    maven_plugin_version: str = DEFAULT_MAVEN_PLUGIN_VERSION
    recipe_bom_version: str | None = DEFAULT_RECIPE_BOM_VERSION

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> EngineSettings:
        env = os.environ if env is None else env
        bom = env.get("REWRITE_ASSIST_RECIPE_BOM_VERSION", DEFAULT_RECIPE_BOM_VERSION).strip()
        return cls(
            gradle_plugin_version=env.get("REWRITE_ASSIST_GRADLE_PLUGIN_VERSION", "").strip()
            or DEFAULT_GRADLE_PLUGIN_VERSION,
            maven_plugin_version=env.get("REWRITE_ASSIST_MAVEN_PLUGIN_VERSION", "").strip()
            or DEFAULT_MAVEN_PLUGIN_VERSION,
            recipe_bom_version=bom or None,
        )
