"""The Claude Code side: prompt files (slash command and subagents, shipped as package data) and the code
that serves them — ``install-agents`` puts them into a project, ``check-run`` re-checks a finished run."""
