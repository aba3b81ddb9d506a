"""Running OpenRewrite on a Maven build: the rewrite-maven-plugin's ``run`` goal, configured with -D flags.

Nothing is added to the POM: the plugin is addressed by its full coordinates, the recipe modules by
``rewrite.recipeArtifactCoordinates`` and the YAML by ``rewrite.configLocation``. Repositories come from a
temporary settings file passed with ``-s`` (it lives in the run's scratch directory and goes away with
it): the user's own ``~/.m2/settings.xml`` (mirrors, proxies, servers, profiles) plus a server for the
OpenRewrite repository and an active profile declaring it, with Maven Central, as repository and plugin
repository. Every password in it is a ``${env.…}`` reference; the values travel in the build's
environment only.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Mapping, Sequence
from pathlib import Path

from .buildtool import Artifact, BuildSetup, BuildTool, RewriteContext, RewriteInvocation
from .javaversion import JavaRequirement, maven_java_requirement
from .models import RecipeModule
from .repository import MAVEN_CENTRAL_URL, TOKEN_ENV, USERNAME_ENV, RepositorySettings, maven_settings_path
from .settings import EngineSettings

WRAPPER_EXCLUSIONS = ("mvnw", "mvnw.cmd", "**/mvnw", "**/mvnw.cmd", "**/.mvn/wrapper/maven-wrapper.jar")
SETTINGS_NAME = "rewrite-settings.xml"
PROFILE_ID = "rewrite-assist"
SETTINGS_NS = "http://maven.apache.org/SETTINGS/1.0.0"
SECRET_ENV_PREFIX = "REWRITE_ASSIST_SERVER_SECRET_"


def rewrite_args(
    recipe_name: str,
    config_file: Path,
    modules: Sequence[RecipeModule],
    settings: EngineSettings,
    exclusions: Sequence[str] = WRAPPER_EXCLUSIONS,
    settings_file: Path | None = None,
) -> list[str]:
    args = [
        "-B",
        "-Dstyle.color=never",
        *(["-o"] if settings.offline else []),
        *(["-s", str(settings_file)] if settings_file else []),
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


def compile_args(offline: bool = False, settings_file: Path | None = None) -> list[str]:
    return [
        "-B",
        "-Dstyle.color=never",
        *(["-o"] if offline else []),
        *(["-s", str(settings_file)] if settings_file else []),
        "test-compile",
    ]


def _local(tag: str) -> str:
    return tag.rsplit("}", 1)[-1]


class _Xml:
    """Element helpers in the namespace of the settings file being extended."""

    def __init__(self, ns: str) -> None:
        self.ns = ns

    def tag(self, name: str) -> str:
        return f"{{{self.ns}}}{name}" if self.ns else name

    def child(self, parent: ET.Element, name: str, text: str | None = None) -> ET.Element:
        el = ET.SubElement(parent, self.tag(name))
        if text is not None:
            el.text = text
        return el

    def section(self, root: ET.Element, name: str) -> ET.Element:
        for el in root:
            if _local(el.tag) == name:
                return el
        return self.child(root, name)

    def repository(self, parent: ET.Element, kind: str, repo_id: str, url: str) -> None:
        el = self.child(parent, kind)
        self.child(el, "id", repo_id)
        self.child(el, "url", url)
        self.child(self.child(el, "releases"), "enabled", "true")
        self.child(self.child(el, "snapshots"), "enabled", "false")


def _namespace(root: ET.Element) -> str:
    """The namespace of the user's settings, or "": ours extends it in the same one, never mixing them."""
    return root.tag[1:].split("}", 1)[0] if root.tag.startswith("{") else ""


