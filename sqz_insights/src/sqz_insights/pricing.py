"""What saved tokens are worth: a per-model price table (YAML, validated by a JSON Schema).

The default table (``prices.yaml`` next to this module) lists published prices with
their source and the date they were read. A user table (``$SQZ_PRICES``; else ``prices`` in the user's
config file, a path or the table itself; else ``prices.yaml`` in the sqz config directory) is validated by
the same schema and its models replace or extend the defaults.

The assumption behind the dollars: a token sqz kept out of the context would have
stayed there, re-sent with every later request of the session, until the agent
compacted its history. With prompt caching it is written to the cache once and read
on each later turn; without caching it is paid at the input price on every turn.
``turns`` (how many requests carry it) is the user's to set.
"""

from __future__ import annotations

import json
import os
from importlib import resources

DEFAULT_TURNS = 10


class PriceError(Exception):
    """A price file that cannot be used; ``str()`` is one line naming the file and the problem."""


def _from_config():
    """``(value, "file:line")`` of ``prices`` in the config files when no ``SQZ_PRICES`` is set, else None."""
    if os.environ.get("SQZ_PRICES") is not None:
        return None
    from sqz_core.api import load_config, refresh_config

    refresh_config()  # the files as they are now
    cfg = load_config()
    value = cfg.get("prices")
    return None if value is None else (value, cfg.origin("prices") or "config")


def user_prices_path() -> str:
    """``$SQZ_PRICES``, else a path in the config's ``prices`` (relative to its file), else
    ``$XDG_CONFIG_HOME/sqz/prices.yaml`` (``~/.config/sqz/prices.yaml``)."""
    env = os.environ.get("SQZ_PRICES")
    if env:
        return env
    got = _from_config()
    if got is not None and isinstance(got[0], str):
        return os.path.join(os.path.dirname(got[1].rsplit(":", 1)[0]), os.path.expanduser(got[0]))
    root = os.environ.get("XDG_CONFIG_HOME") or os.path.join(os.path.expanduser("~"), ".config")
    return os.path.join(root, "sqz", "prices.yaml")


def schema() -> dict:
    return json.loads(resources.files(__package__).joinpath("prices.schema.json").read_text("utf-8"))


def _plain(value):
    """ruamel's mapping/sequence/date types as plain JSON-like values (dates as ISO strings)."""
    import datetime

    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_plain(v) for v in value]
    if isinstance(value, (datetime.date, datetime.datetime)):
        return value.isoformat()[:10]
    return value


def parse(text: str, name: str) -> dict:
    """Parse and validate a price table; raises ``PriceError`` with a one-line message."""
    from ruamel.yaml import YAML
    from ruamel.yaml.error import MarkedYAMLError, YAMLError

    try:
        data = _plain(YAML(typ="safe", pure=True).load(text))
    except MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        where = f"line {mark.line + 1}: " if mark is not None else ""
        raise PriceError(f"{name}: {where}invalid YAML ({exc.problem or exc.context})") from None
    except YAMLError as exc:
        raise PriceError(f"{name}: invalid YAML ({' '.join(str(exc).split())})") from None
    validate(data, name)
    return data


def validate(data, name: str) -> None:
    import jsonschema

    validator = jsonschema.Draft202012Validator(schema())
    error = jsonschema.exceptions.best_match(validator.iter_errors(data))
    if error is not None:
        where = ".".join(str(p) for p in error.absolute_path) or "(top level)"
        raise PriceError(f"{name}: {where}: {' '.join(error.message.split())}")


def default_table() -> dict:
    text = resources.files(__package__).joinpath("prices.yaml").read_text("utf-8")
    return parse(text, "prices.yaml (built in)")


def load(path: str | None = None) -> dict:
    """The default table merged with the user's file (``path`` or ``user_prices_path()``), validated.

    An explicitly given ``path`` must exist; the default user path is optional.
    """
    table = default_table()
    table["sources"] = ["built in"]
    got = _from_config() if path is None else None
    if got is not None and isinstance(got[0], dict):  # the table itself, in the config file
        return _merged(table, _plain(got[0]), got[1])
    explicit = path is not None or bool(os.environ.get("SQZ_PRICES")) or got is not None
    path = path or user_prices_path()
    try:
        with open(path, encoding="utf-8") as fh:
            text = fh.read()
    except FileNotFoundError:
        if explicit:
            raise PriceError(f"{path}: no such file") from None
        return table
    except OSError as exc:
        raise PriceError(f"{path}: cannot read ({exc.strerror or exc})") from None
    return _merged(table, parse(text, path), path)


def _merged(table: dict, user: dict, path: str) -> dict:
    """The default ``table`` with the user's models, ``default_model`` and ``currency``, validated."""
    validate(user, path)
    table["models"].update(user["models"])
    for key in ("default_model", "currency"):
        if key in user:
            table[key] = user[key]
    table["sources"].append(path)
    if table["default_model"] not in table["models"]:
        raise PriceError(f"{path}: default_model: {table['default_model']!r} is not in the table")
    return table


def model_prices(table: dict, model: str | None) -> tuple[str, dict]:
    """``(name, prices)`` for ``model`` (default: the table's default). Raises ``PriceError`` if unknown."""
    name = model or table["default_model"]
    if name not in table["models"]:
        raise PriceError(f"unknown model {name!r}; known: {', '.join(sorted(table['models']))}")
    return name, table["models"][name]


def savings(tokens: int, prices: dict, turns: int = DEFAULT_TURNS) -> dict:
    """What ``tokens`` kept out of the context are worth under the carry-over assumption.

    ``cached_usd``: written to the prompt cache once, read on the ``turns - 1`` later requests.
    ``uncached_usd``: paid at the input price on each of the ``turns`` requests.
    ``first_turn_usd``: only the request that would have received it (no carry-over at all).
    """
    turns = max(1, int(turns))
    write = prices.get("cache_write", prices["input"])
    per_m = tokens / 1_000_000
    return {
        "tokens": tokens, "turns": turns,
        "cached_usd": round(per_m * (write + (turns - 1) * prices["cache_read"]), 6),
        "uncached_usd": round(per_m * prices["input"] * turns, 6),
        "first_turn_usd": round(per_m * prices["input"], 6),
        "assumption": (f"each saved token would have been carried on {turns} request(s) until compaction: "
                       f"written to the prompt cache once (${write:g}/M) and read {turns - 1} time(s) "
                       f"(${prices['cache_read']:g}/M); without caching, ${prices['input']:g}/M on every request"),
    }


def cost_block(table: dict, model: str | None, tokens: int, turns: int) -> dict:
    """The cost section of ``sqz stats --json``: model, its prices and source, and ``savings``."""
    name, prices = model_prices(table, model)
    block = {"model": name, "label": prices.get("label", name), "currency": table.get("currency", "USD"),
             "prices_per_million": {k: prices.get(k) for k in ("input", "cache_write", "cache_read", "output")},
             "source": prices.get("source"), "checked": prices.get("checked"), "tables": table.get("sources")}
    block.update(savings(tokens, prices, turns))
    return block
