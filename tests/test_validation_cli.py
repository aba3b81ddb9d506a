"""``rewrite-assist validate`` and ``rewrite-assist lint-recipe``."""

from __future__ import annotations

import json
import tempfile
from pathlib import Path

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

from rewrite_assist.__main__ import main
from rewrite_assist.server.validation import cli as validation_cli


@pytest.fixture(autouse=True)
def catalog_lookup(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(validation_cli, "open_lookup", InMemoryLookup)


@pytest.fixture
def setup(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, Path]:
    work = tmp_path / "work"
    work.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(work))
    diff = tmp_path / "ci.diff"
    diff.write_text(CI_DIFF)
    recipe = tmp_path / "rewrite.yml"
    recipe.write_text(CI_RECIPE)
    StandIn(tmp_path, monkeypatch).configure(rewrite={"apply_diff": str(diff)})
    return {
        "repo": make_gradle_repo(tmp_path / "repo"),
        "jdk": make_fake_jdk(tmp_path / "jdks", 17),
        "recipe": recipe,
        "diff": diff,
        "out": tmp_path / "out",
        "work": work,
        "tmp": tmp_path,
    }


def test_validate_json(setup: dict[str, Path], capsys: pytest.CaptureFixture[str]) -> None:
    code = main(
        [
            "validate",
            "--repo",
            str(setup["repo"]),
            "--recipe",
            str(setup["recipe"]),
            "--pr-diff",
            str(setup["diff"]),
            "--java-home",
            str(setup["jdk"]),
            "--output-dir",
            str(setup["out"]),
            "--check-build",
            "--json",
        ]
    )
    out, err = capsys.readouterr()
    assert code == 0
    data = json.loads(out)
    assert data["status"] == "ok" and data["metrics"]["f1_score"] == 1.0 and data["build_check"]["passed"]
    assert "[5/8] running com.example.UpgradeCi with gradle" in err
    assert sorted(p.name for p in setup["out"].iterdir()) == ["recipe.diff", "run.log", "stats.json"]
    stats = json.loads((setup["out"] / "stats.json").read_text())
    assert stats["metrics"] == data["metrics"]
    assert stats["diff_files"] == {"pr_diff": str(setup["diff"]), "recipe_diff": str(setup["out"] / "recipe.diff")}
    assert stats["diff_files"] == {"pr_diff": str(setup["diff"]), "recipe_diff": str(setup["out"] / "recipe.diff")}
    assert list(setup["work"].iterdir()) == []


def test_validate_text_output_and_exit_codes(setup: dict[str, Path], capsys: pytest.CaptureFixture[str]) -> None:
    args = [
        "validate",
        "--repo",
        str(setup["repo"]),
        "--recipe",
        str(setup["recipe"]),
        "--java-home",
        str(setup["jdk"]),
    ]
    assert main([*args, "--output-dir", str(setup["out"])]) == 0
    out = capsys.readouterr().out
    assert "status: ok" in out and "files changed (1): .github/workflows/ci.yml" in out
    assert "modules: org.openrewrite.recipe:rewrite-github-actions:3.29.0" in out

    bad = setup["tmp"] / "bad.yml"
    bad.write_text(CI_RECIPE.replace("FindAndReplace", "FindAndReplaceAll"))
    assert main(["validate", "--repo", str(setup["repo"]), "--recipe", str(bad)]) == 1
    out = capsys.readouterr().out
    assert "status: lint_failed" in out and "did you mean: org.openrewrite.text.FindAndReplace" in out

    (setup["tmp"] / "plain").mkdir()
    assert main(["validate", "--repo", str(setup["tmp"] / "plain"), "--recipe", str(setup["recipe"])]) == 2
    assert "not a git work tree" in capsys.readouterr().err
    assert main(["validate", "--repo", str(setup["repo"]), "--recipe", str(setup["tmp"] / "none.yml")]) == 2
    assert main([*args, "--timeout", "0"]) == 2
    assert main([*args, "--pr-diff", str(setup["tmp"] / "none.diff")]) == 2


def test_lint_recipe_command(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    good = tmp_path / "good.yml"
    good.write_text(CI_RECIPE)
    assert main(["lint-recipe", str(good)]) == 0
    assert capsys.readouterr().out.strip().endswith("OK, 0 warning(s); runs com.example.UpgradeCi")

    bad = tmp_path / "bad.yml"
    bad.write_text(CI_RECIPE.replace("minimumJavaMajorVersion: 21", "minimumJavaMajorVersion: 21\n      bogus: 1"))
    assert main(["lint-recipe", str(bad)]) == 1
    out = capsys.readouterr().out
    assert f"{bad}:7: error: doc[0].recipeList[0].org.openrewrite.github.SetupJavaUpgradeJavaVersion.bogus" in out

    assert main(["lint-recipe", str(bad), "--json"]) == 1
    report = json.loads(capsys.readouterr().out)
    assert report["errors"][0]["line"] == 7 and report["ok"] is False

    assert main(["lint-recipe", str(bad), "--no-catalog"]) == 0  # structure only: the option is not checked
    assert main(["lint-recipe", str(tmp_path / "missing.yml")]) == 2
