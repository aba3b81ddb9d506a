"""A recipe argument that may be a file path or the YAML itself (what MCP clients send either way)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from ..errors import BadInput

MAX_RECIPE_BYTES = 1_000_000


class RecipeInputError(BadInput):
    """The argument is neither a readable recipe file nor recipe YAML; the message says which."""


def looks_like_yaml(arg: str) -> bool:
    stripped = arg.lstrip()
    return "\n" in arg.strip() or stripped.startswith(("---", "type:", "name:"))


def load_recipe_arg(arg: str, check_path: Callable[[str], Path] | None = None) -> tuple[str, str]:
    """(label, YAML text) for ``arg``: YAML text is returned as is, a path is checked and read."""
    if not arg.strip():
        raise RecipeInputError("the recipe is empty: pass the path of a rewrite.yml or the YAML text")
    if looks_like_yaml(arg):
        if len(arg.encode("utf-8")) > MAX_RECIPE_BYTES:
            raise RecipeInputError(f"the recipe YAML is larger than {MAX_RECIPE_BYTES} bytes")
        return "<inline recipe>", arg
    path = check_path(arg) if check_path else Path(arg).expanduser()
    if not path.is_file():
        raise RecipeInputError(
            f"recipe {arg!r} is not a file and does not look like YAML: pass the path of a rewrite.yml "
            "or the YAML text (starting with 'type: specs.openrewrite.org/v1beta/recipe')"
        )
    if path.stat().st_size > MAX_RECIPE_BYTES:
        raise RecipeInputError(f"recipe file {path} is larger than {MAX_RECIPE_BYTES} bytes")
    try:
        return str(path), path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise RecipeInputError(f"cannot read recipe file {path}: {exc}") from exc
