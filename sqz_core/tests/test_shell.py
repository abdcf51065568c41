"""sqz_core.shell, the shell lexer public through sqz_core.api (the rewrite policy is tested in sqz_agents)."""

import pytest

from sqz_core import api, shell
from sqz_testing import grows_linearly, nested_repeats, regex_patterns, work_done


def test_the_api_names_point_at_the_lexer():
    assert api.lex is shell.lex and api.shell_words is shell.shell_words and api.ShellOp is shell.Op
    assert api.simple_commands is shell.simple_commands and api.program_of is shell.program_of
    assert api.SQZ_PROGRAMS is shell.SQZ_PROGRAMS and api.runs_sqz is shell.runs_sqz
    assert api.sqz_executable is shell.sqz_executable and api.MAX_SHELL_COMMAND == 64 * 1024


def test_words_operators_and_heredocs():
    tokens, text, had = shell.lex("cat <<'EOF' | grep -c x\nit's a 'heredoc'\nEOF\necho \"a b\" 'c'")
    assert had and "heredoc" not in text
    assert [t for t in tokens if not isinstance(t, shell.Op)] == ["cat", "EOF", "grep", "-c", "x", "echo", "a b", "c"]
    assert [t for t in tokens if isinstance(t, shell.Op)] == ["<<", "|", ";"]  # the body and its delimiter line are skipped
    with pytest.raises(ValueError):
        shell.lex("echo 'unbalanced")


@pytest.mark.parametrize("line, programs", [
    ("FOO=1 env -i timeout 5 npx vitest run 2>/dev/null | tee out", ["vitest", "tee"]),
    ("uv run pytest -q && python3 -m mypy src; pnpm run dev", ["pytest", "mypy", "pnpm"]),
    ("(cd sub && python manage.py test) > log 2>&1", ["cd", "manage.py"]),
])
def test_the_program_each_simple_command_runs(line, programs):
    assert [shell.program_of(w)[0] for w in shell.simple_commands(shell.shell_words(line))] == programs


@pytest.mark.parametrize("command, mine", [
    ("sqz expand ab12 | head", True), ("SQZ_SESSION=A /opt/x/sqz stats", True), ("python3 -m sqz_core recall x", True),
    ("echo sqz", False), ("grep -rn 'sqz expand' .", False), ("sqz 'unbalanced", False),
])
def test_runs_sqz(command, mine):
    assert shell.runs_sqz(command) is mine


def test_the_lexer_is_linear_and_its_patterns_cannot_backtrack():
    small, large = "echo " + "a" * (1 << 14), "echo " + "a" * (1 << 16)
    shell.lex(small)  # warm
    n_small, n_large = work_done(shell.lex, small)[1], work_done(shell.lex, large)[1]
    assert grows_linearly(n_small, n_large, 4), (n_small, n_large)
    for name, pattern in regex_patterns(shell).items():
        assert nested_repeats(pattern) == [], (name, pattern)


def test_sqz_executable_prefers_sqz_bin(monkeypatch):
    monkeypatch.setenv("SQZ_BIN", "/opt/my tools/sqz")
    assert shell.sqz_executable() == "'/opt/my tools/sqz'"
