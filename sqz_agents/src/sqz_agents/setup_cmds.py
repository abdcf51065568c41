"""``sqz init``, ``sqz uninstall`` and ``sqz doctor``: configure agents through their integrations.

Each installed integration (entry-point group ``sqz.integrations``) describes what it
needs as a list of *actions* (``actions(ctx)``): an element in a JSON array, a member
of a JSON object, a TOML table, a sentinel-marked Markdown block, or a whole file of
our own. This module applies them with ``sqz_agents.configfiles`` — one backup per file
changed, the inserted text recorded in a manifest — so that a second ``init`` changes
nothing and ``uninstall`` removes exactly those insertions and gives back the original
bytes. A config file that is invalid before we touch it is left alone, with a message.

What an older sqz wrote (a hook naming another sqz path, an entry of an older shape, a file of
sqz's own with other content, something this sqz no longer installs) is *stale*: ``init`` takes
it out (the recorded snippets first, so the user's bytes come back) and configures the file
afresh, so there is one current entry and ``uninstall`` still restores the user's original;
``doctor`` reports it. Entries that are not sqz's are never touched.

Off the hot path: may import ``importlib.metadata``, ``difflib``, ``shutil``.
"""

from __future__ import annotations

import json
import os
import shlex
import shutil
import sys
import time

GUIDANCE_TEMPLATE = """\
## sqz: compressed tool output

Long shell output costs context. When a command may print a lot (tests, builds, logs,
`git log`, package installs), run it through sqz, which keeps every error, failure,
file:line and count, drops the noise, and exits with the command's own status:

    {sqz} run -- <program> <args…>

For shell syntax (pipes, `&&`, redirections) wrap it in a shell:
`{sqz} run -- sh -c '<command line>'`. Do not use it for interactive or long-running
commands (servers, watchers, editors, prompts): their output comes only when they end.

The `sqz` MCP tools, when available, read, search and list files with the same
compression and deduplication (they do not run commands). A shortened output ends with a
line `[{sqz} expand ID]`: run that command to see the output in full. A repeated output may
come back as a reference `§ref:HASH§`: run `{sqz} expand HASH` (or the `expand` MCP tool) to
see it in full. Escape hatches: `SQZ_NO_DEDUP=1` or `--no-cache` turn references off; `--mode safe`
sends output unchanged (`{sqz} run --mode safe -- <program> <args…>`).
"""


def guidance(sqz: str = "sqz") -> str:
    """The advisory text for agents without a hook, naming ``sqz`` as the shell words ``sqz`` (runnable there)."""
    return GUIDANCE_TEMPLATE.format(sqz=sqz)


GUIDANCE = guidance()

FILE_SKELETONS = ("", "{}\n", "{\n}\n")


# -- discovery ------------------------------------------------------------------------------
def discover_integrations() -> dict[str, object]:
    """Installed integrations by entry name (modules that failed to load are skipped with a note)."""
    from importlib.metadata import entry_points

    from .integrations import GROUP

    found = {}
    for ep in sorted(entry_points(group=GROUP), key=lambda e: e.name):
        try:
            found[ep.name] = ep.load()
        except Exception as exc:
            sys.stderr.write(f"sqz: integration {ep.name!r} failed to load: {type(exc).__name__}: {exc}\n")
    return found


def select(found: dict, only: list[str] | None, skip: list[str] | None) -> dict:
    out = {}
    for name, mod in found.items():
        if only and name not in only:
            continue
        if skip and name in skip:
            continue
        out[name] = mod
    return out


def sqz_words() -> str:
    """Shell words running this sqz with an absolute path (agents may run hooks with a minimal PATH)."""
    env = os.environ.get("SQZ_BIN")
    if env:
        return shlex.quote(env)
    candidates = []
    if sys.argv and os.path.basename(sys.argv[0]).startswith("sqz"):
        candidates.append(sys.argv[0])
    candidates.append(os.path.join(os.path.dirname(sys.executable), "sqz"))
    which = shutil.which("sqz")
    if which:
        candidates.append(which)
    for c in candidates:
        if c and os.path.isfile(c) and os.access(c, os.X_OK):
            return shlex.quote(os.path.abspath(c))
    return shlex.quote(sys.executable) + " -m sqz_core"


def sqz_mcp_path() -> str:
    """Absolute path of the ``sqz-mcp`` server command (next to sqz), else the bare name."""
    env = os.environ.get("SQZ_MCP_BIN")
    if env:
        return env
    for c in (os.path.join(os.path.dirname(sys.executable), "sqz-mcp"), shutil.which("sqz-mcp")):
        if c and os.path.isfile(c):
            return os.path.abspath(c)
    return "sqz-mcp"


