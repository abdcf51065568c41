"""Plugin discovery: entry points, the on-disk plugin index and hook dispatch.

Scanning entry points costs ~40 ms (``importlib.metadata``) and importing pluggy
~20 ms, too much for a command that runs before every shell call. So discovery
happens once and is written to a small JSON index (which plugins exist, which
commands each claims, which hooks it implements with their pluggy options); the
index is rebuilt when the installed distributions or a plugin's module change.
A call then imports only the plugins that claim its program and calls their hook
functions in the order pluggy would. ``plugin_manager()`` builds the real pluggy
manager from the same index for validation, listing and tests.
"""

from __future__ import annotations

import json
import os
import sys

GROUP = "sqz.formatters"
INTEGRATIONS_GROUP = "sqz.integrations"
STORES_GROUP = "sqz.stores"
INDEX_FORMAT = 3
BUILTIN = "sqz_core.builtin"
HOOKS = ("sqz_detect", "sqz_format", "sqz_classify_safety", "sqz_dedup")

_reported: set[str] = set()
_modules: dict[str, object] = {}


def _warn_once(key: str, message: str) -> None:
    if key not in _reported:
        _reported.add(key)
        try:
            sys.stderr.write(f"sqz: {message}\n")
        except Exception:
            pass


# -- the index ------------------------------------------------------------------------
def index_path() -> str:
    from .paths import cache_dir

    import zlib

    # PYTHONPATH too: two checkouts sharing one venv (worktrees, a source tree on PYTHONPATH)
    # import different copies of the packs, and one's index must not answer for the other
    key = zlib.crc32((sys.prefix + "|" + sys.version + "|" + os.environ.get("PYTHONPATH", "")).encode())
    key &= 0xFFFFFFFF
    return os.path.join(cache_dir(), f"plugin-index-{key:08x}.json")


def _site_dirs() -> list[str]:
    out = []
    for entry in sys.path:
        if entry and os.path.isdir(entry):
            try:
                if any(n.endswith((".dist-info", ".egg-info")) for n in os.listdir(entry)):
                    out.append(os.path.abspath(entry))
            except OSError:
                pass
    return out


def _mtime(path: str) -> float | None:
    try:
        return os.stat(path).st_mtime
    except OSError:
        return None


def _split_value(value: str) -> tuple[str, str | None]:
    module, _, attr = value.partition(":")
    return module.strip(), (attr.strip() or None)


def _resolve(module_name: str, attr: str | None):
    import importlib

    obj = importlib.import_module(module_name)
    for part in (attr.split(".") if attr else []):
        obj = getattr(obj, part)
    return obj


def describe_plugin(obj) -> dict:
    """Which hooks ``obj`` implements (with pluggy options and argument names) and what it claims."""
    from .markers import impl_options

    hooks = {}
    for name in dir(obj):
        if not name.startswith("sqz_"):
            continue
        func = getattr(obj, name, None)
        opts = impl_options(func) if callable(func) else None
        if opts is None:
            continue
        spec = opts.get("specname") or name
        code = getattr(func, "__code__", None)
        args = list(code.co_varnames[: code.co_argcount]) if code else []
        if args and args[0] == "self":
            args = args[1:]
        hooks[spec] = {"attr": name, "args": args, "tryfirst": bool(opts.get("tryfirst")),
                       "trylast": bool(opts.get("trylast"))}
    commands = getattr(obj, "commands", ())
    if isinstance(commands, str):
        commands = (commands,)
    return {"hooks": hooks, "commands": [str(c) for c in commands]}


