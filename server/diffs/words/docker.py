"""Dockerfiles in words: a new base image, an instruction added, changed or removed (an instruction continued
over several lines read as one)."""

from __future__ import annotations

import re
from collections.abc import Sequence

from ..features import Change, pair_lines
from .common import _head

BARE_FROM = True  # a FROM line's new image: also said without the image names
# A Dockerfile instruction continued over several lines (``RUN a && \\`` then ``    b``) is read as one.
DOCKER_CONTINUATIONS = True
_FROM = re.compile(r"^\s*FROM\s+(?:--platform=\S+\s+)?(\S+)", re.IGNORECASE)
_DOCKER_INSTRUCTIONS = frozenset(
    [
        "from",
        "run",
        "cmd",
        "label",
        "maintainer",
        "expose",
        "env",
        "add",
        "copy",
        "entrypoint",
        "volume",
        "user",
        "workdir",
        "arg",
        "onbuild",
        "stopsignal",
        "healthcheck",
        "shell",
    ]
)


def from_image(line: str) -> str | None:
    """The image a ``FROM`` line names (``eclipse-temurin:17-jre``, with its tag or digest), else None."""
    match = _FROM.match(line)
    return match.group(1) if match else None


def image_parts(image: str) -> tuple[str, str | None]:
    """``registry:5000/eclipse-temurin:17-jre`` → (name, tag); a digest stays with the tag."""
    name, _, digest = image.partition("@")
    head, _, last = name.rpartition("/")
    if ":" in last:
        last, tag = last.split(":", 1)
        return (f"{head}/{last}" if head else last), tag + (f"@{digest}" if digest else "")
    return name, None


def _docker_instruction(line: str) -> str | None:
    """The instruction a Dockerfile line starts (``RUN``), if its first word is one."""
    words = line.split(None, 1)
    return words[0].upper() if words and words[0].lower() in _DOCKER_INSTRUCTIONS else None


def _continued(context: Sequence[str]) -> str | None:
    """The instruction the hunk's first changed line continues, read off the unchanged lines around it
    (those before, then those after): an instruction left open (its line ends in a backslash) and followed
    by a new instruction at the line start, or by nothing, was continued by the changed lines; else the
    last instruction continued over several lines (the hunk changed a line in its middle)."""
    current: str | None = None
    continued: str | None = None
    for line in context:
        text = line.strip()
        if not text or text.startswith("#"):
            continue
        starts = not line[:1].isspace() and _docker_instruction(line) is not None
        if current is not None and starts:
            return current
        if current is None and starts and text.endswith("\\"):
            current = text.rstrip("\\").strip()
        elif current is not None and not text.endswith("\\"):
            continued, current = current, None  # it ended among the unchanged lines
    return current or continued


def dockerfile_instructions(lines: Sequence[str], context: Sequence[str] = ()) -> list[str]:
    """A Dockerfile's changed lines as whole instructions: a line after one ending in a backslash continues
    it (``    apt-get install -y curl`` is part of the ``RUN`` above), and a hunk's first line that continues
    an instruction in the unchanged lines is read as that instruction. Comments and blank lines say nothing
    of what the build does."""
    out: list[str] = []
    open_ = False
    for line in lines:
        text = line.strip()
        if not text or text.startswith("#"):
            continue
        bare = text.rstrip("\\").strip()
        if open_ and out:
            out[-1] = f"{out[-1]} {bare}"
        elif not out and (line[:1].isspace() or _docker_instruction(line) is None) and (owner := _continued(context)):
            out.append(f"{owner} {bare}")
        else:
            out.append(bare)
        open_ = text.endswith("\\")
    return out


def _dockerfile(path: str, change: Change, context: list[str], above: Sequence[str] = ()) -> list[str]:
    out: list[str] = []
    owner = None
    if DOCKER_CONTINUATIONS:
        change = Change(
            change.kind,
            dockerfile_instructions(change.removed, context),
            dockerfile_instructions(change.added, context),
        )
        owner = _continued(context)
    pairs, removed, added = pair_lines(change.removed, change.added)
    for old, new in pairs:
        old_from, new_from = _FROM.match(old), _FROM.match(new)
        if old_from and new_from:
            old_image, new_image = old_from.group(1), new_from.group(1)
            old_name, new_name = old_image.split(":", 1)[0], new_image.split(":", 1)[0]
            if old_name == new_name:
                tag = new_image.partition(":")[2] or "latest"
                out.append(f"upgrade Docker image {new_name} version to {tag}")
            out.append(f"change Dockerfile FROM base image {old_image} to {new_image}")
            if BARE_FROM:
                # The image names find the recipes that know those images; without them the words are the
                # generic edit's own (``ChangeFrom``: "Change the base image in a Dockerfile FROM instruction").
                out.append("change the base image in a Dockerfile FROM instruction")
        elif (head := _head(new)) is not None:
            out.append(f"change Dockerfile {head.upper()} instruction")
    for line in added + removed:
        head = _head(line)
        if head:
            # lines added to (removed from) an instruction that stays: that instruction changed
            verb = "change" if owner and line.startswith(owner) else "add" if line in added else "remove"
            out.append(f"{verb} Dockerfile {head.upper()} instruction")
    return out
