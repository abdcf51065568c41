"""Plugin discovery: entry points, the on-disk plugin index and hook dispatch.

Scanning entry points costs ~40 ms (``importlib.metadata``) and importing pluggy
~20 ms, too much for a command that runs before every shell call. So discovery
happens once and is written to a small JSON index (which plugins exist, which
commands each claims, which hooks it implements with their pluggy options); the
index is rebuilt when the installed distributions, a plugin's module or the specs
change. Building it registers every plugin into a real ``pluggy.PluginManager``
with the specs: a plugin pluggy rejects (an argument the spec does not have, an
unknown hook, a wrapper that is not a generator), one without ``commands``, or one
sqz's dispatch would call differently from pluggy is recorded with its ``error``
and never called.

A call then imports only the plugins that claim its program and calls their hook
functions as pluggy would: the same order (wrappers around the rest; ``tryfirst``,
last registered, ``trylast``), ``firstresult``, new-style ``wrapper=True`` and
old-style ``hookwrapper=True`` wrappers. Where sqz differs from pluggy it does so
to fail open: an implementation that raises, or answers something its spec does
not allow (a non-string, a "compressed" text longer than its input), is reported
once on stderr and skipped, so the next implementation answers instead.
"""

from __future__ import annotations

import json
import os
import sys
from types import FunctionType, MethodType

TYPE_CHECKING = False  # not typing's: importing typing would cost every hook call (type checkers know the name)
if TYPE_CHECKING:  # pragma: no cover - types only
    from typing import Any

GROUP = "sqz.formatters"
INTEGRATIONS_GROUP = "sqz.integrations"
STORES_GROUP = "sqz.stores"
INDEX_FORMAT = 4
BUILTIN = "sqz_core.builtin"
PROJECT = "sqz"
HOOKS = ("sqz_detect", "sqz_format", "sqz_classify_safety", "sqz_dedup")
FIRSTRESULT = frozenset(("sqz_detect", "sqz_format", "sqz_dedup"))  # as declared in hookspecs.py

_reported: set[str] = set()
_modules: dict[str, object] = {}
_builtin_rec: dict | None = None


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


def _argnames(func) -> tuple[list[str], list[str]]:
    """``(positional names without defaults, names with defaults)`` as pluggy reads them (``varnames``)."""
    bound = isinstance(func, MethodType)
    raw = func.__func__ if bound else func
    code = getattr(raw, "__code__", None)
    if code is None:
        return [], []
    args = list(code.co_varnames[: code.co_argcount])
    defaults = getattr(raw, "__defaults__", None) or ()
    kwargs = args[len(args) - len(defaults):] if defaults else []
    args = args[: len(args) - len(defaults)] if defaults else args
    tail = getattr(raw, "__qualname__", "").rsplit("<locals>.", 1)[-1]
    if args and (bound or ("." in tail and args[0] in ("self", "cls"))):
        args = args[1:]
    return args, kwargs


def describe_plugin(obj) -> dict:
    """Which hooks ``obj`` implements (pluggy options and argument names, per spec name) and what it claims.

    Found as pluggy finds them: every attribute of ``obj`` that is a function or bound
    method carrying the ``hookimpl`` marker, in ``dir()`` order, under its ``specname``
    when it has one. ``problem`` says why sqz will not call the plugin (None when it will).
    """
    from .markers import impl_options

    hooks: dict[str, list[dict]] = {}
    for name in dir(obj):
        try:
            func = getattr(obj, name)
        except Exception:
            continue
        if not isinstance(func, (FunctionType, MethodType)):
            continue
        opts = impl_options(func)
        if opts is None:
            continue
        args, kwargs = _argnames(func)
        hooks.setdefault(opts.get("specname") or name, []).append({
            "attr": name, "args": args, "kwargs": kwargs,
            "tryfirst": bool(opts.get("tryfirst")), "trylast": bool(opts.get("trylast")),
            "wrapper": bool(opts.get("wrapper")), "hookwrapper": bool(opts.get("hookwrapper")),
            "optional": bool(opts.get("optionalhook"))})
    problem = None
    commands = getattr(obj, "commands", None)
    if isinstance(commands, str):
        commands = (commands,)
    if commands is None:
        problem = ("declares no `commands` (the program names it claims, or ('*',) for every output): "
                   "it would never be called")
        commands = ()
    elif not isinstance(commands, (tuple, list)) or not all(isinstance(c, str) and c for c in commands):
        problem = f"`commands` must be a tuple of program names, not {commands!r}"
        commands = ()
    elif not commands:
        problem = "`commands` is empty: it would never be called"
    elif not hooks:
        problem = "implements no hook (no function marked with sqz_core.hookimpl)"
    return {"hooks": hooks, "commands": [str(c) for c in commands], "problem": problem}


