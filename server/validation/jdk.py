"""Finding installed JDKs and picking the one a build needs.

Looked up where CI images and developer machines put them: ``JAVA_HOME_<N>_X64``-style variables (GitHub
Actions), ``/usr/lib/jvm`` and friends, SDKMAN, IntelliJ's ``~/.jdks``, Gradle's provisioned toolchains
and ``JAVA_HOME``. A JDK's version comes from its ``release`` file, else from ``bin/java -version``.
"""

from __future__ import annotations

import os
import re
import subprocess
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from .javaversion import normalize_version

_ENV_HOME = re.compile(r"^JAVA_HOME_(\d+)(?:_[A-Z0-9]+)?$")
# Preferred when the build declares no version: LTS releases the common Gradle/Maven versions run on.
_DEFAULT_PREFERENCE = (17, 21, 11, 25, 8)


class JdkNotFound(Exception):
    """No JDK matches; the message names the version and the JDKs that were found."""


@dataclass(frozen=True)
class JdkInstall:
    home: Path
    major: int
    version: str
    source: str

    def describe(self) -> str:
        return f"{self.major} ({self.version}) at {self.home} [{self.source}]"


def default_search_dirs(home: Path | None = None) -> list[Path]:
    home = home or Path.home()
    dirs = [
        Path("/usr/lib/jvm"),
        Path("/usr/java"),
        Path("/opt/java"),
        Path("/opt/jdk"),
        Path("/Library/Java/JavaVirtualMachines"),
        home / ".sdkman" / "candidates" / "java",
        home / ".jdks",
        home / ".gradle" / "jdks",
        home / ".asdf" / "installs" / "java",
    ]
    return [d for d in dirs if d.is_dir()]


def _java_binary(home: Path) -> Path | None:
    for candidate in (home / "bin" / "java", home / "Contents" / "Home" / "bin" / "java"):
        if candidate.is_file() and os.access(candidate, os.X_OK):
            return candidate
    return None


def _normalize_home(home: Path) -> Path:
    mac = home / "Contents" / "Home"
    return mac if (mac / "bin").is_dir() else home


def jdk_version(home: Path) -> tuple[int, str] | None:
    """(major, full version) of the JDK at ``home``, or None if it is not a usable JDK."""
    home = _normalize_home(home)
    if _java_binary(home) is None:
        return None
    release = home / "release"
    if release.is_file():
        try:
            text = release.read_text(encoding="utf-8", errors="replace")
        except OSError:
            text = ""
        m = re.search(r'^JAVA_VERSION="?([^"\n]+)"?', text, re.M)
        if m:
            major = normalize_version(m.group(1))
            if major is not None:
                return major, m.group(1)
    try:
        proc = subprocess.run(
            [str(home / "bin" / "java"), "-version"], capture_output=True, text=True, timeout=20, check=False
        )
    except (OSError, subprocess.SubprocessError):
        return None
    m = re.search(r'version "([^"]+)"', proc.stderr + proc.stdout)
    if not m:
        return None
    major = normalize_version(m.group(1))
    return (major, m.group(1)) if major is not None else None


def discover_jdks(search_dirs: Sequence[Path] | None = None, env: Mapping[str, str] | None = None) -> list[JdkInstall]:
    """Installed JDKs, deduplicated by real path, in discovery order (variables first)."""
    env = os.environ if env is None else env
    search_dirs = default_search_dirs() if search_dirs is None else search_dirs
    candidates: list[tuple[Path, str]] = []
    for name in sorted(env):
        if _ENV_HOME.match(name) and env[name]:
            candidates.append((Path(env[name]), f"${name}"))
    for base in search_dirs:
        try:
            children = sorted(p for p in Path(base).iterdir() if p.is_dir())
        except OSError:
            continue
        candidates.extend((child, str(base)) for child in children)
    if env.get("JAVA_HOME"):
        candidates.append((Path(env["JAVA_HOME"]), "$JAVA_HOME"))
    found: list[JdkInstall] = []
    seen: set[Path] = set()
    for path, source in candidates:
        home = _normalize_home(path)
        try:
            real = home.resolve()
        except OSError:
            continue
        if real in seen:
            continue
        info = jdk_version(home)
        if info is None:
            continue
        seen.add(real)
        found.append(JdkInstall(real, info[0], info[1], source))  # real path: links name the same JDK
    return found


def inspect_java_home(path: Path) -> JdkInstall:
    """The JDK at an explicit ``java_home`` override; raises ``JdkNotFound`` when it is not one."""
    info = jdk_version(path)
    if info is None:
        raise JdkNotFound(f"java_home {path} is not a JDK: no executable bin/java with a readable version")
    return JdkInstall(_normalize_home(path), info[0], info[1], "java_home")


def select_jdk(required: int | None, jdks: Sequence[JdkInstall], env: Mapping[str, str] | None = None) -> JdkInstall:
    """The JDK whose major version equals ``required``; with no requirement, JAVA_HOME or a common LTS."""
    env = os.environ if env is None else env
    if required is not None:
        for jdk in jdks:
            if jdk.major == required:
                return jdk
        listing = "; ".join(j.describe() for j in jdks) or "none"
        raise JdkNotFound(
            f"The build needs Java {required} but no JDK {required} was found (found: {listing}). "
            f"Install JDK {required}, set JAVA_HOME_{required}_X64 to it, or pass java_home."
        )
    if not jdks:
        raise JdkNotFound(
            "No JDK found (looked at JAVA_HOME_<N>_X64 variables, /usr/lib/jvm, SDKMAN, ~/.jdks "
            "and JAVA_HOME). "
            "Install a JDK or pass java_home."
        )
    java_home = env.get("JAVA_HOME")
    if java_home:
        wanted = _normalize_home(Path(java_home)).resolve()
        for jdk in jdks:
            if jdk.home.resolve() == wanted:
                return jdk
    for major in _DEFAULT_PREFERENCE:
        for jdk in jdks:
            if jdk.major == major:
                return jdk
    return jdks[0]
