"""keeps_every_word: the rule that lets a rendering which only changed the layout go out without a
recovery line (issue 25: collapsed table padding keeps every cell and word)."""

from __future__ import annotations

from sqz_core.gate import keeps_every_word


def test_collapsed_padding_and_dropped_borders_keep_every_word():
    psql = " id |  name  \n----+--------\n  1 | alpha  \n  2 |        \n(2 rows)\n"
    assert keeps_every_word(psql, "id name\n1 alpha\n2\n(2 rows)\n")
    assert keeps_every_word(psql, "id|name\n1|alpha\n2|\n(2 rows)\n")      # psql -A's bars where blanks were
    box = "┌────┬──────┐\n│ id │ name │\n├────┼──────┤\n│ 1  │ a    │\n└────┴──────┘\n"
    assert keeps_every_word(box, "id\tname\n1\ta\n")


def test_a_word_gone_changed_added_or_moved_is_not_kept():
    text = "PID USER CMD\n1 root init\n2 root sh -c x\n"
    assert not keeps_every_word(text, "PID USER CMD\n1 root init\n")                # a row gone
    assert not keeps_every_word(text, "PID USER CMD\n1 root init\n2 root sh -c x [×2]\n")   # a note added
    assert not keeps_every_word(text, "PID CMD USER\n1 init root\n2 sh -c x root\n")      # reordered
    assert not keeps_every_word(text, "PID USER CMD\n1 root init\n2 root sh c x\n")       # a lone '-' is a value
    assert not keeps_every_word("a\n50%\r100%\n", "a\n100%\n")                           # a redraw dropped
    assert not keeps_every_word("\x1b[31mFAIL\x1b[0m x\n", "FAIL x\n")                   # a colour code dropped
    assert not keeps_every_word("x + y\n", "x y\n")                                      # psql's continuation mark counts
