"""The lossless file tools: read a file, grep a tree, list a directory.

Nothing here summarises: every line a tool returns is the file's own line (only ANSI
escape sequences are removed from file content). Savings come from what is not fetched
(caps announced in a header, bulk directories skipped) and from dedup, which the caller
applies. Each function returns the text to send, or raises ``ToolError`` with a message
for the agent.
"""

from __future__ import annotations

import errno
import os
import re
import stat
import time

from .roots import PathRefused

DEFAULT_READ_CAP = 256 * 1024
READ_CEILING = 16 * 1024 * 1024  # the most one sqz_read_file returns, max_bytes=0 included
SCAN_CHUNK = 1024 * 1024  # lines before the offset are read in pieces of at most this
SCAN_LIMIT = 256 * 1024 * 1024  # bytes of data read to reach an offset (holes skipped cost nothing)
DEFAULT_GREP_MATCHES = 200
DEFAULT_GREP_BYTES = 100 * 1024
DEFAULT_LINE_CHARS = 400
DEFAULT_LIST_DEPTH = 1
DEFAULT_LIST_ENTRIES = 1000
# Bulk directories nobody reads by hand; listing or grepping them floods the context.
SKIP_DIRS = frozenset({".git", "node_modules", "target", "dist", "build", "vendor", "__pycache__"})
BINARY_SNIFF = 8192
GREP_FILE_LIMIT = 64 * 1024 * 1024  # larger files are skipped by grep (and counted)
REGEX_SECONDS = 5.0  # a regex grep's matching time; past it the call is a tool error (catastrophic backtracking)

# ECMA-48 escape sequences: CSI, OSC, DCS/SOS/PM/APC strings, two-byte escapes. Only these
# are removed from file content; every other byte (form feeds, CRs, trailing blanks) stays.
_ANSI = re.compile(
    r"\x1b\[[0-?]*[ -/]*[@-~]"
    r"|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?"
    r"|\x1b[PX^_][^\x1b]*(?:\x1b\\)?"
    r"|\x1b[@-Z\\-_]"
)


class ToolError(Exception):
    """A failure the agent should read (bad argument, missing file…): sent as an ``isError`` result."""


def strip_ansi_only(text: str) -> str:
    """``text`` without ANSI escape sequences; nothing else changes."""
    return _ANSI.sub("", text) if "\x1b" in text else text


def _int_arg(args: dict, name: str, default, minimum: int):
    value = args.get(name, default)
    if value is None:
        return default
    if isinstance(value, bool) or not isinstance(value, int):
        if isinstance(value, float) and value.is_integer():
            value = int(value)
        elif isinstance(value, str) and value.strip().isdigit():
            value = int(value.strip())
        else:
            raise ToolError(f"{name} must be an integer, got {value!r}")
    if value < minimum:
        raise ToolError(f"{name} must be >= {minimum}, got {value}")
    return value


def _cut_utf8(data: bytes, limit: int) -> bytes:
    """``data[:limit]`` moved back to a UTF-8 character boundary."""
    cut = data[:limit]
    i = len(cut)
    # step back over continuation bytes, then drop an incomplete lead byte
    j = i
    while j > 0 and (cut[j - 1] & 0xC0) == 0x80:
        j -= 1
    if j > 0 and cut[j - 1] >= 0xC0:
        lead = cut[j - 1]
        need = 2 if lead < 0xE0 else 3 if lead < 0xF0 else 4
        if i - (j - 1) < need:
            return cut[:j - 1]
    return cut


def open_regular(roots, real_path: str, shown: str):
    """A binary file object for ``real_path``, opened below its root without following links.

    Only a regular file is accepted: a directory, FIFO, socket or device is refused with a
    ``ToolError`` (opened non-blocking, so a FIFO never stalls the server).
    """
    try:
        fd = roots.open_fd(real_path)
    except OSError as exc:
        if exc.errno in (errno.ELOOP, errno.ENOTDIR):
            raise ToolError(f"{shown}: changed into a symbolic link while being opened; refused") from None
        raise ToolError(f"{shown}: {exc.strerror or exc}") from None
    try:
        st = os.fstat(fd)
        if stat.S_ISDIR(st.st_mode):
            raise ToolError(f"{shown} is a directory; use sqz_list_dir")
        if not stat.S_ISREG(st.st_mode):
            raise ToolError(f"{shown} is not a regular file")
        os.set_blocking(fd, True)
        return os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise


def _past_hole(f) -> None:
    """Moves ``f`` to the next data at or after its position: a sparse file's hole reads as NULs and
    holds no newline, so skipping it costs nothing and changes no line count."""
    seek_data = getattr(os, "SEEK_DATA", None)
    if seek_data is None:
        return
    pos = f.tell()
    try:
        nxt = os.lseek(f.fileno(), pos, seek_data)
    except OSError as exc:
        nxt = os.fstat(f.fileno()).st_size if exc.errno == errno.ENXIO else pos  # ENXIO: a hole to the end
    f.seek(max(nxt, pos))


