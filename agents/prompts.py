"""The Claude Code prompt files shipped in ``rewrite_assist.agents``, and what they reference.

The prompts are package data so an installed wheel can copy them (install-agents) without a source
checkout. Parsing their front matter and tool calls here gives one place that knows the prompt
conventions: the consistency test and the permission list in ``.claude/settings.json`` both rely on it,
so a renamed MCP tool breaks a test instead of a user's run.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from importlib import resources

import yaml

from ..server import SERVER_NAME

TOOL_PREFIX = f"mcp__{SERVER_NAME}__"

# Prompt folders inside the package, and the ``.claude`` sub-folder each installs into.
PROMPT_KINDS = ("commands", "agents")

_TOOL_NAME = re.compile(re.escape(TOOL_PREFIX) + r"([A-Za-z0-9_]+)")
_FRONT_MATTER = re.compile(r"\A---\n(.*?)\n---\n", re.DOTALL)
_KEYWORD = re.compile(r"([A-Za-z_][A-Za-z0-9_]*)\s*=(?!=)")


@dataclass(frozen=True)
class PromptFile:
    """One prompt: ``kind`` is ``commands`` or ``agents``; ``name`` the file name (``x.md``)."""

    kind: str
    name: str
    text: str

    @property
    def relative_path(self) -> str:
        """Where the file goes under ``.claude/``."""
        return f"{self.kind}/{self.name}"

    @property
    def front_matter(self) -> dict[str, object]:
        match = _FRONT_MATTER.match(self.text)
        if not match:
            return {}
        data = yaml.safe_load(match.group(1))
        return data if isinstance(data, dict) else {}

    @property
    def body(self) -> str:
        match = _FRONT_MATTER.match(self.text)
        return self.text[match.end() :] if match else self.text

    def allowed_tools(self) -> list[str]:
        """Tools granted by the front matter (``tools`` for subagents, ``allowed-tools`` for commands)."""
        raw = self.front_matter.get("tools", self.front_matter.get("allowed-tools", ""))
        items = raw if isinstance(raw, list) else str(raw or "").split(",")
        return [str(item).strip() for item in items if str(item).strip()]


@dataclass(frozen=True)
class ToolCall:
    """A tool call written in a prompt body as ``mcp__rewrite-assist__name(param=..., ...)``."""

    tool: str
    params: tuple[str, ...]


def packaged_prompts() -> list[PromptFile]:
    """Every prompt file shipped with the package, commands first, sorted by name."""
    root = resources.files("rewrite_assist.agents")
    prompts: list[PromptFile] = []
    for kind in PROMPT_KINDS:
        folder = root / kind
        if not folder.is_dir():
            continue
        for entry in sorted(folder.iterdir(), key=lambda e: e.name):
            if entry.name.endswith(".md") and entry.is_file():
                prompts.append(PromptFile(kind, entry.name, entry.read_text(encoding="utf-8")))
    return prompts


def tool_names(text: str) -> set[str]:
    """Server tool names (without the ``mcp__rewrite-assist__`` prefix) mentioned anywhere in ``text``."""
    return set(_TOOL_NAME.findall(text))


def tool_calls(text: str) -> list[ToolCall]:
    """Calls written as ``prefix+name(`` … ``)``, with the keyword parameters they name.

    The argument list is scanned to its matching parenthesis, skipping quoted strings and nested
    brackets, so values such as ``intent=["a (b)", "c"]`` do not confuse the parameter list.
    """
    calls: list[ToolCall] = []
    for match in _TOOL_NAME.finditer(text):
        end = match.end()
        if end >= len(text) or text[end] != "(":
            continue
        args = _balanced_arguments(text, end)
        calls.append(ToolCall(match.group(1), tuple(_top_level_keywords(args))))
    return calls


def _balanced_arguments(text: str, open_index: int) -> str:
    """The text between ``text[open_index] == '('`` and its matching ``)`` (or the end of text)."""
    depth = 0
    quote: str | None = None
    for index in range(open_index, len(text)):
        char = text[index]
        if quote:
            if char == quote and text[index - 1] != "\\":
                quote = None
        elif char in "\"'":
            quote = char
        elif char in "([{":
            depth += 1
        elif char in ")]}":
            depth -= 1
            if depth == 0:
                return text[open_index + 1 : index]
    return text[open_index + 1 :]


def _top_level_keywords(args: str) -> list[str]:
    """Keyword names at nesting depth 0 of an argument list, outside quotes."""
    names: list[str] = []
    depth = 0
    quote: str | None = None
    plain: list[str] = []  # characters at depth 0 outside quotes; others are blanked out
    for index, char in enumerate(args):
        if quote:
            if char == quote and args[index - 1] != "\\":
                quote = None
            plain.append(" ")
            continue
        if char in "\"'":
            quote = char
            plain.append(" ")
        elif char in "([{":
            depth += 1
            plain.append(" ")
        elif char in ")]}":
            depth -= 1
            plain.append(" ")
        else:
            plain.append(char if depth == 0 else " ")
    for match in _KEYWORD.finditer("".join(plain)):
        names.append(match.group(1))
    return names


def workflow_tool_names() -> list[str]:
    """Full Claude Code names of every server tool the shipped prompts use, sorted."""
    names: set[str] = set()
    for prompt in packaged_prompts():
        names |= tool_names(prompt.text)
    return sorted(TOOL_PREFIX + name for name in names)
