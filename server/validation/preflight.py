"""Preflight: before copying a repository and starting a multi-minute build, ask the repositories for the
artifacts the run will resolve.

A missing credential or a version the repository does not serve otherwise surfaces minutes later, deep in a
Gradle or Maven log. Here each artifact's POM (or ``maven-metadata.xml`` when no version is pinned) is
fetched with the run's credentials: 401/403 and 404 fail fast with one line saying what to do; an
unreachable repository (no network, DNS) is only a warning, because the build may still resolve through the
user's own mirrors or caches. Offline runs check the build tool's local cache instead.
"""

from __future__ import annotations

import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from .buildtool import Artifact, BuildTool
from .repository import RepositorySettings
from .settings import MODULE_VERSIONS_ENV, PREFLIGHT_ENV, EngineSettings

Outcome = Literal["ok", "unauthorized", "missing", "unreachable", "error", "cached", "not_cached"]
REQUEST_TIMEOUT_S = 10.0
TOTAL_BUDGET_S = 45.0
_HOW_TO_SKIP = f"(--no-preflight or {PREFLIGHT_ENV}=off skips this check)"


@dataclass(frozen=True)
class ArtifactCheck:
    artifact: Artifact
    where: str  # URL fetched, or the cache looked in
    outcome: Outcome
    detail: str = ""


@dataclass
class PreflightReport:
    checks: list[ArtifactCheck] = field(default_factory=list)
    problem: str | None = None  # one line: the run must not start
    warnings: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return self.problem is None

    def lines(self) -> list[str]:
        """Human-readable lines for run.log (URLs and outcomes; never credentials)."""
        out = [
            f"preflight {c.artifact.coordinates}: {c.outcome} ({c.where})" + (f" {c.detail}" if c.detail else "")
            for c in self.checks
        ]
        out += [f"preflight warning: {w}" for w in self.warnings]
        if self.problem:
            out.append(f"preflight failed: {self.problem}")
        return out


def artifact_path(artifact: Artifact) -> str:
    """The repository-relative path of the artifact's POM, or of its metadata when no version is pinned."""
    base = "/".join([*artifact.group_id.split("."), artifact.artifact_id])
    if artifact.version is None:
        return f"{base}/maven-metadata.xml"
    return f"{base}/{artifact.version}/{artifact.artifact_id}-{artifact.version}.pom"


class _SameHostRedirects(urllib.request.HTTPRedirectHandler):
    """Follow redirects, but never carry the Authorization header to another host."""

    def redirect_request(self, req: Any, fp: Any, code: int, msg: str, headers: Any, newurl: str) -> Any:
        new = super().redirect_request(req, fp, code, msg, headers, newurl)
        if new is not None and urllib.parse.urlsplit(newurl).netloc != urllib.parse.urlsplit(req.full_url).netloc:
            new.remove_header("Authorization")
        return new


_OPENER = urllib.request.build_opener(_SameHostRedirects())


def probe(url: str, authorization: str | None, timeout_s: float = REQUEST_TIMEOUT_S) -> tuple[int | None, str]:
    """(HTTP status, "") or (None, why the repository could not be reached)."""
    request = urllib.request.Request(url, method="GET", headers={"User-Agent": "rewrite-assist-preflight"})
    if authorization:
        request.add_header("Authorization", authorization)
    try:
        with _OPENER.open(request, timeout=timeout_s) as response:
            response.read(1024)
            return int(response.status), ""
    except urllib.error.HTTPError as exc:
        return exc.code, ""
    except urllib.error.URLError as exc:
        return None, str(exc.reason)
    except TimeoutError:
        return None, f"no answer within {timeout_s:g}s"
    except OSError as exc:
        return None, exc.strerror or exc.__class__.__name__


def _override_hint(artifact: Artifact) -> str:
    if artifact.artifact_id == "plugin" and artifact.group_id == "org.openrewrite":
        return "set REWRITE_ASSIST_GRADLE_PLUGIN_VERSION to a version it has"
    if artifact.artifact_id == "rewrite-maven-plugin":
        return "set REWRITE_ASSIST_MAVEN_PLUGIN_VERSION to a version it has"
    if artifact.artifact_id == "rewrite-recipe-bom":
        return "set REWRITE_ASSIST_RECIPE_BOM_VERSION to a version it has"
    return f"pin a version it has with {MODULE_VERSIONS_ENV}={artifact.artifact_id}=<version>"


