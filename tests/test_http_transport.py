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
from collections.abc import Iterator
from pathlib import Path
from typing import Any

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


def start_server(extra: list[str]) -> Iterator[str]:
    port = free_port()
    env = {
        **os.environ,
        "REWRITE_ASSIST_TOKEN": "s3cret",
        "REWRITE_ASSIST_DATABASE_URL": "postgresql://x@127.0.0.1:1/x",
    }
    proc = subprocess.Popen(
        [sys.executable, "-m", "rewrite_assist", "serve", "--transport", "http", "--port", str(port), *extra],
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


@pytest.fixture
def http_server(tmp_path: Path) -> Iterator[str]:
    yield from start_server(["--allow-root", str(tmp_path)])


@pytest.fixture
def inline_only_server() -> Iterator[str]:
    yield from start_server([])


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


def test_http_beyond_loopback_without_a_token_refuses_to_start() -> None:
    """192.0.2.1 is a documentation address no machine has: even a broken check could not serve on it."""
    env = {k: v for k, v in os.environ.items() if k != "REWRITE_ASSIST_TOKEN"}
    done = subprocess.run(
        [sys.executable, "-m", "rewrite_assist", "serve", "--transport", "http", "--host", "192.0.2.1"],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2, done.stderr
    assert "Refusing to serve HTTP on 192.0.2.1 without REWRITE_ASSIST_TOKEN" in done.stderr
    assert "--insecure" in done.stderr and done.stdout == ""


def test_insecure_overrides_the_refusal_loudly(caplog: pytest.LogCaptureFixture) -> None:
    from rewrite_assist.server.mcp.cli import check_http_exposure, is_loopback

    assert is_loopback("127.0.0.1") and is_loopback("localhost") and is_loopback("::1") and is_loopback("127.1.2.3")
    assert not is_loopback("0.0.0.0") and not is_loopback("192.0.2.1") and not is_loopback("example.org")
    check_http_exposure("127.0.0.1", False, insecure=False)  # loopback: fine without a token
    check_http_exposure("0.0.0.0", True, insecure=False)  # a token: fine anywhere
    with pytest.raises(BadInput, match="REWRITE_ASSIST_TOKEN"):
        check_http_exposure("0.0.0.0", False, insecure=False)
    with caplog.at_level("WARNING"):
        check_http_exposure("0.0.0.0", False, insecure=True)
    assert "INSECURE" in caplog.text and "0.0.0.0" in caplog.text


def http_client_for(url: str, token: str = "s3cret") -> Client:
    from mcp.client.streamable_http import streamable_http_client
    from mcp.shared._httpx_utils import create_mcp_http_client

    http = create_mcp_http_client(headers={"authorization": f"Bearer {token}"})
    return Client(streamable_http_client(url, http_client=http))


def test_http_without_allow_root_takes_inline_text_only(inline_only_server: str, tmp_path: Path) -> None:
    diff = "diff --git a/x b/x\n--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n"
    on_disk = tmp_path / "pr.diff"
    on_disk.write_text(diff)

    async def run() -> dict[str, Any]:
        async with http_client_for(inline_only_server) as client:
            return {
                "passwd": await client.call_tool("analyze_diffs", {"pr_diff": "/etc/passwd", "recipe_diff": diff}),
                "file": await client.call_tool("analyze_diffs", {"pr_diff": str(on_disk), "recipe_diff": diff}),
                "inline": await client.call_tool("analyze_diffs", {"pr_diff": diff, "recipe_diff": diff}),
                "lint": await client.call_tool("lint_recipe", {"recipe": str(on_disk)}),
                "validate": await client.call_tool(
                    "validate_recipe", {"repo_path": str(tmp_path), "recipe": "type: x\nname: y\n"}
                ),
            }

    results = anyio.run(run)
    texts = {k: " ".join(getattr(b, "text", "") for b in r.content) for k, r in results.items()}
    for key in ("passwd", "file", "lint"):
        assert results[key].is_error and "inline text only" in texts[key] and "--allow-root" in texts[key], texts[key]
    assert "root:" not in texts["passwd"]
    assert not results["inline"].is_error and results["inline"].structured_content["metrics"]["is_perfect_match"]
    assert results["validate"].is_error and "validate_recipe is disabled" in texts["validate"]
    assert "--allow-root" in texts["validate"]


def test_a_request_body_over_the_limit_gets_413(http_server: str) -> None:
    """Only the headers are sent: the server answers from the declared length without reading a byte."""
    from urllib.parse import urlsplit

    from rewrite_assist.server.mcp.app import MAX_REQUEST_BYTES

    where = urlsplit(http_server)
    head = (
        f"POST {where.path} HTTP/1.1\r\nHost: {where.netloc}\r\nAuthorization: Bearer s3cret\r\n"
        f"Content-Type: application/json\r\nAccept: application/json, text/event-stream\r\n"
        f"Content-Length: {MAX_REQUEST_BYTES + 1}\r\n\r\n"
    )
    with socket.create_connection((where.hostname or "127.0.0.1", where.port or 80), timeout=30) as conn:
        conn.sendall(head.encode())
        status_line = conn.recv(200).split(b"\r\n", 1)[0]
    assert status_line.split()[1] == b"413", status_line
    assert post(http_server, {**HEADERS, "authorization": "Bearer s3cret"})[0] == 200  # and it still serves


def test_the_body_limit_counts_a_streamed_body_without_a_length() -> None:
    from rewrite_assist.server.mcp.app import BodyLimitMiddleware

    async def exchange(chunks: list[bytes]) -> tuple[list[dict[str, Any]], list[bytes]]:
        seen: list[bytes] = []

        async def app(scope: dict[str, Any], receive: Any, send: Any) -> None:
            message = await receive()
            seen.append(message["body"])
            await send({"type": "http.response.start", "status": 200, "headers": []})
            await send({"type": "http.response.body", "body": b"ok"})

        pending = [{"type": "http.request", "body": c, "more_body": n < len(chunks) - 1} for n, c in enumerate(chunks)]

        async def receive() -> dict[str, Any]:
            return pending.pop(0)

        sent: list[dict[str, Any]] = []

        async def send(message: dict[str, Any]) -> None:
            sent.append(message)

        scope = {"type": "http", "method": "POST", "headers": []}
        await BodyLimitMiddleware(app, limit=100)(scope, receive, send)
        return sent, seen

    sent, seen = anyio.run(exchange, [b"x" * 60, b"y" * 60])
    assert sent[0]["status"] == 413 and seen == []
    sent, seen = anyio.run(exchange, [b"x" * 40, b"y" * 40])
    assert sent[0]["status"] == 200 and seen == [b"x" * 40 + b"y" * 40]
