"""sqz_agents.configfiles: insertions keep comments, order and formatting, and remove back to the same bytes."""

import json

import pytest

from sqz_agents.configfiles import (ConfigError, json_add_array_item, json_remove_marked, json_set_member,
                                  md_remove_block, md_set_block, parse_jsonc, remove_snippet, to_python,
                                  toml_add_table)

JSONC = """{
    // the user's own comment
    "theme": "One Dark", /* inline */
    "hooks": {
        "PreToolUse": [
            {"matcher": "Edit", "hooks": [{"type": "command", "command": "lint.sh"}]},
        ],
    },
    "context_servers": {},
}
"""


def test_parse_jsonc_with_comments_and_trailing_commas():
    value = to_python(parse_jsonc(JSONC))
    assert value["theme"] == "One Dark" and value["hooks"]["PreToolUse"][0]["matcher"] == "Edit"


@pytest.mark.parametrize("bad", ['{"a": 1', '{"a": 1} x', "{'a': 1}", '{"a": /* x */', "[1,,2]"])
def test_invalid_json_is_refused(bad):
    with pytest.raises(ConfigError):
        parse_jsonc(bad)


def test_append_to_existing_array_and_remove_back():
    item = {"matcher": "Bash", "hooks": [{"type": "command", "command": "/x/sqz hook claude-code"}]}
    new, snippet = json_add_array_item(JSONC, ["hooks", "PreToolUse"], item, "sqz hook claude-code")
    assert "// the user's own comment" in new and "/* inline */" in new
    value = to_python(parse_jsonc(new))
    assert value["hooks"]["PreToolUse"][1] == item and value["hooks"]["PreToolUse"][0]["matcher"] == "Edit"
    assert json_add_array_item(new, ["hooks", "PreToolUse"], item, "sqz hook claude-code") == (new, None)
    assert remove_snippet(new, snippet) == (JSONC, True)
    # the fallback removal (snippet lost) also gives valid JSON without our element
    fallback, n = json_remove_marked(new, ["hooks", "PreToolUse"], "sqz hook claude-code")
    assert n == 1 and to_python(parse_jsonc(fallback)) == to_python(parse_jsonc(JSONC))


def test_missing_path_is_created_as_one_snippet():
    new, snippet = json_add_array_item(JSONC, ["hooks", "PreCompact"], {"hooks": []}, "zzz")
    assert to_python(parse_jsonc(new))["hooks"]["PreCompact"] == [{"hooks": []}]
    new2, snippet2 = json_add_array_item(new, ["x", "y"], 1, "1")
    assert to_python(parse_jsonc(new2))["x"] == {"y": [1]}
    assert remove_snippet(remove_snippet(new2, snippet2)[0], snippet)[0] == JSONC


def test_member_in_empty_object_and_empty_file():
    new, snippet = json_set_member(JSONC, ["context_servers"], "sqz", {"command": "/p q/sqz-mcp", "args": []})
    assert to_python(parse_jsonc(new))["context_servers"]["sqz"]["command"] == "/p q/sqz-mcp"
    assert json_set_member(new, ["context_servers"], "sqz", {})[1] is None
    assert remove_snippet(new, snippet)[0] == JSONC
    created, snip = json_set_member("", ["mcpServers"], "sqz", {"command": "ü"})
    assert to_python(parse_jsonc(created)) == {"mcpServers": {"sqz": {"command": "ü"}}}
    assert remove_snippet(created, snip)[0] == "{}\n"


def test_wrong_shape_is_refused():
    with pytest.raises(ConfigError):
        json_add_array_item('{"hooks": {"PreToolUse": {}}}', ["hooks", "PreToolUse"], {}, "m")
    with pytest.raises(ConfigError):
        json_set_member("[1, 2]", ["a"], "b", 1)


def test_tabs_are_kept():
    text = '{\n\t"a": [\n\t\t1\n\t]\n}\n'
    new, snippet = json_add_array_item(text, ["a"], {"k": "sqz"}, "sqz")
    assert '\n\t\t{\n\t\t\t"k": "sqz"\n\t\t}' in new and remove_snippet(new, snippet)[0] == text


TOML = """# Codex config
model = "o3"  # favourite

[mcp_servers.docs]
command = "docs-server"
"""


def test_toml_table_appended_and_removed():
    new, snippet = toml_add_table(TOML, ["mcp_servers", "sqz"], {"command": "/a b/sqz-mcp", "args": []})
    assert new.startswith(TOML) and '[mcp_servers.sqz]\ncommand = "/a b/sqz-mcp"\nargs = []\n' in new
    import tomllib

    assert tomllib.loads(new)["mcp_servers"]["sqz"]["command"] == "/a b/sqz-mcp"
    assert toml_add_table(new, ["mcp_servers", "sqz"], {})[1] is None
    assert remove_snippet(new, snippet)[0] == TOML
    with pytest.raises(ConfigError):
        toml_add_table("model = = 1\n", ["mcp_servers", "sqz"], {})


def test_markdown_block_is_idempotent_and_removable():
    text = "# Project notes\n\nUse tabs.\n"
    new, snippet = md_set_block(text, "pipe long output through sqz")
    assert new.startswith(text) and "sqz:begin" in new and md_set_block(new, "pipe long output through sqz")[1] is None
    assert remove_snippet(new, snippet)[0] == text
    assert md_remove_block(new)[1]
    with pytest.raises(ConfigError):
        md_set_block(new, "different text")


def test_json_dump_keeps_non_ascii():
    new, _ = json_set_member("{}", [], "k", "naïve — 日本")
    assert "naïve — 日本" in new and json.loads(new)["k"] == "naïve — 日本"


def test_removals_give_back_the_text_before_the_insertion():
    """The fallback removals (no recorded snippet) undo what the insertions added, byte for byte."""
    from sqz_agents.configfiles import (json_remove_member, md_remove_block, md_set_block, toml_add_table,
                                      toml_remove_table)

    for text in ("Be brief.\n", "Be brief.", ""):
        added, _ = md_set_block(text, "## sqz\nbody\n")
        removed, ok = md_remove_block(added)
        assert ok and removed == (text if text.endswith("\n") or not text else text + "\n")
    for text in ('{\n  "mcpServers": {\n    "docs": {"command": "d"}\n  }\n}\n', '{\n  "mcpServers": {}\n}\n',
                 '{\n  // c\n  "mcpServers": {\n    "docs": {"command": "d"}, // keep\n    "x": 1\n  }\n}\n'):
        added, _ = json_set_member(text, ["mcpServers"], "sqz", {"command": "sqz-mcp", "args": []})
        removed, ok = json_remove_member(added, ["mcpServers"], "sqz")
        assert ok and removed == text, (added, removed)
    first, ok = json_remove_member('{"a": {"sqz": 1, "b": 2}}', ["a"], "sqz")
    assert ok and first == '{"a": {"b": 2}}'
    for text in ('model = "o4-mini"\n', 'model = "o4-mini"\n\n[mcp_servers.docs]\ncommand = "d"\n', ""):
        added, _ = toml_add_table(text, ["mcp_servers", "sqz"], {"command": "sqz-mcp", "args": []})
        removed, ok = toml_remove_table(added, ["mcp_servers", "sqz"])
        assert ok and removed == text, (added, removed)
    assert toml_remove_table('[a]\nx = 1\n', ["mcp_servers", "sqz"]) == ('[a]\nx = 1\n', False)
