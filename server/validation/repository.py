"""Where OpenRewrite's modules come from, and the credentials to fetch them, without ever writing a secret down.

OpenRewrite's modules are distributed through the Code Genome Project, an authenticated Maven repository
that hosts only ``org/openrewrite`` and ``io/moderne`` (Maven Central stays declared beside it for the
transitive dependencies). Organisations often mirror it; a mirror may need no credentials at all.

Settings, in order: ``REWRITE_ASSIST_MAVEN_REPOSITORY`` (URL), ``REWRITE_ASSIST_MAVEN_USERNAME`` and
``REWRITE_ASSIST_MAVEN_TOKEN``; without them, a ``<server>`` in ``~/.m2/settings.xml`` whose id is the
repository's (``codegenome``, or the id of a repository or mirror declared there with the same URL),
then ``codegenomeUsername``/``codegenomePassword`` in ``~/.gradle/gradle.properties``.

The token only ever travels in the build's environment (:data:`USERNAME_ENV`, :data:`TOKEN_ENV`) and in the
``Authorization`` header of preflight requests; build files reference the variables, never the value.
"""

from __future__ import annotations

import base64
import os
import xml.etree.ElementTree as ET
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

CODE_GENOME_URL = "https://artifacts.codegenomeproject.org/maven"
CODE_GENOME_ID = "codegenome"
# What the Code Genome Project hosts; a mirror may host everything, so the filter applies to it only.
CODE_GENOME_GROUPS = ("org.openrewrite", "io.moderne")
MAVEN_CENTRAL_URL = "https://repo.maven.apache.org/maven2"
GRADLE_PLUGIN_PORTAL_URL = "https://plugins.gradle.org/m2"

REPOSITORY_ENV = "REWRITE_ASSIST_MAVEN_REPOSITORY"
USERNAME_ENV = "REWRITE_ASSIST_MAVEN_USERNAME"
TOKEN_ENV = "REWRITE_ASSIST_MAVEN_TOKEN"
GRADLE_USERNAME_PROPERTY = "codegenomeUsername"
GRADLE_PASSWORD_PROPERTY = "codegenomePassword"


def _normal_url(url: str) -> str:
    return url.strip().rstrip("/")


def _local(tag: str) -> str:
    return tag.rsplit("}", 1)[-1]


def _child_text(el: ET.Element, name: str) -> str | None:
    for child in el:
        if _local(child.tag) == name:
            return (child.text or "").strip()
    return None


def maven_settings_path(home: Path) -> Path:
    return home / ".m2" / "settings.xml"


def gradle_properties_path(home: Path, env: Mapping[str, str]) -> Path:
    gradle_home = env.get("GRADLE_USER_HOME")
    return (Path(gradle_home) if gradle_home else home / ".gradle") / "gradle.properties"


def read_properties(path: Path) -> dict[str, str]:
    """A Java ``.properties`` file, simply (``key=value`` / ``key: value`` lines, ``#``/``!`` comments)."""
    props: dict[str, str] = {}
    try:
        text = path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return props
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line[0] in "#!":
            continue
        for sep in ("=", ":"):
            if sep in line:
                key, value = line.split(sep, 1)
                props[key.strip()] = value.strip()
                break
    return props


def _settings_server(settings_xml: Path, url: str, default_id: str | None) -> tuple[str | None, str, str]:
    """(username, password, server id) of the settings.xml server serving ``url``, or (None, "", id)."""
    try:
        root = ET.parse(settings_xml).getroot()
    except (ET.ParseError, OSError):
        return None, "", default_id or ""
    ids: list[str] = [default_id] if default_id else []
    for el in root.iter():
        if _local(el.tag) in {"repository", "pluginRepository", "mirror"}:
            el_url, el_id = _child_text(el, "url"), _child_text(el, "id")
            if el_url and el_id and _normal_url(el_url) == _normal_url(url):
                ids.append(el_id)
    for el in root.iter():
        if _local(el.tag) != "server":
            continue
        sid = _child_text(el, "id")
        if sid in ids:
            return _child_text(el, "username"), _child_text(el, "password") or "", sid or ""
    return None, "", ids[-1] if ids else ""