def make_ctx(home: str | None = None, project: str | None = None, scope: str = "global") -> dict:
    """What integrations' ``actions`` get. How sqz is named depends on the scope:

    user-scope files stay on this machine and name sqz and sqz-mcp by absolute path (agents may
    run hooks with a minimal PATH); project-scope files get committed and shared, so they name
    them ``sqz`` and ``sqz-mcp``, to be found on PATH (``run_init`` says when that needs a step).
    A missing sqz never blocks an agent: every hook fails open.
    """
    home = home or os.path.expanduser("~")
    sqz_abs, mcp_abs = sqz_words(), sqz_mcp_path()
    sqz, sqz_mcp = ("sqz", "sqz-mcp") if scope == "project" else (sqz_abs, mcp_abs)
    return {"home": home, "project": project or os.getcwd(), "scope": scope, "sqz": sqz,
            "sqz_mcp": sqz_mcp, "guidance": guidance(sqz), "sqz_abs": sqz_abs, "sqz_mcp_abs": mcp_abs}


def shared_file(file: str, ctx: dict) -> bool:
    """Whether ``file`` is a project file (``--project`` scope, below the project): committed, shared."""
    if ctx.get("scope") != "project":
        return False
    root = os.path.realpath(ctx["project"])
    return os.path.realpath(file).startswith(root.rstrip(os.sep) + os.sep)


def _for_file(file: str, ctx: dict) -> tuple[str, str]:
    """(sqz words, sqz-mcp command) for ``file``: bare names in project files, absolute paths elsewhere."""
    if shared_file(file, ctx) or "sqz_abs" not in ctx:
        return ctx["sqz"], ctx["sqz_mcp"]
    return ctx["sqz_abs"], ctx["sqz_mcp_abs"]


def path_step() -> str | None:
    """The PATH step project-scope files need on this machine, or None when ``sqz`` on PATH is this sqz."""
    from sqz_core.api import entry_script, on_path

    script = entry_script()
    found = on_path()
    if script is None:
        return None  # no sqz script to point at (python -m sqz_core from a source tree)
    try:
        if found is not None and os.path.samefile(found, script):
            return None
    except OSError:
        pass
    folder = os.path.dirname(script)
    return (f"project files name `sqz` and `sqz-mcp` without a path, and `sqz` on PATH is "
            f"{'missing' if found is None else found}: put {folder} first on PATH for your agents "
            f"(export PATH={shlex.quote(folder)}:\"$PATH\" in your shell profile); until then the hooks fail open "
            "(commands run uncompressed) and the MCP server does not start")


def project_root_args(ctx: dict) -> list[str]:
    """``sqz-mcp`` arguments naming the project, for clients that start servers in ``/`` or ``$HOME``."""
    return ["--project", os.path.realpath(ctx["project"])]


# -- building blocks for integrations (their ``detect`` and ``actions``; import lazily, off the hook path) --
def detect_agent(folder: str, *commands: str) -> dict:
    """``detect()``'s answer: present if one of ``commands`` is on PATH (the first found) or ``folder`` exists."""
    on_path = next((found for found in map(shutil.which, commands) if found), None)
    return {"detected": bool(on_path) or os.path.isdir(folder), "command": on_path,
            "config_dir": folder if os.path.isdir(folder) else None}


def mcp_server_action(file: str, ctx: dict, container: str = "mcpServers", args: list[str] | None = None,
                      **extra) -> dict:
    """The ``sqz`` member (``sqz-mcp`` with ``args``, then ``extra`` fields) of the ``container`` object of a JSON file."""
    return {"type": "json_member", "file": file, "path": [container], "key": "sqz",
            "value": {"command": _for_file(file, ctx)[1], "args": list(args or []), **extra},
            "what": f"{container}.sqz"}


def guidance_file_action(file: str, ctx: dict, header: str = "", what: str = "rule file") -> dict:
    """A file of our own holding ``header`` (the agent's front matter, if any) and the guidance."""
    return {"type": "owned_file", "file": file, "content": header + guidance(_for_file(file, ctx)[0]), "what": what}


def guidance_block_action(file: str, ctx: dict) -> dict:
    """The guidance as a sentinel-marked block in a Markdown file the user owns."""
    return {"type": "md_block", "file": file, "body": guidance(_for_file(file, ctx)[0]), "what": "sqz guidance block"}


# -- manifest and backups ---------------------------------------------------------------------------
def data_dir() -> str:
    from sqz_core.api import db_path

    return os.path.dirname(os.path.abspath(db_path()))


def manifest_path() -> str:
    return os.path.join(data_dir(), "integrations-manifest.json")


def load_manifest() -> dict:
    try:
        with open(manifest_path(), encoding="utf-8") as fh:
            m = json.load(fh)
        if isinstance(m, dict) and isinstance(m.get("files"), dict):
            return m
    except (OSError, ValueError):
        pass
    return {"version": 1, "files": {}}


