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


def test_wheel_installs_one_namespace_and_no_repository_clutter(tmp_path: Path) -> None:
    """What lands in site-packages: the package `rewrite_assist` and its metadata, nothing generic."""
    import shutil
    import zipfile

    # Built from a copy of the tracked files, as a clean checkout would be: a local build/ folder left by an
    # earlier build would otherwise lend the wheel files the package data settings no longer select.
    tracked = subprocess.run(
        ["git", "ls-files"], cwd=REPO_ROOT, check=True, capture_output=True, text=True
    ).stdout.splitlines()
    source = tmp_path / "source"
    for path in tracked:
        if (REPO_ROOT / path).is_file():
            (source / path).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(REPO_ROOT / path, source / path)
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "--no-build-isolation", "-w", str(tmp_path), "."],
        cwd=source,
        check=True,
        capture_output=True,
    )
    (wheel,) = tmp_path.glob("rewrite_assist-*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    assert {n.split("/")[0] for n in names} == {"rewrite_assist", wheel.name.split("-py")[0] + ".dist-info"}
    assert "rewrite_assist/server/search/hybrid.py" in names and "rewrite_assist/__main__.py" in names
    assert "rewrite_assist/agents/commands/rewrite-assist.md" in names
    # Every data file the installed code reads (the prompts, the rerank's models and prior) ships with it.
    shipped = ("server/", "ingestion/", "agents/")
    data = [f"rewrite_assist/{path}" for path in tracked if path.startswith(shipped) and not path.endswith(".py")]
    assert "rewrite_assist/server/search/by_diff/rerank_models.json" in data
    assert [path for path in data if path not in names] == []
    assert not [n for n in names if n.startswith(("rewrite_assist/tests/", "rewrite_assist/docker/"))]
    assert not [n for n in names if "/evaluation/results/" in n or "/evaluation/data/" in n]


# -- a reader that leaves early (`| head -1`) ---------------------------------------------------------------


def run_into_closed_pipe(
    args: list[str], env: dict[str, str] | None = None, *, buffered: bool = True
) -> subprocess.CompletedProcess[bytes]:
    """Run the CLI with stdout on a pipe whose read end is already closed: every write fails with EPIPE.

    ``buffered`` (a user's usual shell) holds the output until the final flush, where an unhandled failure
    reads "Exception ignored … BrokenPipeError" and exits 120; unbuffered fails at the first print."""
    read_end, write_end = os.pipe()
    os.close(read_end)
    environment = {k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"}
    if not buffered:
        environment["PYTHONUNBUFFERED"] = "1"
    try:
        return subprocess.run(
            [sys.executable, "-m", "rewrite_assist", *args],
            stdout=write_end,
            stderr=subprocess.PIPE,
            timeout=300,
            env={**environment, **(env or {})},
        )
    finally:
        os.close(write_end)


def big_diffs(tmp_path: Path, lines: int = 20_000) -> tuple[Path, Path]:
    """A PR diff and a recipe diff whose --details table is far larger than a pipe's buffer."""
    body = "".join(f"+line {n}\n" for n in range(lines))
    header = f"diff --git a/f.txt b/f.txt\n--- /dev/null\n+++ b/f.txt\n@@ -0,0 +1,{lines} @@\n"
    pr, recipe = tmp_path / "pr.diff", tmp_path / "recipe.diff"
    pr.write_text(header + body)
    recipe.write_text(header.replace(str(lines), "1") + "+other\n")
    return pr, recipe


def test_closed_pipe_ends_quietly_without_a_catalog(tmp_path: Path) -> None:
    pr, recipe = big_diffs(tmp_path)
    for buffered in (True, False):
        result = run_into_closed_pipe(
            ["analyze-diffs", str(pr), str(recipe), "--details", "--max-unmatched", "20000"], buffered=buffered
        )
        assert result.returncode == 0 and result.stderr.decode() == "", (buffered, result.stderr)
        short = run_into_closed_pipe(["analyze-diffs", str(pr), str(pr)], buffered=buffered)  # fits the buffer
        assert short.returncode == 0 and short.stderr.decode() == "", (buffered, short.stderr)


def test_reader_closing_after_the_first_line_ends_quietly(tmp_path: Path) -> None:
    """The `| head -1` case: the reader takes one line while the command is still writing, then closes."""
    pr, recipe = big_diffs(tmp_path)
    command = ["analyze-diffs", str(pr), str(recipe), "--details", "--max-unmatched", "20000"]
    proc = subprocess.Popen(
        [sys.executable, "-m", "rewrite_assist", *command],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert proc.stdout is not None and proc.stderr is not None
    first = proc.stdout.readline()
    proc.stdout.close()
    stderr = proc.stderr.read().decode()
    assert proc.wait(timeout=300) == 0, stderr
    assert first.strip() and "Traceback" not in stderr and "BrokenPipe" not in stderr, stderr


def test_closed_pipe_ends_quietly_with_catalog_commands(catalog) -> None:
    env = {"REWRITE_ASSIST_DATABASE_URL": catalog.db.url}
    for args, buffered in (
        (["status", "--json"], True),
        (["status", "--json"], False),
        (["show", "org.openrewrite.java.ChangeMethodName"], True),
        (["search", "migrate to JUnit 5", "--json"], True),
        (["search", "migrate to JUnit 5"], False),
    ):
        result = run_into_closed_pipe(args, env, buffered=buffered)
        assert result.returncode == 0 and result.stderr.decode() == "", (args, buffered, result.stderr)


def test_logging_is_quiet_by_default_and_verbose_on_request(catalog) -> None:
    env = {"REWRITE_ASSIST_DATABASE_URL": catalog.db.url}
    quiet = run(["search", "migrate to JUnit 5", "--limit", "1"], env)
    assert quiet.returncode == 0 and quiet.stderr == "", quiet.stderr
    verbose = run(["-v", "search", "migrate to JUnit 5", "--limit", "1"], env)
    assert verbose.returncode == 0 and "INFO rewrite_assist." in verbose.stderr
    assert quiet.stdout.splitlines()[0] == verbose.stdout.splitlines()[0]


def test_the_torch_backend_loads_the_model_without_a_progress_bar(catalog) -> None:
    # transformers 5 draws "Loading weights" on stderr at each model load; a search's stderr stays empty.
    env = {"REWRITE_ASSIST_DATABASE_URL": catalog.db.url, "REWRITE_ASSIST_EMBEDDING_BACKEND": "torch"}
    result = run(["search", "migrate to JUnit 5", "--limit", "1"], env)
    assert result.returncode == 0 and result.stderr == "", result.stderr
    assert result.stdout.startswith("1. ")


def test_log_levels_follow_the_flags() -> None:
    import logging

    from rewrite_assist.__main__ import log_level

    assert log_level(0, False) == logging.WARNING
    assert log_level(1, False) == logging.INFO
    assert log_level(2, False) == logging.DEBUG
    assert log_level(2, True) == logging.ERROR


def test_ingest_source_that_is_no_archive_is_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["ingest", "--source", str(REPO_ROOT / "README.md")])
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 2 and len(err) == 1 and "README.md is not a readable .tar.gz archive (not a tar archive)" in err[0]


def test_search_on_an_empty_catalog_ends_before_the_model_loads(make_database, tmp_path: Path) -> None:
    """Nothing is left running to wait for: with a fresh home the model would first be exported to ONNX."""
    empty = make_database("empty")
    home = tmp_path / "home"
    result = run(
        ["search", "migrate to JUnit 5"], {"REWRITE_ASSIST_DATABASE_URL": empty.url, "REWRITE_ASSIST_HOME": str(home)}
    )
    assert result.returncode == 1 and "`rewrite-assist ingest`" in result.stderr, result.stderr
    assert result.stderr.count("\n") == 1 and not (home / "models").exists()
