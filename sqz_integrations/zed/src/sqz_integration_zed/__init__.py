"""sqz integration for Zed."""
