"""Lockfiles: every package's name, version and edges kept, line for line; what only a machine
checks folded, each fold said on the page and the original one ``sqz expand`` away.

A lockfile (``package-lock.json``, ``yarn.lock``, ``pnpm-lock.yaml``, ``Cargo.lock``,
``poetry.lock``, ``uv.lock``, ``pdm.lock``, ``Pipfile.lock``) is mostly integrity hashes and
download URLs: per package a few short lines of name, version and dependencies, then a
sha512/sha256 value of 40-90 tokens (or dozens, one per wheel). The same mechanism serves every
syntax, one pass over the lines:

* a line that holds only a hash (``"integrity": "sha512-…"``, ``integrity sha512-…``,
  ``checksum = "…"``, ``checksum: …``, ``content-hash = "…"``, a ``"sha256:…"`` item of a
  ``hashes`` list) is folded;
* a hash field inside a line (``hash = "sha256:…"`` of a wheel, ``integrity: sha512-…`` of a
  pnpm ``resolution``, the ``#sha1`` after a yarn ``resolved`` URL) is cut from it, the rest of
  the line kept;
* a content-addressed file URL (``HOST/packages/7a/3e/<56 hex>/file.whl``) keeps its file name,
  written ``"…/file.whl"`` (the one host said once; with several, each keeps its host);
* a field line that most package records hold word for word (Cargo's ``source = "registry+…"``,
  yarn berry's ``linkType: hard``) is said once, a record without it marked;
* package-lock's legacy ``dependencies`` tree (lockfileVersion 2 writes every package twice: in
  ``packages`` and again for npm 6) is folded to one line when ``packages`` came first;
* a yarn/npm ``resolved`` URL that is the registry's usual tarball path for the name and
  version beside it (``REG/NAME/-/BASE-VERSION.tgz``) is folded, the registry said once.

Every other line is kept as it stands (names, versions, specifiers, dependency lists,
markers, sources, flags), so a package's lines still read together in their file's own
syntax. The first line says what was folded and how many. Linear in the input; a text
with nothing to fold gets ``None``.
"""

from __future__ import annotations

from sqz_core.api import lazy_pattern as lazy

# A hash value: an algorithm-prefixed digest (SRI ``sha512-<base64>``, ``sha256:<hex>``) or a bare
# long hex digest (Cargo's checksums, poetry's content-hash).
_HASH = (r"(?:(?:sha1|sha224|sha256|sha384|sha512|md5|blake2b_256)[-:][A-Za-z0-9+/=_-]{20,}"
         r"|(?:[0-9a-z]{1,8}/)?[0-9a-f]{40,128})")  # yarn berry: ``<cacheKey>/<hex>``
# a line that is one hash, as a key's value or as a list item, in every lockfile syntax
_HASH_LINE = lazy(
    r"\s*(?:\"(?:integrity|checksum|shasum|hash|content-hash|sha256|sha512)\"\s*:\s*\"" + _HASH + r"\",?"
    r"|(?:integrity|checksum)\s+\"?" + _HASH + r"\"?"
    r"|(?:checksum|content-hash|hash)\s*[=:]\s*\"?" + _HASH + r"\"?,?"
    r"|\"" + _HASH + r"\",?"
    r"|- \"?" + _HASH + r"\"?)\s*"
)
# a hash field inside a line: ``, hash = "sha256:…"`` (poetry, uv, pdm), ``integrity: sha512-…`` in
# a pnpm resolution map, ``#<sha1>`` after a URL
_HASH_FIELD = lazy(r",\s*hash\s*=\s*\"" + _HASH + r"\"|\bintegrity: " + _HASH + r",?\s*|#[0-9a-f]{40}(?=\")")
# a content-addressed file URL: HOST/packages/<2 hex>/<2 hex>/<long hex>/FILE (PyPI-style file hosting)
_HASHED_PATH = lazy(r"\"(https?://[^/\"\s]+)/packages/[0-9a-f]{2}/[0-9a-f]{2}/[0-9a-f]{20,}/")
# a pnpm ``resolution: {}`` left with no field once its integrity went
_EMPTY_RESOLUTION = lazy(r"\s*resolution: \{\s*\}\s*")
# yarn v1: ``  resolved "URL"``; package-lock: ``"resolved": "URL",``
_RESOLVED = lazy(r"(\s*)(?:resolved \"([^\"]+)\"|\"resolved\": \"([^\"]+)\",?)\s*")
_YARN_VERSION = lazy(r"\s+version \"([^\"]+)\"\s*")
_NPM_VERSION = lazy(r"\s*\"version\": \"([^\"]+)\",?\s*")
_NPM_KEY = lazy(r"\s*\"(?:[^\"]*/)?node_modules/((?:@[^/\"]+/)?[^/\"]+)\": \{\s*")
_NPM_LEGACY_KEY = lazy(r"\s*\"((?:@[^/\"]+/)?[^/\"]+)\": \{\s*")

