"""sqz integration for Continue."""
