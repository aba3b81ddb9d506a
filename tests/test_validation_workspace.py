"""The isolated copy: the original is never written to, the copy always goes away, the diff is the run's."""

from __future__ import annotations

import hashlib
import os
import threading
from pathlib import Path

import pytest
from fixtures.validation_support import commit_all, make_gradle_repo, run_git, write_files

from rewrite_assist.server.validation.workspace import Workspace, WorkspaceError, build_output_dirs


def tree_fingerprint(root: Path) -> str:
    """Content, mode and mtime of every file, .git included: any write to the original changes it."""
    digest = hashlib.sha256()
    for dirpath, dirnames, filenames in sorted(os.walk(root)):
        dirnames.sort()
        for name in sorted(filenames):
            path = Path(dirpath) / name
            st = path.lstat()
            digest.update(f"{path.relative_to(root)}|{st.st_mode}|{st.st_mtime_ns}|".encode())
            if path.is_file() and not path.is_symlink():
                digest.update(path.read_bytes())
    return digest.hexdigest()


def test_copy_is_isolated_and_removed(tmp_path: Path) -> None:
    repo = make_gradle_repo(tmp_path / "repo")
    write_files(repo, {"build/classes/App.class": "compiled", ".gradle/cache": "x"})  # ignored outputs
    before = tree_fingerprint(repo)
    work = tmp_path / "work"
    work.mkdir()
    with Workspace(repo, work) as ws:
        root = ws.root
        assert root is not None and root.parent == work
        assert (ws.project / "src/main/java/com/example/App.java").is_file()
        assert not (ws.project / "build").exists()  # ignored build outputs are not copied
        assert (ws.project / "gradle/wrapper/gradle-wrapper.jar").read_bytes().startswith(b"PK")
        # the copy has its own repository: the baseline commit holds exactly the project's files
        tracked = run_git(ws.project, "ls-files").split()
        assert "gradlew" in tracked and "gradle/wrapper/gradle-wrapper.jar" in tracked
        (ws.project / "src/main/java/com/example/App.java").write_text("changed\n")
        (ws.project / "build").mkdir()
        (ws.project / "build/out.txt").write_text("output\n")
        (ws.project / "NEW.md").write_text("new\n")
        diff, files = ws.capture_diff()
        assert files == ["NEW.md", "src/main/java/com/example/App.java"]
        assert "+changed" in diff and "build/out.txt" not in diff
    assert not root.exists()
    assert list(work.iterdir()) == []
    assert tree_fingerprint(repo) == before


def test_uncommitted_changes_are_copied_into_the_baseline_and_kept(tmp_path: Path) -> None:
    repo = make_gradle_repo(tmp_path / "repo")
    (repo / "src/main/java/com/example/App.java").write_text("work in progress\n")
    (repo / "Untracked.java").write_text("class Untracked {}\n")
    (repo / "ci.yml.bak").write_text("")
    (repo / ".github/workflows/ci.yml").unlink()  # a deleted tracked file
    before = tree_fingerprint(repo)
    with Workspace(repo) as ws:
        assert ws.snapshot is not None
        assert sorted(ws.snapshot.uncommitted) == [
            ".github/workflows/ci.yml",
            "Untracked.java",
            "ci.yml.bak",
            "src/main/java/com/example/App.java",
        ]
        assert (ws.project / "src/main/java/com/example/App.java").read_text() == "work in progress\n"
        assert (ws.project / "Untracked.java").exists()
        assert not (ws.project / ".github/workflows/ci.yml").exists()
        diff, files = ws.capture_diff()
        assert diff == "" and files == []  # the uncommitted state is the baseline, not a change
    assert tree_fingerprint(repo) == before
    assert (repo / "src/main/java/com/example/App.java").read_text() == "work in progress\n"


def test_not_a_git_repository(tmp_path: Path) -> None:
    (tmp_path / "plain").mkdir()
    with pytest.raises(WorkspaceError, match="not a git work tree"):
        Workspace(tmp_path / "plain", tmp_path).__enter__()
    with pytest.raises(WorkspaceError, match="not a directory"):
        Workspace(tmp_path / "missing", tmp_path).__enter__()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["plain"]  # nothing was created


def test_parallel_workspaces_never_collide(tmp_path: Path) -> None:
    repo = make_gradle_repo(tmp_path / "repo")
    roots: list[Path] = []
    errors: list[BaseException] = []
    barrier = threading.Barrier(4)

    def worker(i: int) -> None:
        try:
            with Workspace(repo, tmp_path) as ws:
                barrier.wait(timeout=30)
                assert ws.root is not None
                roots.append(ws.root)
                (ws.project / f"file{i}.txt").write_text(f"{i}\n")
                _, files = ws.capture_diff()
                assert files == [f"file{i}.txt"]
                barrier.wait(timeout=30)
        except BaseException as exc:
            errors.append(exc)

    threads = [threading.Thread(target=worker, args=(i,)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors
    assert len(set(roots)) == 4
    assert not any(r.exists() for r in roots)


def test_copy_removed_when_the_body_fails(tmp_path: Path) -> None:
    repo = make_gradle_repo(tmp_path / "repo")
    work = tmp_path / "work"
    work.mkdir()
    with pytest.raises(RuntimeError), Workspace(repo, work) as ws:
        (ws.project / "x").write_text("x")
        os.chmod(ws.project / "src", 0o500)  # read-only directories must not block removal
        raise RuntimeError("boom")
    assert list(work.iterdir()) == []


def test_tracked_build_outputs_stay_out_of_the_diff(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    write_files(
        repo,
        {
            "settings.gradle": "",
            "app/build.gradle": "",
            "app/build/libs/app.jar": "v1",
            "src/main/java/org/build/Tool.java": "class Tool {}\n",
        },
    )
    commit_all(repo)
    assert build_output_dirs(repo)[:3] == [".gradle", ".kotlin", "app/.gradle"]
    with Workspace(repo) as ws:
        (ws.project / "app/build/libs/app.jar").write_text("v2")  # committed build output, rewritten by a build
        (ws.project / "src/main/java/org/build/Tool.java").write_text("class Tool { int x; }\n")  # a package
        _, files = ws.capture_diff()
    assert files == ["src/main/java/org/build/Tool.java"]


def test_project_in_a_subdirectory_of_a_repository(tmp_path: Path) -> None:
    repo = tmp_path / "mono"
    write_files(repo, {"README.md": "root\n", "services/app/pom.xml": "<project/>", "services/app/a.txt": "a\n"})
    commit_all(repo)
    (repo / "services/app/a.txt").write_text("edited\n")
    with Workspace(repo / "services" / "app") as ws:
        assert ws.snapshot is not None and ws.snapshot.uncommitted == ["a.txt"]
        assert sorted(p.name for p in ws.project.iterdir()) == [".git", "a.txt", "pom.xml"]
        (ws.project / "pom.xml").write_text("<project><x/></project>")
        _, files = ws.capture_diff()
    assert files == ["pom.xml"]
