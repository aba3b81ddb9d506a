"""``install-agents``: put the workflow prompts and the MCP server into a project for Claude Code.

Everything merges into files the user may already own (``.mcp.json``, ``.claude/settings.json``), so the
rules are: never drop a key we did not write, never overwrite a prompt the user edited unless asked
(``force``), and write nothing when nothing changed, so a second run is a no-op.
"""

from __future__ import annotations

import json
import os
import shutil
import stat
import sys
import tempfile
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..server import SERVER_NAME
from ..server.errors import BadInput
from .prompts import packaged_prompts, workflow_tool_names


class InstallError(BadInput):
    """The target cannot be installed into; the message says why and what to do."""


@dataclass
class InstallReport:
    target: Path
    written: list[str] = field(default_factory=list)  # created, or replaced with --force
    unchanged: list[str] = field(default_factory=list)
    kept_modified: list[str] = field(default_factory=list)  # differ from the packaged prompt; left alone
    mcp_server: str = ""  # what happened to the server entry in .mcp.json
    settings: str = ""  # what happened to .claude/settings.json
    config_written: list[str] = field(default_factory=list)  # JSON files rewritten

    @property
    def changed(self) -> bool:
        return bool(self.written or self.config_written)

    def lines(self) -> list[str]:
        out = [f"target: {self.target}"]
        out += [f"  wrote     .claude/{p}" for p in self.written]
        out += [f"  unchanged .claude/{p}" for p in self.unchanged]
        out += [f"  kept      .claude/{p} (differs from the packaged prompt)" for p in self.kept_modified]
        out.append(f"  .mcp.json: {self.mcp_server}")
        out.append(f"  .claude/settings.json: {self.settings}")
        if self.kept_modified:
            out.append("Edited prompts were kept; rerun with --force to replace them with the packaged ones.")
        return out


# The settings that decide which catalog and model the server uses: carried into ``.mcp.json`` when set, so
# the server Claude Code starts opens the catalog this shell's commands use, not a default (empty) one.
CARRIED_SETTINGS = ("REWRITE_ASSIST_HOME", "REWRITE_ASSIST_DATABASE_URL", "REWRITE_ASSIST_MODEL")


def carried_env(environ: Mapping[str, str] | None = None) -> dict[str, str]:
    """The catalog settings set in ``environ`` (default: this process), paths made absolute."""
    environ = os.environ if environ is None else environ
    env = {}
    for name in CARRIED_SETTINGS:
        value = environ.get(name)
        if not value:
            continue
        if name == "REWRITE_ASSIST_HOME" or (name == "REWRITE_ASSIST_MODEL" and Path(value).expanduser().exists()):
            value = str(Path(value).expanduser().absolute())  # Claude Code starts the server in the project
        env[name] = value
    return env


def server_command(*, portable: bool = False, environ: Mapping[str, str] | None = None) -> dict[str, Any]:
    """The ``.mcp.json`` entry that starts this installation's server.

    By default an absolute path, because Claude Code starts servers with the user's PATH, which need not
    include the virtualenv this package lives in: the executable next to the running interpreter wins (same
    environment as the code doing the install); then one on PATH; then ``python -m``. ``portable`` writes
    the bare ``rewrite-assist`` instead, for a ``.mcp.json`` a team commits: each member's own installation
    on their PATH then runs it. The catalog settings set in ``environ`` go into ``env``.
    """
    if portable:
        if shutil.which("rewrite-assist") is None:
            raise InstallError(
                "--portable writes the bare command `rewrite-assist`, but it is not on this PATH; put the "
                "installation's bin folder on PATH (or install with pipx), or leave out --portable"
            )
        entry: dict[str, Any] = {"type": "stdio", "command": "rewrite-assist", "args": ["serve"]}
    else:
        script = shutil.which("rewrite-assist", path=str(Path(sys.executable).parent)) or shutil.which("rewrite-assist")
        if script:
            entry = {"type": "stdio", "command": str(Path(script).absolute()), "args": ["serve"]}
        else:
            entry = {
                "type": "stdio",
                "command": str(Path(sys.executable).absolute()),
                "args": ["-m", "rewrite_assist", "serve"],
            }
    env = carried_env(environ)
    if env:
        entry["env"] = env
    return entry


def install_agents(
    target: Path, *, force: bool = False, server_entry: dict[str, Any] | None = None, portable: bool = False
) -> InstallReport:
    """Install prompts, the MCP server entry and tool permissions into ``target`` (created if missing)."""
    target = _check_target(target)
    report = InstallReport(target=target)
    claude = target / ".claude"
    for prompt in packaged_prompts():
        path = claude / prompt.kind / prompt.name
        existing = _read_text(path)
        if existing == prompt.text:
            report.unchanged.append(prompt.relative_path)
        elif existing is not None and not force:
            report.kept_modified.append(prompt.relative_path)
        else:
            _write_text(path, prompt.text)
            report.written.append(prompt.relative_path)
    mcp_changed, report.mcp_server = _merge_mcp_json(
        target / ".mcp.json", server_entry or server_command(portable=portable), force
    )
    settings_changed, report.settings = _merge_settings(claude / "settings.json")
    report.config_written = [
        name for name, changed in ((".mcp.json", mcp_changed), (".claude/settings.json", settings_changed)) if changed
    ]
    return report