def read_file(real_path: str, shown: str, args: dict, roots=None) -> tuple[bytes, str, bool]:
    """(content bytes, header or "", whole_file) for ``sqz_read_file``.

    ``offset`` is the first line (1-based), ``limit`` a line count, ``max_bytes`` the
    output cap (0: none, up to READ_CEILING). Output stops on a line boundary; only a first
    line longer than the cap is cut, on a character boundary, and the header says so. Time
    and memory are bounded whatever the file: no line is read past what can still be shown
    (a 2 GB line costs what the cap does), lines before ``offset`` are counted in chunks with
    holes skipped and at most SCAN_LIMIT bytes of data, and output stops at a line holding
    NUL bytes (binary content, or a sparse file's hole).
    """
    offset = _int_arg(args, "offset", 1, 1)
    limit = _int_arg(args, "limit", None, 1)
    cap = _int_arg(args, "max_bytes", DEFAULT_READ_CAP, 0)
    ceiling = min(cap, READ_CEILING) if cap else READ_CEILING
    if roots is None:
        from .roots import Roots
        roots = Roots([os.path.dirname(real_path)])
    f = open_regular(roots, real_path, shown)
    with f:
        head = f.read(BINARY_SNIFF)
        if b"\x00" in head:
            size = os.fstat(f.fileno()).st_size
            raise ToolError(f"{shown} is a binary file ({size} bytes); not shown")
        f.seek(0)
        lineno = 0  # complete lines before the position of f
        scanned = 0
        partial = False  # inside a line longer than one piece
        while lineno < offset - 1:  # to the first line asked for
            piece = f.readline(SCAN_CHUNK)
            if not piece:
                lines = lineno + partial
                return b"", f"[sqz_read_file: {shown} has {lines} lines; offset {offset} is past the end]", False
            scanned += len(piece)
            partial = not piece.endswith(b"\n")
            if partial:
                _past_hole(f)
            else:
                lineno += 1
            if scanned > SCAN_LIMIT:
                raise ToolError(f"{shown}: line {offset} lies beyond the first {SCAN_LIMIT // (1024 * 1024)} MiB "
                                "of the file, further than sqz_read_file scans; read an earlier range")
        parts: list[bytes] = []
        size = 0
        first = last = 0
        stop = ""
        while True:
            room = ceiling - size
            piece = f.readline(room + 1)  # one byte more than fits tells a line that does not
            if not piece:
                if lineno < offset and offset > 1:  # the file ends in the line before offset
                    return b"", f"[sqz_read_file: {shown} has {lineno} lines; offset {offset} is past the end]", False
                break
            lineno += 1
            if limit is not None and lineno >= offset + limit:
                stop = "limit"
                break
            if b"\x00" in piece:
                stop = "nul"
                first = first or lineno
                break
            if len(piece) > room:
                if not parts:  # one line longer than the whole cap: cut it, say so
                    parts.append(_cut_utf8(piece, room))
                    first = last = lineno
                    stop = "cut-line"
                else:
                    stop = "cap"
                break
            parts.append(piece)
            size += len(piece)
            if not first:
                first = lineno
            last = lineno
    data = b"".join(parts)
    header = ""
    what = (f"the {cap}-byte cap" if cap and cap <= READ_CEILING
            else f"the {READ_CEILING}-byte ceiling of one read (max_bytes cannot lift it)")
    if stop == "cap":
        lift = " (max_bytes=0 lifts the cap)" if cap and cap <= READ_CEILING else ""
        header = (f"[sqz_read_file: {shown} lines {first}-{last}, stopped at {what}; "
                  f"continue_with_offset={last + 1}{lift}]")
    elif stop == "cut-line":
        whole_hint = "max_bytes=0 reads it whole; " if cap and cap < READ_CEILING else ""
        header = (f"[sqz_read_file: {shown} line {first} is longer than {what} and was cut "
                  f"after {len(data)} bytes; {whole_hint}continue_with_offset={first + 1}]")
    elif stop == "nul":
        shown_part = f"lines {first}-{last} shown; " if parts else ""
        header = (f"[sqz_read_file: {shown} {shown_part}line {lineno} holds NUL bytes (binary content or a "
                  f"sparse file's hole) and is not shown; continue_with_offset={lineno + 1}]")
    whole = offset == 1 and not stop
    return data, header, whole


def decode_content(data: bytes) -> tuple[str, str]:
    """(text, note): UTF-8 text with ANSI removed; invalid bytes become U+FFFD and the note says how many."""
    try:
        text = data.decode("utf-8")
        note = ""
    except UnicodeDecodeError:
        text = data.decode("utf-8", errors="replace")
        bad = text.count("\ufffd") - data.decode("utf-8", errors="ignore").count("\ufffd")
        note = f"[sqz_read_file: not valid UTF-8; {bad} invalid byte sequence(s) shown as U+FFFD]"
    return strip_ansi_only(text), note