_SNIFF = 4096
NAMES = {"package-lock.json": "npm", "npm-shrinkwrap.json": "npm", "yarn.lock": "yarn",
         "pnpm-lock.yaml": "pnpm", "cargo.lock": "toml", "poetry.lock": "toml", "uv.lock": "toml",
         "pdm.lock": "toml", "pipfile.lock": "json"}


def syntax_of(text: str, argv=()) -> str | None:
    """``npm``, ``yarn``, ``pnpm``, ``toml`` or ``json`` (Pipfile.lock) for a lockfile, by the file
    the command names, else by the text's own head; None for anything else."""
    for word in argv[1:]:
        base = word.lower().rsplit("/", 1)[-1].rsplit(":", 1)[-1]  # git show HEAD:Cargo.lock
        if base in NAMES:
            return NAMES[base]
    head = text[:_SNIFF]
    stripped = head.lstrip()
    if stripped.startswith("{") and '"lockfileVersion"' in head and ('"packages"' in head or '"dependencies"' in head):
        return "npm"
    if stripped.startswith("{") and '"pipfile-spec"' in head and '"_meta"' in head:
        return "json"
    if "# yarn lockfile v1" in head or ("__metadata:" in head and "cacheKey:" in head):
        return "yarn"
    if stripped.startswith("lockfileVersion: "):
        return "pnpm"
    if "\n[[package]]\n" in head and '\nname = "' in head and '\nversion = "' in head:
        return "toml"
    return None


def looks_like_lockfile(text: str) -> bool:
    """A lockfile by its own text (a command that prints one without naming it)."""
    return syntax_of(text) is not None


def _registry_of(url: str, name: str, version: str) -> str | None:
    """The registry prefix when ``url`` is its usual tarball path for ``name``@``version``, else None."""
    base = name.rsplit("/", 1)[-1]
    tail = f"/{name}/-/{base}-{version}.tgz"
    return url[: -len(tail)] if url.endswith(tail) and len(url) > len(tail) else None


def fold(text: str, syntax: str, keep_hosts: bool = False) -> tuple[list[str], dict[str, int], set[str], set[str]]:
    """The kept lines, how many of each fold were made, the registries of folded tarball URLs and the
    hosts of folded file URLs (``keep_hosts``: each file URL keeps its host, only the hashed folders go)."""
    out: list[str] = []
    counts: dict[str, int] = {}
    registries: set[str] = set()
    name = version = None  # the package the lines read belong to (for resolved URLs)
    hosts: set[str] = set()

    def count(what: str) -> None:
        counts[what] = counts.get(what, 0) + 1

    in_list = 0  # hashes folded right after a line opening a list or map (``"hashes": [``)
    opened = None
    packages_map = legacy = False  # package-lock: the packages map was read / inside the legacy tree
    for line in text.split("\n"):
        if syntax == "npm":
            if legacy:
                count("legacy")
                if line.rstrip() in ("  }", "  },"):
                    legacy = False
                continue
            if line == '  "packages": {':
                packages_map = True
            elif packages_map and line == '  "dependencies": {':
                legacy = True
                out.append('  "dependencies": { [sqz: the legacy tree, folded] }')
                continue
        if syntax == "yarn" and line[:1] not in ("", " ", "#"):
            spec = line.rstrip(":").split(",")[0].strip().strip('"')
            name, version = spec[: spec.rfind("@")] if spec.rfind("@") > 0 else spec, None
        elif syntax == "npm":
            m = _NPM_KEY.fullmatch(line) or _NPM_LEGACY_KEY.fullmatch(line)
            if m:
                name, version = m.group(1), None
        m = (_YARN_VERSION if syntax == "yarn" else _NPM_VERSION).fullmatch(line) if syntax in ("yarn", "npm") else None
        if m:
            version = m.group(1)
        if _HASH_LINE.fullmatch(line):
            count("hash")
            if out and out[-1].endswith(("[", "{")):
                opened = out[-1]
                in_list += 1
            continue
        if in_list:
            # a list (or map) whose every item was a hash: one line says how many went
            if line.strip() in ("]", "],", "}", "},") and out and out[-1] is opened:
                out[-1] = f"{opened} [sqz: {in_list} folded] {line.strip()}"
                in_list = 0
                continue
            in_list = 0
        if syntax in ("yarn", "npm"):
            r = _RESOLVED.fullmatch(line)
            if r and name and version:
                url = (r.group(2) or r.group(3)).split("#", 1)[0]
                reg = _registry_of(url, name, version)
                if reg is not None:
                    registries.add(reg)
                    count("resolved")
                    continue
        if "hash" in line or "integrity" in line or "#" in line:
            new, n = _HASH_FIELD.subn("", line)
            if n:
                counts["hash"] = counts.get("hash", 0) + n
                if syntax == "pnpm" and _EMPTY_RESOLUTION.fullmatch(new):
                    continue
                line = new
        if "/packages/" in line:
            if keep_hosts:
                new, n = _HASHED_PATH.subn(r'"\1/packages/…/', line)
            else:
                for m in _HASHED_PATH.finditer(line):
                    hosts.add(m.group(1))
                new, n = _HASHED_PATH.subn('"…/', line)
            if n:
                counts["path"] = counts.get("path", 0) + n
                line = new
        out.append(line)
    if len(hosts) > 1:  # file URLs on more than one host: each keeps its own
        return fold(text, syntax, keep_hosts=True)
    return out, counts, registries, hosts


