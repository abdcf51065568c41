#!/usr/bin/env python3
"""Held-out pass #2 of the package-manager fixtures (``npm/h2_*``, ``pip/h2_*``).

Real runs of npm, npx, pnpm, yarn 1, pip, uv and poetry on real packages from the registries this
machine reaches, in throw-away projects under /tmp/sqz-capture/pkgh2 (fixed paths, so the captured
text is stable). Each fixture's facts were picked from its raw output before sqz was run on it; they
live in FACTS below and are checked against the captured text before a sidecar is written.

Tools: npm/node from the machine; pnpm and yarn 1 from /tmp/sqz-pyjs-tools/pm (made by
capture_python_js.py); yarn 4 (berry) from the @yarnpkg/cli-dist package in /tmp/sqz-pkgh2-tools/berry; pip from a fresh venv per scenario; uv from /tmp/sqz-pyjs-tools/venv; poetry in
/tmp/sqz-pkgh2-tools/poetry (installed when missing).

Registry hosts and this machine's index paths are replaced by ``pkgs.example.org``.

Usage: python scripts/capture_packages_h2.py [npm|berry|pip ...]   capture (all when none is named)
       python scripts/capture_packages_h2.py --facts            re-check FACTS against the saved .txt
                                                               files and rewrite the sidecars only
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

from sqz_testing import fact_kept, redact_registries

from _capture_common import ANSI_CSI, FIXTURES, WORK, _in_raw, run_merged, write_fixture

ROOT = WORK / "pkgh2"
PYJS_TOOLS = Path("/tmp/sqz-pyjs-tools")
PM_BIN = PYJS_TOOLS / "pm" / "node_modules" / ".bin"
UV = PYJS_TOOLS / "venv" / "bin" / "uv"
TOOLS = Path("/tmp/sqz-pkgh2-tools")
PY = sys.executable if not os.environ.get("SQZ_H2_PYTHON") else os.environ["SQZ_H2_PYTHON"]

# every URL host in package-manager output, and every /opt/<index> path (no host is named here)
_URL_HOST = re.compile(r"https?://[A-Za-z0-9.-]+")
_INDEX_PATH = re.compile(r"(file://)?/opt/[A-Za-z0-9_.-]+")

CAPTURED: dict[str, dict] = {}   # name -> sidecar fields set while capturing (command, produced_by, notes)


def scrub(data: bytes) -> bytes:
    text = data.decode("utf-8", "surrogateescape")
    text = _URL_HOST.sub("https://pkgs.example.org", text)
    text = _INDEX_PATH.sub(lambda m: (m.group(1) or "") + "/pkgs.example.org", text)
    return redact_registries(text).encode("utf-8", "surrogateescape")


def env(extra_path: list[Path] = (), **kw: str) -> dict:
    e = dict(os.environ)
    for k in ("CI", "FORCE_COLOR", "NO_COLOR", "VIRTUAL_ENV", "PYTHONPATH", "NODE_OPTIONS"):
        e.pop(k, None)
    e["PATH"] = os.pathsep.join([str(p) for p in extra_path] + [str(PM_BIN), e["PATH"]])
    e["COLUMNS"] = "100"
    e["LANG"] = e["LC_ALL"] = "C.UTF-8"
    e.update(kw)
    return e


def sh(cmd: str, cwd: Path, e: dict, timeout: int = 900) -> tuple[bytes, int]:
    return run_merged(cmd, cwd, e, timeout)


def first_line(cmd: str, cwd: Path, e: dict) -> str:
    return sh(cmd, cwd, e)[0].decode().strip().splitlines()[0]


def project(name: str, files: dict[str, str]) -> Path:
    d = ROOT / name
    shutil.rmtree(d, ignore_errors=True)
    d.mkdir(parents=True)
    for rel, text in files.items():
        p = d / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(text)
    return d


def record(family: str, name: str, cmd: str, cwd: Path, e: dict, produced_by: str, notes: str = "",
           max_lines: int | None = None) -> None:
    """Run ``cmd`` and save ``family/name`` (``max_lines``: keep only the output's first lines, said in the notes)."""
    if ONLY and name not in ONLY:
        return
    out, rc = sh(cmd, cwd, e)
    out = scrub(out)
    note = f"captured in {cwd} by scripts/capture_packages_h2.py; stdout+stderr merged"
    if max_lines is not None:
        lines = out.split(b"\n")
        if len(lines) > max_lines:
            out = b"\n".join(lines[:max_lines]) + b"\n"
            note += f"; capped at its first {max_lines} of {len(lines)} lines"
    if b"pkgs.example.org" in out:
        note += "; registry hosts and index paths replaced by pkgs.example.org"
    meta = {"command": cmd, "produced_by": produced_by, "exit_code": rc,
            "notes": note + (f"; {notes}" if notes else "")}
    write_fixture(family, name, out, sidecar(family, name, out, meta))
    print(f"{family}/{name}: exit {rc}, {len(out)} bytes")


def sidecar(family: str, name: str, raw: bytes, meta: dict) -> dict:
    """The sidecar: ``meta`` plus the fixture's FACTS/DROPPED, each checked against the raw text."""
    plain = ANSI_CSI.sub("", raw.decode("utf-8", "surrogateescape"))
    facts, dropped = FACTS.get(name, []), DROPPED.get(name, [])
    # an ``under`` fact of a tree (npm ls): its line indented under the header's, as fact_kept reads trees
    lost = [f for f in facts if not (_in_raw(plain, f) or isinstance(f, dict) and fact_kept(plain, f))]
    absent = [d for d in dropped if d not in plain]
    if lost or absent:
        raise SystemExit(f"{family}/{name}: not in the captured output: {lost + absent}")
    return {"command": meta["command"], "produced_by": meta["produced_by"], "exit_code": meta["exit_code"],
            "facts": facts, "dropped": dropped, "notes": meta["notes"]}


def refresh_facts() -> int:
    """Rewrite the h2 sidecars' facts from FACTS, checked against the saved fixtures (no tool is run)."""
    for family in ("npm", "pip"):
        for side in sorted((FIXTURES / family).glob("h2_*.json")):
            meta = json.loads(side.read_text())
            raw = side.with_suffix(".txt").read_bytes()
            side.write_text(json.dumps(sidecar(family, side.stem, raw, meta), indent=2, ensure_ascii=False) + "\n")
            print(f"{family}/{side.stem}: {len(FACTS.get(side.stem, []))} facts")
    return 0


ONLY = set(filter(None, os.environ.get("SQZ_CAPTURE_ONLY", "").split(",")))


# ---------------------------------------------------------------- npm, npx, pnpm, yarn

def pkg_json(name: str, deps: dict | None = None, dev: dict | None = None, scripts: dict | None = None) -> str:
    d: dict = {"name": name, "version": "1.0.0", "private": True}
    if scripts:
        d["scripts"] = scripts
    if deps:
        d["dependencies"] = deps
    if dev:
        d["devDependencies"] = dev
    return json.dumps(d, indent=2) + "\n"


BUILD_SRC = {
    "src/index.ts": 'import { format } from "date-fns";\nimport { z } from "zod";\n\n'
                    'export const Event = z.object({ name: z.string(), at: z.date() });\n'
                    'export function label(e: z.infer<typeof Event>): string {\n'
                    '  return `${e.name} on ${format(e.at, "yyyy-MM-dd")}`;\n}\n',
    "src/cli.ts": 'import { label } from "./index";\nconsole.log(label({ name: "launch", at: new Date(0) }));\n',
    "src/broken.ts": 'import { label } from "./index";\n\nexport const n: number = label({ name: 1, at: "x" });\n',
    "tsconfig.json": '{\n  "compilerOptions": {"strict": true, "outDir": "dist", "target": "ES2022", "module": "commonjs",'
                     ' "esModuleInterop": true, "skipLibCheck": true, "declaration": true},\n  "include": ["src"]\n}\n',
}

PRETTIER_SRC = {
    "src/a.js": "const x = {a:1,b:2}\nfunction f( y ){return y*2}\nmodule.exports={x,f}\n",
    "src/b.js": "const ok = 1;\nmodule.exports = { ok };\n",
    "src/c.ts": "export   const c : number=3\n",
}


def capture_npm() -> None:
    e = env()
    node = "node " + first_line("node --version", ROOT, e)
    npmv = "npm " + first_line("npm --version", ROOT, e) + "; " + node
    mirror = "the registry mirror used here sends no deprecation notices, funding data or audit advisories"

    web = project("npm_web", {"package.json": pkg_json("web-app")})
    record("npm", "h2_npm_install_webpack", "npm install --audit --fund webpack@5 webpack-cli@5 html-webpack-plugin@5",
           web, e, npmv, notes=mirror)
    shutil.rmtree(web / "node_modules", ignore_errors=True)
    record("npm", "h2_npm_ci", "npm ci --audit --fund", web, e, npmv, notes="the lockfile the install above wrote")
    record("npm", "h2_npm_ls_all", "npm ls --all", web, e, npmv, max_lines=120)
    record("npm", "h2_npm_audit", "npm audit", web, e, npmv, notes=mirror)

    old = project("npm_old", {"package.json": pkg_json(
        "old-app", {"express": "4.17.1", "lodash": "4.17.15", "chalk": "^2.4.2", "moment": "2.24.0",
                    "axios": "0.21.1"}, {"jest": "26.6.3", "typescript": "4.1.5"})})
    record("npm", "h2_npm_install_old_pins", "npm install", old, e, npmv,
           notes="old, deprecated pins (jest 26, express 4.17.1, axios 0.21.1); " + mirror)
    record("npm", "h2_npm_outdated", "npm outdated", old, e, npmv)
    record("npm", "h2_npm_update", "npm update --save lodash chalk", old, e, npmv)
    record("npm", "h2_npm_uninstall", "npm uninstall moment axios", old, e, npmv)

    verbose = project("npm_verbose", {"package.json": pkg_json("verbose-app")})
    record("npm", "h2_npm_install_loglevel_http", "npm install --loglevel=http debug@4 ms@2 semver@7", verbose, e,
           npmv, max_lines=150)
    record("npm", "h2_npm_install_http_express", "npm install --loglevel=http express@4 body-parser@1", verbose,
           e, npmv, max_lines=200)
    record("npm", "h2_npm_install_verbose", "npm install --verbose chalk@5", verbose, e, npmv, max_lines=150)

    peer = project("npm_peer", {"package.json": pkg_json("peer-app")})
    record("npm", "h2_npm_install_legacy_peer", "npm install --legacy-peer-deps react@18 react-dom@18 "
           "react-redux@7 redux@4 @testing-library/react@12", peer, e, npmv,
           notes="react-redux 7 and @testing-library/react 12 want react 16/17 peers")
    peer2 = project("npm_peer2", {"package.json": pkg_json("peer-app2")})
    record("npm", "h2_npm_install_eresolve_testing", "npm install react@18 react-dom@18 @testing-library/react@12",
           peer2, e, npmv, notes="@testing-library/react 12 wants react <18")

    build = project("npm_build", {**BUILD_SRC, "package.json": pkg_json(
        "build-app", {"date-fns": "^3.6.0", "zod": "^3.23.0"}, {"typescript": "~5.6.0"},
        {"build": "tsc -p .", "build:ok": "tsc -p . --listEmittedFiles"})})
    sh("npm install --no-audit --no-fund", build, e)
    record("npm", "h2_npm_run_build_tsc_errors", "npm run build", build, e,
           npmv + "; tsc " + first_line("npx tsc --version", build, e).split()[-1])
    (build / "src" / "broken.ts").unlink(missing_ok=True)
    record("npm", "h2_npm_run_build_ok", "npm run build:ok", build, e,
           npmv + "; tsc " + first_line("npx tsc --version", build, e).split()[-1])

    pretty = project("npm_npx", {**PRETTIER_SRC, "package.json": pkg_json("npx-app")})
    record("npm", "h2_npx_prettier_check", "npx -y prettier@3 --check src", pretty, e, npmv,
           notes="npx installs prettier 3 into its cache first")

    pv = "pnpm " + first_line("pnpm --version", ROOT, e) + "; " + node
    pn = project("pnpm_app", {"package.json": pkg_json(
        "pnpm-app", {"fastify": "^4.28.0", "pino": "^9.0.0", "dotenv": "^16.4.0"},
        {"vitest": "^2.0.0", "@types/node": "^20.0.0"})})
    record("npm", "h2_pnpm_install", "pnpm install", pn, e, pv)
    record("npm", "h2_pnpm_add", "pnpm add zod@3 undici@6", pn, e, pv,
           notes="esbuild's build script is still not approved: pnpm exits 1")
    pn_old = project("pnpm_old", {"package.json": pkg_json(
        "pnpm-old", {"lodash": "4.17.15", "express": "~4.17.1", "uuid": "^8.0.0"})})
    sh("pnpm install", pn_old, e)
    record("npm", "h2_pnpm_update_latest", "pnpm update --latest", pn_old, e, pv)
    record("npm", "h2_pnpm_remove", "pnpm remove uuid", pn_old, e, pv)

    yv = "yarn " + first_line("yarn --version", ROOT, e) + "; " + node
    y = project("yarn_app", {"package.json": pkg_json(
        "yarn-app", {"react": "^18.2.0", "react-dom": "^18.2.0", "react-router-dom": "^6.0.0"},
        {"@testing-library/react": "^12.1.5", "eslint-plugin-react-hooks": "^4.0.0"})})
    record("npm", "h2_yarn_install", "yarn install", y, e, yv,
           notes="@testing-library/react 12 wants react <18: yarn warns about its peers")
    record("npm", "h2_yarn_add_dev", "yarn add --dev typescript@5 @types/react@18", y, e, yv)
    record("npm", "h2_yarn_upgrade", "yarn upgrade react-router-dom@6.22.0", y, e, yv)


BERRY = TOOLS / "berry"


def berry_env() -> dict:
    """PATH with a ``yarn`` that runs yarn 4 (berry) from the @yarnpkg/cli-dist package (installed when missing)."""
    if not (BERRY / "node_modules" / "@yarnpkg" / "cli-dist").exists():
        BERRY.mkdir(parents=True, exist_ok=True)
        subprocess.run("npm install --no-audit --no-fund @yarnpkg/cli-dist@4", shell=True, cwd=BERRY, check=True)
    shim = BERRY / "bin" / "yarn"
    shim.parent.mkdir(exist_ok=True)
    shim.write_text(f'#!/bin/sh\nexec node {BERRY}/node_modules/@yarnpkg/cli-dist/bin/yarn.js "$@"\n')
    shim.chmod(0o755)
    return env([shim.parent], COREPACK_ENABLE_STRICT="0")


def berryrc(e: dict) -> str:
    """yarn 4's settings: the registry npm uses here (read at run time), a node_modules tree, the project's
    own cache (so a fresh project fetches every package)."""
    registry = first_line("npm config get registry", ROOT, e).rstrip("/")
    return (f'npmRegistryServer: "{registry}"\nnodeLinker: node-modules\nenableGlobalCache: false\n'
            'enableTelemetry: false\n')


def capture_berry() -> None:
    e = berry_env()
    node = "node " + first_line("node --version", ROOT, e)
    bv = "yarn " + first_line("yarn --version", ROOT, e) + " (berry, from @yarnpkg/cli-dist); " + node
    b = project("berry_app", {".yarnrc.yml": berryrc(e), "yarn.lock": "", "package.json": pkg_json(
        "berry-app", {"react": "^18.2.0", "react-dom": "^18.2.0", "@testing-library/react": "^12.1.5",
                      "express": "^4.19.0"})})
    note = "the registry is set in .yarnrc.yml (npmRegistryServer) to the one npm uses here"
    record("npm", "h2_yarn_berry_install", "yarn install", b, e, bv,
           notes="fresh project; @testing-library/react 12 wants react <18; " + note)
    record("npm", "h2_yarn_berry_add", "yarn add zod@^3 lodash@^4", b, e, bv, notes=note)
    record("npm", "h2_yarn_berry_install_again", "yarn install", b, e, bv, notes="nothing to do; " + note)
    record("npm", "h2_yarn_berry_add_missing", "yarn add sqz-no-such-package-h2@^1", b, e, bv,
           notes="a package the registry does not have; " + note)


# ---------------------------------------------------------------- pip, uv, poetry

REQUIREMENTS = """# a web service's requirements
fastapi==0.115.0
uvicorn[standard]==0.30.6
sqlalchemy==2.0.35
alembic==1.13.2
pydantic-settings==2.5.2
httpx==0.27.2
python-multipart==0.0.9
jinja2==3.1.4
"""


def venv(path: Path) -> dict:
    shutil.rmtree(path, ignore_errors=True)
    subprocess.run([PY, "-m", "venv", str(path)], check=True)
    return env([path / "bin"], VIRTUAL_ENV=str(path))


def capture_pip() -> None:
    d = project("pip", {"requirements.txt": REQUIREMENTS,
                        "localpkg/pyproject.toml": '[build-system]\nrequires = ["setuptools>=61"]\n'
                        'build-backend = "setuptools.build_meta"\n\n[project]\nname = "localpkg"\nversion = "0.3.0"\n'
                        'dependencies = ["attrs>=23", "click>=8"]\n',
                        "localpkg/localpkg/__init__.py": "VERSION = '0.3.0'\n"})
    e = venv(d / "venv")
    pv = first_line("pip --version", d, e).split(" from ")[0]
    record("pip", "h2_pip_install_requirements", "pip install -r requirements.txt", d, e, pv,
           notes="fresh venv: a web service's pinned requirements")
    record("pip", "h2_pip_install_requirements_again", "pip install -r requirements.txt", d, e, pv)
    record("pip", "h2_pip_install_upgrade_pins", "pip install 'requests==2.28.2' 'urllib3==1.26.15' 'idna==3.4'",
           d, e, pv)
    record("pip", "h2_pip_install_upgrade", "pip install -U requests urllib3 idna certifi", d, e, pv,
           notes="upgrades what the pins above installed")
    record("pip", "h2_pip_install_editable", "pip install -e ./localpkg", d, e, pv)
    record("pip", "h2_pip_install_conflict_downgrade", "pip install 'starlette==0.27.0'", d, e, pv,
           notes="fastapi 0.115.0 requires a newer starlette")
    record("pip", "h2_pip_check", "pip check", d, e, pv)
    record("pip", "h2_pip_list_outdated", "pip list --outdated", d, e, pv)
    record("pip", "h2_pip_uninstall", "pip uninstall -y httpx httpcore anyio", d, e, pv)
    record("pip", "h2_pip_download", "pip download -d dl 'flask==3.0.3' 'gunicorn==23.0.0'", d, e, pv)
    e2 = venv(d / "venv2")
    record("pip", "h2_pip_install_devtools", "pip install 'black==24.8.0' 'mypy==1.11.2' 'pre-commit==3.8.0' pytest-cov",
           d, e2, pv, notes="a second fresh venv: a project's dev tools")
    record("pip", "h2_pip_install_quiet_missing", "pip install -q 'django==5.1.1' 'no-such-pkg-sqz-h2==1.0'", d, e2, pv,
           notes="-q with one requirement that does not exist")

    uv = first_line(f"{UV} --version", d, e)
    ue = venv(d / "uvvenv")
    ue["PATH"] = str(UV.parent) + os.pathsep + ue["PATH"]
    record("pip", "h2_uv_pip_install_requirements", "uv pip install -r requirements.txt", d, ue, uv)
    (d / "pinned.txt").write_text("fastapi==0.115.0\nstarlette==0.38.6\npydantic==2.9.2\npydantic-core==2.23.4\n"
                                  "anyio==4.6.0\nsniffio==1.3.1\nidna==3.10\ntyping-extensions==4.12.2\n"
                                  "annotated-types==0.7.0\n")
    record("pip", "h2_uv_pip_sync", "uv pip sync pinned.txt", d, ue, uv,
           notes="removes everything the requirements above installed that pinned.txt does not list")
    pe = env([UV.parent])
    proj = d / "uvproj"
    sh("uv init -q --app --name uvproj uvproj", d, pe)
    sh("uv add -q --no-sync 'httpx>=0.27' 'rich>=13' 'typer>=0.12'", proj, pe)
    record("pip", "h2_uv_lock_upgrade", "uv lock --upgrade", proj, pe, uv)
    record("pip", "h2_uv_sync", "uv sync", proj, pe, uv, notes="first sync of a locked app (creates its venv)")

    poetry = TOOLS / "poetry"
    if not (poetry / "bin" / "poetry").exists():
        subprocess.run([PY, "-m", "venv", str(poetry)], check=True)
        subprocess.run([str(poetry / "bin" / "pip"), "install", "-q", "poetry"], check=True)
    pe2 = env([poetry / "bin"])
    pov = first_line("poetry --version", d, pe2)
    pp = project("poetry_app", {"pyproject.toml": '[tool.poetry]\nname = "poetry-app"\nversion = "0.1.0"\n'
                                'description = ""\nauthors = ["sqz <sqz@example.org>"]\npackage-mode = false\n\n'
                                '[tool.poetry.dependencies]\npython = "^3.10"\n\n'
                                '[build-system]\nrequires = ["poetry-core"]\nbuild-backend = "poetry.core.masonry.api"\n'})
    pe2["POETRY_VIRTUALENVS_IN_PROJECT"] = "true"
    record("pip", "h2_poetry_add", "poetry add 'requests@^2.32' 'rich@^13'", pp, pe2, pov)
    record("pip", "h2_poetry_add_conflict", "poetry add 'urllib3@<1.21'", pp, pe2, pov,
           notes="requests 2.32 needs urllib3 >=1.21.1")


# ---------------------------------------------------------------- facts (picked from the raw output)

_UV_REQ = ["+ alembic==1.13.2", "+ annotated-types==0.8.0", "+ anyio==4.16.0", "+ certifi==2026.10.19.post1",
           "+ click==8.5.1", "+ fastapi==0.115.0", "+ greenlet==3.5.6", "+ h11==0.16.0", "+ httpcore==1.0.9",
           "+ httptools==0.9.0", "+ httpx==0.27.2", "+ idna==3.20", "+ jinja2==3.1.4", "+ mako==1.4.3",
           "+ markupsafe==3.0.4", "+ pydantic==2.14.4", "+ pydantic-core==2.50.5", "+ pydantic-settings==2.5.2",
           "+ python-dotenv==1.2.4", "+ python-multipart==0.0.9", "+ pyyaml==6.0.4", "+ sniffio==1.3.1",
           "+ sqlalchemy==2.0.35", "+ starlette==0.38.6", "+ typing-extensions==4.16.0",
           "+ typing-inspection==0.4.5", "+ uvicorn==0.30.6", "+ uvloop==0.23.0", "+ watchfiles==1.3.0",
           "+ websockets==17.4"]
_UV_PIP_SYNC = ["- alembic==1.13.2", "- annotated-types==0.8.0", "+ annotated-types==0.7.0", "- anyio==4.16.0",
                "+ anyio==4.6.0", "- certifi==2026.10.19.post1", "- click==8.5.1", "- greenlet==3.5.6",
                "- h11==0.16.0", "- httpcore==1.0.9", "- httptools==0.9.0", "- httpx==0.27.2", "- idna==3.20",
                "+ idna==3.10", "- jinja2==3.1.4", "- mako==1.4.3", "- markupsafe==3.0.4", "- pydantic==2.14.4",
                "+ pydantic==2.9.2", "- pydantic-core==2.50.5", "+ pydantic-core==2.23.4",
                "- pydantic-settings==2.5.2", "- python-dotenv==1.2.4", "- python-multipart==0.0.9",
                "- pyyaml==6.0.4", "- sqlalchemy==2.0.35", "- typing-extensions==4.16.0",
                "+ typing-extensions==4.12.2", "- typing-inspection==0.4.5", "- uvicorn==0.30.6",
                "- uvloop==0.23.0", "- watchfiles==1.3.0", "- websockets==17.4"]
_UV_SYNC = ["+ annotated-doc==0.0.7", "+ annotated-types==0.8.0", "+ anyio==4.16.0", "+ certifi==2026.10.19.post1",
            "+ h11==0.16.0", "+ httpcore==1.0.9", "+ httpx==0.28.1", "+ idna==3.20", "+ markdown-it-py==4.3.0",
            "+ mdurl==0.1.2", "+ pydantic==2.14.4", "+ pydantic-core==2.50.5", "+ pygments==2.21.0",
            "+ rich==15.0.0", "+ shellingham==1.5.4", "+ typer==0.29.2", "+ typing-extensions==4.16.0",
            "+ typing-inspection==0.4.5", "+ uvproj==0.1.0 (from file:///tmp/sqz-capture/pkgh2/pip/uvproj)"]
_YARN_PEERS = [
    ['" > @testing-library/react@12.1.5" has incorrect peer dependency "react@<18.0.0"'],
    ['" > @testing-library/react@12.1.5" has incorrect peer dependency "react-dom@<18.0.0"'],
    ['" > eslint-plugin-react-hooks@4.6.2" has unmet peer dependency "eslint@^3.0.0 || ^4.0.0 || ^5.0.0 || '
     '^6.0.0 || ^7.0.0 || ^8.0.0-0"'],
]
_REQ_AGAIN = [[f"Requirement already satisfied: {req} ", f"({ver})"] for req, ver in (
    ("fastapi==0.115.0", "0.115.0"), ("uvicorn[standard]==0.30.6", "0.30.6"), ("sqlalchemy==2.0.35", "2.0.35"),
    ("alembic==1.13.2", "1.13.2"), ("pydantic-settings==2.5.2", "2.5.2"), ("httpx==0.27.2", "0.27.2"),
    ("python-multipart==0.0.9", "0.0.9"), ("jinja2==3.1.4", "3.1.4"), ("starlette<0.39.0,>=0.37.2", "0.38.6"),
    ("pydantic-core==2.50.5", "2.50.5"), ("Mako", "1.4.3"), ("greenlet!=0.4.17", "3.5.6"))]

_BERRY_PEERS = [
    ["YN0060", "react is listed by your project with version 18.3.1 (pe93e0a), which doesn't satisfy what "
               "@testing-library/react and other dependencies request (but they have non-overlapping ranges!)."],
    ["YN0060", "react-dom is listed by your project with version 18.3.1 (paad852), which doesn't satisfy what "
               "@testing-library/react requests (<18.0.0)."],
    ["YN0002", "berry-app@workspace:. doesn't provide @types/react (p391121), requested by @testing-library/react and "
               "other dependencies."],
    ["YN0086", "Some peer dependencies are incorrectly met by your project"],
]

FACTS: dict[str, list] = {
    "h2_yarn_berry_install": _BERRY_PEERS + [
        ["YN0085", "+ @testing-library/react@npm:12.1.5, express@npm:4.22.3, react-dom@npm:18.3.1, react@npm:18.3.1, "
                   "@babel/code-frame@npm:7.29.7, and 133 more."],
        ["YN0013", "138 packages were added to the project (+ 16.51 MiB)."], "Done with warnings"],
    "h2_yarn_berry_add": _BERRY_PEERS + [
        ["YN0085", "+ lodash@npm:4.18.1, zod@npm:3.25.76"],
        ["YN0013", "2 packages were added to the project (+ 5.01 MiB)."], "Done with warnings"],
    "h2_yarn_berry_install_again": _BERRY_PEERS + ["Done with warnings"],
    "h2_yarn_berry_add_missing": [["YN0035", "sqz-no-such-package-h2@npm:^1: Package not found"],
                                  ["YN0035", "Response Code: 404 (Not Found)"],
                                  ["YN0035", "Request URL: https://pkgs.example.org/sqz-no-such-package-h2"],
                                  "Failed with errors"],
    "h2_npm_install_webpack": ["added 135 packages"],
    "h2_npm_ci": ["added 135 packages"],
    # the top-level packages: directly under the project's line in the tree
    "h2_npm_ls_all": ["web-app@1.0.0 /tmp/sqz-capture/pkgh2/npm_web",
                      {"under": "web-app@1.0.0", "line": "html-webpack-plugin@5.6.8"},
                      "UNMET OPTIONAL DEPENDENCY @rspack/core@0.x || 1.x || 2.x",
                      {"under": "web-app@1.0.0", "line": "webpack-cli@5.1.4"},
                      {"under": "web-app@1.0.0", "line": "webpack@5.113.0"},
                      "terser@5.51.4", "lodash@4.18.1", "webpack@5.113.0 deduped"],
    "h2_npm_audit": ["405 Method Not Allowed", "npm error audit endpoint returned an error",
                     "A complete log of this run can be found in:"],
    "h2_npm_install_old_pins": ["added 676 packages"],
    "h2_npm_outdated": [["axios", "0.21.1", "1.21.1"], ["chalk", "2.4.2", "5.6.2"], ["express", "4.17.1", "5.3.0"],
                        ["jest", "26.6.3", "30.5.2"], ["lodash", "4.17.15", "4.18.1"], ["moment", "2.24.0", "2.31.0"],
                        ["typescript", "4.1.5", "7.0.2"]],
    "h2_npm_update": ["up to date"],
    "h2_npm_uninstall": ["removed 3 packages"],
    "h2_npm_install_loglevel_http": ["added 3 packages", "debug-4.4.3.tgz", "ms-2.1.3.tgz", "semver-7.8.6.tgz"],
    "h2_npm_install_http_express": ["added 71 packages", "express-4.22.3.tgz", "body-parser-1.20.9.tgz"],
    "h2_npm_install_verbose": ["added 1 package", "chalk-5.6.2.tgz"],
    "h2_npm_install_legacy_peer": ["added 99 packages"],
    "h2_npm_install_eresolve_testing": [
        ["code", "ERESOLVE"], "ERESOLVE unable to resolve dependency tree", "While resolving: peer-app2@1.0.0",
        "Found: react@18.3.1", 'react@"18" from the root project',
        'peer react@"<18.0.0" from @testing-library/react@12.1.5',
        '@testing-library/react@"12" from the root project', "Fix the upstream dependency conflict",
        "-eresolve-report.txt", "A complete log of this run can be found in:"],
    # each diagnostic with its file, as the tsc fixtures state them (tsc prints the path on every line)
    "h2_npm_run_build_tsc_errors": [
        {"under": "src/broken.ts", "line": "(3,14): error TS2322: Type 'string' is not assignable to type 'number'."},
        {"under": "src/broken.ts", "line": "(3,34): error TS2322: Type 'number' is not assignable to type 'string'."},
        {"under": "src/broken.ts", "line": "(3,43): error TS2322: Type 'string' is not assignable to type 'Date'."}],
    "h2_npm_run_build_ok": ["npm_build/dist/index.js", "npm_build/dist/index.d.ts", "npm_build/dist/cli.js",
                            "npm_build/dist/cli.d.ts"],
    "h2_npx_prettier_check": ["[warn] src/a.js", "[warn] src/c.ts",
                              "Code style issues found in 2 files. Run Prettier with --write to fix."],
    "h2_pnpm_install": [["+ dotenv 16.6.1", "18.0.10 is available"], ["+ fastify 4.29.1", "5.12.8 is available"],
                        ["+ pino 9.14.0", "10.4.0 is available"], ["+ @types/node 20.19.43", "26.6.11 is available"],
                        ["+ vitest 2.1.9", "5.1.2 is available"], "Packages: +95", "ERR_PNPM_IGNORED_BUILDS",
                        "Ignored build scripts: esbuild@0.21.5", 'Run "pnpm approve-builds"'],
    "h2_pnpm_add": [["+ undici 6.29.1", "8.13.1 is available"], ["+ zod 3.25.76", "4.6.7 is available"],
                    "Packages: +2", "ERR_PNPM_IGNORED_BUILDS", "Ignored build scripts: esbuild@0.21.5"],
    "h2_pnpm_update_latest": ["- express 4.17.3", "+ express 5.3.0", "- lodash 4.17.15", "+ lodash 4.18.1",
                              "- uuid 8.3.2", "+ uuid 14.0.3", "Packages: +55 -37"],
    "h2_pnpm_remove": ["- uuid 14.0.3", "Packages: -1"],
    "h2_yarn_install": _YARN_PEERS + [
        ['"@testing-library/react > @types/react-dom@17.0.26" has unmet peer dependency "@types/react@^17.0.0"'],
        "success Saved lockfile."],
    "h2_yarn_add_dev": _YARN_PEERS + [
        ['"@testing-library/react > @types/react-dom@17.0.26" has incorrect peer dependency "@types/react@^17.0.0"'],
        "success Saved 4 new dependencies.", "@types/react@18.3.32", "typescript@5.9.3",
        "@types/prop-types@15.7.15", "csstype@3.2.4"],
    "h2_yarn_upgrade": _YARN_PEERS + ["success Saved 2 new dependencies.", "react-router-dom@6.22.0",
                                      "react-router@6.22.0"],
    "h2_pip_install_requirements": [
        "Successfully installed Mako-1.4.3 MarkupSafe-3.0.4 alembic-1.13.2 annotated-types-0.8.0 anyio-4.16.0 "
        "certifi-2026.10.19.post1 click-8.5.1 fastapi-0.115.0 greenlet-3.5.6 h11-0.16.0 httpcore-1.0.9 "
        "httptools-0.9.0 httpx-0.27.2 idna-3.20 jinja2-3.1.4 pydantic-2.14.4 pydantic-core-2.50.5 "
        "pydantic-settings-2.5.2 python-dotenv-1.2.4 python-multipart-0.0.9 pyyaml-6.0.4 sniffio-1.3.1 "
        "sqlalchemy-2.0.35 starlette-0.38.6 typing-extensions-4.16.0 typing-inspection-0.4.5 uvicorn-0.30.6 "
        "uvloop-0.23.0 watchfiles-1.3.0 websockets-17.4"],
    "h2_pip_install_requirements_again": _REQ_AGAIN,
    "h2_pip_install_upgrade_pins": [
        "Successfully installed charset-normalizer-3.5.3 idna-3.4 requests-2.28.2 urllib3-1.26.15",
        "Successfully uninstalled idna-3.20", ["Requirement already satisfied: certifi>=2017.4.17", "(2026.10.19.post1)"]],
    "h2_pip_install_upgrade": [
        "Successfully installed idna-3.20 requests-2.34.2 urllib3-2.8.0", "Successfully uninstalled urllib3-1.26.15",
        "Successfully uninstalled idna-3.4", "Successfully uninstalled requests-2.28.2",
        ["Requirement already satisfied: certifi in", "(2026.10.19.post1)"],
        ["Requirement already satisfied: charset_normalizer<4,>=2", "(3.5.3)"]],
    "h2_pip_install_editable": [
        "Obtaining file:///tmp/sqz-capture/pkgh2/pip/localpkg", ["Requirement already satisfied: click>=8", "(8.5.1)"],
        "filename=localpkg-0.3.0-0.editable-py3-none-any.whl", "Successfully built localpkg",
        "Successfully installed attrs-26.1.0 localpkg-0.3.0"],
    "h2_pip_install_conflict_downgrade": [
        "Successfully uninstalled starlette-0.38.6",
        "ERROR: pip's dependency resolver does not currently take into account all the packages that are installed.",
        "fastapi 0.115.0 requires starlette<0.39.0,>=0.37.2, but you have starlette 0.27.0 which is incompatible.",
        "Successfully installed starlette-0.27.0"],
    "h2_pip_check": ["fastapi 0.115.0 has requirement starlette<0.39.0,>=0.37.2, but you have starlette 0.27.0."],
    "h2_pip_list_outdated": [["alembic", "1.13.2", "1.20.1"], ["fastapi", "0.115.0", "0.165.0"],
                             ["httpx", "0.27.2", "0.28.1"], ["Jinja2", "3.1.4", "3.1.6"], ["pip", "23.2.1", "26.3"],
                             ["pydantic-settings", "2.5.2", "2.16.3"], ["python-multipart", "0.0.9", "0.0.34"],
                             ["setuptools", "65.5.0", "84.2.1"], ["SQLAlchemy", "2.0.35", "2.1.9"],
                             ["starlette", "0.27.0", "1.10.0"], ["uvicorn", "0.30.6", "0.54.0"]],
    "h2_pip_uninstall": ["Successfully uninstalled httpx-0.27.2", "Successfully uninstalled httpcore-1.0.9",
                         "Successfully uninstalled anyio-4.16.0"],
    "h2_pip_download": [
        "Saved ./dl/flask-3.0.3-py3-none-any.whl", "Saved ./dl/gunicorn-23.0.0-py3-none-any.whl",
        "Saved ./dl/blinker-1.9.0-py3-none-any.whl", "Saved ./dl/click-8.5.1-py3-none-any.whl",
        "Saved ./dl/itsdangerous-2.2.0-py3-none-any.whl", "Saved ./dl/jinja2-3.1.6-py3-none-any.whl",
        "Saved ./dl/werkzeug-3.1.9-py3-none-any.whl", "Saved ./dl/packaging-26.4-py3-none-any.whl",
        "Saved ./dl/markupsafe-3.0.4-cp311-cp311-manylinux2014_x86_64.manylinux_2_17_x86_64.manylinux_2_28_x86_64.whl",
        "Successfully downloaded flask gunicorn blinker click itsdangerous Jinja2 Werkzeug packaging MarkupSafe"],
    "h2_pip_install_devtools": [
        "Successfully installed black-24.8.0 cfgv-3.5.0 click-8.5.1 coverage-7.17.5 distlib-0.4.4 filelock-4.3.1 "
        "identify-2.6.20 iniconfig-2.3.1 mypy-1.11.2 mypy-extensions-1.2.0 nodeenv-1.12.0 packaging-26.4 "
        "pathspec-1.1.1 platformdirs-4.14.9 pluggy-1.7.0 pre-commit-3.8.0 pygments-2.21.0 pytest-9.2.0 "
        "pytest-cov-7.1.0 python-discovery-1.9.6 pyyaml-6.0.4 typing-extensions-4.16.0 virtualenv-21.15.11"],
    "h2_pip_install_quiet_missing": [
        "ERROR: Could not find a version that satisfies the requirement no-such-pkg-sqz-h2==1.0 (from versions: none)",
        "ERROR: No matching distribution found for no-such-pkg-sqz-h2==1.0",
        ["ERROR: Ignored the following versions that require a different python version:",
         "6.1.3 Requires-Python >=3.12"]],
    "h2_uv_pip_install_requirements": ["Installed 30 packages"] + _UV_REQ,
    "h2_uv_pip_sync": ["Uninstalled 27 packages", "Installed 6 packages"] + _UV_PIP_SYNC,
    "h2_uv_lock_upgrade": ["Resolved 20 packages"],
    "h2_uv_sync": ["Creating virtual environment at: .venv", "Installed 19 packages"] + _UV_SYNC,
    "h2_poetry_add": ["Creating virtualenv poetry-app in /tmp/sqz-capture/pkgh2/poetry_app/.venv",
                      "Package operations: 9 installs, 0 updates, 0 removals",
                      "Installing mdurl (0.1.2)", "Installing charset-normalizer (3.5.3)",
                      "Installing certifi (2026.10.19.post1)", "Installing idna (3.20)",
                      "Installing markdown-it-py (4.3.0)", "Installing pygments (2.21.0)",
                      "Installing urllib3 (2.8.0)", "Installing requests (2.34.2)", "Installing rich (13.9.4)",
                      "Writing lock file"],
    "h2_poetry_add_conflict": [
        "So, because poetry-app depends on both requests (^2.32) and urllib3 (<1.21), version solving failed."],
}
DROPPED: dict[str, list] = {
    "h2_npm_install_http_express": ["npm http fetch GET 200 https://pkgs.example.org/express"],
    "h2_pnpm_install": ["Progress: resolved 95, reused 95, downloaded 0, added 95, done"],
}


def main(argv: list[str]) -> int:
    if argv == ["--facts"]:
        return refresh_facts()
    ROOT.mkdir(parents=True, exist_ok=True)
    for fam in argv or ["npm", "berry", "pip"]:
        {"npm": capture_npm, "berry": capture_berry, "pip": capture_pip}[fam]()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
