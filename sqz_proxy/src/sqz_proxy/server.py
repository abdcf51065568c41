"""The HTTP side: accept the agent's request, rewrite its tool results, stream the answer back.

aiohttp serves and forwards. The request body is read whole (it has to be, to be rewritten; over
``max_body`` it is streamed upstream untouched); the response is relayed chunk by chunk as it
arrives, never buffered, never decompressed or re-encoded: the agent receives the upstream's
bytes. Headers pass through but for hop-by-hop ones; nothing of them is logged or stored.
Anything that goes wrong before the upstream answers is answered in the provider's error shape;
an upstream that breaks mid-stream breaks the agent's connection the same way.
"""

from __future__ import annotations

import asyncio
import os
import sys
import time
from concurrent.futures import ThreadPoolExecutor

from . import routes
from ._version import VERSION

HEALTH_PATH = "/_sqz/health"
DEFAULT_MAX_BODY = 64 * 1024 * 1024
# RFC 9110 §7.6.1 hop-by-hop headers, and what the client library recomputes for the new body
_HOP = frozenset({"connection", "keep-alive", "proxy-authenticate", "proxy-authorization", "proxy-connection", "te",
                  "trailer", "trailers", "transfer-encoding", "upgrade", "host", "content-length", "expect"})
_AGENTS = (("claude-cli", "claude-code"), ("claude-code", "claude-code"), ("codex", "codex"),
           ("geminicli", "gemini-cli"), ("gemini-cli", "gemini-cli"), ("copilot", "copilot-cli"),
           ("opencode", "opencode"), ("cursor", "cursor"), ("cline", "cline"))


def agent_of(headers, provider: str) -> str:
    """The agent framework named by the User-Agent (for per-agent stats), else the provider."""
    ua = (headers.get("user-agent") or "").lower().replace(" ", "")
    for needle, name in _AGENTS:
        if needle in ua:
            return name
    return f"{provider}-client"


def _env_int(name: str, default: int) -> int:
    try:
        from sqz_core.api import config_env  # the variable, else the config files (sqz config)

        return int(config_env(name) or default)
    except ValueError:
        return default


def ssl_context():
    """TLS to the real upstream: the system trust store plus certifi's bundle."""
    import ssl

    ctx = ssl.create_default_context()
    try:
        import certifi

        ctx.load_verify_locations(certifi.where())
    except (ImportError, OSError):
        pass
    return ctx


