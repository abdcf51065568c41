"""Which regular expressions a declarative formatter may use: linear-time shapes only.

Python's ``re`` backtracks. A user's pattern runs on every line of every matching output, and a
repository's output is not the user's to choose, so a pattern is checked on its parse tree
(``re._parser``, off the hot path: only when a spec is compiled) and refused, with a message
that says which construct and why, when it holds:

- a backreference (``\\1``, ``(?P=name)``, ``(?(1)…)``): matching is NP-hard in general;
- a lookaround (``(?=…)``, ``(?!…)``, ``(?<=…)``, ``(?<!…)``): re-scans the text at every position;
- a nested quantifier: a variable-length repeat, or alternatives that can overlap, inside a
  repeat that runs more than once (``(a+)+``, ``(\\w+\\s?)*``, ``(a|ab)*``): exponential;
- two adjacent repeats that can match the same characters (``\\s*\\s+``, ``\\d+\\w*``, ``.*.*``, also
  with only optional items between them): a polynomial of one degree more per pair;
- more than two unbounded repeats (``*``, ``+``, ``{n,}``, or a span over 64) in one pattern
  (three when it is anchored with ``^``: it is tried at the line's start only).

What is left can still be quadratic or cubic on one line (``.*x`` searched over a long line of no
``x``), so each pattern gets a guard: lines longer than its ``cap`` characters are not tested
against it (such a line is kept, never dropped or folded, and on failure counts as an error
line). The cap shrinks with the pattern's unbounded repeats, keeping one test of one line near
ten million steps at worst.
"""

from __future__ import annotations

# the line guard: unbounded repeats in the pattern -> longest line tested
CAPS = {0: 1 << 20, 1: 4096, 2: 256}
MAX_UNBOUNDED = max(CAPS)
SPAN = 64  # a bounded repeat whose span (max - min) exceeds this counts as unbounded
SMALL, SMALL_TIMES = 8, 4  # a repeat of at most 4 times over parts of spans <= 8 may nest (9**4 paths)

# characters tried when deciding whether two repeats can match the same character
_SAMPLE = [chr(c) for c in range(0, 0x300)] + [chr(c) for c in (
    0x0660, 0x06F0, 0x0966, 0x1680, 0x2000, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000, 0x4E00, 0xAC00, 0xFF10,
    0xFF21, 0x1D400, 0x1F600)]


class PatternError(ValueError):
    """A pattern sqz will not run: the message says which construct and why."""