def _one_line(exc: BaseException) -> str:
    text = "; ".join(line.strip() for line in str(exc).splitlines() if line.strip())
    return f"{type(exc).__name__}: {text}"


def _specs_file() -> str:
    """The spec module's file (watched: new specs can invalidate a plugin), found without importing pluggy."""
    return os.path.join(os.path.dirname(os.path.abspath(__file__)), "hookspecs.py")


def build_index(progress=None) -> dict:
    """Scan the ``sqz.formatters`` entry points, describe every plugin and validate it with pluggy.

    ``progress``: called with ``(done, total)`` as each entry point is imported (``sqz plugins``
    draws a bar with it on a terminal; the hot path passes nothing)."""
    from importlib.metadata import entry_points

    plugins = []
    objects: dict[str, object] = {}
    watch = {d: _mtime(d) for d in _site_dirs()}
    specs = _specs_file()
    watch[specs] = _mtime(specs)
    try:
        eps = list(entry_points(group=GROUP))
    except Exception as exc:  # a broken distribution's metadata must not break sqz
        _warn_once("scan", f"could not read entry points: {exc}")
        eps = []
    seen = set()
    for n, ep in enumerate(sorted(eps, key=lambda e: e.name)):
        if progress is not None:
            progress(n, len(eps))
        if ep.name in seen:
            _warn_once("dup:" + ep.name, f"plugin name {ep.name!r} is registered twice; using the first")
            continue
        seen.add(ep.name)
        module, attr = _split_value(ep.value)
        dist = getattr(ep, "dist", None)
        rec: dict[str, Any] = {"name": ep.name, "module": module, "attr": attr,
               "dist": dist.metadata["Name"] if dist is not None else None,
               "version": dist.version if dist is not None else None,
               "hooks": {}, "commands": [], "file": None, "error": None}
        try:
            obj = _resolve(module, attr)
            described = describe_plugin(obj)
            rec["error"] = described.pop("problem")
            rec.update(described)
            objects[ep.name] = obj
            mod = sys.modules.get(module)
            rec["file"] = getattr(mod, "__file__", None)
            if rec["file"]:
                watch[rec["file"]] = _mtime(rec["file"])
        except Exception as exc:
            rec["error"] = f"{type(exc).__name__}: {exc}"
        plugins.append(rec)
    if progress is not None:
        progress(len(eps), len(eps))
    # '*' plugins first, so that (pluggy being LIFO) plugins claiming a program answer before them
    plugins.sort(key=lambda r: (0 if "*" in r["commands"] else 1, r["name"]))
    _validate(plugins, objects)
    for rec in plugins:
        if rec["error"]:
            _warn_once("import:" + rec["name"], f"plugin {rec['name']!r} ({rec['module']}"
                       f"{':' + rec['attr'] if rec.get('attr') else ''}) is skipped: {rec['error']}")
    return {"format": INDEX_FORMAT, "prefix": sys.prefix, "watch": watch, "plugins": plugins,
            "integrations": _modules_by_name(INTEGRATIONS_GROUP), "stores": _modules_by_name(STORES_GROUP)}


