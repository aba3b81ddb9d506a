"""The CLI contract other tools rely on (command names, --json shapes, exit codes) and the packaging."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from conftest import REPO_ROOT

from rewrite_assist.__main__ import main


def run(args: list[str], env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "rewrite_assist", *args],
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, **(env or {})},
    )


def test_status_json_contract(catalog) -> None:
    result = run(["status", "--json"], {"REWRITE_ASSIST_DATABASE_URL": catalog.db.url})
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert set(data) == {
        "recipes",
        "composites",
        "with_options",
        "modules",
        "moderne_only",
        "embedding_model",
        "source",
        "ingested_at",
        "database",
    }
    assert (data["recipes"], data["composites"], data["with_options"], data["modules"]) == (7729, 1402, 519, 52)
    assert data["moderne_only"] == 3611
    assert data["database"] == "external"


def test_search_and_show_use_the_catalog(catalog) -> None:
    env = {"REWRITE_ASSIST_DATABASE_URL": catalog.db.url}
    result = run(
        ["search", "add a manual trigger to a GitHub workflow", "workflow_dispatch", "--json", "--limit", "3"], env
    )
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert len(data["hits"]) == 3 and data["queries"][1] == "workflow_dispatch"
    shown = run(["show", "ChangeMethodName", "--json"], env)
    assert shown.returncode == 0, shown.stderr
    assert json.loads(shown.stdout)["id"] == "org.openrewrite.java.ChangeMethodName"
    unknown = run(["show", "org.openrewrite.java.ChangeMethodNam"], env)
    assert unknown.returncode == 2 and "org.openrewrite.java.ChangeMethodName" in unknown.stderr
    assert "Traceback" not in unknown.stderr


def test_ingest_bad_source_is_one_line_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["ingest", "--source", str(tmp_path / "missing")])
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 2 and len(err) == 1 and "missing" in err[0]


def test_database_unreachable_is_one_line(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("REWRITE_ASSIST_DATABASE_URL", "postgresql://nobody@127.0.0.1:1/none")
    code = main(["status"])
    err = capsys.readouterr().err.strip()
    assert code == 1 and "Cannot connect to the catalog database" in err and "\n" not in err


def test_module_entry_point_and_version() -> None:
    result = run(["--version"])
    assert result.returncode == 0 and result.stdout.startswith("rewrite-assist ")


def test_pyproject_packages_cover_every_package_folder() -> None:
    config = tomllib.loads((REPO_ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    mapping = config["package-dir"]
    declared = set(config["packages"])
    found = set()
    for package, folder in mapping.items():
        base = REPO_ROOT / folder
        for init in base.rglob("__init__.py"):
            rel = init.parent.relative_to(base)
            if rel.parts and rel.parts[0] in ("tests", ".venv", "build"):
                continue
            found.add(".".join([package, *rel.parts]))
    assert found <= declared, f"add to pyproject packages: {sorted(found - declared)}"
    assert "server" not in mapping and all(p.startswith("rewrite_assist") for p in declared)
