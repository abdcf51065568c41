"""The lockfile kind: name@version and edges kept line for line, hashes folded; the read of a
lockfile is not file content, the read of its manifest is (both sides of the line)."""

from __future__ import annotations

from pathlib import Path

from sqz_core.api import FormatRequest, compress
from sqz_core.store import Store
from sqz_formatters_generic.kinds import compress_kind, detect_kind
from sqz_formatters_generic.kinds.lockfile import syntax_of
from sqz_testing import iter_fixtures, missing_facts

FIXTURES = Path(__file__).parent.parent / "fixtures"
LOCKS = {fx.name: fx for fx in iter_fixtures(FIXTURES / "kinds" / "lockfile")}
MANIFEST = next(fx for fx in iter_fixtures(FIXTURES / "file_reads") if fx.name == "npm_package_json")


def _out(text: str, command: str) -> str | None:
    req = FormatRequest(text, command=command)
    kind = detect_kind(text, req)
    return compress_kind(kind, req) if kind else None


def test_every_syntax_found_by_name_and_by_its_own_text():
    by_name = {"cargo_lock": "toml", "npm_package_lock_v3": "npm", "pnpm_lock": "pnpm", "poetry_lock": "toml",
               "uv_lock": "toml", "yarn_lock_v1": "yarn", "npm_package_lock_v2": "npm", "yarn_lock_berry": "yarn", "pipfile_lock": "json"}
    for name, syntax in by_name.items():
        fx = LOCKS[name]
        assert syntax_of(fx.text, tuple(fx.command.split())) == syntax, name
        assert syntax_of(fx.text) == syntax, name  # git show HEAD:Cargo.lock, jq . package-lock.json
    git_show = _out(LOCKS["cargo_lock"].text, "git show HEAD:Cargo.lock")
    assert git_show is not None and missing_facts(git_show, LOCKS["cargo_lock"].facts) == []


def test_hashes_fold_and_names_versions_edges_stay():
    out = _out(LOCKS["npm_package_lock_v3"].text, "cat package-lock.json")
    assert "sha512-" not in out and '"integrity"' not in out
    assert out.splitlines()[0].startswith("[sqz: lockfile: ") and "integrity hashes" in out.splitlines()[0]
    assert out.count('"version": ') == LOCKS["npm_package_lock_v3"].text.count('"version": ')
    uv = _out(LOCKS["uv_lock"].text, "cat uv.lock")
    assert "sha256:" not in uv and '{ url = "…/requests-2.34.2-py3-none-any.whl", size = ' in uv
    assert 'file URLs written "…/FILE" for "https://pkgs.example.org/packages/<2 hex>/<2 hex>/<hash>/FILE"' in uv
    yarn = _out(LOCKS["yarn_lock_v1"].text, "cat yarn.lock")
    assert "resolved URLs folded" in yarn and "REGISTRY https://pkgs.example.org" in yarn
    assert "\n  resolved " not in yarn and "integrity sha512" not in yarn


def test_a_line_most_records_share_is_said_once_and_a_record_without_it_is_marked():
    raw = LOCKS["cargo_lock"].text
    source = 'source = "registry+https://github.com/rust-lang/crates.io-index"'
    out = _out(raw, "cat Cargo.lock")
    assert source in out.splitlines()[0] and f"\n{source}\n" not in out
    assert '[[package]]\nname = "struct-cargo-app"\nversion = "0.1.0"\ndependencies = [' in out
    record = out.split('name = "struct-cargo-app"', 1)[1].split("[[package]]", 1)[0]
    assert record.rstrip().endswith(f']\n[sqz: no "{source}" line]')
    berry = _out(LOCKS["yarn_lock_berry"].text, "cat yarn.lock")
    assert "every package holds the line linkType: hard, but 1 marked" in berry.splitlines()[0]
    assert "\n  linkType: hard\n" not in berry
    assert '  linkType: soft\n  [sqz: no "languageName: node" line]\n  [sqz: no "linkType: hard" line]' in berry
    assert raw.count("[[package]]") == out.count("[[package]]")


def test_file_urls_on_several_hosts_keep_their_hosts():
    raw = LOCKS["uv_lock"].text
    two = raw.replace("https://pkgs.example.org/packages/7a/", "https://mirror.example.net/packages/7a/", 1)
    out = _out(two, "cat uv.lock")
    assert '"https://mirror.example.net/packages/…/certifi-2026.10.19.post1-py3-none-any.whl"' in out
    assert '"https://pkgs.example.org/packages/…/requests-2.34.2-py3-none-any.whl"' in out


def test_the_legacy_tree_of_a_v2_lockfile_folds_when_the_packages_map_came_first():
    raw = LOCKS["npm_package_lock_v2"].text
    out = _out(raw, "cat package-lock.json")
    assert '  "dependencies": { [sqz: the legacy tree, folded] }' in out
    assert "lines of the legacy \"dependencies\" tree folded" in out.splitlines()[0]
    assert '"resolved"' not in out and "resolved URLs folded" in out.splitlines()[0]
    assert out.count('"node_modules/') == raw.count('"node_modules/')  # every package of the map stays
    # a v1 lockfile has only that tree: nothing of it folds but its hashes and URLs
    v1 = raw.replace('  "packages": {', '  "packagez": {', 1)
    assert "legacy" not in _out(v1, "cat package-lock.json")


def test_a_list_of_hashes_becomes_one_line_saying_how_many_went():
    out = _out(LOCKS["pipfile_lock"].text, "cat Pipfile.lock")
    assert '"hashes": [ [sqz: 2 folded] ],' in out and '"hash": { [sqz: 1 folded] },' in out
    assert "sha256:" not in out and out.count('"version": "==') == LOCKS["pipfile_lock"].text.count('"version": "==')


def test_a_partial_read_still_folds_line_by_line():
    head = "\n".join(LOCKS["npm_package_lock_v3"].text.splitlines()[:40]) + "\n"  # not valid JSON
    out = _out(head, "head -n 40 package-lock.json")
    assert out is not None and "sha512-" not in out and '"node_modules/agent-base": {' in out


def test_near_misses_are_not_lockfiles():
    cargo_toml = '[package]\nname = "app"\nversion = "0.1.0"\n\n[dependencies]\nserde = "1"\n'
    assert _out(cargo_toml, "cat Cargo.toml") is None
    assert syntax_of(cargo_toml) is None
    # a lockfile by name with nothing to fold (a path-only Cargo.lock) is left as it is
    local = '# This file is automatically @generated by Cargo.\nversion = 4\n\n[[package]]\nname = "app"\nversion = "0.1.0"\n'
    assert _out(local, "cat Cargo.lock") is None
    # prose that mentions a digest is not a lockfile and keeps its words
    prose = "The release notes say the sha512 of the tarball changed.\n" * 5
    assert syntax_of(prose) is None and _out(prose, "cat NOTES") is None


def test_the_manifest_read_stays_byte_for_byte_and_the_lockfile_read_shrinks(tmp_path):
    store = Store.open(str(tmp_path / "db.sqlite"))
    try:
        manifest = compress(MANIFEST.raw, command=MANIFEST.command, store=store, session="s")
        assert manifest.output == MANIFEST.raw
        for name in ("cargo_lock", "npm_package_lock_v3", "poetry_lock"):
            fx = LOCKS[name]
            res = compress(fx.raw, command=fx.command, store=store, session="s")
            out = res.output.decode()
            assert len(res.output) < len(fx.raw) and missing_facts(out, fx.facts) == [], name
            assert "expand" in out.splitlines()[-1], name  # the folded hashes are one `sqz expand` away
    finally:
        store.close()
