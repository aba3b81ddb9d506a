"""``rewrite-assist doctor``: can this machine run ``validate``? One line per check, each with its fix.

Validation fails late and far from its cause (a 401 five minutes into a Gradle run), so everything it
depends on is checked here up front: the catalog, the embedding model, JDKs, Gradle and Maven, and each
repository a run resolves from (reachable, credentials accepted). ``ok`` is true only when everything a
``validate`` run needs is there; the embedding model, build tools on PATH (projects usually bring their
wrapper) and the Gradle Plugin Portal (Gradle projects only) are reported but not required.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, Literal

from .buildtool import Artifact
from .preflight import REQUEST_TIMEOUT_S, artifact_path, probe
from .repository import MAVEN_CENTRAL_URL, RepositorySettings
from .settings import EngineSettings

CheckStatus = Literal["ok", "warn", "fail"]
# A small POM every Maven Central (or mirror of it) serves: proves the repository answers.
CENTRAL_PROBE = Artifact("org.apache.maven", "maven-core", "3.9.9")


@dataclass(frozen=True)
class Check:
    name: str
    status: CheckStatus
    detail: str
    fix: str = ""
    required: bool = True

    def line(self) -> str:
        mark = {"ok": "ok  ", "warn": "warn", "fail": "FAIL"}[self.status]
        fix = f" -> {self.fix}" if self.fix and self.status != "ok" else ""
        return f"[{mark}] {self.name}: {self.detail}{fix}"


def _catalog() -> Check:
    from ..catalog.db import Database
    from ..errors import UserError

    try:
        db = Database.from_environment()
        from ..catalog.store import CatalogStore

        store = CatalogStore(db)
        store.check_ready()
        info = store.info()
    except UserError as exc:
        return Check("catalog", "fail", str(exc).splitlines()[0], "rewrite-assist ingest (or rewrite-assist db start)")
    except Exception as exc:  # a database driver error: say so in one line rather than a traceback
        return Check("catalog", "fail", f"{type(exc).__name__}: {exc}".splitlines()[0], "rewrite-assist ingest")
    from .. import config

    where = "REWRITE_ASSIST_DATABASE_URL" if info.database == "external" else f"embedded in {config.home_dir()}"
    if not info.recipes:
        return Check("catalog", "fail", f"empty ({where})", "rewrite-assist ingest")
    return Check(
        "catalog",
        "ok",
        f"{info.recipes} recipes, {info.modules} modules, schema {info.schema_version}, {where}",
    )


def _embedding() -> Check:
    from .. import config
    from ..errors import UserError

    try:
        backend = config.embedding_backend()
    except UserError as exc:
        return Check("embedding", "fail", str(exc), "fix REWRITE_ASSIST_EMBEDDING_BACKEND", required=False)
    models = config.models_dir()
    cached = sorted(p.name for p in models.glob("*")) if models.is_dir() else []
    model = config.model_setting() or "the packaged all-MiniLM-L6-v2"
    cache = f"model cache {models} ({len(cached)} entries)" if cached else f"no model cache yet in {models}"
    status: CheckStatus = "ok" if cached else "warn"
    return Check(
        "embedding",
        status,
        f"backend {backend}, model {model}, {cache}",
        "the first search or ingest exports the model once",
        required=False,
    )


def _jdks(search_dirs: Sequence[Path] | None, env: Mapping[str, str] | None) -> Check:
    from .jdk import discover_jdks

    found = discover_jdks(search_dirs, env)
    if not found:
        return Check("JDKs", "fail", "none found", "install a JDK (e.g. 17 or 21) or set JAVA_HOME / JAVA_HOME_<N>_X64")
    return Check("JDKs", "ok", ", ".join(f"{j.major} ({j.version}) at {j.home}" for j in found))


def _tool(name: str, executable: str, wrapper: str, path_env: str) -> Check:
    exe = shutil.which(executable, path=path_env)
    if exe:
        return Check(name, "ok", f"'{executable}' on PATH: {exe}", required=False)
    return Check(
        name,
        "warn",
        f"no '{executable}' on PATH; projects with ./{wrapper} still run",
        f"install {name} for projects without a wrapper",
        required=False,
    )


def _repository(name: str, base: str, artifact: Artifact, authorization: str | None, how: str, required: bool) -> Check:
    url = f"{base.rstrip('/')}/{artifact_path(artifact)}"
    status, why = probe(url, authorization, REQUEST_TIMEOUT_S)
    if status is None:
        return Check(
            name,
            "fail",
            f"{base} unreachable ({why})",
            "check the network or proxy, or use --offline with warm caches",
            required,
        )
    if status in (401, 403):
        refused = "credentials refused" if authorization else "credentials required, none set"
        return Check(name, "fail", f"{base}: HTTP {status}, {refused}", how, required)
    if status == 404:
        return Check(
            name, "fail", f"{base} answers but lacks {artifact.coordinates}", "set the version to one it has", required
        )
    if 200 <= status < 300:
        auth = "auth OK" if authorization else "no credentials needed"
        return Check(name, "ok", f"{base} reachable, {auth} ({artifact.coordinates})", required=required)
    return Check(name, "fail", f"{base}: HTTP {status}", "check the repository URL", required)


def run_checks(
    *,
    env: Mapping[str, str] | None = None,
    user_home: Path | None = None,
    repository: RepositorySettings | None = None,
    settings: EngineSettings | None = None,
    central_url: str = MAVEN_CENTRAL_URL,
    offline: bool = False,
    catalog: bool = True,
    jdk_search_dirs: Sequence[Path] | None = None,
    jdk_env: Mapping[str, str] | None = None,
) -> list[Check]:
    """Every check, in the order printed; parameters point them at fixtures in tests."""
    env = os.environ if env is None else env
    user_home = Path.home() if user_home is None else user_home
    settings = settings or EngineSettings.from_env(env)
    repository = repository or RepositorySettings.from_environment(env, user_home)
    checks: list[Check] = []
    if catalog:
        checks.append(_catalog())
        checks.append(_embedding())
    checks.append(_jdks(jdk_search_dirs, jdk_env))
    path_env = env.get("PATH", "")
    checks.append(_tool("Gradle", "gradle", "gradlew", path_env))
    checks.append(_tool("Maven", "mvn", "mvnw", path_env))
    from .registry import BUILD_TOOLS

    if offline:
        cached_any = False
        for tool in BUILD_TOOLS:
            arts = tool.plugin_artifacts(settings)
            absent = [a.coordinates for a in arts if not tool.cached(a, user_home, env)]
            cached_any = cached_any or not absent
            detail = "plugin cached" if not absent else "cache lacks " + ", ".join(absent)
            fix = "run once online to fill the cache"
            checks.append(Check(f"{tool.display_name} cache", "ok" if not absent else "warn", detail, fix, False))
        checks.append(
            Check(
                "offline caches",
                "ok" if cached_any else "fail",
                "a build tool can run offline" if cached_any else "no build tool has OpenRewrite's plugin cached",
                "run validate once with network access and credentials",
            )
        )
        return checks
    maven_plugin = next(a for t in BUILD_TOOLS for a in t.plugin_artifacts(settings) if a.source == "modules")
    checks.append(
        _repository(
            "OpenRewrite repository",
            repository.url,
            maven_plugin,
            repository.authorization(),
            repository.how_to_authenticate(),
            True,
        )
    )
    checks.append(_repository("Maven Central", central_url, CENTRAL_PROBE, None, "", True))
    portal = next(a for t in BUILD_TOOLS for a in t.plugin_artifacts(settings) if a.source == "plugins")
    checks.append(_repository("Gradle Plugin Portal", settings.gradle_plugin_repository, portal, None, "", False))
    return checks


def ready(checks: Sequence[Check]) -> bool:
    """Whether ``validate`` can run: no required check failed."""
    return not any(c.status == "fail" and c.required for c in checks)


def as_json(checks: Sequence[Check]) -> dict[str, Any]:
    return {"ok": ready(checks), "checks": [asdict(c) for c in checks]}
