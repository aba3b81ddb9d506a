"""An isolated, throw-away copy of the project to run a recipe in.

The original repository is only read: its files are copied (not its ``.git``, so linked worktrees,
submodules and hooks can never be touched) into a fresh temporary directory with a fresh git repository
whose first commit is the project exactly as it was, uncommitted changes included. The recipe's effect
is then ``git add -A && git diff --cached`` against that commit. Every run gets its own ``mkdtemp``
directory, and the directory is removed on every exit path.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import stat
import subprocess
import tempfile
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import TracebackType

# Untracked, ignored directories with these names are build outputs and caches: not worth copying.
_SKIPPED_OUTPUT_DIRS = frozenset({"build", "target", ".gradle", "out", "node_modules", ".kotlin"})
_BUILD_FILES = ("build.gradle", "build.gradle.kts", "settings.gradle", "settings.gradle.kts", "pom.xml")
_OUTPUT_NAMES = ("build", "target", ".gradle", "out", ".kotlin")


class WorkspaceError(Exception):
    """The source is not usable (not a git work tree, unreadable); the message says why."""


def git_env() -> dict[str, str]:
    """The environment for our git calls: no inherited GIT_* redirections, no optional index writes."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
    env["GIT_OPTIONAL_LOCKS"] = "0"
    env["GIT_TERMINAL_PROMPT"] = "0"
    env["LC_ALL"] = "C"
    return env


_GIT_CONFIG = (
    "-c", "core.quotepath=off",
    "-c", "core.hooksPath=/dev/null",
    "-c", "core.autocrlf=false",
    "-c", "core.fsmonitor=false",
    "-c", "commit.gpgsign=false",
    "-c", "user.name=rewrite-assist",
    "-c", "user.email=rewrite-assist@localhost",
    "-c", "init.defaultBranch=main",
    "-c", "diff.noprefix=false",
    "-c", "diff.mnemonicprefix=false",
    "-c", "diff.external=",
)  # fmt: skip


def git(cwd: Path, *args: str, stdin: bytes | None = None, check: bool = True) -> bytes:
    proc = subprocess.run(
        ["git", *_GIT_CONFIG, *args], cwd=cwd, env=git_env(), input=stdin, capture_output=True, check=False
    )
    if check and proc.returncode != 0:
        raise WorkspaceError(f"git {' '.join(args)} failed in {cwd}: {proc.stderr.decode(errors='replace').strip()}")
    return proc.stdout


def _split_z(data: bytes) -> list[str]:
    return [p for p in data.decode("utf-8", errors="surrogateescape").split("\0") if p]


@dataclass
class SourceSnapshot:
    """What the original work tree holds, read without writing anything to it."""

    files: list[str]  # tracked (present) and untracked-not-ignored files
    gitlinks: list[str]  # submodule paths
    skipped_dirs: list[str]  # ignored build-output directories left out of the copy
    uncommitted: list[str] = field(default_factory=list)


def check_git_work_tree(repo: Path) -> None:
    if not repo.is_dir():
        raise WorkspaceError(f"{repo} is not a directory")
    proc = subprocess.run(
        ["git", "rev-parse", "--is-inside-work-tree"],
        cwd=repo,
        env=git_env(),
        capture_output=True,
        check=False,
    )
    if proc.returncode != 0 or proc.stdout.strip() != b"true":
        raise WorkspaceError(
            f"{repo} is not a git work tree. Validation diffs the recipe's changes with git: run "
            "'git init && git add -A && git commit -m base' there first, or pass the repository's path."
        )


def snapshot(repo: Path) -> SourceSnapshot:
    """List the original's files (read-only git commands; ``GIT_OPTIONAL_LOCKS=0`` avoids index refreshes)."""
    check_git_work_tree(repo)
    staged = git(repo, "ls-files", "-z", "--stage", "--", ".")
    files: list[str] = []
    gitlinks: list[str] = []
    for entry in _split_z(staged):
        meta, _, path = entry.partition("\t")
        if meta.startswith("160000"):
            gitlinks.append(path)
        elif (repo / path).is_file() or (repo / path).is_symlink():
            files.append(path)
    untracked = _split_z(git(repo, "ls-files", "-z", "--others", "--exclude-standard", "--", "."))
    ignored = _split_z(
        git(repo, "ls-files", "-z", "--others", "--ignored", "--exclude-standard", "--directory", "--", ".")
    )
    skipped = [p.rstrip("/") for p in ignored if p.endswith("/") and Path(p.rstrip("/")).name in _SKIPPED_OUTPUT_DIRS]
    modified = _split_z(git(repo, "diff", "--name-only", "--relative", "-z", "HEAD", "--", ".", check=False))
    return SourceSnapshot(
        files=list(dict.fromkeys([*files, *untracked])),
        gitlinks=gitlinks,
        skipped_dirs=skipped,
        uncommitted=list(dict.fromkeys([*modified, *untracked])),
    )


