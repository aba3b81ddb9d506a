"""Claude Code prompt files (slash command and subagents), shipped as package data for install-agents."""
