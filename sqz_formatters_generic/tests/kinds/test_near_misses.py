"""Input that looks like a kind but is not (or is broken) gets None."""

from __future__ import annotations

from pathlib import Path

from sqz_core import FormatRequest
from sqz_formatters_generic.kinds import compress_kind, detect_kind
from sqz_testing import load_fixture

FIX = Path(__file__).parent.parent / "fixtures" / "kinds"


def fixture_text(path: str) -> str:
    return load_fixture(FIX / path).request().text


def req(text: str, command: str | None = None, **kw) -> FormatRequest:
    return FormatRequest(text, command, **kw)


def test_prose_with_braces_is_not_json():
    text = "{name} is replaced by the package name.\nUse {version} for the version; see [docs] for more.}\n"
    r = req(text, "sometool --help")
    assert detect_kind(text, r) is None
    assert compress_kind("json", r) is None


def test_truncated_json_is_left_alone():
    text = fixture_text("json/npm_view_express.txt")
    cut = text[: len(text) // 2]
    r = req(cut, "npm view express@4.21.2 --json")
    assert compress_kind("json", r) is None
    assert detect_kind(cut, req(cut)) != "json"


def test_json_with_nan_is_left_alone():
    text = '{"loss": NaN, "step": 1, "name": null}\n'
    assert compress_kind("json", req(text)) is None


def test_a_broken_json_line_stops_jsonl():
    text = fixture_text("jsonl/rg_json.txt").replace('"type":"end"', '"type":"end" oops', 1)
    assert compress_kind("jsonl", req(text, "rg --json -n x")) is None


def test_file_reads_are_not_summarised():
    text = fixture_text("json/kubectl_deployment.txt")
    assert detect_kind(text, req(text, "cat deploy.json")) is None
    assert compress_kind("json", req(text, "cat deploy.json")) is None
    md = fixture_text("markdown/express_readme.txt")
    assert detect_kind(md, req(md, "head -n 300 Readme.md")) is None


def test_ls_in_another_locale_is_refused():
    text = fixture_text("ls/ls_la_usr_lib_python.txt").replace(" May ", " Mai ").replace(" Oct ", " Okt ")
    assert " Mai " in text or " Okt " in text
    assert compress_kind("ls", req(text, "ls -la /usr/lib/python3*")) is None


def test_short_ls_output_is_not_a_long_listing():
    text = "api.py\nauth.py\ncerts.py\ncompat.py\n"
    assert detect_kind(text, req(text, "ls requests")) is None
    assert compress_kind("ls", req(text, "ls -l requests")) is None


def test_grep_count_output_is_not_grouped():
    text = "requests/api.py:8\nrequests/auth.py:3\nrequests/utils.py:21\n"
    assert compress_kind("grep", req(text, "grep -rc raise requests")) is None


def test_find_output_is_not_a_tree():
    text = fixture_text("find/find_site_packages.txt")
    assert compress_kind("tree", req(text, "tree requests")) is None


def test_du_without_tabs_is_refused():
    text = fixture_text("du/du_ah_requests.txt").replace("\t", " ")
    assert compress_kind("du", req(text, "du -ah requests")) is None


def test_pip_freeze_is_not_a_pip_table():
    text = "certifi==2026.10.19.post1\nidna==3.20\nrequests==2.32.3\n"
    assert compress_kind("deptree", req(text, "pip list --format=freeze")) is None


def test_shell_comments_are_not_markdown():
    text = "# build the image\ndocker build -t app .\n# run it\ndocker run app\n# done\n"
    assert detect_kind(text, req(text, "./show-steps")) is None


def test_xml_is_not_html():
    text = '<?xml version="1.0"?>\n<project><name>x</name><version>1</version></project>\n'
    assert detect_kind(text, req(text, "curl -s http://127.0.0.1/pom.xml")) is None
    assert compress_kind("html", req(text)) is None


def test_log_without_repeats_is_left_alone():
    text = fixture_text("log/npm_install_verbose_404.txt")
    assert detect_kind(text, req(text, "npm install x")) == "log"
    assert compress_kind("log", req(text, "npm install x")) is None


def test_log_folding_keeps_stack_traces_whole():
    log = fixture_text("log/http_server_access.txt").split("\n")
    trace = ["Traceback (most recent call last):"] + [
        '  File "/srv/app.py", line 12, in handler' for _ in range(5)] + ["RecursionError: maximum recursion depth exceeded"]
    text = "\n".join(log[:10] + trace + log[10:])
    out = compress_kind("log", req(text))
    assert "\n".join(trace) in out


def test_log_keeps_warnings_and_their_neighbours():
    log = fixture_text("log/http_server_access.txt").split("\n")
    log[20] = log[20] + " WARNING slow response"
    out = compress_kind("log", req("\n".join(log)))
    assert "\n".join(log[18:23]) in out


def test_prose_is_not_yaml_or_a_table():
    text = ("The server listens on port 8080 by default.\nSet PORT to change it, then restart:\n"
            "it reads the value at start-up only.\nSee the docs for details.\n")
    r = req(text, "./describe")
    assert detect_kind(text, r) is None
    assert compress_kind("table", r) is None
    assert compress_kind("yaml", r) is None