def check(pattern: str) -> int:
    """The line-length cap for ``pattern``; raises ``PatternError`` for a pattern that is not linear-time
    (or not a valid regular expression)."""
    import re
    from re import _constants as c
    from re import _parser as p

    try:
        re.compile(pattern)
        tree = p.parse(pattern)
    except re.error as exc:
        raise PatternError(f"not a valid regular expression: {exc}") from None
    flags = tree.state.flags
    unbounded = [0]

    def is_repeat(op) -> bool:
        return op in (c.MAX_REPEAT, c.MIN_REPEAT)

    def unbounded_in(items) -> bool:
        for op, av in items:
            if is_repeat(op) or op is c.POSSESSIVE_REPEAT:
                if av[1] == c.MAXREPEAT or av[1] - av[0] > SMALL or unbounded_in(av[2]):
                    return True
            elif op is c.SUBPATTERN and unbounded_in(av[3]):
                return True
            elif op is c.ATOMIC_GROUP and unbounded_in(av):
                return True
            elif op is c.BRANCH and any(unbounded_in(b) for b in av[1]):
                return True
        return False

    def deterministic(branch_av) -> bool:
        """Alternatives that each start with a different literal character: one is ever tried."""
        firsts = []
        for alt in branch_av[1]:
            if not alt or alt[0][0] is not c.LITERAL:
                return False
            firsts.append(alt[0][1])
        return len(set(firsts)) == len(firsts)

    def variable(items) -> bool:
        """Whether ``items`` can match strings of different lengths, or one string in more than one way."""
        for op, av in items:
            if is_repeat(op) or op is c.POSSESSIVE_REPEAT:
                lo, hi, sub = av
                if lo != hi or variable(sub):
                    return True
            elif op is c.SUBPATTERN:
                if variable(av[3]):
                    return True
            elif op is c.ATOMIC_GROUP:
                if variable(av):
                    return True
            elif op is c.BRANCH:
                if not deterministic(av) or any(variable(b) for b in av[1]):
                    return True
        return False

    def walk(items, in_repeat: bool, atomic: bool, top: bool) -> None:
        items = list(items)
        for idx, (op, av) in enumerate(items):
            if op in (c.GROUPREF, c.GROUPREF_EXISTS):
                raise PatternError("a backreference (\\1, (?P=name), (?(1)…)) is not allowed: "
                                   "it can take exponential time")
            if op in (c.ASSERT, c.ASSERT_NOT):
                raise PatternError("a lookaround ((?=…), (?!…), (?<=…), (?<!…)) is not allowed: "
                                   "it re-scans the line at every position; match the text itself")
            if is_repeat(op) or op is c.POSSESSIVE_REPEAT:
                lo, hi, sub = av
                small = hi <= SMALL_TIMES and not unbounded_in(sub)  # (\.\d{1,3}){3}: a bounded product
                if hi > 1 and variable(sub) and not small and not atomic and op is not c.POSSESSIVE_REPEAT:
                    raise PatternError("a nested quantifier ((a+)+, (\\w+\\s?)*, (a|ab)*) is not allowed: a "
                                       "variable-length part inside a repeat backtracks exponentially")
                if (hi == c.MAXREPEAT or hi - lo > SPAN) and not atomic and op is not c.POSSESSIVE_REPEAT \
                        and backtracks(items, idx, top):
                    unbounded[0] += 1
                walk(sub, in_repeat or hi > 1, atomic or op is c.POSSESSIVE_REPEAT, False)
            elif op is c.SUBPATTERN:
                walk(av[3], in_repeat, atomic, False)
            elif op is c.ATOMIC_GROUP:
                walk(av, in_repeat, True, False)
            elif op is c.BRANCH:
                for branch in av[1]:
                    walk(branch, in_repeat, atomic, False)
        adjacent(items, atomic)

    def backtracks(items, i: int, top: bool) -> bool:
        """Whether an unbounded repeat can give characters back to what follows it: the first thing
        after it that consumes a character can match one the repeat matches. A repeat followed by
        a disjoint character (``\\d+ ``) or ending the whole pattern stops at one place."""
        mine = charset(items[i][1][2])
        for op, av in items[i + 1:]:
            if op is c.AT:
                continue
            if is_repeat(op) or op is c.POSSESSIVE_REPEAT:
                if overlap(mine, charset(av[2])):
                    return True
                if av[0] > 0:
                    return False
                continue
            follow = charset([(op, av)])
            return overlap(mine, follow)
        return not top  # inside a group: what follows the group is not known here

    def adjacent(items, atomic: bool) -> None:
        """Refuse two variable repeats in a row (only optional items between) that share a character."""
        if atomic:
            return
        items = list(items)
        for i, (op, av) in enumerate(items):
            if not is_repeat(op) or av[0] == av[1]:
                continue
            first = charset(av[2])
            for op2, av2 in items[i + 1:]:
                if is_repeat(op2) and av2[0] != av2[1]:
                    if overlap(first, charset(av2[2])):
                        raise PatternError("two adjacent repeats that can match the same characters "
                                           "(\\s*\\s+, \\d+\\w*, .*.*) are ambiguous: each extra one multiplies "
                                           "the work on a long line; merge them or separate them by a literal")
                    if av2[0] > 0:
                        break
                    continue
                if op2 is c.AT:
                    continue
                break

    def charset(sub):
        """A predicate over one character for the characters ``sub`` can start with (None: any)."""
        preds = []
        for op, av in sub:
            if op is c.SUBPATTERN:
                return charset(av[3])
            preds.append((op, av))
            break
        if not preds:
            return None
        op, av = preds[0]
        if op in (c.LITERAL, c.NOT_LITERAL, c.ANY, c.IN, c.CATEGORY):
            return (op, av)
        return None

    def member(pred, ch: str) -> bool:
        if pred is None:
            return True
        op, av = pred
        chars = {ch, ch.lower(), ch.upper()} if flags & c.SRE_FLAG_IGNORECASE else {ch}
        return any(_one(op, av, x) for x in chars)

    def _one(op, av, ch: str) -> bool:
        if op is c.LITERAL:
            return ord(ch) == av
        if op is c.NOT_LITERAL:
            return ord(ch) != av
        if op is c.ANY:
            return ch != "\n" or bool(flags & c.SRE_FLAG_DOTALL)
        if op is c.CATEGORY:
            return _category(av, ch)
        if op is c.IN:
            negate = False
            hit = False
            for iop, iav in av:
                if iop is c.NEGATE:
                    negate = True
                elif iop is c.LITERAL and ord(ch) == iav:
                    hit = True
                elif iop is c.RANGE and iav[0] <= ord(ch) <= iav[1]:
                    hit = True
                elif iop is c.CATEGORY and _category(iav, ch):
                    hit = True
            return hit != negate
        return True

    def _category(cat, ch: str) -> bool:
        word = ch.isalnum() or ch == "_"
        table = {c.CATEGORY_DIGIT: ch.isdecimal(), c.CATEGORY_NOT_DIGIT: not ch.isdecimal(),
                 c.CATEGORY_SPACE: ch.isspace(), c.CATEGORY_NOT_SPACE: not ch.isspace(),
                 c.CATEGORY_WORD: word, c.CATEGORY_NOT_WORD: not word}
        return table.get(cat, True)

    def overlap(a, b) -> bool:
        if a is None or b is None:
            return True
        return any(member(a, ch) and member(b, ch) for ch in _SAMPLE)

    walk(list(tree), False, False, True)
    anchored = bool(tree.data) and tree.data[0][0] is c.AT and tree.data[0][1] in (c.AT_BEGINNING, c.AT_BEGINNING_STRING)
    if unbounded[0] > MAX_UNBOUNDED + anchored:
        raise PatternError(f"{unbounded[0]} unbounded repeats (*, +, {{n,}}) in one pattern: at most "
                           f"{MAX_UNBOUNDED}; bound them ({{0,80}}) or split the pattern into several")
    # a pattern anchored at the line's start is tried at one position only: one degree less
    return CAPS[max(0, unbounded[0] - anchored)]
