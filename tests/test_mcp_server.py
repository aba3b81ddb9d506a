"""The MCP server in-process (``mcp.Client(server)``) and over real stdio, against the real catalog."""

from __future__ import annotations

import os
import sys
import threading
from typing import Any

import anyio
import pytest
from fixtures.mcp_support import call, text_of
from mcp import Client, StdioServerParameters

from rewrite_assist.server.catalog.db import Database
from rewrite_assist.server.mcp.app import create_server
from rewrite_assist.server.mcp.state import AppState


def test_tools_are_listed_with_schemas_and_annotations(app_state: AppState) -> None:
    async def run() -> Any:
        async with Client(create_server(app_state, warm_up=False)) as client:
            return (await client.list_tools()).tools

    tools = {t.name: t for t in anyio.run(run)}
    assert {"find_recipes", "get_recipe", "test_connection", "analyze_diffs"} <= set(tools)
    for name in ("find_recipes", "get_recipe", "test_connection"):
        assert tools[name].annotations is not None and tools[name].annotations.read_only_hint is True
        assert tools[name].output_schema is not None
    assert "intent" in tools["find_recipes"].input_schema["properties"]
    assert tools["find_recipes"].input_schema["required"] == ["intent"]


def test_test_connection_reports_the_catalog(app_state: AppState) -> None:
    result = call(app_state, "test_connection", {"message": "ping"})
    assert not result.is_error, text_of(result)
    data = result.structured_content
    assert data["status"] == "ok" and data["echo"] == "ping" and data["server"] == "rewrite-assist"
    assert (
        data["catalog"]["recipes"] == 7729
        and data["catalog"]["moderne_only"] == 3611
        and data["catalog"]["embedding_model"].endswith("all-MiniLM-L6-v2")
    )


def test_find_recipes_with_variations(app_state: AppState) -> None:
    result = call(
        app_state,
        "find_recipes",
        {
            "intent": [
                "switch setup-java distribution from adopt to temurin in GitHub workflows",
                "  ",
                "replace AdoptOpenJDK with Eclipse Temurin in CI",
                "switch setup-java distribution from adopt to temurin in GitHub workflows",
            ],
            "limit": 5,
        },
    )
    assert not result.is_error, text_of(result)
    data = result.structured_content
    assert len(data["queries"]) == 2  # blank and duplicate dropped
    ids = [h["id"] for h in data["hits"]]
    assert "org.openrewrite.github.SetupJavaAdoptOpenJDKToTemurin" in ids[:3]
    top = data["hits"][0]
    assert {
        "id",
        "display_name",
        "description",
        "tags",
        "module",
        "license",
        "is_composite",
        "sub_recipe_count",
        "options",
        "cosine_score",
        "fusion_score",
        "matched_variations",
    } <= set(top)
    assert 1 <= top["matched_variations"] <= 2 and data["total_count"] >= len(ids)
    assert [h["fusion_score"] for h in data["hits"]] == sorted((h["fusion_score"] for h in data["hits"]), reverse=True)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ({"intent": ["a", "b", "c", "d", "e", "f"]}, "at most 5"),
        ({"intent": "   "}, "intent is empty"),
        ({"intent": "junit", "limit": 0}, "limit must be between 1 and 50"),
        ({"intent": "junit", "limit": 51}, "limit must be between 1 and 50"),
        ({"intent": "junit", "license": "gpl"}, "license"),
    ],
)
def test_find_recipes_rejects_bad_arguments_clearly(app_state: AppState, args: dict, message: str) -> None:
    result = call(app_state, "find_recipes", args)
    assert result.is_error and message in text_of(result)


def test_get_recipe_resolves_ids_and_class_names(app_state: AppState) -> None:
    for query in (
        "org.openrewrite.java.ChangeMethodName",
        "ORG.OPENREWRITE.JAVA.CHANGEMETHODNAME",
        "UpgradeSpringBoot_3_0",
    ):
        result = call(app_state, "get_recipe", {"recipe_id": query})
        assert not result.is_error, text_of(result)
    data = call(app_state, "get_recipe", {"recipe_id": "org.openrewrite.java.ChangeMethodName"}).structured_content
    assert data["markdown"] is None
    required = {o["name"] for o in data["options"] if o["required"]}
    assert required == {"methodPattern", "newMethodName"}
    assert "methodPattern: " in data["rewrite_yml"] and "org.openrewrite.java.ChangeMethodName:" in data["rewrite_yml"]
    assert data["module"]["coordinates"].startswith("org.openrewrite:rewrite-java:")
    boot = call(app_state, "get_recipe", {"recipe_id": "UpgradeSpringBoot_3_0", "include_markdown": True})
    assert boot.structured_content["id"].endswith("UpgradeSpringBoot_3_0")
    assert boot.structured_content["is_composite"] and boot.structured_content["recipe_list"]
    assert "<RunRecipe" not in boot.structured_content["markdown"]


