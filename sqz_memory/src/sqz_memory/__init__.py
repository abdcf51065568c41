"""sqz-memory: the verbs of sqz's session memory (`sqz compact`, `pin`, `recall`, `sessions`)."""
