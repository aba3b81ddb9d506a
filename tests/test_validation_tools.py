"""The ``lint_recipe`` and ``validate_recipe`` MCP tools through the official in-process client."""

from __future__ import annotations

import tempfile
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any, cast

import anyio
import pytest
from fixtures.validation_support import (
    CI_DIFF,
    CI_RECIPE,
    InMemoryLookup,
    StandIn,
    make_fake_jdk,
    make_gradle_repo,
    no_remote_preflight,  # noqa: F401  (autouse)
)
from mcp import Client

from rewrite_assist.server.catalog.db import Database
from rewrite_assist.server.mcp.app import create_server
from rewrite_assist.server.mcp.security import set_allowed_roots
from rewrite_assist.server.mcp.state import AppState
from rewrite_assist.server.mcp.tools.validate_recipe import validate_recipe_tool


class ReadyLookup(InMemoryLookup):
    def check_ready(self) -> dict[str, str]:
        return {"ingested_at": "test"}


def _no_database() -> Database:
    raise AssertionError("these tests use the in-memory catalog; no database is opened")


class FakeState(AppState):
    """The server state with an in-memory catalog instead of PostgreSQL."""

    def __init__(self) -> None:
        super().__init__(database_factory=_no_database)
        self.lookup = ReadyLookup()

    def store(self) -> Any:
        return self.lookup


def call(name: str, arguments: dict[str, Any], updates: list[Any] | None = None) -> Any:
    async def run() -> Any:
        async with Client(create_server(FakeState(), warm_up=False)) as client:

            async def on_progress(progress: float, total: float | None, message: str | None) -> None:
                if updates is not None:
                    updates.append((progress, total, message))

            return await client.call_tool(name, arguments, progress_callback=on_progress)

    return anyio.run(run)


@pytest.fixture
def no_roots() -> Iterator[None]:
    yield
    set_allowed_roots(None)


@pytest.fixture
def gradle(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> SimpleNamespace:
    work = tmp_path / "work"
    work.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(work))  # where the per-run copies go
    diff = tmp_path / "ci.diff"
    diff.write_text(CI_DIFF)
    standin = StandIn(tmp_path, monkeypatch)
    standin.configure(rewrite={"apply_diff": str(diff)})
    return SimpleNamespace(
        repo=make_gradle_repo(tmp_path / "repo"),
        jdk=make_fake_jdk(tmp_path / "jdks", 17),
        work=work,
        standin=standin,
        out=tmp_path / "out",
        tmp=tmp_path,
    )


def test_tools_are_listed_with_honest_annotations() -> None:
    async def run() -> Any:
        async with Client(create_server(FakeState(), warm_up=False)) as client:
            return {t.name: t for t in (await client.list_tools()).tools}

    tools = anyio.run(run)
    lint, validate = tools["lint_recipe"], tools["validate_recipe"]
    assert lint.annotations.read_only_hint is True
    assert validate.annotations.read_only_hint is False
    assert validate.annotations.destructive_hint is False  # it works on a copy
    assert set(validate.input_schema["required"]) == {"repo_path", "recipe"}
    assert {"recipe_name", "pr_diff", "java_home", "timeout_s", "check_build", "output_dir"} <= set(
        validate.input_schema["properties"]
    )


def test_lint_recipe_inline_and_from_a_file(tmp_path: Path) -> None:
    bad = CI_RECIPE.replace("minimumJavaMajorVersion", "minimumJavaVersion")
    result = call("lint_recipe", {"recipe": bad})
    assert not result.is_error
    report = result.structured_content
    assert report["ok"] is False and report["catalog_checked"] is True
    (error,) = report["errors"]
    assert error["path"].endswith("SetupJavaUpgradeJavaVersion.minimumJavaVersion")
    assert error["suggestions"] == ["minimumJavaMajorVersion"]
    path = tmp_path / "rewrite.yml"
    path.write_text(CI_RECIPE)
    assert call("lint_recipe", {"recipe": str(path)}).structured_content["ok"] is True
    missing = call("lint_recipe", {"recipe": str(tmp_path / "nope.yml")})
    assert missing.is_error and "is not a file and does not look like YAML" in missing.content[0].text


def test_validate_recipe_runs_and_reports_progress(gradle: SimpleNamespace) -> None:
    progress: list[Any] = []
    result = call(
        "validate_recipe",
        {
            "repo_path": str(gradle.repo),
            "recipe": CI_RECIPE,
            "pr_diff": CI_DIFF,
            "java_home": str(gradle.jdk),
            "output_dir": str(gradle.out),
            "check_build": True,
        },
        progress,
    )
    assert not result.is_error, result.content
    data = result.structured_content
    assert data["status"] == "ok" and data["build_check"]["passed"] is True
    assert data["metrics"]["is_perfect_match"] is True
    assert data["diff_path"] == str(gradle.out / "recipe.diff")
    assert [p[0] for p in progress] == [1, 2, 3, 4, 5, 6, 7, 8]
    assert progress[4][2].startswith("running com.example.UpgradeCi")
    assert list(gradle.work.iterdir()) == []


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"repo_path": "{tmp}/plain"}, "is not a git work tree"),
        ({"java_home": "{tmp}"}, "is not a JDK"),
        ({"pr_diff": "{tmp}/missing.diff"}, "PR diff"),
        ({"recipe": "{tmp}/missing.yml"}, "is not a file"),
    ],
)
def test_validate_recipe_errors_are_tool_errors(gradle: SimpleNamespace, change: dict[str, str], message: str) -> None:
    (gradle.tmp / "plain").mkdir()
    args = {"repo_path": str(gradle.repo), "recipe": CI_RECIPE, "java_home": str(gradle.jdk)}
    args.update({k: v.format(tmp=gradle.tmp) for k, v in change.items()})
    result = call("validate_recipe", args)
    assert result.is_error
    assert message in result.content[0].text
    assert gradle.standin.calls() == []


def test_validate_recipe_respects_allowed_roots(gradle: SimpleNamespace, no_roots: None) -> None:
    set_allowed_roots([gradle.tmp / "elsewhere"])
    result = call("validate_recipe", {"repo_path": str(gradle.repo), "recipe": CI_RECIPE})
    assert result.is_error and "outside the directories this server may access" in result.content[0].text


def test_cancelled_call_stops_the_build_and_removes_the_copy(gradle: SimpleNamespace) -> None:
    gradle.standin.configure(rewrite={"sleep": 60})
    state = FakeState()
    ctx = SimpleNamespace(
        request_context=SimpleNamespace(lifespan_context=state),
        report_progress=lambda *a, **k: anyio.sleep(0),
    )
    outcome: dict[str, Any] = {}

    async def run() -> None:
        async with anyio.create_task_group() as tg:

            async def tool() -> None:
                try:
                    await validate_recipe_tool(
                        cast(Any, ctx),
                        repo_path=str(gradle.repo),
                        recipe=CI_RECIPE,
                        java_home=str(gradle.jdk),
                        output_dir=str(gradle.out),
                    )
                except anyio.get_cancelled_exc_class():
                    outcome["cancelled"] = True
                    outcome["work_after"] = list(gradle.work.iterdir())
                    raise

            tg.start_soon(tool)
            with anyio.fail_after(30):
                while not gradle.standin.calls():  # the build has started
                    await anyio.sleep(0.05)
            tg.cancel_scope.cancel()

    anyio.run(run)
    assert outcome == {"cancelled": True, "work_after": []}
