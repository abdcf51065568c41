"""sqz integration for Cline."""