def save_manifest(m: dict) -> None:
    from .configfiles import write_text

    m["files"] = {k: v for k, v in m["files"].items() if v.get("snippets") or v.get("owned")}
    write_text(manifest_path(), json.dumps(m, indent=2, ensure_ascii=False) + "\n")


# -- applying actions -------------------------------------------------------------------------------
def _apply_one(text: str | None, action: dict) -> tuple[str | None, str | None]:
    """(new text, snippet) for one action on ``text`` (None: file absent)."""
    from . import configfiles as cf

    kind = action["type"]
    if kind == "owned_file":
        content = action["content"]
        if text is None:
            return content, content
        if text == content:
            return text, None
        raise cf.ConfigError("a file with other content already exists there")
    if kind in REMOVALS:  # what an older sqz wrote and this one does not: ``_strip`` removes it
        return text, None
    base = text or ""
    if kind == "json_array_item":
        return cf.json_add_array_item(base, action["path"], action["item"], action["marker"])
    if kind == "json_member":
        return cf.json_set_member(base, action["path"], action["key"], action["value"])
    if kind == "toml_table":
        return cf.toml_add_table(base, action["table"], action["body"])
    if kind == "md_block":
        return cf.md_set_block(base, action["body"])
    raise cf.ConfigError(f"unknown action {kind!r}")


# -- upgrading what an older sqz wrote ----------------------------------------------------------------
# Action types that only take away: ``json_array_remove`` (array elements an older sqz wrote, by
# ``marker``), ``md_block_remove`` (an older sqz's sentinel block in a file the user owns).
REMOVALS = ("json_array_remove", "md_block_remove")
# sqz started as a program: a path or name ending in ``sqz`` (quoted or not), or ``python -m sqz_core``
SQZ_CALL = r"""(?:(?<![\w.-])sqz(?:\.exe)?['"]?|-m\s+sqz_core['"]?)\s+"""
# what marks a whole file as sqz's: its header line, the guidance heading, an sqz hook command, or a
# YAML server block whose command is sqz-mcp (Continue)
SQZ_FILE_MARKS = ("Generated by `sqz init`", "## sqz: compressed tool output")
SQZ_MCP_LINE = r"""(?m)^[ \t]*command:[ \t]*["']?[^\n"']*\bsqz-mcp["']?[ \t]*$"""


def with_recognisers(actions: list[dict], ctx: dict) -> list[dict]:
    """``actions`` with a ``stale`` pattern on each marked array action: an sqz command with any path.

    A marker is the current sqz words plus a verb (``/p/sqz hook precompact``); an older sqz wrote
    the same verb after another path (``'/old/bin/sqz' hook precompact``, ``sqz hook …`` in a
    project file): the pattern finds both. A removal's marker is the verb alone.
    """
    import re

    words = [w for w in (ctx.get("sqz"), ctx.get("sqz_abs"), "sqz") if w]
    for a in actions:
        marker = a.get("marker")
        if not marker or "stale" in a or a["type"] not in ("json_array_item", "json_array_remove"):
            continue
        verb = next((marker[len(w):].strip() for w in words if marker.startswith(w + " ")), marker)
        a["stale"] = SQZ_CALL + re.escape(verb) + r"(?![\w-])"
    return actions


def _sqz_strings(value, pattern: str) -> bool:
    import re

    if isinstance(value, str):
        return re.search(pattern, value) is not None
    if isinstance(value, dict):
        return any(_sqz_strings(v, pattern) for v in value.values())
    if isinstance(value, list):
        return any(_sqz_strings(v, pattern) for v in value)
    return False


def _ours(action: dict):
    """Predicate: an array element an sqz (this one or an older one) wrote for ``action``."""
    from .configfiles import contains_text

    def pred(value) -> bool:
        if action["type"] == "json_array_item" and contains_text(value, action["marker"]):
            return True
        return bool(action.get("stale")) and _sqz_strings(value, action["stale"])
    return pred


def _sqz_server(value) -> bool:
    """An MCP server entry naming sqz's server (``sqz-mcp`` at any path, or ``python -m sqz_mcp``)."""
    cmd = value.get("command") if isinstance(value, dict) else None
    if not isinstance(cmd, str):
        return False
    return os.path.basename(cmd.strip("'\"")) == "sqz-mcp" or "-m sqz_mcp" in cmd


def _sqz_file(text: str) -> bool:
    """Whether a file's content carries sqz's mark (an sqz command, the guidance, the server name)."""
    return (any(m in text for m in SQZ_FILE_MARKS) or _sqz_strings(text, SQZ_CALL + r"(?:hook|expand)\b")
            or _sqz_strings(text, SQZ_MCP_LINE))