def _clip_around(line: str, start: int, end: int, width: int) -> str:
    """A ``width``-character window of ``line`` around ``[start, end)``, ``…`` marking each cut side."""
    if len(line) <= width:
        return line
    if end - start >= width:
        lo, hi = start, start + width
    else:
        lo = max(0, start - (width - (end - start)) // 2)
        hi = min(len(line), lo + width)
        lo = max(0, hi - width)
    return ("…" if lo > 0 else "") + line[lo:hi] + ("…" if hi < len(line) else "")


def _walk_files(roots, base: str):
    """(shown path, real path) of files under ``base`` in sorted order, skipping bulk directories
    and links that leave the roots (a link inside the roots is read at its target)."""
    if not os.path.isdir(base) or os.path.islink(base):
        yield base, base
        return
    for dirpath, dirnames, filenames in os.walk(base):
        dirnames[:] = sorted(d for d in dirnames if d not in SKIP_DIRS)
        for name in sorted(filenames):
            path = os.path.join(dirpath, name)
            if os.path.islink(path):
                real = os.path.realpath(path)
                if not roots.contains(real):
                    continue
                yield path, real
            else:
                yield path, path


class _TimedRegex:
    """A user's regular expression under a time limit, matched without holding the GIL.

    Python's ``re`` cannot be interrupted and keeps the interpreter lock for the whole match,
    so one pattern such as ``(a|aa)+$`` on a long line froze every other request of the
    server. The ``regex`` module takes a timeout and releases the lock (``concurrent``).
    """

    def __init__(self, pattern: str, ignore_case: bool) -> None:
        import regex

        self.error = regex.error
        self.rx = regex.compile(pattern, regex.IGNORECASE if ignore_case else 0)
        self.deadline = time.monotonic() + REGEX_SECONDS

    def search(self, text: str):
        left = self.deadline - time.monotonic()
        try:
            if left <= 0:
                raise TimeoutError
            return self.rx.search(text, timeout=left, concurrent=True)
        except TimeoutError:
            raise ToolError(f"the regular expression ran over {REGEX_SECONDS:g} s (nested repeats such as "
                            "(a|aa)+ can take exponential time); simplify it or search for a literal") from None


def _compile(pattern: str, use_regex: bool, ignore_case: bool):
    if use_regex:
        try:
            timed = _TimedRegex(pattern, ignore_case)
        except ImportError:  # without the regex module: Python's re, unbounded
            pass
        except Exception as exc:  # regex.error
            raise ToolError(f"invalid regular expression {pattern!r}: {exc}") from None
        else:
            return timed
    try:  # a literal is searched by re in linear time
        return re.compile(pattern if use_regex else re.escape(pattern), re.IGNORECASE if ignore_case else 0)
    except re.error as exc:
        raise ToolError(f"invalid regular expression {pattern!r}: {exc}") from None


def grep(roots, base: str, args: dict) -> str:
    """``path:lineno:text`` for each matching line under ``base``, with the caps announced in a header."""
    pattern = args.get("pattern")
    if not isinstance(pattern, str) or pattern == "":
        raise ToolError("pattern must be a non-empty string")
    use_regex = bool(args.get("regex", False))
    flags = re.IGNORECASE if args.get("ignore_case") else 0
    max_matches = _int_arg(args, "max_matches", DEFAULT_GREP_MATCHES, 1)
    max_bytes = _int_arg(args, "max_bytes", DEFAULT_GREP_BYTES, 1)
    width = _int_arg(args, "max_line_chars", DEFAULT_LINE_CHARS, 20)
    rx = _compile(pattern, use_regex, bool(flags))

    out: list[str] = []
    size = matches = clipped = files_hit = 0
    skipped_big = 0
    stop = ""
    for path, real in _walk_files(roots, base):
        try:
            fd = roots.open_fd(real)
        except (OSError, ValueError, PathRefused):
            continue  # gone, a link swapped in, or unreadable: not searched
        try:
            st = os.fstat(fd)
            if not stat.S_ISREG(st.st_mode):  # FIFOs, sockets, devices: never opened for reading
                os.close(fd)
                continue
            os.set_blocking(fd, True)
        except OSError:
            os.close(fd)
            continue
        try:
            with os.fdopen(fd, "rb") as f:
                if st.st_size > GREP_FILE_LIMIT:
                    skipped_big += 1
                    continue
                data = f.read()
        except OSError:
            continue
        if b"\x00" in data[:BINARY_SNIFF]:
            continue
        text = data.decode("utf-8", errors="replace")
        if rx.search(text) is None:
            continue
        shown = roots.display(path)
        hit_here = False
        for lineno, line in enumerate(text.splitlines(), 1):
            m = rx.search(line)
            if m is None:
                continue
            if len(line) > width:
                line = _clip_around(line, m.start(), m.end(), width)
                clipped += 1
            entry = f"{shown}:{lineno}:{line}"
            cost = len(entry.encode("utf-8")) + 1
            if matches >= max_matches:
                stop = "matches"
                break
            if size + cost > max_bytes:
                stop = "bytes"
                break
            out.append(entry)
            size += cost
            matches += 1
            hit_here = True
        files_hit += hit_here
        if stop:
            break

    where = roots.display(base)
    if not out:
        return f"no matches for {pattern!r} under {where}\n"
    notes = []
    if stop == "matches":
        notes.append(f"stopped at max_matches={max_matches} ({matches} matches in {files_hit} files shown; "
                     "more exist: narrow the pattern or path, or raise max_matches)")
    elif stop == "bytes":
        notes.append(f"stopped at max_bytes={max_bytes} ({matches} matches in {files_hit} files shown; "
                     "more exist: narrow the pattern or path, or raise max_bytes)")
    if clipped:
        notes.append(f"{clipped} line(s) longer than {width} chars clipped around the match (max_line_chars)")
    if skipped_big:
        notes.append(f"{skipped_big} file(s) over {GREP_FILE_LIMIT // (1024 * 1024)} MB not searched")
    header = "".join(f"[sqz_grep: {n}]\n" for n in notes)
    return header + "\n".join(out) + "\n"


def list_dir(roots, base: str, args: dict) -> str:
    """An indented listing of ``base`` (directories end in ``/``), bulk directories skipped and named."""
    depth = _int_arg(args, "max_depth", DEFAULT_LIST_DEPTH, 1)
    max_entries = _int_arg(args, "max_entries", DEFAULT_LIST_ENTRIES, 1)
    try:
        base_fd = roots.open_fd(base)
    except (OSError, PathRefused) as exc:
        raise ToolError(f"{roots.display(base)}: {getattr(exc, 'strerror', None) or exc}") from None
    try:
        if not stat.S_ISDIR(os.fstat(base_fd).st_mode):
            raise ToolError(f"{roots.display(base)} is not a directory; use sqz_read_file")
    except BaseException:
        os.close(base_fd)
        raise
    out: list[str] = []
    skipped: list[str] = []
    state = {"stopped": False}

    def walk(dir_fd: int, level: int, rel: str) -> None:
        """Lists the directory open on ``dir_fd`` (closed here); subdirectories are opened
        relative to it with O_NOFOLLOW, so a swapped-in link never leads outside."""
        try:
            with os.scandir(dir_fd) as it:
                entries = sorted(it, key=lambda e: e.name)
        except OSError as exc:
            os.close(dir_fd)
            out.append("  " * level + f"[cannot list: {exc.strerror or exc}]")
            return
        try:
            for e in entries:
                if len(out) >= max_entries:
                    state["stopped"] = True
                    return
                indent = "  " * level
                try:
                    is_link = e.is_symlink()
                    is_dir = e.is_dir(follow_symlinks=False)
                except OSError:
                    is_link = is_dir = False
                if is_link:
                    try:
                        target = os.readlink(e.name, dir_fd=dir_fd)
                    except OSError:
                        target = "?"
                    try:
                        suffix = "/" if stat.S_ISDIR(os.stat(e.name, dir_fd=dir_fd).st_mode) else ""
                    except OSError:
                        suffix = ""
                    out.append(f"{indent}{e.name}{suffix} -> {target}")
                    continue
                if is_dir:
                    if e.name in SKIP_DIRS:
                        skipped.append(rel + e.name + "/")
                        continue
                    out.append(f"{indent}{e.name}/")
                    if level + 1 < depth:
                        try:
                            sub = os.open(e.name, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC,
                                          dir_fd=dir_fd)
                        except OSError as exc:
                            out.append("  " * (level + 1) + f"[cannot list: {exc.strerror or exc}]")
                            continue
                        walk(sub, level + 1, rel + e.name + "/")
                        if state["stopped"]:
                            return
                else:
                    out.append(f"{indent}{e.name}")
        finally:
            os.close(dir_fd)

    walk(base_fd, 0, "")
    shown = roots.display(base)
    lines = []
    if state["stopped"]:
        lines.append(f"[sqz_list_dir: stopped at max_entries={max_entries}; list a subdirectory or raise max_entries]")
    if not out:
        lines.append(f"{shown} is empty" + (" (apart from skipped directories)" if skipped else ""))
    lines.extend(out)
    if skipped:
        lines.append(f"[not listed: {', '.join(skipped)}]")
    return "\n".join(lines) + "\n"
