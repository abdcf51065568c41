#!/usr/bin/env python3
"""Re-capture the real fixtures of the cloud formatter pack.

Builds throw-away Terraform configurations and kubectl/docker situations under
/tmp/sqz-capture/<name> (a fixed path, so captured text carries no random temp
dirs), runs the real programs, and writes ``tests/fixtures/<tool>/NAME.txt`` (raw
bytes, colours kept where the tool prints them) plus ``NAME.json`` sidecars.

Needs: terraform (any 1.x; captured with 1.11.4), kubectl (1.32), the docker CLI
(no daemon). Registry host names in captured text are replaced by
``pkgs.example.org`` here, so re-captures stay clean.

Fixtures marked "upstream sample" in their notes (docker ps/images/compose
ps/build, kubectl tables/describe/events/rollout, helm) cannot be produced on this
machine (no Docker daemon, no Kubernetes API server, no helm binary): they are
copied once from upstream documentation or upstream golden test files, and this
script does not touch them.

The held-out set (``heldout``) adds shapes the tuned fixtures lack: terraform's
machine-readable ``plan -json`` stream and ``validate -json`` diagnostics, kubectl's
offline renderings of real manifests (``kustomize``, ``create -f DIR -o json`` as a List, a
ConfigMap from files), and ``docker version`` without a daemon.

Usage: python scripts/capture_fixtures.py [terraform|kubectl|docker|heldout ...]
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

PACK = Path(__file__).resolve().parent.parent
FIXTURES = PACK / "tests" / "fixtures"
WORK = Path("/tmp/sqz-capture")

REDACT_NOTE = "Registry host names replaced by pkgs.example.org by the capture script."


def redact(data: bytes) -> bytes:
    """Registry hosts and local index paths must not appear in committed text."""
    from sqz_testing import redact_registries

    return redact_registries(data)


def tool_version(argv: list[str], env: dict | None = None) -> str:
    out = subprocess.run(argv, capture_output=True, env=env).stdout.decode()
    return out.strip().splitlines()[0]


def run(cmd: str, cwd: Path, env: dict) -> tuple[bytes, int]:
    """Run ``cmd`` in a shell with stderr merged into stdout, as a terminal shows it."""
    proc = subprocess.run(["bash", "-c", cmd + " 2>&1"], cwd=cwd, env=env, capture_output=True)
    return proc.stdout, proc.returncode


def write_fixture(tool: str, name: str, command: str, data: bytes, exit_code: int, produced_by: str,
                  facts: list[str], dropped: list[str] | None = None, notes: str = "") -> None:
    data = redact(data)
    text = data.decode("utf-8")
    plain = re.sub(r"\x1b\[[0-9;]*m", "", text)
    from sqz_testing import fact_kept

    for fact in facts:
        if not fact_kept(plain, fact):
            raise SystemExit(f"{tool}/{name}: fact not in captured output: {fact!r}")
    for gone in dropped or []:
        if gone not in plain:
            raise SystemExit(f"{tool}/{name}: dropped string not in captured output: {gone!r}")
    out = FIXTURES / tool
    out.mkdir(parents=True, exist_ok=True)
    (out / f"{name}.txt").write_bytes(data)
    meta = {"command": command, "produced_by": produced_by, "exit_code": exit_code, "facts": facts}
    if dropped:
        meta["dropped"] = dropped
    meta["notes"] = (notes + " " + REDACT_NOTE).strip()
    (out / f"{name}.json").write_text(json.dumps(meta, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"captured {tool}/{name} (exit {exit_code}, {len(data)} bytes)")


def fresh_dir(name: str) -> Path:
    d = WORK / name
    if d.exists():
        shutil.rmtree(d)
    d.mkdir(parents=True)
    return d


# --------------------------------------------------------------------------- terraform

TF_STAGE1 = """\
variable "env" {
  type    = string
  default = "staging"
}

locals {
  servers = {
    for i in range(1, 13) : format("web-%02d", i) => {
      cpu  = 2
      mem  = 4096
      zone = i % 2 == 0 ? "eu-west-1b" : "eu-west-1a"
    }
  }
}