def stale_reason(text: str | None, action: dict, owned: bool = False) -> str | None:
    """Why ``text`` holds an older sqz's version of what ``action`` writes; None when current, absent or not sqz's.

    ``owned``: the install manifest records the file as sqz's own. Raises ``ConfigError`` for an invalid file.
    """
    from . import configfiles as cf

    if text is None:
        return None
    kind = action["type"]
    if kind == "owned_file":
        if text != action["content"] and (owned or _sqz_file(text)):
            return "a file an older sqz wrote"
        return None
    if kind in ("json_array_item", "json_array_remove"):
        if not text.strip():
            return None
        node, depth = cf.json_find(cf.parse_jsonc(text), action["path"])
        if depth != len(action["path"]) or node.kind != "array":
            return None
        mine = [cf.to_python(el) for el in node.items if _ours(action)(cf.to_python(el))]
        if kind == "json_array_remove":
            return "an entry this sqz no longer installs" if mine else None
        if len(mine) > 1:
            return "sqz's entry twice"
        if mine and mine[0] != action["item"]:
            return "an entry of an older shape or another sqz path"
        return None
    if kind == "json_member":
        if not text.strip():
            return None
        node, depth = cf.json_find(cf.parse_jsonc(text), action["path"])
        member = node.get(action["key"]) if depth == len(action["path"]) and node.kind == "object" else None
        value = None if member is None else cf.to_python(member)
        if value is not None and value != action["value"] and _sqz_server(value):
            return "a server entry of an older shape or another sqz path"
        return None
    if kind == "toml_table":
        value = cf.toml_table(text, action["table"])
        if value is not None and value != action["body"] and _sqz_server(value):
            return "a server table of an older shape or another sqz path"
        return None
    if kind in ("md_block", "md_block_remove"):
        m = cf._BLOCK.search(text)
        if m is None:
            return None
        if kind == "md_block_remove":
            return "a guidance block this sqz no longer installs"
        return None if cf.md_block(action["body"]).rstrip("\n") in m.group(0) else "an older guidance block"
    return None


def _strip(text: str, actions: list[dict], recorded: list[dict]) -> str | None:
    """``text`` without what any sqz wrote for ``actions``: first the snippets the manifest
    ``recorded`` (byte-exact: the user's own text comes back), then whatever is still recognisable
    as sqz's (written without a manifest, or edited since). None: an owned file, to be written anew.
    """
    from . import configfiles as cf

    for s in reversed(recorded):
        text = cf.remove_snippet(text, s["snippet"])[0]
    for a in actions:
        kind = a["type"]
        if kind == "owned_file":
            return None
        if kind in ("json_array_item", "json_array_remove") and text.strip():
            text = cf.json_remove_where(text, a["path"], _ours(a))[0]
        elif kind == "json_member" and text.strip():
            node, depth = cf.json_find(cf.parse_jsonc(text), a["path"])
            member = node.get(a["key"]) if depth == len(a["path"]) and node.kind == "object" else None
            if member is not None and _sqz_server(cf.to_python(member)):
                text = cf.json_remove_member(text, a["path"], a["key"])[0]
        elif kind == "toml_table":
            if _sqz_server(cf.toml_table(text, a["table"])):
                text = cf.toml_remove_table(text, a["table"])[0]
        elif kind in ("md_block", "md_block_remove"):
            text = cf.md_remove_block(text)[0]
    return text


def plan_files(actions: list[dict]) -> dict[str, list[dict]]:
    by_file: dict[str, list[dict]] = {}
    for a in actions:
        by_file.setdefault(os.path.abspath(a["file"]), []).append(a)
    return by_file


def simulate(actions: list[dict], manifest: dict | None = None, agent: str | None = None) -> list[dict]:
    """What applying ``actions`` would do, per file, without writing: changes, errors, new text.

    A file holding what an older sqz wrote (``stale``: the reasons) is first stripped of it
    (``_strip``, using ``agent``'s snippets recorded in ``manifest``), then configured afresh:
    the result is what a fresh install makes of the user's own content.
    """
    from .configfiles import ConfigError, read_text

    files = (manifest or {}).get("files", {})
    out = []
    for path, acts in plan_files(actions).items():
        rec = {"file": path, "before": None, "after": None, "snippets": [], "error": None, "actions": acts,
               "stale": []}
        entry = files.get(path, {})
        try:
            text = read_text(path)
            rec["before"] = text
            owned = agent is not None and entry.get("owned") == agent
            rec["stale"] = [f"{a.get('what', a['type'])}: {why}" for a in acts
                            if (why := stale_reason(text, a, owned))]
            cur = text
            if rec["stale"]:
                cur = _strip(text, acts, [s for s in entry.get("snippets", []) if s.get("agent") == agent])
            for a in acts:
                new, snippet = _apply_one(cur, a)
                if snippet is not None:
                    rec["snippets"].append({"kind": a["type"], "snippet": snippet, "path": a.get("path"),
                                            "marker": a.get("marker"), "what": a.get("what", a["type"])})
                cur = new
            rec["after"] = cur
        except (ConfigError, OSError) as exc:
            rec["error"] = str(exc)
        out.append(rec)
    return out


