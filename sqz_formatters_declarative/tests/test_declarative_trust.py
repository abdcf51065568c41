"""Project-local specs run only once trusted, pinned by content; user-level specs are trusted."""

from __future__ import annotations

import json
import os
import shutil

from decl_testlib import EXAMPLES, FIXTURES

from sqz_formatters_declarative.sources import active, notes_for, trust_path
from sqz_formatters_declarative.trust import list_pins, revoke_paths, trust_paths

RAW = (FIXTURES / "ansible" / "playbook_failed.txt").read_bytes()
COMMAND = "ansible-playbook -i localhost, -c local site.yml"


def _put(project, name="ansible.yaml"):
    target = project / ".sqz" / "formatters" / name
    shutil.copy(EXAMPLES / "ansible-playbook.yaml", target)
    return target


def test_an_untrusted_project_spec_is_not_used_and_says_so_for_its_program(project, sqz_compress, capfd):
    _put(project)
    state = active()
    assert state["specs"] == [] and state["untrusted"][0]["state"] == "untrusted"
    result = sqz_compress(RAW, command=COMMAND, no_cache=True)
    assert result.plugin != "declarative"
    err = capfd.readouterr().err
    assert err.count("not trusted yet") == 1 and "sqz trust .sqz/formatters/ansible.yaml" in err
    assert notes_for(state, "git") == []  # another program's call hears nothing of it


def test_trusted_then_changed_then_trusted_again(project, sqz_compress, capfd):
    spec = _put(project)
    trust_paths(None)
    assert [s["name"] for s in active()["specs"]] == ["ansible-playbook"]
    assert sqz_compress(RAW, command=COMMAND, no_cache=True).plugin == "declarative"
    spec.write_text(spec.read_text().replace("context: 1", "context: 0"))  # a repository's change
    state = active()
    assert state["specs"] == [] and state["untrusted"][0]["state"] == "changed"
    capfd.readouterr()
    assert sqz_compress(RAW, command=COMMAND, no_cache=True).plugin != "declarative"
    err = capfd.readouterr().err
    assert len([line for line in err.splitlines() if "changed since you trusted it" in line]) == 1
    assert [r["state"] for r in list_pins()] == ["changed"]
    trust_paths(str(spec))
    assert [r["state"] for r in list_pins()] == ["trusted"]
    assert sqz_compress(RAW, command=COMMAND, no_cache=True).plugin == "declarative"


def test_a_pin_is_the_content_hash_not_the_file_date(project):
    spec = _put(project)
    trust_paths(None)
    st = os.stat(spec)
    text = spec.read_text()
    spec.write_text(text.replace("'^fatal: '", "'^fatai: '"))  # same size, other content
    os.utime(spec, ns=(st.st_atime_ns, st.st_mtime_ns))  # and the old date
    assert os.stat(spec).st_size == st.st_size
    assert active()["untrusted"][0]["state"] == "changed"


def test_revoke_and_the_trust_file(project):
    spec = _put(project)
    done, _ = trust_paths(None)
    with open(trust_path()) as fh:
        data = json.load(fh)
    assert list(data["trusted"]) == [os.path.realpath(spec)]
    assert data["trusted"][os.path.realpath(spec)]["sha256"] == done[0]["sha256"]
    assert oct(os.stat(trust_path()).st_mode & 0o777) == "0o600"
    assert revoke_paths(None) == [os.path.realpath(spec)]
    assert active()["untrusted"][0]["state"] == "untrusted"


def test_a_broken_spec_is_not_trusted(project):
    bad = project / ".sqz" / "formatters" / "bad.yaml"
    bad.write_text("name: bad\nmatch: {program: tool}\ndrop: ['(a+)+']\n")
    done, refused = trust_paths(None)
    assert done == [] and "nested quantifier" in refused[0]["reason"] and "bad.yaml:3" in refused[0]["reason"]


def test_user_level_specs_need_no_trust(config_home, tmp_path, monkeypatch, sqz_compress):
    user = config_home / "sqz" / "formatters"
    user.mkdir(parents=True)
    shutil.copy(EXAMPLES / "ansible-playbook.yaml", user / "ansible.yaml")
    monkeypatch.chdir(tmp_path)
    assert [s["origin"] for s in active()["specs"]] == ["user"]
    assert sqz_compress(RAW, command=COMMAND, no_cache=True).plugin == "declarative"


def test_project_specs_are_tried_before_user_specs(project, config_home):
    user = config_home / "sqz" / "formatters"
    user.mkdir(parents=True)
    (user / "a.yaml").write_text("name: mine\nmatch: {program: tool}\n")
    (project / ".sqz" / "formatters" / "b.yaml").write_text("name: theirs\nmatch: {program: tool}\n")
    trust_paths(None)
    assert [s["name"] for s in active()["specs"]] == ["theirs", "mine"]