module "network" {
  source = "./modules/network"
  cidr   = "10.20.0.0/16"
}

resource "terraform_data" "server" {
  for_each = local.servers
  input = {
    name      = each.key
    env       = var.env
    cpu       = each.value.cpu
    memory_mb = each.value.mem
    zone      = each.value.zone
    image     = "registry.internal/app:1.4.2"
    subnet    = module.network.subnet_id
    ports     = [80, 443]
  }
}

resource "terraform_data" "db" {
  input = {
    engine     = "postgres"
    version    = "15.4"
    storage_gb = 100
    multi_az   = false
  }
  triggers_replace = ["postgres-15"]
}

resource "terraform_data" "dns" {
  input = {
    zone    = "example.internal"
    ttl     = 300
    records = ["10.20.1.10", "10.20.1.11", "10.20.1.12"]
  }
}

resource "terraform_data" "bucket" {
  input = {
    name    = "artifacts"
    size_gb = 50
    tags    = ["team-platform", "cost-center-42"]
  }
}

resource "terraform_data" "legacy_queue" {
  count = 2
  input = "queue-${count.index}"
}

output "server_names" {
  value = sort(keys(local.servers))
}
"""

TF_MODULE = """\
variable "cidr" {
  type = string
}

resource "terraform_data" "vpc" {
  input = { cidr = var.cidr }
}

output "subnet_id" {
  value = "subnet-${substr(sha1(var.cidr), 0, 8)}"
}
"""


def tf_stage2(text: str) -> str:
    """Stage 2: a new image for three servers, two new servers, a db replacement, the queues gone."""
    text = text.replace("range(1, 13)", "range(1, 15)")
    text = text.replace('image     = "registry.internal/app:1.4.2"',
                        'image     = contains(["web-03", "web-04", "web-05"], each.key) ? '
                        '"registry.internal/app:1.5.0" : "registry.internal/app:1.4.2"')
    text = text.replace('version    = "15.4"', 'version    = "16.1"')
    text = text.replace('"postgres-15"', '"postgres-16"')
    text = text.replace("ttl     = 300", "ttl     = 60")
    text = text.replace("size_gb = 50", "size_gb = 80")
    start = text.index('resource "terraform_data" "legacy_queue"')
    end = text.index("output ", start)
    return text[:start] + text[end:]


TF_FAILING = """\
resource "terraform_data" "migration" {
  input = "schema-v42"

  provisioner "local-exec" {
    command = "echo 'applying schema-v42'; echo 'ERROR: relation \\"orders\\" already exists' >&2; exit 3"
  }
}
"""

TF_PRECONDITION = """\
variable "replicas" {
  type    = number
  default = 1
}

resource "terraform_data" "cluster" {
  input = { replicas = var.replicas }

  lifecycle {
    precondition {
      condition     = var.replicas >= 3
      error_message = "A production cluster needs at least 3 replicas."
    }
  }
}
"""

TF_INVALID = """\
resource "terraform_data" "app" {
  input   = "app"
  replica = 3
}

output "app_id" {
  value = terraform_data.application.id
}
"""

TF_PROVIDER = """\
terraform {
  required_providers {
    aws = {
      source  = "hashicorp/aws"
      version = "~> 5.0"
    }
  }
}