def _created_dirs(path: str) -> list[str]:
    dirs, d = [], os.path.dirname(path)
    while d and not os.path.exists(d):
        dirs.append(d)
        parent = os.path.dirname(d)
        if parent == d:
            break
        d = parent
    return dirs


# What `sqz init` / `sqz doctor` say when no integration distribution is installed at all.
NOTHING_INSTALLED = ("no agent integration is installed, so there is nothing to configure: install the one "
                     "for your agent (e.g. pip install sqz-integration-claude-code), or every one with "
                     "pip install sqz-all")


def run_init(names: dict, ctx: dict, dry_run: bool = False, echo=print, results: list | None = None) -> int:
    """Configure every integration in ``names``; returns the exit status (0 ok, 1 some file left alone).

    ``results``, when given, receives one record per integration (for ``sqz init --json``): agent,
    detected, tier, outcome (skipped, changed, already configured, error), changes, problems.
    """
    import difflib

    manifest = load_manifest()
    stamp = time.strftime("%Y%m%d-%H%M%S")
    backup_dir = os.path.join(data_dir(), "backups", stamp)
    status = 0
    skipped = []
    records = results if results is not None else []
    for agent, mod in names.items():
        det = _safe_detect(mod, ctx["home"])
        out = {"agent": agent, "detected": bool(det.get("detected")), "tier": getattr(mod, "tier", None),
               "outcome": "skipped", "changes": [], "problems": []}
        records.append(out)
        if not det.get("detected") and not ctx.get("force"):
            echo(f"{agent}: not detected, skipped (use --only {agent} to configure it anyway)")
            skipped.append(agent)
            continue
        try:
            acts = with_recognisers(mod.actions(ctx) + _proxy_actions(agent, ctx, echo), ctx)
        except Exception as exc:
            echo(f"{agent}: cannot plan its configuration ({type(exc).__name__}: {exc})")
            out["outcome"] = "error"
            out["problems"].append(f"cannot plan its configuration ({type(exc).__name__}: {exc})")
            status = 1
            continue
        changed = False
        for rec in simulate(acts, manifest, agent):
            if rec["error"]:
                echo(f"{agent}: {rec['file']}: left alone: {rec['error']}")
                out["outcome"] = "error"
                out["problems"].append(f"{rec['file']}: left alone: {rec['error']}")
                status = 1
                continue
            if not rec["snippets"] and not rec["stale"]:
                continue
            changed = True
            what = ", ".join(s["what"] for s in rec["snippets"]) or "removed what an older sqz wrote"
            verb = "upgraded" if rec["stale"] else "updated"
            if rec["stale"]:
                what += " (replacing what an older sqz wrote there: " + "; ".join(rec["stale"]) + ")"
            if out["outcome"] != "error":
                out["outcome"] = "changed"
            change = {"file": rec["file"], "what": what, "new_file": rec["before"] is None}
            out["changes"].append(change)
            if dry_run:
                echo(f"{agent}: would change {rec['file']}: {what}")
                diff = list(difflib.unified_diff((rec["before"] or "").splitlines(True), rec["after"].splitlines(True),
                                                 rec["file"], rec["file"] + " (after sqz init)"))
                change["diff"] = "".join(diff)
                for line in diff:
                    echo(line.rstrip("\n"))
                continue
            from .configfiles import backup, write_text

            saved = backup(rec["file"], backup_dir)
            entry = manifest["files"].setdefault(rec["file"], {"created": rec["before"] is None, "snippets": [],
                                                               "created_dirs": []})
            if rec["before"] is None:
                entry["created"] = True
                entry["created_dirs"] = _created_dirs(rec["file"])
            if rec["stale"]:  # the older sqz's snippets went with ``_strip``; the new ones replace them
                entry["snippets"] = [s for s in entry.get("snippets", []) if s.get("agent") != agent]
                if entry.get("owned") == agent:
                    entry.pop("owned")
            if (rec["stale"] and entry.get("created") and not entry["snippets"] and not rec["snippets"]
                    and rec["after"] in FILE_SKELETONS):
                os.remove(rec["file"])  # an older sqz had created it for what this one no longer writes
                _rmdirs(entry.get("created_dirs", []))
                save_manifest(manifest)
                echo(f"{agent}: removed {rec['file']} (an older sqz had created it for its {'; '.join(rec['stale'])}; "
                     f"backup: {saved})")
                change.update(removed=True, backup=saved)
                continue
            write_text(rec["file"], rec["after"])
            for s in rec["snippets"]:
                if s["kind"] == "owned_file":
                    entry["owned"] = agent
                else:
                    entry["snippets"].append(dict(s, agent=agent))
            save_manifest(manifest)
            echo(f"{agent}: {verb} {rec['file']}: {what}" + (f" (backup: {saved})" if saved else " (new file)"))
            change["backup"] = saved
        if not changed and status == 0:
            echo(f"{agent}: already configured")
        if not changed and out["outcome"] == "skipped":
            out["outcome"] = "already configured"
    if names and len(skipped) == len(names):
        echo("sqz init: no agent detected on this machine, nothing changed (looked for: "
             f"{', '.join(skipped)}); install one of them, or configure one anyway: sqz init --only NAME")
    if ctx.get("scope") == "project" and not dry_run:
        step = path_step()
        if step:
            echo(f"note: {step}")
    if ctx.get("scope") != "project" and len(skipped) < len(names):
        path_link(ctx, manifest, dry_run, echo, said_why=any(r["outcome"] == "changed" for r in records))
    return status