def build_index() -> dict:
    """Scan the ``sqz.formatters`` entry points and describe every plugin (imports each once)."""
    from importlib.metadata import entry_points

    plugins = []
    watch = {d: _mtime(d) for d in _site_dirs()}
    try:
        eps = list(entry_points(group=GROUP))
    except Exception as exc:  # a broken distribution's metadata must not break sqz
        _warn_once("scan", f"could not read entry points: {exc}")
        eps = []
    seen = set()
    for ep in sorted(eps, key=lambda e: e.name):
        if ep.name in seen:
            _warn_once("dup:" + ep.name, f"plugin name {ep.name!r} is registered twice; using the first")
            continue
        seen.add(ep.name)
        module, attr = _split_value(ep.value)
        dist = getattr(ep, "dist", None)
        rec = {"name": ep.name, "module": module, "attr": attr,
               "dist": dist.metadata["Name"] if dist is not None else None,
               "version": dist.version if dist is not None else None,
               "hooks": {}, "commands": [], "file": None, "error": None}
        try:
            obj = _resolve(module, attr)
            rec.update(describe_plugin(obj))
            mod = sys.modules.get(module)
            rec["file"] = getattr(mod, "__file__", None)
            if rec["file"]:
                watch[rec["file"]] = _mtime(rec["file"])
        except Exception as exc:
            rec["error"] = f"{type(exc).__name__}: {exc}"
            _warn_once("import:" + ep.name, f"plugin {ep.name!r} ({ep.value}) failed to load and is skipped: "
                       f"{rec['error']}")
        plugins.append(rec)
    # '*' plugins first, so that (pluggy being LIFO) plugins claiming a program answer before them
    plugins.sort(key=lambda r: (0 if "*" in r["commands"] else 1, r["name"]))
    return {"format": INDEX_FORMAT, "prefix": sys.prefix, "watch": watch, "plugins": plugins,
            "integrations": _modules_by_name(INTEGRATIONS_GROUP), "stores": _modules_by_name(STORES_GROUP)}


def _modules_by_name(group: str) -> dict[str, dict]:
    """``{entry name: {"module", "attr"}}`` of an entry-point group, without importing anything."""
    from importlib.metadata import entry_points

    found: dict[str, dict] = {}
    try:
        for ep in entry_points(group=group):
            module, attr = _split_value(ep.value)
            found.setdefault(ep.name, {"module": module, "attr": attr})
    except Exception as exc:  # a broken distribution's metadata must not break sqz
        _warn_once("scan:" + group, f"could not read {group} entry points: {exc}")
    return found


def integration_module(name: str):
    """The integration registered as ``name`` (``sqz.integrations``), via the index; None if unknown."""
    rec = load_index().get("integrations", {}).get(name)
    if rec is None:
        return None
    try:
        return _resolve(rec["module"], rec.get("attr"))
    except Exception as exc:
        _warn_once("int:" + name, f"integration {name!r} failed to load: {type(exc).__name__}: {exc}")
        return None


def _fresh(index: dict) -> bool:
    if index.get("format") != INDEX_FORMAT or index.get("prefix") != sys.prefix:
        return False
    for path, mtime in index.get("watch", {}).items():
        if _mtime(path) != mtime:
            return False
    return True


def write_index(index: dict) -> None:
    path = index_path()
    try:
        os.makedirs(os.path.dirname(path), exist_ok=True)
        tmp = f"{path}.{os.getpid()}.tmp"
        with open(tmp, "w", encoding="utf-8") as fh:
            json.dump(index, fh)
        os.replace(tmp, path)
    except OSError:
        pass  # an unwritable cache only costs a rescan next time


def load_index(refresh: bool = False) -> dict:
    """The plugin index: read from disk when still valid, otherwise rebuilt and saved."""
    if not refresh:
        try:
            with open(index_path(), encoding="utf-8") as fh:
                index = json.load(fh)
            if isinstance(index, dict) and _fresh(index):
                return index
        except (OSError, ValueError):
            pass
    index = build_index()
    write_index(index)
    return index


# -- selection ------------------------------------------------------------------------------
def _names_from_env(var: str) -> set[str] | None:
    raw = os.environ.get(var)
    if raw is None:
        return None
    return {n.strip() for n in raw.split(",") if n.strip()}


def enabled(records: list[dict]) -> list[dict]:
    """Records allowed by ``SQZ_LOAD_PLUGINS`` (allow-list) and ``SQZ_DISABLE_PLUGINS`` (block-list)."""
    allow = _names_from_env("SQZ_LOAD_PLUGINS")
    block = _names_from_env("SQZ_DISABLE_PLUGINS") or set()
    return [r for r in records
            if not r.get("error") and r["name"] not in block and (allow is None or r["name"] in allow)]


def for_program(index: dict, program: str | None) -> list[dict]:
    """Enabled plugins that claim ``program`` or every output (``"*"``), in registration order."""
    out = []
    for rec in enabled(index.get("plugins", [])):
        cmds = rec.get("commands", ())
        if "*" in cmds or (program is not None and program in cmds):
            out.append(rec)
    return out