def module_artifacts(coordinates: Sequence[str]) -> list[Artifact]:
    artifacts = []
    for coords in coordinates:
        parts = coords.split(":")
        artifacts.append(Artifact(parts[0], parts[1], parts[2] if len(parts) > 2 else None))
    return artifacts


def run_preflight(
    tool: BuildTool,
    module_coordinates: Sequence[str],
    settings: EngineSettings,
    repository: RepositorySettings,
    user_home: Path,
    env: Mapping[str, str],
    *,
    request_timeout_s: float = REQUEST_TIMEOUT_S,
    budget_s: float = TOTAL_BUDGET_S,
) -> PreflightReport:
    """Check every artifact the run needs; see the module docstring for what fails and what warns."""
    artifacts = [*tool.plugin_artifacts(settings), *module_artifacts(module_coordinates)]
    report = PreflightReport()
    if settings.offline:
        return _check_cache(tool, artifacts, user_home, env, report)
    bases = {"modules": repository.url, "plugins": settings.gradle_plugin_repository}
    unreachable: set[str] = set()
    missing: list[ArtifactCheck] = []
    deadline = time.monotonic() + budget_s
    for artifact in artifacts:
        base = bases.get(artifact.source, repository.url).rstrip("/")
        if base in unreachable:
            continue
        if time.monotonic() >= deadline:
            report.warnings.append(f"preflight stopped after {budget_s:g}s; the remaining artifacts were not checked")
            break
        url = f"{base}/{artifact_path(artifact)}"
        auth = repository.authorization() if base == repository.url.rstrip("/") else None
        status, why = probe(url, auth, min(request_timeout_s, max(0.5, deadline - time.monotonic())))
        if status is None:
            report.checks.append(ArtifactCheck(artifact, url, "unreachable", why))
            unreachable.add(base)
            report.warnings.append(
                f"repository {base} is unreachable ({why}); going on: the build may still resolve through your "
                "own mirrors or caches"
            )
        elif status in (401, 403):
            report.checks.append(ArtifactCheck(artifact, url, "unauthorized", f"HTTP {status}"))
            creds = "the credentials were refused" if auth else "it requires credentials and none are set"
            report.problem = (
                f"repository {base} answered HTTP {status} for {artifact.coordinates}: {creds}. "
                f"{repository.how_to_authenticate()} {_HOW_TO_SKIP}"
            )
            return report
        elif status == 404:
            check = ArtifactCheck(artifact, url, "missing", "HTTP 404")
            report.checks.append(check)
            missing.append(check)
        elif 200 <= status < 300:
            report.checks.append(ArtifactCheck(artifact, url, "ok", f"HTTP {status}"))
        else:
            report.checks.append(ArtifactCheck(artifact, url, "error", f"HTTP {status}"))
            report.warnings.append(f"repository {base} answered HTTP {status} for {artifact.coordinates}; going on")
    if missing:
        named = "; ".join(f"{c.artifact.coordinates} ({_override_hint(c.artifact)})" for c in missing)
        where = ", ".join(sorted({c.where.split("/" + artifact_path(c.artifact))[0] for c in missing}))
        report.problem = f"not found in {where}: {named} {_HOW_TO_SKIP}"
    return report


def _check_cache(
    tool: BuildTool,
    artifacts: Sequence[Artifact],
    user_home: Path,
    env: Mapping[str, str],
    report: PreflightReport,
) -> PreflightReport:
    for artifact in artifacts:
        hit = tool.cached(artifact, user_home, env)
        report.checks.append(ArtifactCheck(artifact, f"{tool.name} cache", "cached" if hit else "not_cached"))
    absent = [c.artifact.coordinates for c in report.checks if c.outcome == "not_cached"]
    if absent:
        report.problem = (
            f"offline run, but the {tool.name} cache lacks: {', '.join(absent)}. Run once without --offline "
            f"(with network and credentials) to fill the cache {_HOW_TO_SKIP}"
        )
    return report
