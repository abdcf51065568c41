"""sqz-config: sqz's config files parsed and validated, and the ``sqz config`` verbs."""
