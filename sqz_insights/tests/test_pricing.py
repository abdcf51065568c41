"""The price table: the built-in one valid against its schema, user files validated with a
one-line error, the cost arithmetic and its stated assumption."""

from __future__ import annotations

import json
from importlib import resources

import jsonschema
import pytest
from ruamel.yaml import YAML

from sqz_insights import pricing


def test_builtin_table_is_valid_and_sourced():
    raw = YAML(typ="safe", pure=True).load(resources.files("sqz_insights").joinpath("prices.yaml").read_text("utf-8"))
    jsonschema.Draft202012Validator.check_schema(pricing.schema())
    jsonschema.validate(raw, pricing.schema())
    table = pricing.default_table()
    assert table["default_model"] in table["models"]
    for name, p in table["models"].items():
        assert p["source"].startswith("https://platform.claude.com/docs/"), name
        assert len(p["checked"]) == 10, name
        assert p["cache_read"] < p["input"] <= p["cache_write"], name
    assert table["models"]["claude-sonnet-4-6"]["input"] == 3.0


@pytest.mark.parametrize("text, message", [
    ("models:\n  mine: {input: -1, cache_read: 0.1}\n", "u.yaml: models.mine.input: -1 is less than the minimum of 0"),
    ("models:\n  mine: {input: 1}\n", "u.yaml: models.mine: 'cache_read' is a required property"),
    ("models:\n  mine: {input: one, cache_read: 0.1}\n", "u.yaml: models.mine.input: 'one' is not of type 'number'"),
    ("model:\n  mine: {input: 1, cache_read: 0.1}\n", "u.yaml: (top level): 'models' is a required property"),
    ("models:\n  mine: {input: 1, cache_read: 0.1, cache_wirte: 2}\n",
     "u.yaml: models.mine: Additional properties are not allowed ('cache_wirte' was unexpected)"),
    ("models:\n  mine: [1\n", "u.yaml: line 3: invalid YAML (expected ',' or ']', but got '<stream end>')"),
])
def test_bad_user_file_gives_one_clear_line(text, message):
    with pytest.raises(pricing.PriceError) as err:
        pricing.parse(text, "u.yaml")
    assert str(err.value) == message
    assert "\n" not in str(err.value)


def test_user_file_extends_and_overrides(tmp_path, monkeypatch):
    user = tmp_path / "prices.yaml"
    user.write_text("default_model: local-model\nmodels:\n"
                    "  local-model: {input: 2, cache_read: 0.5, checked: 2026-01-02}\n"
                    "  claude-haiku-4-5: {input: 9, cache_write: 9, cache_read: 9}\n")
    monkeypatch.setenv("SQZ_PRICES", str(user))
    table = pricing.load()
    assert table["default_model"] == "local-model"
    assert table["models"]["claude-haiku-4-5"]["input"] == 9
    assert table["models"]["claude-opus-4-6"]["input"] == 5.0  # untouched defaults stay
    assert table["models"]["local-model"]["checked"] == "2026-01-02"  # a YAML date read as text
    assert table["sources"] == ["built in", str(user)]
    monkeypatch.setenv("SQZ_PRICES", str(tmp_path / "missing.yaml"))
    with pytest.raises(pricing.PriceError, match="missing.yaml: no such file"):
        pricing.load()


def test_absent_default_user_file_is_fine(tmp_path, monkeypatch):
    monkeypatch.delenv("SQZ_PRICES", raising=False)
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
    assert pricing.load()["sources"] == ["built in"]


def test_savings_arithmetic_and_assumption():
    prices = {"input": 3.0, "cache_write": 3.75, "cache_read": 0.30}
    s = pricing.savings(1_000_000, prices, turns=10)
    assert s["cached_usd"] == pytest.approx(3.75 + 9 * 0.30)
    assert s["uncached_usd"] == pytest.approx(30.0)
    assert s["first_turn_usd"] == pytest.approx(3.0)
    assert "10 request(s)" in s["assumption"] and "read 9 time(s)" in s["assumption"]
    one = pricing.savings(2_000_000, {"input": 1.0, "cache_read": 0.1}, turns=1)  # no cache_write: input price
    assert one["cached_usd"] == pytest.approx(2.0)


def test_unknown_model_lists_the_known_ones():
    with pytest.raises(pricing.PriceError, match="unknown model 'gpt-x'; known: claude-haiku-4-5"):
        pricing.model_prices(pricing.default_table(), "gpt-x")
    block = pricing.cost_block(pricing.default_table(), "claude-opus-4-6", 500_000, 4)
    assert block["label"] == "Claude Opus 4.6" and block["cached_usd"] == pytest.approx(0.5 * (6.25 + 3 * 0.5))
    json.dumps(block)


def test_the_price_table_in_the_user_config_file(tmp_path, monkeypatch):
    """``prices`` in ~/.config/sqz/config.yaml: the table itself, or a path relative to that file."""
    from sqz_core.api import load_config

    (tmp_path / "sqz").mkdir()
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
    monkeypatch.delenv("SQZ_CONFIG", raising=False)
    monkeypatch.delenv("SQZ_PRICES", raising=False)
    monkeypatch.chdir(tmp_path)
    cfg = tmp_path / "sqz" / "config.yaml"
    cfg.write_text("quiet: true\nprices:\n  default_model: mine\n  models:\n    mine: {input: 2, cache_read: 0.2}\n")
    table = pricing.load()
    assert table["default_model"] == "mine" and table["models"]["mine"]["input"] == 2
    assert table["sources"] == ["built in", f"{cfg}:2"] and "claude-sonnet-4-6" in table["models"]
    (tmp_path / "sqz" / "team-prices.yaml").write_text("models:\n  team: {input: 5, cache_read: 0.5}\n")
    cfg.write_text("prices: team-prices.yaml\n")
    table = pricing.load()
    assert table["models"]["team"]["input"] == 5 and table["sources"][-1] == str(tmp_path / "sqz" / "team-prices.yaml")
    cfg.write_text("prices:\n  models:\n    bad: {input: -1, cache_read: 0.1}\n")
    load_config(quiet=True)
    with pytest.raises(pricing.PriceError) as err:
        pricing.load()
    assert str(err.value) == f"{cfg}:1: models.bad.input: -1 is less than the minimum of 0"
    monkeypatch.setenv("SQZ_PRICES", str(tmp_path / "sqz" / "team-prices.yaml"))  # the variable wins
    assert "team" in pricing.load()["models"]
