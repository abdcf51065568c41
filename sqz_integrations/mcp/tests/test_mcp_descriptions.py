"""tools/list description compaction and the proxy's choice of pipeline tool name."""

from __future__ import annotations

from sqz_mcp.descriptions import compact, compact_tools
from sqz_mcp.proxy import pipeline_tool


def test_compact_collapses_whitespace_and_caps_on_a_word_boundary():
    assert compact("Read   a file.\n\n  - one\n  - two\n") == "Read a file. - one - two"
    long = "word " * 200
    out = compact(long)
    assert len(out) <= 400 and out.endswith("word…") and "  " not in out


def test_lazy_keeps_the_first_sentence_only():
    assert compact("Get the weather. Returns JSON with many fields.", lazy=True) == "Get the weather. …"
    assert compact("Version 1.2 is used. Other stuff.", lazy=True) == "Version 1.2 is used. …"
    assert compact("Only one   sentence.", lazy=True) == "Only one sentence."
    long = "x " * 150 + ". tail"
    assert len(compact(long, lazy=True)) <= 160 and compact(long, lazy=True).endswith("x…")


def test_compact_tools_keeps_schemas_and_returns_originals():
    schema = {"type": "object", "properties": {"p": {"type": "string", "description": "  spaced   out  "}}}
    tools = [{"name": "a", "description": "Does   a.\n", "inputSchema": schema, "title": "A"},
             {"name": "b", "inputSchema": {"type": "object"}}]
    out, originals = compact_tools(tools)
    assert out[0] == {"name": "a", "description": "Does a.", "inputSchema": schema, "title": "A"}
    assert out[0]["inputSchema"] is schema and out[1] is tools[1]
    assert originals == {"a": "Does   a.\n"}


def test_pipeline_tool_names_file_reads_and_patches_as_file_content():
    # names the core knows as file content pass through as they are
    assert pipeline_tool("read_text_file") == ("read_text_file", True)
    assert pipeline_tool("read_multiple_files") == ("read_multiple_files", True)
    assert pipeline_tool("get_file_contents") == ("get_file_contents", True)
    assert pipeline_tool("read_file") == ("read_file", True)
    assert pipeline_tool("edit_file") == ("edit_file", True)
    assert pipeline_tool("git_diff_unstaged") == ("git_diff_unstaged", True)
    # other servers' names are recognised by their words
    assert pipeline_tool("open_text_document") == ("read_file", True)
    assert pipeline_tool("apply_workspace_edit") == ("patch", True)
    assert pipeline_tool("git_log") == ("git_log", False)
    assert pipeline_tool("search_files") == ("search_files", False)
    assert pipeline_tool("list_directory") == ("list_directory", False)