class Proxy:
    def __init__(self, upstreams: routes.Upstreams, *, rewriter=None, max_body: int | None = None,
                 quiet: bool = False, connect_timeout: float = 30.0, read_timeout: float | None = None):
        from .rewrite import Rewriter

        self.upstreams = upstreams
        self.rewriter = rewriter if rewriter is not None else Rewriter()
        self.max_body = max_body if max_body is not None else _env_int("SQZ_PROXY_MAX_BODY", DEFAULT_MAX_BODY)
        self.quiet = quiet
        self.connect_timeout = connect_timeout
        self.read_timeout = read_timeout if read_timeout is not None else _env_int("SQZ_PROXY_READ_TIMEOUT", 600)
        self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="sqz-proxy-rewrite")
        self._session = None
        self._runner = None
        self.port: int | None = None
        self.host: str | None = None
        self.started = time.time()

    # -- life cycle -------------------------------------------------------------------------------
    async def start(self, host: str = "127.0.0.1", port: int = 0) -> int:
        import aiohttp
        from aiohttp import web

        from sqz_core.api import config_env

        connector = aiohttp.TCPConnector(ssl=ssl_context(), limit=256)
        timeout = aiohttp.ClientTimeout(total=None, sock_connect=self.connect_timeout,
                                        sock_read=self.read_timeout or None)
        self._session = aiohttp.ClientSession(
            connector=connector, timeout=timeout, auto_decompress=False, cookie_jar=aiohttp.DummyCookieJar(),
            skip_auto_headers=("User-Agent", "Accept", "Accept-Encoding", "Content-Type"),
            trust_env=config_env("SQZ_PROXY_TRUST_ENV") == "1")
        server = web.Server(self.handle, auto_decompress=False, access_log=None)
        self._runner = web.ServerRunner(server, handle_signals=False)
        await self._runner.setup()
        site = web.TCPSite(self._runner, host, port, reuse_address=True)
        await site.start()
        sock = site._server.sockets[0]  # the bound port when 0 was asked
        self.host, self.port = host, sock.getsockname()[1]
        # warm the tokenizer off the first request's path
        asyncio.get_running_loop().run_in_executor(self._pool, self._warm)
        return self.port

    def _warm(self) -> None:
        try:
            self.rewriter.tokens("warm")
            _ = self.rewriter.store
        except Exception:
            pass

    async def close(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()
        if self._session is not None:
            await self._session.close()
        self._pool.submit(self.rewriter.close).result()
        self._pool.shutdown(wait=True)

    def log(self, message: str) -> None:
        if not self.quiet:
            try:
                sys.stderr.write(f"sqz proxy: {message}\n")
                sys.stderr.flush()
            except (OSError, ValueError):
                pass

    # -- one request ------------------------------------------------------------------------------
    async def handle(self, request):
        try:
            return await self._handle(request)
        except Exception as exc:  # never a traceback to the agent: an error in its provider's shape
            route = routes.resolve(request.path, request.headers)
            return self._error(route, 502, f"sqz proxy: internal error ({type(exc).__name__}); request not sent")

    async def _handle(self, request):
        from aiohttp import web

        raw_path = request.raw_path
        path, _, query = raw_path.partition("?")
        if path == HEALTH_PATH and request.method == "GET":
            doc = {"sqz_proxy": VERSION, "pid": os.getpid(), "port": self.port, "started": self.started,
                   "upstreams": {p: _no_userinfo(u) for p, u in self.upstreams.urls.items()}}
            return web.json_response(doc)
        route = routes.resolve(request.path, request.headers)
        try:
            body, rest = await self._read_body(request)
        except Exception as exc:  # the client went away or sent a broken body
            return self._error(route, 400, f"sqz proxy: could not read the request body ({type(exc).__name__})")
        note = ""
        data = body
        if rest is None and self._rewritable(request, route, body):
            from .rewrite import Stats

            stats = Stats()
            started = time.monotonic()
            data = await asyncio.get_running_loop().run_in_executor(
                self._pool, self._rewrite, route.fmt, body, agent_of(request.headers, route.provider), stats)
            note = (f" · {stats.results} results, {stats.new} new, {stats.changed} shortened, "
                    + (f"{stats.folded} answers folded, " if stats.folded else "") + f"{len(body)}→{len(data)} bytes in {1000 * (time.monotonic() - started):.0f} ms")
        elif rest is not None:
            data = self._stream_body(body, rest)
            note = " · body over the size limit, forwarded unchanged"
        headers = [(k, v) for k, v in request.headers.items() if k.lower() not in _HOP]
        url = self.upstreams.url(route, query)
        return await self._relay(request, route, url, headers, data, note)

    @staticmethod
    def _rewritable(request, route, body: bytes) -> bool:
        if route.fmt is None or request.method != "POST" or not body:
            return False
        encoding = request.headers.get("content-encoding", "identity").strip().lower()
        if encoding not in ("", "identity"):
            return False  # gzip/br/zstd bodies go upstream as they are
        ctype = request.headers.get("content-type", "application/json").lower()
        return "json" in ctype

    def _rewrite(self, fmt: str, body: bytes, agent: str, stats) -> bytes:
        """The body to send: rewritten, or ``body`` itself on any failure (never worse)."""
        try:
            return self.rewriter.rewrite_body(fmt, body, agent, stats)
        except ValueError:
            return body  # not JSON (or not UTF-8): the upstream answers it in its own words
        except Exception as exc:
            self.log(f"request forwarded unchanged after an internal error: {type(exc).__name__}: {exc}")
            return body

    async def _read_body(self, request) -> tuple[bytes, object]:
        """The whole body, or (what was read, the stream) when it is over ``max_body``."""
        chunks, size = [], 0
        while True:
            chunk = await request.content.readany()
            if not chunk:
                return b"".join(chunks), None
            chunks.append(chunk)
            size += len(chunk)
            if size > self.max_body:
                return b"".join(chunks), request.content

    @staticmethod
    async def _stream_body(head: bytes, rest):
        yield head
        while True:
            chunk = await rest.readany()
            if not chunk:
                return
            yield chunk

    def _error(self, route, status: int, message: str):
        from aiohttp import web

        body, ctype = routes.error_body(route.provider, status, message)
        self.log(f"{status} {message}")
        return web.Response(status=status, body=body, content_type=ctype)

    async def _relay(self, request, route, url: str, headers, data, note: str):
        import aiohttp
        from aiohttp import web
        from yarl import URL

        started = time.monotonic()
        if isinstance(data, bytes) and len(data) > 1024 * 1024:
            import io

            data = io.BytesIO(data)  # aiohttp sends a large body from a file-like without copying it again
        try:
            upstream = await self._session.request(request.method, URL(url, encoded=True), headers=headers,
                                                   data=data, allow_redirects=False)
        except asyncio.TimeoutError:
            return self._error(route, 504, f"sqz proxy: the upstream {_host(url)} did not answer in time")
        except (aiohttp.ClientError, OSError, ValueError) as exc:
            return self._error(route, 502, f"sqz proxy: the upstream {_host(url)} could not be reached "
                                           f"({type(exc).__name__})")
        try:
            resp = web.StreamResponse(status=upstream.status, reason=upstream.reason)
            for k, v in upstream.headers.items():
                if k.lower() not in _HOP or k.lower() == "content-length":
                    resp.headers.add(k, v)
            try:
                await resp.prepare(request)
            except (ConnectionError, RuntimeError):
                return resp
            while True:
                try:
                    chunk = await upstream.content.readany()
                except (aiohttp.ClientError, asyncio.TimeoutError, OSError) as exc:
                    self.log(f"{request.method} {route.path}: the upstream broke off mid-answer "
                             f"({type(exc).__name__}); the agent's connection is closed too")
                    _abort(request)
                    return resp
                if not chunk:
                    break
                try:
                    await resp.write(chunk)
                except (ConnectionError, RuntimeError):
                    self.log(f"{request.method} {route.path}: the agent disconnected mid-answer")
                    return resp
            try:
                await resp.write_eof()
            except (ConnectionError, RuntimeError):
                pass
            self.log(f"{request.method} {route.path} → {route.provider} {upstream.status} in "
                     f"{1000 * (time.monotonic() - started):.0f} ms{note}")
            return resp
        finally:
            upstream.release()


def _abort(request) -> None:
    transport = request.transport
    if transport is not None:
        transport.abort()


def _host(url: str) -> str:
    from urllib.parse import urlsplit

    parts = urlsplit(url)
    return parts.hostname + (f":{parts.port}" if parts.port else "") if parts.hostname else url


def _no_userinfo(url: str) -> str:
    from urllib.parse import urlsplit, urlunsplit

    parts = urlsplit(url)
    if "@" not in parts.netloc:
        return url
    return urlunsplit(parts._replace(netloc=parts.netloc.rsplit("@", 1)[1]))


async def serve(host: str, port: int, upstreams: routes.Upstreams, *, quiet: bool = False,
                ready=None, fold_answers: bool | None = None) -> None:
    """Run the proxy until cancelled (SIGINT/SIGTERM end it cleanly); ``fold_answers``: model-output
    folding on (None: ``SQZ_PROXY_FOLD``)."""
    import signal

    from .rewrite import Rewriter

    proxy = Proxy(upstreams, quiet=quiet, rewriter=Rewriter(fold_answers=fold_answers))
    bound = await proxy.start(host, port)
    proxy.log(f"listening on http://{host}:{bound} (anthropic → {_no_userinfo(upstreams.urls['anthropic'])}, "
              f"openai → {_no_userinfo(upstreams.urls['openai'])}, gemini → {_no_userinfo(upstreams.urls['gemini'])})")
    if ready is not None:
        ready(proxy)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        try:
            loop.add_signal_handler(sig, stop.set)
        except (NotImplementedError, RuntimeError):
            pass
    try:
        await stop.wait()
    finally:
        await proxy.close()
