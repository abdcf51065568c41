"""Which provider a request is for, which wire format it carries, and where it goes upstream.

A path may name its provider with a prefix (``/anthropic/v1/messages``, ``/openai/v1/responses``,
``/gemini/v1beta/models/…``; the prefix is removed upstream), so one proxy can serve every agent;
without one the provider is read from the path (``/v1/messages``, ``…:generateContent``) and the
auth headers (``x-api-key`` / ``anthropic-version``: Anthropic, ``x-goog-api-key``: Gemini, else OpenAI).
"""

from __future__ import annotations

import json
import os
import re

from . import wire

PROVIDERS = ("anthropic", "openai", "gemini")
DEFAULT_UPSTREAMS = {
    "anthropic": "https://api.anthropic.com",
    "openai": "https://api.openai.com",
    "gemini": "https://generativelanguage.googleapis.com",
}
ENV = {"anthropic": "SQZ_PROXY_ANTHROPIC_URL", "openai": "SQZ_PROXY_OPENAI_URL", "gemini": "SQZ_PROXY_GEMINI_URL"}
_GEMINI_CALL = re.compile(r"/models/[^/:]+:(?:generateContent|streamGenerateContent)$")


class Route:
    __slots__ = ("provider", "fmt", "path")

    def __init__(self, provider: str, fmt: str | None, path: str):
        self.provider, self.fmt, self.path = provider, fmt, path

    def __repr__(self) -> str:
        return f"Route({self.provider!r}, {self.fmt!r}, {self.path!r})"


def _fmt(provider: str, path: str) -> str | None:
    if provider == "anthropic" and path.endswith("/v1/messages"):
        return wire.ANTHROPIC
    if provider == "openai" and path.endswith("/chat/completions"):
        return wire.OPENAI_CHAT
    if provider == "openai" and path.endswith("/responses"):
        return wire.OPENAI_RESPONSES
    if provider == "gemini" and _GEMINI_CALL.search(path):
        return wire.GEMINI
    return None


def resolve(path: str, headers) -> Route:
    """The route of a request path (without its query string)."""
    for provider in PROVIDERS:
        prefix = f"/{provider}"
        if path == prefix or path.startswith(prefix + "/"):
            rest = path[len(prefix):] or "/"
            return Route(provider, _fmt(provider, rest), rest)
    if path.endswith("/v1/messages") or path.startswith("/v1/messages/") or "anthropic-version" in headers:
        provider = "anthropic"
    elif _GEMINI_CALL.search(path) or path.startswith(("/v1beta/", "/v1alpha/")) or "x-goog-api-key" in headers:
        provider = "gemini"
    elif "x-api-key" in headers:
        provider = "anthropic"
    else:
        provider = "openai"
    return Route(provider, _fmt(provider, path), path)


class Upstreams:
    """Per-provider upstream base URLs: ``--upstream`` for all, else ``SQZ_PROXY_<P>_URL``, else the real API."""

    def __init__(self, single: str | None = None, per_provider: dict | None = None, env=None):
        if env is None:  # the variables, else the config files (sqz config)
            from sqz_core.api import config_env

            get = config_env
        else:
            get = env.get
        self.urls = {}
        for p in PROVIDERS:
            url = single or (per_provider or {}).get(p) or get(ENV[p]) or DEFAULT_UPSTREAMS[p]
            self.urls[p] = url.rstrip("/")

    def url(self, route: Route, query: str) -> str:
        base = self.urls[route.provider]
        # a base that already ends in the path's first segment (``…/v1`` + ``/v1/chat``) is not doubled
        path = route.path
        for seg in ("/v1", "/v1beta"):
            if base.endswith(seg) and path.startswith(seg + "/"):
                path = path[len(seg):]
                break
        return base + path + (f"?{query}" if query else "")


def error_body(provider: str, status: int, message: str) -> tuple[bytes, str]:
    """An error in the provider's own shape (what its SDKs parse), as JSON bytes and content type."""
    if provider == "anthropic":
        kind = {400: "invalid_request_error", 413: "request_too_large", 529: "overloaded_error"}.get(status,
                                                                                                   "api_error")
        doc = {"type": "error", "error": {"type": kind, "message": message}}
    elif provider == "gemini":
        state = {400: "INVALID_ARGUMENT", 413: "INVALID_ARGUMENT", 504: "DEADLINE_EXCEEDED"}.get(status, "UNAVAILABLE")
        doc = {"error": {"code": status, "message": message, "status": state}}
    else:
        doc = {"error": {"message": message, "type": "server_error" if status >= 500 else "invalid_request_error",
                         "param": None, "code": None}}
    return json.dumps(doc).encode("utf-8"), "application/json"
