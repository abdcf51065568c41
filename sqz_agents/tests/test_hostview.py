"""A hook's replacement is judged in cl100k tokens against what the host would show the model."""

from sqz_agents import hostview
from sqz_core.tokens import count

HINT = "[/home/developer/projects/service-backend/.venv-py311-tools/bin/sqz expand 1f939f1edc17]"


def test_fewer_characters_can_be_more_tokens_and_is_refused():
    shown = "tests/test_api.py ...." + " " * 110 + "[100%]\n4 passed in 0.03s\n"  # pytest pads to the width
    replacement = "4 passed in 0.03s\n" + HINT
    assert len(replacement) < len(shown) and count(replacement)[0] >= count(shown)[0] * 0.9
    assert not hostview.worth_replacing(shown, replacement)


def test_a_clear_win_is_taken_and_identity_or_empty_never():
    shown = "".join(f"tests/test_mod_{i}.py::test_case_{i} PASSED\n" for i in range(200))
    assert hostview.worth_replacing(shown, "200 passed\n" + HINT)
    assert not hostview.worth_replacing(shown, shown)
    assert not hostview.worth_replacing(shown, "")


def test_the_band_where_the_estimate_could_err_never_lets_more_tokens_through():
    shown = "".join(f"src/pkg/module_{i}.py:{i * 7}:1: E501 line too long ({80 + i} > 79 characters)\n"
                    for i in range(40))
    lines = shown.splitlines()
    answers = []
    for keep in range(10, 41):  # replacements from a quarter of the text to all of it, hint added
        replacement = "\n".join(lines[:keep]) + "\n" + HINT
        ok = hostview.worth_replacing(shown, replacement)
        answers.append(ok)
        if ok:
            assert count(replacement)[0] < count(shown)[0], keep
    assert any(answers) and not all(answers)  # both sides of the line were reached


def test_claude_preview_and_opencode_view_are_the_hosts_cuts():
    out = "x" * 5000
    preview = hostview.claude_preview(out, "/tmp/saved.txt")
    assert "Full output saved to: /tmp/saved.txt" in preview and out[:2000] in preview and out[:2001] not in preview
    long = "".join(f"line {i}\n" for i in range(3000))
    view = hostview.opencode_view(long)
    assert view.count("\n") < 2005 and "line 1999\n" in view and "line 2000\n" not in view
    assert hostview.opencode_view("short\n") == "short\n"
