"""sqz integration for GitHub Copilot CLI."""