def _record_starts(lines: list[str], syntax: str) -> list[int]:
    """Where each package record starts: TOML's ``[[package]]``, a yarn entry's unindented header."""
    if syntax == "toml":
        return [i for i, line in enumerate(lines) if line == "[[package]]"]
    return [i for i, line in enumerate(lines)
            if line[:1] not in ("", " ", "#", "_", "[") and line.endswith(":")]


def _field_line(line: str, syntax: str) -> bool:
    """A record's own field line, long enough to be worth saying once."""
    if syntax == "toml":
        return len(line) >= 30 and line[:1].isalpha() and " = " in line
    return len(line) >= 12 and line[:2] == "  " and line[2:3].isalpha() and ": " in line


def fold_constant_lines(lines: list[str], syntax: str = "toml") -> tuple[list[str], list[tuple[str, int]]]:
    """Package records (TOML ``[[package]]``, yarn entries): a field line that two thirds (and five or
    more) of the records hold word for word (``source = "registry+…"``, ``  linkType: hard``) is
    said once; a record without it gets a marker, so each record still reads whole."""
    starts = _record_starts(lines, syntax)
    if len(starts) < 5:
        return lines, []
    bounds = list(zip(starts, starts[1:] + [len(lines)]))
    seen: dict[str, int] = {}
    for a, b in bounds:
        for line in {ln for ln in lines[a + 1:b] if _field_line(ln, syntax)}:
            seen[line] = seen.get(line, 0) + 1
    common = [ln for ln, n in seen.items() if n * 3 >= len(bounds) * 2 and n >= 5]
    if not common:
        return lines, []
    common.sort(key=lambda ln: (-seen[ln], ln))  # a set was counted: order by count, then text
    out = lines[:starts[0]]
    for a, b in bounds:
        record = lines[a:b]
        kept = [ln for ln in record if ln not in common]
        end = len(kept)
        while end > 1 and not kept[end - 1].strip():
            end -= 1  # a marker goes after the record's last line, before the blank lines that end it
        for ln in common:
            if ln not in record:
                kept.insert(end, f"{'  ' if syntax != 'toml' else ''}[sqz: no \"{ln.strip()}\" line]")
                end += 1
        out.extend(kept)
    return out, [(ln, len(bounds) - seen[ln]) for ln in common]


def _note(counts: dict[str, int], registries: set[str], hosts: set[str] = frozenset(),
          constants: list[tuple[str, int]] = ()) -> str:
    parts = []
    if counts.get("hash"):
        parts.append(f"{counts['hash']} integrity hashes/checksums folded")
    if counts.get("resolved"):
        regs = ", ".join(sorted(registries))
        parts.append(f"{counts['resolved']} resolved URLs folded, each REGISTRY/NAME/-/BASE-VERSION.tgz"
                     f" of its package (BASE: the name without its @scope/; REGISTRY {regs})")
    if counts.get("legacy"):
        parts.append(f"{counts['legacy']} lines of the legacy \"dependencies\" tree folded (npm 6's copy of \"packages\")")
    if counts.get("path"):
        where = f'"…/FILE" for "{next(iter(hosts))}/packages/' if len(hosts) == 1 else '"HOST/packages/…/FILE" for "HOST/packages/'
        parts.append(f"{counts['path']} file URLs written {where}<2 hex>/<2 hex>/<hash>/FILE\"")
    for line, missing in constants:
        parts.append(f"every package holds the line {line.strip()}"
                     + (f", but {missing} marked [sqz: no \"…\" line]" if missing else ""))
    return "[sqz: lockfile: " + "; ".join(parts) + "]"


def compress_lockfile(request) -> str | None:
    """The lockfile with its hashes folded (see the module's docstring), or None."""
    text = request.text
    syntax = syntax_of(text, request.argv)
    if syntax is None:
        return None
    lines, counts, registries, hosts = fold(text, syntax)
    constants: list[tuple[str, int]] = []
    if syntax in ("toml", "yarn"):
        lines, constants = fold_constant_lines(lines, syntax)
    if not counts and not constants:
        return None
    out = _note(counts, registries, hosts, constants) + "\n" + "\n".join(lines)
    return out if len(out) < len(text) else None