def _validate(records: list[dict], objects: dict[str, object]) -> None:
    """Register every loadable plugin, in index order, into one ``pluggy.PluginManager`` with the specs.

    Sets ``error`` on a plugin pluggy refuses (``PluginValidationError``: an argument the
    spec does not have, a wrapper that is not a generator function…), on one implementing a
    hook no spec declares (what ``check_pending`` refuses, unless ``optionalhook``), and on
    one whose implementations sqz's dispatch would not call exactly as pluggy does.
    """
    try:
        import pluggy

        from . import builtin, hookspecs
    except Exception as exc:  # without pluggy nothing can be validated: say so, call nothing
        for rec in records:
            rec["error"] = rec["error"] or f"cannot be validated ({_one_line(exc)})"
        return
    pm = pluggy.PluginManager(PROJECT)
    pm.add_hookspecs(hookspecs)
    pm.register(builtin, name="builtin")
    for rec in records:
        if rec["error"] or rec["name"] not in objects:
            continue
        obj = objects[rec["name"]]
        try:
            pm.register(obj, name=rec["name"])
        except pluggy.PluginValidationError as exc:
            rec["error"] = _one_line(exc)
            continue
        except ValueError as exc:  # the same module registered under two names: called twice otherwise
            other = pm.get_name(obj)
            rec["error"] = (f"the same object as plugin {other!r} (one plugin, two entry points)" if other
                            else _one_line(exc).split("; ")[0])
            continue
        problem = _differs_from_pluggy(pm, obj, rec)
        if problem is not None:
            rec["error"] = problem
            pm.unregister(obj)


def _differs_from_pluggy(pm, obj, rec: dict) -> str | None:
    """Why sqz will not call ``obj`` (registered in ``pm``) as pluggy would; None when it will."""
    import difflib

    ours = rec["hooks"]
    for caller in pm.get_hookcallers(obj) or []:
        impls = [i for i in caller.get_hookimpls() if i.plugin is obj]
        if not caller.has_spec():
            if any(not i.optionalhook for i in impls):
                close = difflib.get_close_matches(caller.name, HOOKS, n=1)
                hint = f"; did you mean {close[0]!r}?" if close else ""
                return f"unknown hook {caller.name!r} (not in sqz_core.hookspecs: {', '.join(HOOKS)}){hint}"
            continue
        theirs = sorted((i.function.__name__, list(i.argnames), list(i.kwargnames), bool(i.tryfirst),
                         bool(i.trylast), bool(i.wrapper), bool(i.hookwrapper)) for i in impls)
        mine = sorted((getattr(getattr(obj, d["attr"]), "__name__", d["attr"]), d["args"], d["kwargs"],
                       d["tryfirst"], d["trylast"], d["wrapper"], d["hookwrapper"])
                      for d in ours.get(caller.name, []))
        if theirs != mine:
            return (f"sqz's dispatch would not call {caller.name!r} as pluggy does (pluggy: {theirs}, sqz: {mine}); "
                    "please report this")
    return None


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


def load_index(refresh: bool = False, progress=None) -> dict:
    """The plugin index: read from disk when still valid, otherwise rebuilt and saved (``progress``:
    see ``build_index``)."""
    if not refresh:
        try:
            with open(index_path(), encoding="utf-8") as fh:
                index = json.load(fh)
            if isinstance(index, dict) and _fresh(index):
                return index
        except (OSError, ValueError):
            pass
    index = build_index(progress) if progress is not None else build_index()
    write_index(index)
    return index


# -- selection ------------------------------------------------------------------------------
def _names_from_env(var: str) -> set[str] | None:
    from .config import env

    raw = env(var)
    return None if raw is None else {n.strip() for n in raw.split(",") if n.strip()}


def enabled(records: list[dict]) -> list[dict]:
    """Records allowed by ``SQZ_LOAD_PLUGINS`` (allow-list) and ``SQZ_DISABLE_PLUGINS`` (block-list)."""
    allow = _names_from_env("SQZ_LOAD_PLUGINS")
    block = _names_from_env("SQZ_DISABLE_PLUGINS") or set()
    return [r for r in records
            if not r.get("error") and r["name"] not in block and (allow is None or r["name"] in allow)]


