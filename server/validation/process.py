"""Running a build command with a deadline, a cancel switch and its output in a log file.

Builds start daemons and forked JVMs, so each command runs in its own session and a timeout or
cancellation ends the whole process group, never a process by name. Output goes to the run log (not to
our stdout, which may be the MCP stdio channel).
"""

from __future__ import annotations

import contextlib
import os
import re
import signal
import subprocess
import threading
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import IO

_STACK_FRAME = re.compile(r"^\s+(?:at [\w$.<>/]+\(|\.\.\. \d+ (?:more|common frames omitted))")


class Cancelled(Exception):
    """The caller cancelled the run; the running command was stopped."""


@dataclass(frozen=True)
class CommandOutcome:
    exit_code: int | None
    timed_out: bool
    duration_s: float


def _stop_group(proc: subprocess.Popen[bytes], grace_s: float = 5.0) -> None:
    """SIGTERM the command's process group, then SIGKILL whatever is left after ``grace_s``."""
    for sig, wait in ((signal.SIGTERM, grace_s), (signal.SIGKILL, 5.0)):
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(proc.pid, sig)
        try:
            proc.wait(timeout=wait)
            # The leader is gone; members of its group may linger (forked JVMs): kill them too.
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(proc.pid, signal.SIGKILL)
            return
        except subprocess.TimeoutExpired:
            continue


def run_command(
    argv: Sequence[str],
    cwd: Path,
    env: Mapping[str, str],
    log: IO[bytes],
    *,
    deadline: float | None = None,
    cancel: threading.Event | None = None,
    poll_s: float = 0.1,
) -> CommandOutcome:
    """Run ``argv`` until it exits, the monotonic ``deadline`` passes, or ``cancel`` is set.

    Raises ``Cancelled`` after stopping the command when ``cancel`` is set; a missed deadline is reported
    in the outcome (``timed_out``), not raised, so the caller can still collect the log.
    """
    log.write(f"$ {' '.join(argv)}\n".encode())
    log.flush()
    start = time.monotonic()
    try:
        proc = subprocess.Popen(
            list(argv),
            cwd=cwd,
            env=dict(env),
            stdin=subprocess.DEVNULL,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    except OSError as exc:
        log.write(f"could not start {argv[0]}: {exc}\n".encode())
        return CommandOutcome(exit_code=None, timed_out=False, duration_s=0.0)
    try:
        while True:
            try:
                code = proc.wait(timeout=poll_s)
                return CommandOutcome(code, False, time.monotonic() - start)
            except subprocess.TimeoutExpired:
                pass
            if cancel is not None and cancel.is_set():
                _stop_group(proc)
                log.write(b"\n[rewrite-assist] cancelled; command stopped\n")
                raise Cancelled("validation cancelled")
            if deadline is not None and time.monotonic() >= deadline:
                _stop_group(proc)
                log.write(b"\n[rewrite-assist] timed out; command stopped\n")
                return CommandOutcome(None, True, time.monotonic() - start)
    except BaseException:
        if proc.poll() is None:
            _stop_group(proc, grace_s=1.0)
        raise
    finally:
        log.flush()


def tail(path: Path, max_lines: int = 40, max_chars: int = 4000) -> str:
    """The last lines of a log file (bounded in characters too: one Gradle line can be huge)."""
    try:
        with path.open("rb") as fh:
            fh.seek(0, os.SEEK_END)
            size = fh.tell()
            fh.seek(max(0, size - 64 * 1024))
            data = fh.read().decode("utf-8", errors="replace")
    except OSError:
        return ""
    # Java stack frames stay in the log file: the caller acts on the messages, not on 40 lines of "at ...".
    lines = [line for line in data.splitlines() if not _STACK_FRAME.match(line)]
    text = "\n".join(lines[-max_lines:])
    return text[-max_chars:]