resource "terraform_data" "x" {
  input = "x"
}
"""


def capture_terraform() -> None:
    env = {k: v for k, v in os.environ.items() if k != "TF_CLI_CONFIG_FILE"}
    env.update(CHECKPOINT_DISABLE="1", TF_IN_AUTOMATION="", HOME="/tmp/sqz-capture")
    env.pop("TF_IN_AUTOMATION")
    version = tool_version(["terraform", "version"], env)  # "Terraform v1.11.4"
    d = fresh_dir("tf-infra")
    (d / "modules" / "network").mkdir(parents=True)
    (d / "modules" / "network" / "main.tf").write_text(TF_MODULE)
    (d / "main.tf").write_text(TF_STAGE1)

    out, rc = run("terraform init", d, env)
    write_fixture("terraform", "init_ok", "terraform init", out, rc, version,
                  ["- network in modules/network", "/builtin/terraform is built in to Terraform",
                   "Terraform has been successfully initialized!"],
                  ["You may now begin working with Terraform", "Initializing the backend..."],
                  "Offline init of a config with a local module and only the built-in terraform_data resource.")

    out, rc = run("terraform validate", d, env)
    write_fixture("terraform", "validate_ok", "terraform validate", out, rc, version,
                  ["Success! The configuration is valid."], notes="Valid configuration.")

    out, rc = run("terraform plan", d, env)
    write_fixture("terraform", "plan_create", "terraform plan", out, rc, version,
                  ['# terraform_data.server["web-01"] will be created', '# terraform_data.server["web-12"] will be created',
                   '# module.network.terraform_data.vpc will be created', '# terraform_data.legacy_queue[1] will be created',
                   '+ image     = "registry.internal/app:1.4.2"', '+ server_names = [',
                   "Plan: 18 to add, 0 to change, 0 to destroy."],
                  ["Resource actions are indicated with the following symbols:",
                   "Note: You didn't use the -out option to save this plan"],
                  "First plan of a fresh config: 16 creates (12 for_each servers, a db, 2 counted queues, a module resource). Colours as terraform prints them by default.")

    out, rc = run("terraform apply -auto-approve -no-color", d, env)
    write_fixture("terraform", "apply_create", "terraform apply -auto-approve -no-color", out, rc, version,
                  ["Apply complete! Resources: 18 added, 0 changed, 0 destroyed.", "server_names = [",
                   'terraform_data.server["web-07"]: Creation complete after 0s [id='],
                  ['terraform_data.server["web-07"]: Creating...'],
                  "Apply of the first stage; -no-color.")

    (d / "main.tf").write_text(tf_stage2(TF_STAGE1))
    out, rc = run("terraform plan", d, env)
    write_fixture("terraform", "plan_changes", "terraform plan", out, rc, version,
                  ['# terraform_data.db must be replaced', '~ "postgres-15" -> "postgres-16"',
                   '~ version    = "15.4" -> "16.1"',
                   '# terraform_data.legacy_queue[0] will be destroyed', '# terraform_data.legacy_queue[1] will be destroyed',
                   "(because terraform_data.legacy_queue is not in configuration)",
                   '# terraform_data.server["web-03"] will be updated in-place',
                   '~ image     = "registry.internal/app:1.4.2" -> "registry.internal/app:1.5.0"',
                   '# terraform_data.server["web-13"] will be created', '# terraform_data.server["web-14"] will be created',
                   "# (3 unchanged attributes hidden)",
                   "Plan: 3 to add, 5 to change, 3 to destroy.", "Changes to Outputs:", '+ "web-13",'],
                  ['terraform_data.server["web-01"]: Refreshing state...',
                   "Resource actions are indicated with the following symbols:"],
                  "Second stage against the applied state: 3 in-place updates, 1 replacement, 2 destroys, 2 creates, an output change.")

    out, rc = run("terraform apply -auto-approve", d, env)
    write_fixture("terraform", "apply_changes", "terraform apply -auto-approve", out, rc, version,
                  ["Apply complete! Resources: 3 added, 5 changed, 3 destroyed.",
                   '# terraform_data.db must be replaced', "terraform_data.legacy_queue[1]: Destruction complete after 0s",
                   'terraform_data.server["web-04"]: Modifications complete after 0s [id='],
                  ['terraform_data.server["web-04"]: Modifying... [id=', 'terraform_data.server["web-01"]: Refreshing state...'],
                  "Apply of the second stage, colours as printed by default.")

    out, rc = run("terraform show -json", d, env)
    write_fixture("terraform", "show_json", "terraform show -json", out, rc, version,
                  ['"format_version"', '"terraform_version"',
                   ["terraform_data.db", '"engine":"postgres"', '"triggers_replace":["postgres-16"]'],
                   ['"name":"web-03"', '"image":"registry.internal/app:1.5.0"', '"zone":"eu-west-1a"'],
                   ["module.network.terraform_data.vpc", '"cidr":"10.20.0.0/16"'],
                   ['"server_names"', '"web-14"']],
                  ['"sensitive_values":{"input":{"tags":[false,false]}', '"mode":"managed"'],
                  "State as JSON: terraform_show renders one resource a line, what the address says and what "
                  "every resource shares said once.")

    out, rc = run("terraform plan -detailed-exitcode -no-color", d, env)
    write_fixture("terraform", "plan_nochanges", "terraform plan -detailed-exitcode -no-color", out, rc, version,
                  ["No changes. Your infrastructure matches the configuration."],
                  ['terraform_data.server["web-01"]: Refreshing state...'],
                  "Plan right after apply: nothing to do.")

    d = fresh_dir("tf-fail")
    (d / "main.tf").write_text(TF_FAILING)
    run("terraform init", d, env)
    out, rc = run("terraform apply -auto-approve", d, env)
    write_fixture("terraform", "apply_error", "terraform apply -auto-approve", out, rc, version,
                  ["Error: local-exec provisioner error", "with terraform_data.migration,",
                   "on main.tf line 4, in resource \"terraform_data\" \"migration\":",
                   "Error running command", "exit status 3", 'ERROR: relation "orders" already exists'],
                  [], "A local-exec provisioner that exits 3 (the provisioner is built in, no download).")

    d = fresh_dir("tf-precondition")
    (d / "main.tf").write_text(TF_PRECONDITION)
    run("terraform init", d, env)
    out, rc = run("terraform plan", d, env)
    write_fixture("terraform", "plan_error", "terraform plan", out, rc, version,
                  ["Error: Resource precondition failed", "on main.tf line 11, in resource \"terraform_data\" \"cluster\":",
                   "var.replicas is 1", "A production cluster needs at least 3 replicas."],
                  [], "A lifecycle precondition that fails at plan time.")

    d = fresh_dir("tf-invalid")
    (d / "main.tf").write_text(TF_INVALID)
    run("terraform init", d, env)
    out, rc = run("terraform validate", d, env)
    write_fixture("terraform", "validate_error", "terraform validate", out, rc, version,
                  ["Error: Unsupported argument", "on main.tf line 3, in resource \"terraform_data\" \"app\":",
                   'An argument named "replica" is not expected here.',
                   "Error: Reference to undeclared resource", "on main.tf line 7, in output \"app_id\":",
                   'A managed resource "terraform_data" "application" has not been declared in'],
                  [], "Two configuration errors.")

    d = fresh_dir("tf-provider")
    (d / "main.tf").write_text(TF_PROVIDER)
    out, rc = run("terraform init", d, env)
    write_fixture("terraform", "init_provider_error", "terraform init", out, rc, version,
                  ["Error: Failed to query available provider packages",
                   "Could not retrieve the list of available versions for provider", "hashicorp/aws"],
                  ["Initializing the backend..."],
                  "The provider registry cannot be reached from this machine: the real error terraform prints.")


# --------------------------------------------------------------------------- kubectl / docker errors

def capture_kubectl() -> None:
    d = fresh_dir("kubectl")
    env = dict(os.environ, KUBECONFIG=str(d / "kubeconfig-none"), HOME=str(d))
    version = "kubectl " + tool_version(["kubectl", "version", "--client"], env)
    (d / "deploy.yaml").write_text(
        "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\n  labels: {app: web}\nspec:\n"
        "  replicas: 3\n  selector:\n    matchLabels: {app: web}\n  template:\n    metadata:\n"
        "      labels: {app: web}\n    spec:\n      containers:\n      - name: web\n        image: nginx:1.27\n"
        "        ports:\n        - containerPort: 80\n")
    out, rc = run("kubectl get pods", d, env)
    write_fixture("kubectl", "get_no_cluster", "kubectl get pods", out, rc, version,
                  ["The connection to the server localhost:8080 was refused - did you specify the right host or port?",
                   'couldn\'t get current server API group list: Get \\"http://localhost:8080/api?timeout=32s\\": dial tcp 127.0.0.1:8080: connect: connection refused'],
                  [], "No cluster and no kubeconfig: kubectl's real error (client-go repeats its discovery error).")
    out, rc = run("kubectl apply -f deploy.yaml", d, env)
    write_fixture("kubectl", "apply_no_cluster", "kubectl apply -f deploy.yaml", out, rc, version,
                  ['error: error validating "deploy.yaml": error validating data: failed to download openapi',
                   "turn validation off with --validate=false"],
                  [], "apply with no reachable API server.")
    out, rc = run("kubectl create deployment web --image=nginx:1.27 --replicas=3 --dry-run=client -o yaml", d, env)
    write_fixture("kubectl", "create_dry_run_yaml",
                  "kubectl create deployment web --image=nginx:1.27 --replicas=3 --dry-run=client -o yaml",
                  out, rc, version, ["image: nginx:1.27", "replicas: 3"], [],
                  "Client-side dry run works offline; YAML is left to the generic stages.")
    out, rc = run("kubectl set image -f deploy.yaml web=nginx:1.28 --local -o json", d, env)
    write_fixture("kubectl", "set_image_local_json", "kubectl set image -f deploy.yaml web=nginx:1.28 --local -o json",
                  out, rc, version, [["image", "nginx:1.28"]], [],
                  "Offline --local edit printed as JSON; left to the generic JSON stage.")


def capture_docker() -> None:
    d = fresh_dir("docker")
    env = dict(os.environ, HOME=str(d), DOCKER_HOST="unix:///var/run/docker.sock")
    version = tool_version(["docker", "--version"], env)
    for name, cmd in (("ps_no_daemon", "docker ps"), ("build_no_daemon", "docker build -t app ."),
                      ("logs_no_daemon", "docker logs web")):
        (d / "Dockerfile").write_text("FROM scratch\nCOPY . /\n")
        out, rc = run(cmd, d, env)
        first = out.decode().strip().splitlines()[-1]
        write_fixture("docker", name, cmd, out, rc, version, [first], [],
                      "No Docker daemon runs here: the client's real error.")

# --------------------------------------------------------------------------- held-out shapes

KUSTOMIZATION = """\
namePrefix: shop-
commonLabels:
  app.kubernetes.io/part-of: shop