def for_program(index: dict, program: str | None) -> list[dict]:
    """Enabled plugins that claim ``program`` or every output (``"*"``), in registration order."""
    return [rec for rec in enabled(index.get("plugins", []))
            if "*" in (cmds := rec.get("commands", ())) or (program is not None and program in cmds)]


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
    failures reported once again and plugins that failed to load tried again (a config file's too)."""
    _reported.clear()
    config = sys.modules.get("sqz_core.config")
    if config is not None:
        config.forget()
    tokens = sys.modules.get("sqz_core.tokens")
    if tokens is not None:
        tokens._recent.clear()  # the last call's texts are not kept past it
    for name in [n for n, m in _modules.items() if m is None]:
        del _modules[name]


# -- dispatch without pluggy ----------------------------------------------------------------
class Impl:
    """One hook implementation ready to call (what pluggy calls a ``HookImpl``)."""

    __slots__ = ("plugin", "func", "args", "kwargs", "tryfirst", "trylast", "wrapper", "hookwrapper", "wraps")

    def __init__(self, plugin: str, func, args, tryfirst: bool, trylast: bool, kwargs=(),
                 wrapper: bool = False, hookwrapper: bool = False) -> None:
        self.plugin, self.func, self.args, self.kwargs = plugin, func, tuple(args), tuple(kwargs)
        self.tryfirst, self.trylast = tryfirst, trylast
        self.wrapper, self.hookwrapper = wrapper, hookwrapper
        self.wraps = wrapper or hookwrapper  # either kind of wrapper

    def __call__(self, kwargs: dict):
        # as pluggy calls it: names without defaults positionally, names with defaults only when given
        args = [kwargs[a] for a in self.args]
        if self.kwargs:
            return self.func(*args, **{a: kwargs[a] for a in self.kwargs if a in kwargs})
        return self.func(*args)

    def __repr__(self) -> str:
        return f"<Impl {self.plugin}:{getattr(self.func, '__name__', '?')}>"


def builtin_record() -> dict:
    """The core's own hook implementations, described once per process (they are registered first)."""
    global _builtin_rec
    if _builtin_rec is None:
        from . import builtin

        rec = {"name": "builtin", "module": BUILTIN, "attr": None, "dist": "sqz-core", "error": None}
        described = describe_plugin(builtin)
        described.pop("problem")
        rec.update(described)
        _builtin_rec = rec
    return _builtin_rec


def implementations(hook: str, records: list[dict]) -> list[Impl]:
    """Implementations of ``hook`` in pluggy's call order.

    ``records`` are in registration order (the built-in first). Each one is inserted
    into the chain as pluggy's ``HookCaller`` inserts it (wrappers after the others,
    ``trylast`` at the start of its part, ``tryfirst`` at the end, the rest before the
    ``tryfirst`` ones), and the chain is called from its end.
    """
    chain: list[Impl] = []
    plain = 0  # the non-wrappers come first in the chain: chain[:plain]
    for rec in records:
        specs = rec.get("hooks", {}).get(hook) or []  # a list per hook (describe_plugin; INDEX_FORMAT 4)
        if not specs:
            continue
        lazy = rec["name"] not in _modules and not any(sp.get("wrapper") or sp.get("hookwrapper") for sp in specs)
        obj = None if lazy else load_plugin(rec) if rec["module"] != BUILTIN else (
            sys.modules.get(BUILTIN) or load_plugin(rec))
        if obj is None and not lazy:
            continue
        for spec in specs:
            # a plugin not imported yet is imported when the chain reaches it (a formatter that answers
            # first spares the import of the catch-alls after it); one that fails to load answers None
            func = _Deferred(rec, spec["attr"]) if lazy else getattr(obj, spec["attr"], None)
            if func is None:
                continue
            impl = Impl(rec["name"], func, spec["args"], spec["tryfirst"], spec["trylast"], spec.get("kwargs", ()),
                        spec.get("wrapper", False), spec.get("hookwrapper", False))
            start, end = (plain, len(chain)) if impl.wraps else (0, plain)
            plain += not impl.wraps
            if impl.trylast:
                chain.insert(start, impl)
            elif impl.tryfirst:
                chain.insert(end, impl)
            else:
                i = end - 1
                while i >= start and chain[i].tryfirst:
                    i -= 1
                chain.insert(i + 1, impl)
    chain.reverse()
    return _Chain(hook, chain)


class _Deferred:
    """A plugin's hook function, imported on its first call (None when the plugin fails to load: as
    pluggy leaves out a plugin that is not registered, a None answer is no answer)."""

    __slots__ = ("rec", "attr", "__name__")

    def __init__(self, rec: dict, attr: str) -> None:
        self.rec, self.attr, self.__name__ = rec, attr, attr

    def __call__(self, *args, **kwargs):
        obj = load_plugin(self.rec)
        func = None if obj is None else getattr(obj, self.attr, None)
        return None if func is None else func(*args, **kwargs)


class _Chain(list):
    """A hook's implementations in call order, knowing which hook they implement."""

    __slots__ = ("hook",)

    def __init__(self, hook: str, impls) -> None:
        super().__init__(impls)
        self.hook = hook


class Outcome:
    """What an old-style ``hookwrapper`` receives from its ``yield`` (the API of ``pluggy.Result``)."""

    __slots__ = ("_result", "_exception")

    def __init__(self, result) -> None:
        self._result = result
        self._exception: BaseException | None = None

    @property
    def exception(self):
        return self._exception

    @property
    def excinfo(self):
        exc = self._exception
        return None if exc is None else (type(exc), exc, exc.__traceback__)

    def get_result(self):
        if self._exception is not None:
            raise self._exception
        return self._result

    def force_result(self, result) -> None:
        self._result, self._exception = result, None

    def force_exception(self, exception: BaseException) -> None:
        self._result, self._exception = None, exception


# What each hook may answer besides None: a reason when ``result`` is not that, else None.
def _not_text(result, kwargs) -> str | None:
    return None if isinstance(result, str) else f"a {type(result).__name__}, not a str"


def _not_shorter_text(result, kwargs) -> str | None:
    if not isinstance(result, str):
        return f"a {type(result).__name__}, not a str"
    text = getattr(kwargs.get("request"), "text", None)
    if isinstance(text, str) and len(result) > len(text):
        return f"{len(result)} characters for an input of {len(text)}"
    return None


def _not_safety(result, kwargs) -> str | None:
    from .verdicts import Safety

    return None if isinstance(result, Safety) else f"a {type(result).__name__}, not a sqz_core.Safety"


_CHECKS: dict[str | None, Any] = {"sqz_format": _not_shorter_text, "sqz_detect": _not_text, "sqz_dedup": _not_text,
           "sqz_classify_safety": _not_safety}


def _ignored(impl: Impl, hook: str | None, what: str) -> None:
    _warn_once(f"bad:{impl.plugin}:{hook}", f"plugin {impl.plugin!r} {what} in {hook}; ignored")


def _check(hook: str | None, impl: Impl, result, kwargs: dict) -> bool:
    """Whether ``result`` (not None) is an answer ``hook`` allows; a bad one is reported once."""
    check = _CHECKS.get(hook)
    why = check(result, kwargs) if check is not None else None
    if why is not None:
        _ignored(impl, hook, f"returned {why}")
        return False
    return True


def _teardown(hook: str | None, impl: Impl, gen, plugin, result, firstresult: bool, kwargs: dict):
    """Resume one wrapper after the call with ``result``; ``(plugin, result)`` as it leaves them."""
    try:
        if impl.hookwrapper:
            outcome = Outcome(result)
            try:
                gen.send(outcome)
            except StopIteration:
                pass
            else:
                gen.close()
                _ignored(impl, hook, "has a second yield")
                return plugin, result
            if outcome.exception is not None:
                _ignored(impl, hook, f"forced {type(outcome.exception).__name__}: {outcome.exception}")
                return plugin, result
            new = outcome._result
        else:
            try:
                gen.send(result)
            except StopIteration as stop:
                new = stop.value
            else:
                gen.close()
                _ignored(impl, hook, "has a second yield")
                return plugin, result
    except Exception as exc:
        _ignored(impl, hook, f"raised {type(exc).__name__}: {exc} after its yield")
        return plugin, result
    if new is result:
        return plugin, result
    if firstresult:
        if new is not None and not _check(hook, impl, new, kwargs):
            return plugin, result
        return (impl.plugin if new is not None else None), new
    if not isinstance(new, list) or not all(r is not None and _check(hook, impl, r, kwargs) for r in new):
        if not isinstance(new, list):
            _ignored(impl, hook, f"returned a {type(new).__name__}, not a list of answers")
        return plugin, result
    return plugin, new


def _multicall(impls, kwargs: dict, firstresult: bool):
    """Call ``impls`` (in call order) as pluggy's ``_multicall`` does; ``(plugin, result)``.

    Wrappers run up to their ``yield``, then the other implementations until the first
    non-None answer (``firstresult``) or all of them; then the wrappers resume, innermost
    first, each seeing (and able to replace) the result so far. An implementation that
    raises or answers something its spec does not allow is reported once and skipped.
    Only ``Exception`` is a plugin's own error: anything else (``KeyboardInterrupt``,
    ``SystemExit``, a time budget abandoning the call) passes through, no wrapper resumed.
    """
    hook: str | None = getattr(impls, "hook", None)  # the hook caller's name (None: a bare list of impls)
    teardowns = []
    answers = []
    for impl in impls:
        try:
            res = impl(kwargs)
            if impl.wraps:
                next(res)
                teardowns.append((impl, res))
                continue
        except StopIteration:
            _ignored(impl, hook, "did not yield")
            continue
        except Exception as exc:
            _warn_once("raise:" + impl.plugin, f"plugin {impl.plugin!r} raised {type(exc).__name__}: {exc}; ignored")
            continue
        if res is None or not _check(hook, impl, res, kwargs):
            continue
        answers.append((impl.plugin, res))
        if firstresult:
            break
    if firstresult:
        plugin, result = answers[0] if answers else (None, None)
    else:
        plugin, result = None, [r for _, r in answers]
    for impl, gen in reversed(teardowns):
        plugin, result = _teardown(hook, impl, gen, plugin, result, firstresult, kwargs)
    return plugin, result


def call_first(impls: list[Impl], **kwargs):
    """``firstresult`` semantics: ``(plugin name, result)`` of the first non-None answer, else ``(None, None)``.

    ``plugin`` is the wrapper's when a wrapper replaced the answer.
    """
    return _multicall(impls, kwargs, True)


def call_all(impls: list[Impl], **kwargs) -> list:
    """Every non-None answer, in call order (as wrappers leave the list)."""
    return _multicall(impls, kwargs, False)[1]


# -- the real pluggy manager (off the hot path) ---------------------------------------------
def plugin_manager(index: dict | None = None, *, only_enabled: bool = True):
    """A ``pluggy.PluginManager`` with the specs and the same plugins, in the same order, as dispatch.

    Plugins the index holds an ``error`` for are left out (they were refused when the index
    was built); ``check_pending`` confirms that every other one matches the specs.
    """
    import pluggy

    from . import builtin, hookspecs

    index = index if index is not None else load_index()
    pm = pluggy.PluginManager(PROJECT)
    pm.add_hookspecs(hookspecs)
    pm.register(builtin, name="builtin")
    records = enabled(index["plugins"]) if only_enabled else [r for r in index["plugins"] if not r.get("error")]
    for rec in records:
        obj = load_plugin(rec)
        if obj is not None and pm.get_plugin(rec["name"]) is None:
            pm.register(obj, name=rec["name"])
    pm.check_pending()
    return pm
