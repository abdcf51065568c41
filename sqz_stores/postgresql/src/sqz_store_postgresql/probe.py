"""Does the server answer at all? One stdlib round trip before a hook call imports psycopg.

Importing psycopg costs 0.1 s on an idle machine and a second at load 10, so a direct
(``pool=0``) hook call on a frozen server — one that accepts TCP connections and never
answers (SIGSTOP, a paused VM, a hung host) — used to spend that, then its own bound on the
connect. Here the call first sends PostgreSQL's ``SSLRequest`` (8 bytes; every server and
pgbouncer answers it with one byte, ``S`` or ``N``, before any authentication) and waits for
that byte within the call's bound; no answer, and the call goes on without the store having
imported nothing. A healthy server costs one extra connection round trip, which the server
does not log (a client that leaves after the SSL answer is an expected case for it).

Only a server this module can locate is probed: one host in the URL (name, IPv4, ``[IPv6]``)
or a ``host=``/``PGHOST`` socket directory; several hosts, or libpq's compiled-in default
socket directory, are left to libpq as before.
"""

from __future__ import annotations

import os
import struct
import time

try:  # the C module: a fraction of ``socket``'s import time
    import _socket as socket
except ImportError:  # pragma: no cover
    import socket

_SSL_REQUEST = struct.pack(">II", 8, 80877103)


def _unquote(text: str) -> str:
    if "%" not in text:
        return text
    from urllib.parse import unquote  # rare (a socket directory in the URL's host): ~2 ms

    return unquote(text)


def target(conninfo: str) -> tuple[str, str, int] | None:
    """``("tcp", host, port)`` or ``("unix", socket path, port)`` of the one server a libpq URL names, or
    None when it names several or leaves the choice to libpq's defaults."""
    rest = conninfo.split("://", 1)[1] if "://" in conninfo else ""
    netloc, _, query = rest.partition("?")
    netloc = netloc.split("/", 1)[0].rpartition("@")[2]
    params = dict(item.partition("=")[::2] for item in query.split("&") if item)
    if "," in netloc or "," in params.get("host", "") or "," in params.get("hostaddr", ""):
        return None
    if netloc.startswith("["):
        host, _, after = netloc[1:].partition("]")
        port = after[1:] if after.startswith(":") else ""
    else:
        host, _, port = netloc.partition(":")
    host = _unquote(params.get("hostaddr") or params.get("host") or host) or os.environ.get("PGHOST", "")
    port = params.get("port") or port or os.environ.get("PGPORT", "") or "5432"
    try:
        number = int(port)
    except ValueError:
        return None
    if not host:
        return None
    if host.startswith("/"):
        return ("unix", os.path.join(host, f".s.PGSQL.{number}"), number)
    return ("tcp", host, number)


def probe(conninfo: str, timeout: float) -> str | None:
    """None when the server answers an ``SSLRequest`` within ``timeout`` seconds (or cannot be
    located, see ``target``); else why not, one line without credentials."""
    where = target(conninfo)
    if where is None:
        return None
    deadline = time.monotonic() + timeout
    silent = f"postgresql: no answer within {int(timeout * 1000)} ms (server frozen or overloaded)"
    kind, host, port = where
    try:
        if kind == "unix":
            addresses = [(socket.AF_UNIX, host)]
        else:
            addresses = [(family, addr) for family, _, _, _, addr in
                         socket.getaddrinfo(host, port, 0, socket.SOCK_STREAM)]
    except OSError as exc:
        return f"postgresql: cannot resolve the server's host ({exc.__class__.__name__})"
    refused = None
    for family, addr in addresses:
        left = deadline - time.monotonic()
        if left <= 0:
            return silent
        sock = socket.socket(family, socket.SOCK_STREAM)
        try:
            sock.settimeout(left)
            try:
                sock.connect(addr)
            except TimeoutError:
                return silent
            except OSError as exc:  # refused, unreachable: libpq would try the next address too
                refused = exc
                continue
            try:
                sock.sendall(_SSL_REQUEST)
                sock.settimeout(max(0.001, deadline - time.monotonic()))
                sock.recv(1)
            except TimeoutError:
                return silent
            except OSError as exc:
                refused = exc
                continue
            return None  # a byte (S or N): a live server; end of stream: one that turned us away, libpq says why
        finally:
            sock.close()
    if refused is None:
        return None
    return f"postgresql: server unreachable ({refused.strerror or refused.__class__.__name__})"
