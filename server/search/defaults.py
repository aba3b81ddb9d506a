"""Search defaults shared by ``find_recipes``, its MCP tool and the CLI (no imports: ``--help`` reads them)."""

DEFAULT_LIMIT = 5
MAX_LIMIT = 50
DEFAULT_MIN_SCORE = 0.3
MAX_VARIATIONS = 5