images:
- name: ghcr.example/shop/api
  newTag: "2.7.1"
resources:
- deployment.yaml
- service.yaml
configMapGenerator:
- name: api-config
  literals:
  - LOG_LEVEL=info
  - CACHE_TTL_SECONDS=300
"""

SHOP_DEPLOYMENT = """\
apiVersion: apps/v1
kind: Deployment
metadata:
  name: api
spec:
  replicas: 4
  selector:
    matchLabels: {app: api}
  template:
    metadata:
      labels: {app: api}
    spec:
      containers:
      - name: api
        image: ghcr.example/shop/api:latest
        args: ["--port=8080", "--metrics-port=9090"]
        ports:
        - {name: http, containerPort: 8080}
        - {name: metrics, containerPort: 9090}
        envFrom:
        - configMapRef: {name: api-config}
        resources:
          requests: {cpu: 250m, memory: 256Mi}
          limits: {cpu: "1", memory: 512Mi}
        readinessProbe:
          httpGet: {path: /healthz, port: http}
          periodSeconds: 5
      - name: log-shipper
        image: fluent/fluent-bit:3.1
        resources:
          limits: {memory: 128Mi}
"""

SHOP_SERVICE = """\
apiVersion: v1
kind: Service
metadata:
  name: api
spec:
  selector: {app: api}
  ports:
  - {name: http, port: 80, targetPort: http}
  - {name: metrics, port: 9090, targetPort: metrics}