def build_output_dirs(root: Path) -> list[str]:
    """Output directories next to every build file (``build/``, ``target/``, ``.gradle/``...), relative."""
    outputs: list[str] = []
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = [d for d in dirnames if d not in _SKIPPED_OUTPUT_DIRS and d != ".git"]
        if any(f in filenames for f in _BUILD_FILES):
            rel = Path(dirpath).relative_to(root)
            outputs.extend((rel / name).as_posix() for name in _OUTPUT_NAMES)
    if (root / "buildSrc").is_dir():
        outputs.extend(f"buildSrc/{name}" for name in _OUTPUT_NAMES)
    return sorted(set(o.removeprefix("./") for o in outputs))


def _on_rm_error(func: object, path: str, _exc: object) -> None:
    """Make read-only files (git objects, build outputs) writable and retry the removal."""
    with contextlib.suppress(OSError):
        os.chmod(path, stat.S_IWRITE | stat.S_IREAD | stat.S_IEXEC)
        if os.path.isdir(path) and not os.path.islink(path):
            os.rmdir(path)
        else:
            os.unlink(path)


class Workspace:
    """``with Workspace(repo) as ws:`` — ``ws.project`` is the copy, ``ws.scratch`` holds temporary files."""

    def __init__(self, source: Path, base_dir: Path | None = None) -> None:
        self.source = source
        self.base_dir = base_dir
        self.root: Path | None = None
        self.snapshot: SourceSnapshot | None = None
        self.excluded_outputs: list[str] = []

    @property
    def project(self) -> Path:
        assert self.root is not None, "workspace not created"
        return self.root / "project"

    @property
    def scratch(self) -> Path:
        assert self.root is not None, "workspace not created"
        return self.root / "scratch"

    def __enter__(self) -> Workspace:
        snap = snapshot(self.source)  # fails before anything is created
        self.root = Path(tempfile.mkdtemp(prefix="rewrite-assist-run-", dir=self.base_dir))
        try:
            self.scratch.mkdir()
            self._copy(snap)
            self._baseline(snap)
        except BaseException:
            self.cleanup()
            raise
        self.snapshot = snap
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.cleanup()

    def cleanup(self) -> None:
        if self.root is not None and self.root.exists():
            shutil.rmtree(self.root, onerror=_on_rm_error)
        self.root = None

    def _copy(self, snap: SourceSnapshot) -> None:
        skipped = {(self.source / d).resolve() for d in snap.skipped_dirs}

        def ignore(directory: str, names: list[str]) -> set[str]:
            out = {".git"} & set(names)
            for name in names:
                if name in _SKIPPED_OUTPUT_DIRS and (Path(directory) / name).resolve() in skipped:
                    out.add(name)
            return out

        shutil.copytree(self.source, self.project, symlinks=True, ignore=ignore, ignore_dangling_symlinks=True)

    def _baseline(self, snap: SourceSnapshot) -> None:
        project = self.project
        git(project, "init", "-q")
        self.excluded_outputs = build_output_dirs(project)
        exclude = [f"/{p}/" for p in self.excluded_outputs] + [f"/{p}/" for p in snap.gitlinks]
        (project / ".git" / "info").mkdir(parents=True, exist_ok=True)
        (project / ".git" / "info" / "exclude").write_text("\n".join(exclude) + "\n", encoding="utf-8")
        if snap.files:
            listing = "\0".join(snap.files).encode("utf-8", errors="surrogateescape")
            git(
                project,
                "--literal-pathspecs",
                "add",
                "-f",
                "--pathspec-from-file=-",
                "--pathspec-file-nul",
                stdin=listing,
            )
        git(project, "commit", "-q", "--no-verify", "--allow-empty", "-m", "rewrite-assist baseline")

    def capture_diff(self, extra_excludes: Iterable[str] = ()) -> tuple[str, list[str]]:
        """Stage everything the run changed and return (diff text, changed paths), build outputs left out.

        Outputs are excluded when diffing, not when staging: ``git add`` refuses pathspecs that name
        ignored directories, and tracked outputs (some repositories commit ``build/``) must not count.
        """
        excludes = [*self.excluded_outputs, *extra_excludes]
        pathspec: Sequence[str] = ["--", ".", *(f":(exclude){p}" for p in excludes)]
        git(self.project, "add", "-A")
        diff = git(self.project, "diff", "--cached", "--no-color", "--no-ext-diff", *pathspec)
        names = _split_z(git(self.project, "diff", "--cached", "--name-only", "-z", *pathspec))
        return diff.decode("utf-8", errors="replace"), names
