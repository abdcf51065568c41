"""sqz formatter pack: the generic content kinds (JSON/TOON, YAML, logs, tables, listings…)."""