"""

SHOP_JOB = """\
apiVersion: batch/v1
kind: CronJob
metadata:
  name: nightly-report
spec:
  schedule: "30 2 * * *"
  concurrencyPolicy: Forbid
  jobTemplate:
    spec:
      backoffLimit: 2
      template:
        spec:
          restartPolicy: OnFailure
          containers:
          - name: report
            image: ghcr.example/shop/report:1.3.0
            command: ["python", "-m", "report", "--since=24h"]
"""

NGINX_CONF = """\
server {
    listen 8080;
    server_name shop.example.internal;
    location /api/ {
        proxy_pass http://shop-api:80/;
        proxy_read_timeout 30s;
    }
    location /healthz {
        return 200 'ok';
    }
}
"""


def capture_heldout() -> None:
    d = fresh_dir("heldout-k8s")
    env = dict(os.environ, KUBECONFIG=str(d / "kubeconfig-none"), HOME=str(d))
    kv = "kubectl " + tool_version(["kubectl", "version", "--client"], env)
    (d / "base").mkdir()
    (d / "base" / "kustomization.yaml").write_text(KUSTOMIZATION)
    (d / "base" / "deployment.yaml").write_text(SHOP_DEPLOYMENT)
    (d / "base" / "service.yaml").write_text(SHOP_SERVICE)
    (d / "manifests").mkdir()
    (d / "manifests" / "deployment.yaml").write_text(SHOP_DEPLOYMENT)
    (d / "manifests" / "service.yaml").write_text(SHOP_SERVICE)
    (d / "manifests" / "cronjob.yaml").write_text(SHOP_JOB)
    (d / "conf").mkdir()
    (d / "conf" / "nginx.conf").write_text(NGINX_CONF)
    (d / "conf" / "robots.txt").write_text("User-agent: *\nDisallow: /api/\n")
    for name, cmd in HELDOUT_K8S:
        out, rc = run(cmd, d, env)
        write_fixture("kubectl", name, cmd, out, rc, kv, *HELDOUT_FACTS.get(name, ([], [], "")))

    env = {k: v for k, v in os.environ.items() if k not in ("TF_CLI_CONFIG_FILE", "TF_IN_AUTOMATION")}
    env.update(CHECKPOINT_DISABLE="1", HOME="/tmp/sqz-capture")
    tv = tool_version(["terraform", "version"], env)
    d = fresh_dir("heldout-tf")
    (d / "modules" / "network").mkdir(parents=True)
    (d / "modules" / "network" / "main.tf").write_text(TF_MODULE)
    (d / "main.tf").write_text(TF_STAGE1)
    run("terraform init", d, env)
    for name, cmd in (("plan_json", "terraform plan -json"),):
        out, rc = run(cmd, d, env)
        write_fixture("terraform", name, cmd, out, rc, tv, *HELDOUT_FACTS.get(name, ([], [], "")))
    d = fresh_dir("heldout-tf-invalid")
    (d / "main.tf").write_text(TF_INVALID)
    run("terraform init", d, env)
    out, rc = run("terraform validate -json", d, env)
    write_fixture("terraform", "validate_json_error", "terraform validate -json", out, rc, tv,
                  *HELDOUT_FACTS.get("validate_json_error", ([], [], "")))
    d = fresh_dir("heldout-tf-precondition")
    (d / "main.tf").write_text(TF_PRECONDITION)
    run("terraform init", d, env)
    out, rc = run("terraform plan -json", d, env)
    write_fixture("terraform", "plan_json_error", "terraform plan -json", out, rc, tv,
                  *HELDOUT_FACTS.get("plan_json_error", ([], [], "")))

    d = fresh_dir("heldout-docker")
    env = dict(os.environ, HOME=str(d), DOCKER_HOST="unix:///var/run/docker.sock")
    dv = tool_version(["docker", "--version"], env)
    out, rc = run("docker version", d, env)
    write_fixture("docker", "version_no_daemon", "docker version", out, rc, dv,
                  *HELDOUT_FACTS.get("version_no_daemon", ([], [], "")))


HELDOUT_K8S = (
    ("kustomize_shop", "kubectl kustomize base"),
    ("create_f_no_cluster", "kubectl create -f manifests --validate=false --dry-run=client -o json"),
    ("label_local_json", "kubectl label -f manifests --local tier=backend -o json"),
    ("configmap_from_files_yaml",
     "kubectl create configmap web-conf --from-file=conf --from-literal=MODE=edge --dry-run=client -o yaml"),
)

# name -> (facts, dropped, notes): picked from the raw output of each command
HELDOUT_FACTS: dict[str, tuple[list, list, str]] = {
    "kustomize_shop": (
        ["# Warning: 'commonLabels' is deprecated. Please use 'labels' instead.",
         ["name", "shop-api-config-56b8k57t92"], ["CACHE_TTL_SECONDS", "300"], ["LOG_LEVEL", "info"],
         ["image", "ghcr.example/shop/api:2.7.1"], ["image", "fluent/fluent-bit:3.1"], ["replicas", "4"],
         ["kind", "Service"], ["kind", "Deployment"], ["kind", "ConfigMap"], ["port", "9090"],
         ["memory", "512Mi"], ["cpu", "250m"], ["path", "/healthz"], ["- --metrics-port=9090"]],
        [], "kustomize build (offline) of a base with a name prefix, common labels, an image tag and a "
            "generated ConfigMap: three documents."),
    "create_f_no_cluster": (
        ['unable to recognize "manifests/cronjob.yaml"', 'unable to recognize "manifests/deployment.yaml"',
         'unable to recognize "manifests/service.yaml"',
         "dial tcp 127.0.0.1:8080: connect: connection refused"],
        [], "create -f needs the API server to map kinds even in a client dry run: the real error, no cluster here."),
    "label_local_json": (
        [["kind", "CronJob"], ["kind", "Deployment"], ["kind", "Service"], ["tier", "backend"],
         ["schedule", "30 2 * * *"], ["image", "ghcr.example/shop/report:1.3.0"],
         ["image", "ghcr.example/shop/api:latest"], ["replicas", "4"], ["concurrencyPolicy", "Forbid"],
         ["targetPort", "metrics"], ["periodSeconds", "5"]],
        [], "An offline label edit of three manifests: kubectl prints three JSON documents one after the other."),
    "configmap_from_files_yaml": (
        [["MODE", "edge"], "nginx.conf: |", "proxy_pass http://shop-api:80/;", "return 200 'ok';",
         "robots.txt: |", "Disallow: /api/", ["name", "web-conf"]],
        [], "A ConfigMap from a directory of files (block scalars) and a literal."),
    "plan_json": (
        [["terraform_data.db", "Plan to create"], ["web-07", "Plan to create"], ["web-12", "Plan to create"],
         ["module.network.terraform_data.vpc", "Plan to create"], ["terraform_data.legacy_queue[1]", "Plan to create"],
         "Plan: 18 to add, 0 to change, 0 to destroy.", ["server_names", "create"]],
        [], "terraform's machine-readable UI stream (one JSON object a line) for the first plan of the "
            "plan_create configuration."),
    "validate_json_error": (
        [["valid", "false"], ["error_count", "2"], ["summary", "Unsupported argument"],
         'An argument named \\"replica\\" is not expected here.', ["summary", "Reference to undeclared resource"],
         ["filename", "main.tf"], ["code", "replica = 3"], ["code", "value = terraform_data.application.id"]],
        [], "validate_error's configuration, diagnostics as JSON."),
    "plan_json_error": (
        ["Error: Resource precondition failed", "A production cluster needs at least 3 replicas.",
         ["var.replicas", "is 1"], ["main.tf", "line", "11"], "Plan: 0 to add, 0 to change, 0 to destroy."],
        [], "plan_error's failing precondition as terraform's JSON stream."),
    "version_no_daemon": (
        [["Version:", "28.2.2"], ["API version:", "1.50"], ["Go version:", "go1.24.3"], ["Git commit:", "e6534b4"],
         ["OS/Arch:", "linux/amd64"],
         "Cannot connect to the Docker daemon at unix:///var/run/docker.sock. Is the docker daemon running?"],
        [], "The client's half of docker version, then the daemon error (exit 1)."),
}


def main(argv: list[str]) -> None:
    wanted = set(argv) or {"terraform", "kubectl", "docker"}
    if "terraform" in wanted:
        capture_terraform()
    if "kubectl" in wanted:
        capture_kubectl()
    if "docker" in wanted:
        capture_docker()
    if "heldout" in wanted:
        capture_heldout()


if __name__ == "__main__":
    main(sys.argv[1:])