def test_get_recipe_unknown_id_suggests_closest(app_state: AppState) -> None:
    result = call(app_state, "get_recipe", {"recipe_id": "org.openrewrite.github.SetupJavaAdoptOpenJdkToTemurinn"})
    assert result.is_error
    assert "org.openrewrite.github.SetupJavaAdoptOpenJDKToTemurin" in text_of(result)
    assert "find_recipes" in text_of(result)


def test_database_down_is_an_actionable_error_and_recovers(app_state: AppState, catalog) -> None:
    good = catalog.db
    current = {"db": Database("postgresql://nobody@127.0.0.1:1/none", "embedded")}
    state = AppState(database_factory=lambda: current["db"], embedder=app_state.embedder)
    down = call(state, "test_connection", {})
    assert down.is_error and "rewrite-assist db start" in text_of(down)
    current["db"] = good  # the database comes back: the same server state recovers on the next call
    up = call(state, "find_recipes", {"intent": "migrate to junit 5"})
    assert not up.is_error and up.structured_content["hits"]


def test_empty_catalog_says_to_ingest(app_state: AppState, make_database) -> None:
    state = AppState(database_factory=lambda: make_database("emptysrv"), embedder=app_state.embedder)
    for tool, args in (("test_connection", {}), ("find_recipes", {"intent": "x"}), ("get_recipe", {"recipe_id": "x"})):
        result = call(state, tool, args)
        assert result.is_error and "rewrite-assist ingest" in text_of(result), tool


def test_stdio_subprocess_lists_tools_and_searches(catalog) -> None:
    env = {**os.environ, "REWRITE_ASSIST_DATABASE_URL": catalog.db.url}
    params = StdioServerParameters(command=sys.executable, args=["-m", "rewrite_assist", "serve"], env=env)

    async def run() -> tuple[list[str], Any]:
        async with Client(params) as client:
            names = [t.name for t in (await client.list_tools()).tools]
            result = await client.call_tool("find_recipes", {"intent": ["upgrade to Java 17", "migrate to JDK 17"]})
            return names, result

    names, result = anyio.run(run)
    assert "find_recipes" in names
    assert not result.is_error, text_of(result)
    assert any("Java17" in h["id"] or "UpgradeToJava17" in h["id"] for h in result.structured_content["hits"])


def test_warm_up_starts_after_the_handshake_and_only_once(app_state: AppState) -> None:
    """The lifespan no longer warms up (its threads delayed `initialize`); the first message after the
    handshake does, once per process."""
    from types import SimpleNamespace

    from rewrite_assist.server.mcp.app import WarmUpAfterHandshake

    class Recording(AppState):
        def __init__(self) -> None:
            super().__init__(database_factory=lambda: app_state.store().db, embedder=app_state.embedder)
            self.seen = 0

        def warm_up(self) -> None:
            self.seen += 1

    state = Recording()
    middleware = WarmUpAfterHandshake(state)

    async def answer(_ctx: Any) -> str:
        return "ok"

    async def deliver(method: str) -> Any:
        return await middleware(SimpleNamespace(method=method), answer)

    assert anyio.run(deliver, "initialize") == "ok" and state.seen == 0
    assert anyio.run(deliver, "notifications/initialized") == "ok" and state.seen == 1

    end_to_end = Recording()

    async def run() -> None:
        async with Client(create_server(end_to_end)) as client:
            await client.call_tool("test_connection", {})

    anyio.run(run)
    assert end_to_end.seen >= 1  # through the real server's middleware chain

    started: list[int] = []
    done = threading.Event()

    class CountingState(AppState):
        def _warm_db(self) -> None:
            started.append(1)
            done.set()

    real = CountingState(database_factory=lambda: app_state.store().db, embedder=app_state.embedder)
    real.warm_up()
    real.warm_up()  # returns at once: the flag is set synchronously by the first call
    assert done.wait(10)
    assert started == [1]
