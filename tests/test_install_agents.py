"""install-agents into temporary project folders: what it writes, what it merges, what it leaves alone."""

from __future__ import annotations

import argparse
import json
import os
import stat
import sys
from pathlib import Path

import pytest

from rewrite_assist.agents import cli as workflow_cli
from rewrite_assist.agents.install import CARRIED_SETTINGS, InstallError, install_agents, server_command
from rewrite_assist.agents.prompts import packaged_prompts, workflow_tool_names
from rewrite_assist.server.errors import UserError as CommandError

ENTRY = {"type": "stdio", "command": "/opt/rewrite-assist/bin/rewrite-assist", "args": ["serve"]}
EXPECTED_PROMPTS = {
    "commands/rewrite-assist.md",
    "agents/openrewrite-expert.md",
    "agents/openrewrite-recipe-validator.md",
}


def snapshot(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def test_packaged_prompts_are_the_three_workflow_files() -> None:
    assert {p.relative_path for p in packaged_prompts()} == EXPECTED_PROMPTS


def test_fresh_install_writes_prompts_server_and_permissions(tmp_path: Path) -> None:
    report = install_agents(tmp_path, server_entry=ENTRY)
    assert set(report.written) == EXPECTED_PROMPTS
    for prompt in packaged_prompts():
        assert (tmp_path / ".claude" / prompt.kind / prompt.name).read_text() == prompt.text
    mcp = json.loads((tmp_path / ".mcp.json").read_text())
    assert mcp == {"mcpServers": {"rewrite-assist": ENTRY}}
    settings = json.loads((tmp_path / ".claude" / "settings.json").read_text())
    assert settings["permissions"]["allow"] == workflow_tool_names()
    assert "mcp__rewrite-assist__validate_recipe" in settings["permissions"]["allow"]
    assert settings["enabledMcpjsonServers"] == ["rewrite-assist"]
    assert report.changed


def test_existing_servers_and_settings_are_kept(tmp_path: Path) -> None:
    other = {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-github"], "env": {"X": "1"}}
    (tmp_path / ".mcp.json").write_text(json.dumps({"mcpServers": {"github": other}, "extra": True}))
    (tmp_path / ".claude").mkdir()
    (tmp_path / ".claude" / "settings.json").write_text(
        json.dumps({"permissions": {"allow": ["Bash(git status)"], "deny": ["WebFetch"]}, "model": "opus"})
    )
    report = install_agents(tmp_path, server_entry=ENTRY)
    mcp = json.loads((tmp_path / ".mcp.json").read_text())
    assert mcp["mcpServers"] == {"github": other, "rewrite-assist": ENTRY}
    assert mcp["extra"] is True
    settings = json.loads((tmp_path / ".claude" / "settings.json").read_text())
    assert settings["permissions"]["allow"] == ["Bash(git status)", *workflow_tool_names()]
    assert settings["permissions"]["deny"] == ["WebFetch"]
    assert settings["model"] == "opus"
    assert "other servers kept: 1" in report.mcp_server


def test_second_run_is_a_no_op(tmp_path: Path) -> None:
    install_agents(tmp_path, server_entry=ENTRY)
    before = snapshot(tmp_path)
    mtimes = {p: (tmp_path / p).stat().st_mtime_ns for p in before}
    report = install_agents(tmp_path, server_entry=ENTRY)
    assert not report.changed
    assert set(report.unchanged) == EXPECTED_PROMPTS
    assert report.settings == "unchanged"
    assert snapshot(tmp_path) == before
    assert {p: (tmp_path / p).stat().st_mtime_ns for p in before} == mtimes  # nothing rewritten


def test_edited_prompt_is_kept_unless_forced(tmp_path: Path) -> None:
    install_agents(tmp_path, server_entry=ENTRY)
    edited = tmp_path / ".claude" / "agents" / "openrewrite-expert.md"
    edited.write_text(edited.read_text() + "\nAlways prefer recipes from rewrite-spring.\n")
    report = install_agents(tmp_path, server_entry=ENTRY)
    assert report.kept_modified == ["agents/openrewrite-expert.md"]
    assert "Always prefer recipes from rewrite-spring." in edited.read_text()
    assert any("kept      .claude/agents/openrewrite-expert.md" in line for line in report.lines())
    forced = install_agents(tmp_path, force=True, server_entry=ENTRY)
    assert forced.written == ["agents/openrewrite-expert.md"]
    assert "Always prefer" not in edited.read_text()


def test_differing_server_entry_is_kept_unless_forced(tmp_path: Path) -> None:
    custom = {"command": "/home/me/venv/bin/rewrite-assist", "args": ["serve", "--allow-root", "/src"]}
    (tmp_path / ".mcp.json").write_text(json.dumps({"mcpServers": {"rewrite-assist": custom}}))
    report = install_agents(tmp_path, server_entry=ENTRY)
    assert "differs" in report.mcp_server and "--force" in report.mcp_server
    assert json.loads((tmp_path / ".mcp.json").read_text())["mcpServers"]["rewrite-assist"] == custom
    install_agents(tmp_path, force=True, server_entry=ENTRY)
    assert json.loads((tmp_path / ".mcp.json").read_text())["mcpServers"]["rewrite-assist"] == ENTRY


def test_server_command_is_absolute_and_runs_serve(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in CARRIED_SETTINGS:
        monkeypatch.delenv(name, raising=False)
    entry = server_command()
    assert Path(entry["command"]).is_absolute()
    assert os.access(entry["command"], os.X_OK)
    assert entry["args"][-1] == "serve"
    beside_python = Path(sys.executable).parent / "rewrite-assist"
    if beside_python.exists():  # the entry point of this very environment wins over anything on PATH
        assert entry == {"type": "stdio", "command": str(beside_python.absolute()), "args": ["serve"]}


def test_target_that_is_a_file_or_missing(tmp_path: Path) -> None:
    a_file = tmp_path / "file.txt"
    a_file.write_text("x")
    with pytest.raises(InstallError, match="is not a directory"):
        install_agents(a_file, server_entry=ENTRY)
    with pytest.raises(InstallError, match="cannot create the target"):
        install_agents(a_file / "sub", server_entry=ENTRY)


@pytest.mark.skipif(os.geteuid() == 0, reason="root can write to read-only directories")
def test_unwritable_target(tmp_path: Path) -> None:
    locked = tmp_path / "locked"
    locked.mkdir()
    locked.chmod(stat.S_IRUSR | stat.S_IXUSR)
    try:
        with pytest.raises(InstallError, match="not writable"):
            install_agents(locked, server_entry=ENTRY)
    finally:
        locked.chmod(stat.S_IRWXU)


def test_unwritable_target_reported_before_writing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(os, "access", lambda path, mode: False)
    with pytest.raises(InstallError, match="is not writable by this user"):
        install_agents(tmp_path, server_entry=ENTRY)
    assert list(tmp_path.iterdir()) == []


def test_claude_path_that_is_a_file_is_a_clear_error(tmp_path: Path) -> None:
    (tmp_path / ".claude").write_text("not a folder")
    with pytest.raises(InstallError, match=r"cannot read .*\.claude/commands/rewrite-assist\.md: .*Not a directory"):
        install_agents(tmp_path, server_entry=ENTRY)
    assert sorted(p.name for p in tmp_path.iterdir()) == [".claude"]


def test_failed_write_leaves_no_temporary_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(src: str, dst: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", refuse)
    with pytest.raises(InstallError, match=r"cannot write .*rewrite-assist\.md: No space left on device"):
        install_agents(tmp_path, server_entry=ENTRY)
    assert [p.name for p in (tmp_path / ".claude" / "commands").iterdir()] == []


def test_invalid_json_in_existing_config_is_a_clear_error(tmp_path: Path) -> None:
    (tmp_path / ".mcp.json").write_text('{"mcpServers": {"a": 1,}}')
    with pytest.raises(InstallError, match=r"\.mcp\.json is not valid JSON \(line 1\)"):
        install_agents(tmp_path, server_entry=ENTRY)


def run_cli(argv: list[str]) -> int:
    parser = argparse.ArgumentParser()
    workflow_cli.register(parser.add_subparsers())
    args = parser.parse_args(argv)
    return int(args.func(args))


def test_cli_install_and_rerun(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert run_cli(["install-agents", "--target", str(tmp_path)]) == 0
    first = capsys.readouterr().out
    assert "wrote     .claude/commands/rewrite-assist.md" in first
    assert "/rewrite-assist <PR URL>" in first
    entry = json.loads((tmp_path / ".mcp.json").read_text())["mcpServers"]["rewrite-assist"]
    assert entry == server_command()
    assert run_cli(["install-agents", "--target", str(tmp_path)]) == 0
    assert "Already installed; nothing changed." in capsys.readouterr().out


def test_cli_bad_target_exits_2(tmp_path: Path) -> None:
    (tmp_path / "file.txt").write_text("x")
    with pytest.raises(CommandError, match="cannot create the target") as exc:
        run_cli(["install-agents", "--target", str(tmp_path / "file.txt" / "nope")])
    assert exc.value.exit_code == 2


def test_installed_command_starts_the_server_from_another_directory(tmp_path: Path) -> None:
    """What Claude Code does with .mcp.json: run the command from the project, list the tools."""
    import asyncio

    from mcp import Client, StdioServerParameters

    install_agents(tmp_path)
    entry = json.loads((tmp_path / ".mcp.json").read_text())["mcpServers"]["rewrite-assist"]
    env = dict(
        os.environ,
        # an unreachable catalog: listing tools must not need it, and nothing is started or touched
        REWRITE_ASSIST_DATABASE_URL="postgresql://nobody@127.0.0.1:9/none",
        REWRITE_ASSIST_HOME=str(tmp_path / "home"),
    )
    params = StdioServerParameters(command=entry["command"], args=entry["args"], cwd=str(tmp_path), env=env)

    async def listing() -> set[str]:
        async with Client(params) as client:
            return {tool.name for tool in (await client.list_tools()).tools}

    names = asyncio.run(asyncio.wait_for(listing(), timeout=120))
    assert {f"mcp__rewrite-assist__{name}" for name in names} >= set(workflow_tool_names())


def test_missing_target_folder_is_created(tmp_path: Path) -> None:
    target = tmp_path / "new" / "project"
    report = install_agents(target, server_entry=ENTRY)
    assert report.target == target.resolve() and (target / ".claude" / "commands" / "rewrite-assist.md").is_file()


def test_files_follow_the_umask(tmp_path: Path) -> None:
    old = os.umask(0o022)
    try:
        install_agents(tmp_path / "a", server_entry=ENTRY)
        os.umask(0o077)
        install_agents(tmp_path / "b", server_entry=ENTRY)
    finally:
        os.umask(old)
    for folder, expected in (("a", 0o644), ("b", 0o600)):
        files = [p for p in (tmp_path / folder).rglob("*") if p.is_file()]
        assert len(files) == 5  # three prompts, .mcp.json, .claude/settings.json
        assert {stat.S_IMODE(p.stat().st_mode) for p in files} == {expected}, folder


def test_replaced_file_keeps_its_mode(tmp_path: Path) -> None:
    (tmp_path / ".mcp.json").write_text('{"mcpServers": {}}')
    (tmp_path / ".mcp.json").chmod(0o640)
    install_agents(tmp_path, server_entry=ENTRY)
    assert stat.S_IMODE((tmp_path / ".mcp.json").stat().st_mode) == 0o640
    assert "rewrite-assist" in json.loads((tmp_path / ".mcp.json").read_text())["mcpServers"]


def test_catalog_settings_go_into_the_server_env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("REWRITE_ASSIST_HOME", "relative-home")
    monkeypatch.setenv("REWRITE_ASSIST_DATABASE_URL", "postgresql://ra:secret@db.example:5432/catalog")
    monkeypatch.delenv("REWRITE_ASSIST_MODEL", raising=False)
    report = install_agents(tmp_path / "project")
    entry = json.loads((tmp_path / "project" / ".mcp.json").read_text())["mcpServers"]["rewrite-assist"]
    assert entry["env"] == {
        "REWRITE_ASSIST_HOME": str(tmp_path / "relative-home"),
        "REWRITE_ASSIST_DATABASE_URL": "postgresql://ra:secret@db.example:5432/catalog",
    }
    assert "with env REWRITE_ASSIST_DATABASE_URL, REWRITE_ASSIST_HOME" in report.mcp_server
    assert "password" in report.mcp_server
    monkeypatch.delenv("REWRITE_ASSIST_HOME")
    monkeypatch.delenv("REWRITE_ASSIST_DATABASE_URL")
    assert "env" not in server_command()


def test_portable_entry_names_the_command_on_path(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    bin_dir = Path(sys.executable).parent
    if not (bin_dir / "rewrite-assist").exists():
        pytest.skip("no rewrite-assist entry point beside this interpreter")
    monkeypatch.setenv("PATH", f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}")
    assert run_cli(["install-agents", "--target", str(tmp_path), "--portable"]) == 0
    entry = json.loads((tmp_path / ".mcp.json").read_text())["mcpServers"]["rewrite-assist"]
    assert entry["command"] == "rewrite-assist" and entry["args"] == ["serve"]
    monkeypatch.setenv("PATH", str(tmp_path / "empty"))
    with pytest.raises(InstallError, match="not on this PATH"):
        server_command(portable=True)
