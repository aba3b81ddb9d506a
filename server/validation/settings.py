"""How a run uses OpenRewrite: plugin and BOM versions, per-module overrides, preflight and offline mode.

Versions are pinned rather than ``latest.release`` so a run is reproducible and works from a warm offline
cache. The defaults are the versions in the docs snapshot's module table; override them with
``REWRITE_ASSIST_GRADLE_PLUGIN_VERSION``, ``REWRITE_ASSIST_MAVEN_PLUGIN_VERSION`` and
``REWRITE_ASSIST_RECIPE_BOM_VERSION`` (an empty BOM version declares no BOM). Users who can only reach
older releases pin modules with ``REWRITE_ASSIST_MODULE_VERSIONS="rewrite-spring=6.37.1,…"`` (artifact id
or ``group:artifact``). ``REWRITE_ASSIST_PREFLIGHT=off`` skips the repository check before a run.
"""

from __future__ import annotations

import os
from collections.abc import Mapping

from pydantic import BaseModel, Field

from ..errors import EnvironmentProblem
from .repository import GRADLE_PLUGIN_PORTAL_URL

DEFAULT_GRADLE_PLUGIN_VERSION = "7.39.0"
DEFAULT_MAVEN_PLUGIN_VERSION = "6.46.1"
DEFAULT_RECIPE_BOM_VERSION = "3.37.0"
MODULE_VERSIONS_ENV = "REWRITE_ASSIST_MODULE_VERSIONS"
PREFLIGHT_ENV = "REWRITE_ASSIST_PREFLIGHT"
_OFF = frozenset({"off", "0", "false", "no"})


def parse_module_versions(text: str) -> dict[str, str]:
    """``"rewrite-spring=6.37.1, org.openrewrite:rewrite-java=8.90.0"`` → {key: version}; bad entries raise."""
    out: dict[str, str] = {}
    for raw in text.split(","):
        item = raw.strip()
        if not item:
            continue
        key, sep, version = item.partition("=")
        key, version = key.strip(), version.strip()
        if not sep or not key or not version or key.count(":") > 1:
            raise EnvironmentProblem(
                f"{MODULE_VERSIONS_ENV} has a bad entry {item!r}: write artifact=version or group:artifact=version, "
                "separated by commas (e.g. rewrite-spring=6.37.1)"
            )
        out[key] = version
    return out


class EngineSettings(BaseModel):
    gradle_plugin_version: str = DEFAULT_GRADLE_PLUGIN_VERSION
    maven_plugin_version: str = DEFAULT_MAVEN_PLUGIN_VERSION
    recipe_bom_version: str | None = DEFAULT_RECIPE_BOM_VERSION
    module_versions: dict[str, str] = Field(default_factory=dict)
    gradle_plugin_repository: str = GRADLE_PLUGIN_PORTAL_URL
    preflight: bool = True
    offline: bool = False

    def override_for(self, group_id: str, artifact_id: str) -> str | None:
        """The version ``REWRITE_ASSIST_MODULE_VERSIONS`` pins for this module, if any."""
        return self.module_versions.get(f"{group_id}:{artifact_id}") or self.module_versions.get(artifact_id)

    @property
    def bom_version(self) -> str | None:
        """The recipe BOM version, after an override of ``rewrite-recipe-bom``."""
        if self.recipe_bom_version is None:
            return None
        return self.override_for("org.openrewrite.recipe", "rewrite-recipe-bom") or self.recipe_bom_version

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
            module_versions=parse_module_versions(env.get(MODULE_VERSIONS_ENV, "")),
            gradle_plugin_repository=(
                env.get("REWRITE_ASSIST_GRADLE_PLUGIN_REPOSITORY", "").strip() or GRADLE_PLUGIN_PORTAL_URL
            ).rstrip("/"),
            preflight=env.get(PREFLIGHT_ENV, "on").strip().lower() not in _OFF,
        )
