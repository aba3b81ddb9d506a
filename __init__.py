"""rewrite-assist: turn a pull request into an OpenRewrite recipe that reproduces it.

The repository root is this package, so folder paths are import paths: ``server/`` is
``rewrite_assist.server`` (core services, the MCP adapter), ``ingestion/`` builds the catalog,
``evaluation/`` measures it, ``agents/`` holds the Claude Code prompts and the workflow code beside them.
"""

__version__ = "0.1.0"
