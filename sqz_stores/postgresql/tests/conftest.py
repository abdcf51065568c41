"""This folder's fixtures; they and the helpers live in ``pg_testlib``, a module name no other test folder
uses (two folders' ``from conftest import …`` would otherwise find each other's conftest in one run)."""

from pg_testlib import pg_url, schema_url  # noqa: F401  (pytest fixtures)
