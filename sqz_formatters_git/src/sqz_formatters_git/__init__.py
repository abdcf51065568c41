"""sqz formatter pack."""