def path_link(ctx: dict, manifest: dict, dry_run: bool, echo, said_why: bool = True) -> None:
    """A link to this sqz in ``~/.local/bin`` or ``~/bin`` when PATH names one and no sqz is on PATH,
    so recovery hints say a bare ``sqz expand ID`` (11 cl100k tokens, not 20+ with a venv path;
    ``sqz_core.api.link_plan`` decides). PATH and shell profiles are never edited: without such a
    folder on PATH, one line says what to add."""
    from sqz_core.api import link_plan, make_link

    link, why = link_plan(ctx["home"])
    if link is None:
        if said_why and not why.startswith(("sqz on PATH is this sqz", "SQZ_BIN")):
            echo(f"note: recovery hints name sqz by its absolute path: {why}")
        return
    if dry_run:
        echo(f"would link {why} (hints then say a bare `sqz expand ID`)")
        return
    try:
        make_link(link)
    except OSError as exc:
        echo(f"note: could not link {link}: {exc}")
        return
    manifest["path_link"] = link
    save_manifest(manifest)
    echo(f"linked {why} (hints now say a bare `sqz expand ID`; sqz uninstall removes it)")


def _remove_path_link(manifest: dict, dry_run: bool, echo) -> None:
    """Remove init's link on PATH, when it is still a link: it goes with the last file init configured."""
    link = manifest.get("path_link")
    if not link or any(e.get("snippets") or e.get("owned") for e in manifest["files"].values()):
        return
    if not os.path.islink(link):
        manifest.pop("path_link", None)
        return
    if dry_run:
        echo(f"would remove {link} (sqz init's link)")
        return
    os.remove(link)
    manifest.pop("path_link", None)
    echo(f"removed {link} (sqz init's link)")


def _proxy_actions(agent: str, ctx: dict, echo) -> list[dict]:
    """``sqz init --proxy``: what points ``agent`` at the sqz proxy (sqz-proxy's ``init_actions``)."""
    if not ctx.get("proxy"):
        return []
    from sqz_proxy.api import env_hint, init_actions

    hint = env_hint(agent, ctx["proxy"])
    if hint:
        echo(f"{agent}: reads its base URL from the environment only; to use the sqz proxy: {hint}")
    return init_actions(agent, ctx, ctx["proxy"])


def _proxy_problems(ctx: dict) -> list[str]:
    try:
        from sqz_proxy.api import doctor_problems
    except ImportError:
        return []
    try:
        return doctor_problems(ctx)
    except Exception as exc:
        return [f"could not check the sqz proxy settings: {type(exc).__name__}: {exc}"]


def _safe_detect(mod, home: str) -> dict:
    try:
        return mod.detect(home) or {}
    except Exception as exc:
        return {"detected": False, "error": f"{type(exc).__name__}: {exc}"}


