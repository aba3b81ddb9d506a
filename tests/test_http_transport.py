"""Team deployment: streamable HTTP bound to loopback, bearer token, and path roots for file-taking tools."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import anyio
import pytest
from mcp import Client

from rewrite_assist.server.errors import BadInput
from rewrite_assist.server.mcp import security
from rewrite_assist.server.mcp.app import create_server

INITIALIZE = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "0"}},
}
HEADERS = {"accept": "application/json, text/event-stream", "content-type": "application/json"}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture
def http_server(tmp_path: Path):
    port = free_port()
    env = {
        **os.environ,
        "REWRITE_ASSIST_TOKEN": "s3cret",
        "REWRITE_ASSIST_DATABASE_URL": "postgresql://x@127.0.0.1:1/x",
    }
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "rewrite_assist",
            "serve",
            "--transport",
            "http",
            "--port",
            str(port),
            "--allow-root",
            str(tmp_path),
        ],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    url = f"http://127.0.0.1:{port}/mcp"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                break
        except OSError:
            if proc.poll() is not None:
                pytest.fail(f"server exited: {proc.stderr.read() if proc.stderr else ''}")
            time.sleep(0.2)
    yield url
    proc.terminate()
    proc.wait(timeout=20)
    assert proc.stdout is not None and proc.stdout.read() == ""  # nothing but the protocol: HTTP has none


def post(url: str, headers: dict[str, str]) -> tuple[int, str]:
    request = urllib.request.Request(url, data=json.dumps(INITIALIZE).encode(), headers=headers, method="POST")
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, response.read().decode()
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read().decode()


def test_http_requires_the_bearer_token(http_server: str) -> None:
    assert post(http_server, HEADERS)[0] == 401
    assert post(http_server, {**HEADERS, "authorization": "Bearer nope"})[0] == 401
    status, body = post(http_server, {**HEADERS, "authorization": "Bearer s3cret"})
    assert status == 200 and "rewrite-assist" in body


def test_allowed_roots_confine_file_paths(tmp_path: Path) -> None:
    inside = tmp_path / "inside"
    inside.mkdir()
    diff = inside / "pr.diff"
    diff.write_text("diff --git a/x b/x\n--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n")
    security.set_allowed_roots([inside])
    try:
        assert security.check_path(diff) == diff.resolve()
        with pytest.raises(BadInput, match="outside the directories"):
            security.check_path(tmp_path / "elsewhere.diff")
        with pytest.raises(BadInput, match="outside the directories"):
            security.check_path(inside / ".." / "elsewhere.diff")

        async def run():
            async with Client(create_server(warm_up=False)) as client:
                return await client.call_tool("analyze_diffs", {"pr_diff": "/etc/passwd", "recipe_diff": str(diff)})

        result = anyio.run(run)
        assert result.is_error and "outside the directories" in result.content[0].text
    finally:
        security.set_allowed_roots(None)
