"""sqz integration for Gemini CLI."""