def load_plugin(rec: dict):
    """Import a plugin from its index record; None (reported once) if it fails."""
    key = rec["name"]
    if key in _modules:
        return _modules[key]
    try:
        obj = _resolve(rec["module"], rec.get("attr"))
    except Exception as exc:
        _warn_once("import:" + key, f"plugin {key!r} failed to load and is skipped: {type(exc).__name__}: {exc}")
        obj = None
    _modules[key] = obj
    return obj


def begin_call() -> None:
    """For a long-lived host (the warm daemon): each call starts as in a new process, its load
    failures reported once again and plugins that failed to load tried again."""
    _reported.clear()
    for name in [n for n, m in _modules.items() if m is None]:
        del _modules[name]


# -- dispatch without pluggy ----------------------------------------------------------------
class Impl:
    """One hook implementation ready to call."""

    __slots__ = ("plugin", "func", "args", "tryfirst", "trylast")

    def __init__(self, plugin: str, func, args, tryfirst: bool, trylast: bool) -> None:
        self.plugin, self.func, self.args = plugin, func, tuple(args)
        self.tryfirst, self.trylast = tryfirst, trylast

    def __call__(self, kwargs: dict):
        return self.func(**{a: kwargs[a] for a in self.args if a in kwargs})


def builtin_record() -> dict:
    from . import builtin

    rec = {"name": "builtin", "module": BUILTIN, "attr": None, "dist": "sqz-core", "error": None}
    rec.update(describe_plugin(builtin))
    return rec


def implementations(hook: str, records: list[dict]) -> list[Impl]:
    """Implementations of ``hook`` in pluggy's call order.

    ``records`` are in registration order (the built-in first); pluggy calls the last
    registered first, with ``tryfirst`` implementations before and ``trylast`` after
    (those in registration order).
    """
    impls = []
    for rec in records:
        spec = rec.get("hooks", {}).get(hook)
        if spec is None:
            continue
        obj = load_plugin(rec) if rec["module"] != BUILTIN else sys.modules.get(BUILTIN) or load_plugin(rec)
        if obj is None:
            continue
        func = getattr(obj, spec["attr"], None)
        if func is None:
            continue
        impls.append(Impl(rec["name"], func, spec["args"], spec["tryfirst"], spec["trylast"]))
    # pluggy appends tryfirst and inserts trylast at the front, then calls from the end:
    # tryfirst and plain ones LIFO, trylast ones in registration order.
    rev = impls[::-1]
    return ([i for i in rev if i.tryfirst] + [i for i in rev if not i.tryfirst and not i.trylast]
            + [i for i in impls if i.trylast and not i.tryfirst])


def _answers(impls: list[Impl], kwargs: dict):
    """``(plugin, answer)`` for every non-None answer, in call order; a plugin that raises is reported
    once and treated as "not mine"."""
    for impl in impls:
        try:
            result = impl(kwargs)
        except Exception as exc:
            _warn_once("raise:" + impl.plugin, f"plugin {impl.plugin!r} raised {type(exc).__name__}: {exc}; ignored")
            continue
        if result is not None:
            yield impl.plugin, result


def call_first(impls: list[Impl], **kwargs):
    """``firstresult`` semantics: ``(plugin name, result)`` of the first non-None answer, else ``(None, None)``."""
    return next(_answers(impls, kwargs), (None, None))


def call_all(impls: list[Impl], **kwargs) -> list:
    """Every non-None answer, in call order."""
    return [result for _, result in _answers(impls, kwargs)]


# -- the real pluggy manager (off the hot path) ---------------------------------------------
def plugin_manager(index: dict | None = None, *, only_enabled: bool = True):
    """A ``pluggy.PluginManager`` with the specs and the same plugins, in the same order, as dispatch.

    Validates every plugin against the specs (``check_pending``): a hook that names
    an unknown spec or an argument the spec does not have is an error here.
    """
    import pluggy

    from . import builtin, hookspecs

    index = index if index is not None else load_index()
    pm = pluggy.PluginManager("sqz")
    pm.add_hookspecs(hookspecs)
    pm.register(builtin, name="builtin")
    records = enabled(index["plugins"]) if only_enabled else [r for r in index["plugins"] if not r.get("error")]
    for rec in records:
        obj = load_plugin(rec)
        if obj is not None and pm.get_plugin(rec["name"]) is None:
            pm.register(obj, name=rec["name"])
    pm.check_pending()
    return pm
