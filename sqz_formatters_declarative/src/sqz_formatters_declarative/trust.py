"""The trust store: which project-local spec files the user read and allowed, pinned by sha256.

One JSON file in the user's sqz config folder (``trusted-formatters.json``, mode 0600), written
atomically. A pin names the file's real path; a file whose content no longer has the pinned hash
is "changed" and not used until trusted again.
"""

from __future__ import annotations

import json
import os

from .sources import (_files, config_digest, config_entries, config_trust_key, digest, project_dir, read_trust,
                      trust_path)


def _targets(path: str | None) -> list[str]:
    """Spec files to trust: PATH (a file or folder), or the project's folder and its config's list."""
    if path is None:
        folder = project_dir()
        files = _files(folder) if folder else []
        return files + [p for p, rec in config_entries(os.getcwd()).items() if rec["origin"] == "project-config"]
    if os.path.isdir(path):
        return _files(path)
    return [path]


def _config_of(target: str) -> dict | None:
    """The config loader's record of ``target`` when it is a config file holding formatters."""
    real = os.path.realpath(target)
    for path, rec in config_entries(os.getcwd()).items():
        if os.path.realpath(path) == real:
            return rec
    return None


def _save(trusted: dict) -> None:
    target = trust_path()
    os.makedirs(os.path.dirname(target), exist_ok=True)
    tmp = f"{target}.{os.getpid()}.tmp"
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as fh:
        json.dump({"version": 1, "trusted": trusted}, fh, indent=2, sort_keys=True)
        fh.write("\n")
    os.replace(tmp, target)


def trust_paths(path: str | None) -> tuple[list[dict], list[dict]]:
    """Pin every spec file at ``path`` (default: the project's ``.sqz/formatters``); ``(trusted, refused)``.

    A file with errors is refused (trusting it would run nothing and hide the errors' note)."""
    import time

    from .compile import compile_text

    from .compile import compile_config

    trusted = read_trust()
    done, refused = [], []
    for target in _targets(path):
        config = _config_of(target) if os.path.basename(target) in (".sqz.yaml", "pyproject.toml") else None
        if config is not None:  # a config file: its formatters list is what is pinned
            specs, errors = compile_config(target, config["origin"], config["specs"], config["lines"])
            if errors:
                refused.append({"path": target, "reason": errors[0]})
                continue
            pin = {"sha256": config_digest(config["specs"]), "formatters": [s["name"] for s in specs],
                   "at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())}
            trusted[config_trust_key(target)] = pin
            done.append({"path": config_trust_key(target), **pin})
            continue
        try:
            with open(target, "rb") as fh:
                data = fh.read()
        except OSError as exc:
            refused.append({"path": target, "reason": f"cannot be read: {exc.strerror or exc}"})
            continue
        specs, errors = compile_text(data.decode("utf-8", "replace"), target, "project")
        if errors:
            refused.append({"path": target, "reason": errors[0] + (f" (+{len(errors) - 1} more)" if len(errors) > 1 else "")})
            continue
        real = os.path.realpath(target)
        pin = {"sha256": digest(data), "at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
               "formatters": [s["name"] for s in specs]}
        trusted[real] = pin
        done.append({"path": real, **pin})
    if done:
        _save(trusted)
    return done, refused


def revoke_paths(path: str | None) -> list[str]:
    """Forget the pins of ``path`` (a file, or every pinned file under a folder); the paths forgotten."""
    trusted = read_trust()
    if path is None:
        folder = project_dir()
        if folder is None:
            return []
        path = folder
    real = os.path.realpath(path)
    gone = [p for p in trusted if p in (real, real + "#formatters") or p.startswith(real.rstrip(os.sep) + os.sep)]
    for p in gone:
        del trusted[p]
    if gone:
        _save(trusted)
    return sorted(gone)


def list_pins() -> list[dict]:
    """Every pin with its state now: ``trusted`` (same content), ``changed`` or ``missing``."""
    rows = []
    for path, pin in sorted(read_trust().items()):
        if path.endswith("#formatters"):
            rec = _config_of(path[: -len("#formatters")])
            state = "missing" if rec is None else (
                "trusted" if config_digest(rec["specs"]) == pin.get("sha256") else "changed")
        else:
            try:
                with open(path, "rb") as fh:
                    state = "trusted" if digest(fh.read()) == pin.get("sha256") else "changed"
            except OSError:
                state = "missing"
        rows.append({"path": path, "state": state, "sha256": str(pin.get("sha256", "")), "at": str(pin.get("at", "")),
                     "formatters": list(pin.get("formatters", []))})
    return rows