def _check_target(target: Path) -> Path:
    target = target.expanduser()
    if not target.exists():
        try:
            target.mkdir(parents=True)
        except OSError as exc:
            raise InstallError(f"cannot create the target {target}: {exc.strerror or exc}") from exc
    if not target.is_dir():
        raise InstallError(f"target {target} is not a directory; pass the project directory")
    if not os.access(target, os.W_OK | os.X_OK):
        raise InstallError(f"target {target} is not writable by this user")
    return target.resolve()


def _merge_mcp_json(path: Path, entry: dict[str, Any], force: bool) -> tuple[bool, str]:
    data = _read_json_object(path)
    servers = data.setdefault("mcpServers", {})
    if not isinstance(servers, dict):
        raise InstallError(f"{path}: 'mcpServers' is not an object; fix the file and rerun")
    current = servers.get(SERVER_NAME)
    if current == entry:
        return False, f"unchanged ({SERVER_NAME} → {entry['command']}{_env_note(entry)})"
    if current is not None and not force:
        return False, f"kept the existing '{SERVER_NAME}' entry, which differs (use --force to replace it)"
    servers[SERVER_NAME] = entry
    _write_json(path, data)
    others = len(servers) - 1
    verb = "replaced" if current is not None else "added"
    command = " ".join([entry["command"], *entry["args"]])
    return True, f"{verb} '{SERVER_NAME}' → {command}{_env_note(entry)} (other servers kept: {others})"


def _env_note(entry: dict[str, Any]) -> str:
    env = entry.get("env") or {}
    if not env:
        return ""
    note = f" with env {', '.join(sorted(env))}"
    if "REWRITE_ASSIST_DATABASE_URL" in env and "@" in env["REWRITE_ASSIST_DATABASE_URL"].split("//", 1)[-1]:
        note += " (the database URL may hold a password: mind that before committing .mcp.json)"
    return note


def _merge_settings(path: Path) -> tuple[bool, str]:
    """Allow the workflow's tools and pre-approve the project server, keeping every other setting."""
    data = _read_json_object(path)
    permissions = data.setdefault("permissions", {})
    if not isinstance(permissions, dict):
        raise InstallError(f"{path}: 'permissions' is not an object; fix the file and rerun")
    allow = permissions.setdefault("allow", [])
    enabled = data.setdefault("enabledMcpjsonServers", [])
    if not isinstance(allow, list) or not isinstance(enabled, list):
        raise InstallError(f"{path}: 'permissions.allow' and 'enabledMcpjsonServers' must be lists")
    added = [tool for tool in workflow_tool_names() if tool not in allow]
    allow.extend(added)
    enable = SERVER_NAME not in enabled
    if enable:
        enabled.append(SERVER_NAME)
    if not added and not enable:
        return False, "unchanged"
    _write_json(path, data)
    return True, f"allowed {len(added)} tool(s)" + (f", enabled project server '{SERVER_NAME}'" if enable else "")


def _read_text(path: Path) -> str | None:
    try:
        return path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return None
    except (OSError, UnicodeDecodeError) as exc:
        raise InstallError(f"cannot read {path}: {exc}") from exc


def _read_json_object(path: Path) -> dict[str, Any]:
    text = _read_text(path)
    if text is None or not text.strip():
        return {}
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise InstallError(f"{path} is not valid JSON (line {exc.lineno}): fix or remove it, then rerun") from exc
    if not isinstance(data, dict):
        raise InstallError(f"{path} does not hold a JSON object; fix or remove it, then rerun")
    return data


def _write_json(path: Path, data: dict[str, Any]) -> None:
    _write_text(path, json.dumps(data, indent=2, ensure_ascii=False) + "\n")


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def _write_text(path: Path, text: str) -> None:
    """Write through a temporary file in the same folder, so a failure never leaves half a file.

    The file gets the mode a plain write would give it (``0666`` less the umask) or, when it replaces a
    file, that file's mode: the temporary file's private ``0600`` must not leak into the project."""
    tmp: str | None = None
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        try:
            mode = stat.S_IMODE(path.stat().st_mode)
        except FileNotFoundError:
            mode = 0o666 & ~_umask()
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as handle:
            handle.write(text)
        os.chmod(tmp, mode)
        os.replace(tmp, path)
        tmp = None
    except OSError as exc:
        raise InstallError(f"cannot write {path}: {exc.strerror or exc}") from exc
    finally:
        if tmp is not None:
            Path(tmp).unlink(missing_ok=True)
