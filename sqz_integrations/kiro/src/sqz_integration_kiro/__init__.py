"""sqz integration for Kiro."""