def run_uninstall(names: dict, ctx: dict, dry_run: bool = False, echo=print, scope: str | None = None,
                  changes: list | None = None) -> int:
    """Remove what ``init`` added for the agents in ``names``; returns the exit status.

    ``scope`` ``"project"`` limits it to files inside ``ctx["project"]``, ``"global"`` to
    files outside it; None removes everything init recorded. ``changes``, when given, gets one
    ``{"path", "agents", "action", "detail"}`` per line said (``sqz uninstall --json``): action one of
    removed, restored, would-remove, would-restore, already-gone, left-alone, not-found, nothing.
    """
    from . import configfiles as cf

    said = echo

    agents: list[str] = []  # the agents whose snippets the file at hand holds

    def echo(line: str, *, path=None, agent=None, action=None, detail=None) -> None:  # noqa: F811
        said(line)
        if changes is not None and action is not None:
            changes.append({"path": path, "agents": [agent] if agent else list(agents), "action": action,
                            "detail": detail})

    manifest = load_manifest()
    stamp = time.strftime("%Y%m%d-%H%M%S")
    backup_dir = os.path.join(data_dir(), "backups", stamp + "-uninstall")
    status = 0
    touched = set()
    project_root = os.path.realpath(ctx["project"]) + os.sep
    for path, entry in list(manifest["files"].items()):
        if scope is not None and (os.path.realpath(path).startswith(project_root)) != (scope == "project"):
            continue
        mine = [s for s in entry.get("snippets", []) if s.get("agent") in names]
        owned = entry.get("owned") in names
        if not mine and not owned:
            continue
        touched.update(s["agent"] for s in mine)
        agents[:] = sorted({s["agent"] for s in mine} | ({entry["owned"]} if owned else set()))
        if owned:
            touched.add(entry["owned"])
        try:
            text = cf.read_text(path)
        except cf.ConfigError as exc:
            echo(f"{path}: left alone: {exc}", path=path, action="left-alone", detail=str(exc))
            status = 1
            continue
        if text is None:
            echo(f"{path}: already gone", path=path, action="already-gone")
            entry["snippets"] = [s for s in entry.get("snippets", []) if s not in mine]
            entry.pop("owned", None) if owned else None
            continue
        if owned:
            if dry_run:
                echo(f"would remove {path}", path=path, action="would-remove")
            else:
                os.remove(path)
                _rmdirs(entry.get("created_dirs", []))
                echo(f"removed {path}", path=path, action="removed")
                entry.pop("owned", None)
            continue
        new = text
        for s in reversed(mine):
            new2, ok = cf.remove_snippet(new, s["snippet"])
            if not ok:
                new2, ok = _fallback_remove(new, s)
            if not ok:
                echo(f"{path}: could not find sqz's {s['what']} (edited since?); remove it by hand", path=path,
                     agent=s.get("agent"), action="not-found", detail=s["what"])
                status = 1
                continue
            new = new2
        remaining = [s for s in entry.get("snippets", []) if s not in mine]
        delete = entry.get("created") and not remaining and new in FILE_SKELETONS
        if dry_run:
            echo(f"would {'remove' if delete else 'restore'} {path}", path=path,
                 action="would-remove" if delete else "would-restore")
            continue
        if new != text:
            cf.backup(path, backup_dir)
            if delete:
                os.remove(path)
                _rmdirs(entry.get("created_dirs", []))
                echo(f"removed {path} (sqz had created it)", path=path, action="removed", detail="sqz had created it")
            else:
                cf.write_text(path, new)
                echo(f"restored {path}", path=path, action="restored")
        entry["snippets"] = remaining
    if scope != "project":
        _remove_path_link(manifest, dry_run, echo)
    if not dry_run:
        save_manifest(manifest)
    for agent in names:
        if agent not in touched:
            echo(f"{agent}: nothing to remove", agent=agent, action="nothing")
    return status


def _fallback_remove(text: str, s: dict) -> tuple[str, bool]:
    from . import configfiles as cf

    try:
        if s["kind"] == "json_array_item" and s.get("marker"):
            new, n = cf.json_remove_marked(text, s["path"], s["marker"])
            return new, n > 0
        if s["kind"] == "md_block":
            return cf.md_remove_block(text)
    except cf.ConfigError:
        pass
    return text, False


def _rmdirs(dirs: list[str]) -> None:
    for d in dirs:  # deepest first, as recorded
        try:
            os.rmdir(d)
        except OSError:
            break


# -- doctor -----------------------------------------------------------------------------------------
# ``transparent``: a hook replaces the result after the command ran as asked; ``rewrite``: a hook
# rewrites the command before it runs (the agent cannot replace a result); ``advisory``: guidance only
HOOK_TIERS = ("transparent", "rewrite")
def agent_status(agent: str, mod, ctx: dict) -> dict:
    """detected / configured (yes, partial, no, error) / tier / last activity for one integration."""
    det = _safe_detect(mod, ctx["home"])
    rec = {"agent": agent, "tier": getattr(mod, "tier", None), "detected": bool(det.get("detected")),
           "configured": "no", "last_activity": None, "problems": []}
    try:
        recs = simulate(with_recognisers(mod.actions(ctx), ctx), load_manifest(), agent)
    except Exception as exc:
        rec["configured"] = "error"
        rec["problems"].append(f"cannot plan its configuration: {exc}")
        return rec
    errors = [r for r in recs if r["error"]]
    stale = [r for r in recs if r["stale"]]
    pending = [s for r in recs for s in r["snippets"]]
    total = sum(1 for r in recs for a in r["actions"] if a["type"] not in REMOVALS)
    if errors:
        rec["configured"] = "error"
        for r in errors:
            rec["problems"].append(f"{r['file']}: {r['error']} (fix the file, then run `sqz init --only {agent}`)")
    elif stale:
        rec["configured"] = "stale"
        for r in stale:
            rec["problems"].append(f"{r['file']}: written by an older sqz ({'; '.join(r['stale'])}); "
                                   f"`sqz init --only {agent}` upgrades it")
    elif not pending:
        rec["configured"] = "yes"
    elif len(pending) < total:
        rec["configured"] = "partial"
    if rec["detected"] and rec["configured"] in ("no", "partial"):
        rec["problems"].append(f"not fully configured (fix: `sqz init --only {agent}`)")
    if rec["tier"] in HOOK_TIERS:
        from .rewrite import last_activity

        rec["last_activity"] = last_activity(agent)
    health = getattr(mod, "health", None)
    if rec["detected"] and rec["configured"] in ("yes", "partial", "stale") and callable(health):
        try:  # the integration's own checks of what its agent does with the configuration
            rec["problems"].extend(str(p) for p in health(ctx) or ())
        except Exception as exc:
            rec["problems"].append(f"its health check failed: {type(exc).__name__}: {exc}")
    return rec


