"""sqz-daemon: the optional warm daemon that serves ``sqz compress`` / ``sqz run`` without Python's start-up."""
