"""sqz integration for Cursor."""
