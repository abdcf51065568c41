"""sqz team store on PostgreSQL (entry point ``sqz.stores`` → ``sqz_store_postgresql.store``)."""