def settings_xml(user_settings: Path | None, repository: RepositorySettings) -> tuple[str, dict[str, str]]:
    """The settings file text and the variables its ``${env.…}`` references need.

    The user's settings are kept as they are, except that literal server passwords and passphrases become
    environment references (so no secret is written to disk by us) and the OpenRewrite server's
    credentials are replaced by ours when we have them.
    """
    root: ET.Element | None = None
    if user_settings is not None and user_settings.is_file():
        try:
            root = ET.parse(user_settings).getroot()
        except ET.ParseError:
            root = None  # Maven would reject it too; run with ours alone rather than fail on it
    ns = SETTINGS_NS if root is None else _namespace(root)
    x = _Xml(ns)
    if ns:
        ET.register_namespace("", ns)
    if root is None:
        root = ET.Element(x.tag("settings"))
    env: dict[str, str] = {}

    servers = x.section(root, "servers")
    for server in list(servers):
        sid = next((c.text for c in server if _local(c.tag) == "id"), None)
        if sid == repository.server_id and repository.has_credentials:
            servers.remove(server)
            continue
        for c in server:
            if _local(c.tag) in {"password", "passphrase"} and c.text and "${" not in c.text:
                name = f"{SECRET_ENV_PREFIX}{len(env)}"
                env[name] = c.text.strip()
                c.text = f"${{env.{name}}}"
    if repository.has_credentials:
        server = x.child(servers, "server")
        x.child(server, "id", repository.server_id)
        x.child(server, "username", f"${{env.{USERNAME_ENV}}}")
        x.child(server, "password", f"${{env.{TOKEN_ENV}}}")

    profiles = x.section(root, "profiles")
    for profile in list(profiles):
        if any(_local(c.tag) == "id" and c.text == PROFILE_ID for c in profile):
            profiles.remove(profile)
    profile = x.child(profiles, "profile")
    x.child(profile, "id", PROFILE_ID)
    for section, kind in (("repositories", "repository"), ("pluginRepositories", "pluginRepository")):
        holder = x.child(profile, section)
        x.repository(holder, kind, repository.server_id, repository.url)
        x.repository(holder, kind, "central", MAVEN_CENTRAL_URL)
    active = x.section(root, "activeProfiles")
    if not any(c.text == PROFILE_ID for c in active):
        x.child(active, "activeProfile", PROFILE_ID)

    ET.indent(root)
    text = "<?xml version='1.0' encoding='UTF-8'?>\n<!-- Generated by rewrite-assist for one run -->\n"
    return text + ET.tostring(root, encoding="unicode") + "\n", env


def local_repository(user_home: Path) -> Path:
    """The Maven local repository: ``<localRepository>`` of the user's settings, else ~/.m2/repository."""
    try:
        root = ET.parse(maven_settings_path(user_home)).getroot()
        for el in root:
            if _local(el.tag) == "localRepository" and el.text and el.text.strip():
                return Path(el.text.strip().replace("${user.home}", str(user_home)))
    except (ET.ParseError, OSError):
        pass
    return user_home / ".m2" / "repository"


class MavenTool(BuildTool):
    name = "maven"
    build_files = ("pom.xml",)
    wrapper = "mvnw"
    executable = "mvn"
    wrapper_exclusions = WRAPPER_EXCLUSIONS

    def settings_path(self, scratch: Path) -> Path:
        return scratch / SETTINGS_NAME

    def rewrite_invocation(self, setup: BuildSetup, ctx: RewriteContext) -> RewriteInvocation:
        text, secret_env = settings_xml(maven_settings_path(ctx.user_home), ctx.repository)
        path = self.settings_path(ctx.scratch)
        path.touch(mode=0o600)
        path.write_text(text, encoding="utf-8")
        args = rewrite_args(ctx.recipe_name, ctx.config_file, ctx.modules, ctx.settings, settings_file=path)
        env = {**secret_env, **ctx.repository.build_env()}
        return RewriteInvocation([*setup.command(ctx.workdir), *args], {SETTINGS_NAME: text}, env)

    def compile_args(self, settings: EngineSettings) -> list[str]:
        # The build check runs after the rewrite invocation, in the same scratch directory and environment.
        return compile_args(settings.offline)

    def java_requirement(self, project: Path) -> JavaRequirement:
        return maven_java_requirement(project)

    def plugin_artifacts(self, settings: EngineSettings) -> list[Artifact]:
        return [Artifact("org.openrewrite.maven", "rewrite-maven-plugin", settings.maven_plugin_version)]

    def cached(self, artifact: Artifact, user_home: Path, env: Mapping[str, str]) -> bool:
        base = local_repository(user_home).joinpath(*artifact.group_id.split("."), artifact.artifact_id)
        if artifact.version is None:
            return base.is_dir() and any(base.iterdir())
        return (base / artifact.version / f"{artifact.artifact_id}-{artifact.version}.pom").is_file()