def run_doctor(names: dict, ctx: dict, echo=print, results: dict | None = None) -> int:
    """Print the health report; 0 healthy, 1 problems, 2 broken database.

    ``results``, when given, is filled for ``sqz doctor --json``: ``agents`` (one ``agent_status``
    record each), ``proxy`` (problems), ``database`` and ``plugins`` (status, detail, problems).
    """
    status = 0
    report = results if results is not None else {}
    report.update(agents=[], proxy={"problems": []}, database={}, plugins={})
    for agent, mod in names.items():
        rec = agent_status(agent, mod, ctx)
        report["agents"].append(rec)
        when = "never" if rec["last_activity"] is None else time.strftime(
            "%Y-%m-%d %H:%M", time.localtime(rec["last_activity"]))
        last = f"  last hook: {when}" if rec["tier"] in HOOK_TIERS else ""
        echo(f"{agent:<13} detected: {'yes' if rec['detected'] else 'no ':<3}  configured: {rec['configured']:<7}"
             f"  tier: {rec['tier'] or '?'}{last}")
        for p in rec["problems"]:
            echo(f"  problem: {p}")
            status = max(status, 1)
    if not names:
        echo(NOTHING_INSTALLED)
    for p in _proxy_problems(ctx):
        echo(f"proxy: problem: {p}")
        report["proxy"]["problems"].append(p)
        status = max(status, 1)
    from sqz_core.api import StoreError, open_store, store_url
    from sqz_core.api import describe_store as describe

    try:
        store = open_store()
        try:
            health = store.health()
        finally:
            store.close()
    except StoreError as exc:
        health = str(exc)
    url = store_url()
    report["database"] = {"store": describe(), "status": "ok", "problems": []}
    if health == "ok":
        echo(f"database: ok ({describe()})")
    elif not url or url.startswith("sqlite:"):
        echo(f"database: BROKEN ({describe()}): {health} (fix: move the file aside; sqz creates a new one)")
        report["database"].update(status="broken", problems=[str(health)])
        status = 2
    else:
        echo(f"database: UNAVAILABLE ({describe()}): {health} (calls compress without dedup or expand "
             "until it is reachable; fix the server or SQZ_STORE_URL)")
        report["database"].update(status="unavailable", problems=[str(health)])
        status = 2
    from sqz_core.api import Progress, load_index, plugin_manager

    try:
        with Progress("sqz doctor: rebuilding the plugin index") as progress:  # a bar on a terminal, past 1 s
            index = load_index(refresh=True, progress=progress)
        plugin_manager(index)
        bad = [r["name"] for r in index.get("plugins", []) if r.get("error")]
        report["plugins"] = {"status": "failed" if bad else "ok", "formatters": len(index.get("plugins", [])),
                             "integrations": len(index.get("integrations", {})), "failed": bad}
        if bad:
            echo(f"plugins: {len(bad)} failed to load: {', '.join(bad)} (fix: reinstall them, then `sqz plugins --refresh`)")
            status = max(status, 1)
        else:
            echo(f"plugins: ok ({len(index.get('plugins', []))} formatters, "
                 f"{len(index.get('integrations', {}))} integrations)")
    except Exception as exc:
        echo(f"plugins: invalid ({type(exc).__name__}: {exc}) (fix: `sqz plugins --refresh`)")
        report["plugins"] = {"status": "invalid", "problems": [f"{type(exc).__name__}: {exc}"]}
        status = max(status, 1)
    from sqz_core.api import load_config

    cfg = load_config(quiet=True)  # the config files (docs/configuration.md): an ignored one is a problem
    report["config"] = {"status": "invalid" if cfg.errors else "ok", "files": cfg.files, "problems": cfg.errors}
    for line in cfg.errors:
        echo(f"config: {line.removeprefix('sqz: config ')} (fix: `sqz config edit`, then `sqz config validate`)")
    if cfg.errors:
        status = max(status, 1)
    else:
        echo(f"config: ok ({', '.join(cfg.files) or 'no config file: defaults and SQZ_* variables'})")
    report["status"] = status
    return status
