"""sqz integration for OpenAI Codex CLI."""