def _interpolate_env(value: str, env: Mapping[str, str]) -> str:
    """``${env.NAME}`` in a settings.xml password is the variable's value (Maven's own interpolation)."""
    if value.startswith("${env.") and value.endswith("}"):
        return env.get(value[6:-1], "")
    return "" if "${" in value else value


@dataclass(frozen=True)
class RepositorySettings:
    """The Maven repository serving OpenRewrite's modules and how to authenticate (token kept out of repr)."""

    url: str = CODE_GENOME_URL
    server_id: str = CODE_GENOME_ID
    username: str | None = None
    token: str | None = field(default=None, repr=False)
    credentials_from: str = "none"  # where the credentials were found, for messages and run.log

    @property
    def has_credentials(self) -> bool:
        return bool(self.username and self.token)

    @property
    def is_code_genome(self) -> bool:
        return _normal_url(self.url) == CODE_GENOME_URL

    @property
    def insecure(self) -> bool:
        return self.url.startswith("http://")

    def describe(self) -> str:
        """A line for logs and messages: URL and where the credentials came from; never the token."""
        who = f"as {self.username} ({self.credentials_from})" if self.has_credentials else "without credentials"
        return f"{self.url} {who}"

    def build_env(self) -> dict[str, str]:
        """Variables the build reads its credentials from at run time (see the init script / settings file)."""
        if not self.has_credentials:
            return {}
        assert self.username is not None and self.token is not None
        return {USERNAME_ENV: self.username, TOKEN_ENV: self.token}

    def authorization(self) -> str | None:
        """The HTTP ``Authorization`` header value for preflight requests."""
        if not self.has_credentials:
            return None
        raw = f"{self.username}:{self.token}".encode()
        return "Basic " + base64.b64encode(raw).decode("ascii")

    def secrets(self) -> list[str]:
        """Values that must never appear in an artifact of a run (used by :func:`redact`)."""
        if not self.token:
            return []
        return [self.token, base64.b64encode(f"{self.username}:{self.token}".encode()).decode("ascii")]

    def redact(self, text: str) -> str:
        for secret in self.secrets():
            if secret:
                text = text.replace(secret, "****")
        return text

    @classmethod
    def from_environment(cls, env: Mapping[str, str] | None = None, home: Path | None = None) -> RepositorySettings:
        env = os.environ if env is None else env
        home = Path.home() if home is None else home
        url = _normal_url(env.get(REPOSITORY_ENV, "") or CODE_GENOME_URL)
        default_id = CODE_GENOME_ID if url == CODE_GENOME_URL else None
        username = env.get(USERNAME_ENV, "").strip() or None
        token = env.get(TOKEN_ENV, "").strip() or None
        settings_user, settings_password, server_id = _settings_server(maven_settings_path(home), url, default_id)
        server_id = server_id or "rewrite-assist"
        if username and token:
            return cls(url, server_id, username, token, f"{USERNAME_ENV}/{TOKEN_ENV}")
        settings_password = _interpolate_env(settings_password, env)
        if settings_user and settings_password:
            return cls(url, server_id, settings_user, settings_password, f"~/.m2/settings.xml server '{server_id}'")
        props = read_properties(gradle_properties_path(home, env))
        p_user, p_password = props.get(GRADLE_USERNAME_PROPERTY), props.get(GRADLE_PASSWORD_PROPERTY)
        if p_user and p_password:
            return cls(url, server_id, p_user, p_password, "~/.gradle/gradle.properties")
        return cls(url, server_id, username, None, "none")

    def how_to_authenticate(self) -> str:
        return (
            f"set {USERNAME_ENV} and {TOKEN_ENV} (or a <server> with id '{self.server_id}' in ~/.m2/settings.xml, "
            f"or {GRADLE_USERNAME_PROPERTY}/{GRADLE_PASSWORD_PROPERTY} in ~/.gradle/gradle.properties), "
            f"or point {REPOSITORY_ENV} at a mirror you can read"
        )
