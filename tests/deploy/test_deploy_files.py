"""The deploy files, checked with what works offline: they parse, and the names, ports
and paths they share agree with each other and with the server."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import yaml

from server import native
from server.app.main import OWN_FILES
from server.app.settings import ENV_NAMES, Settings

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "deploy"
PORT = Settings().port


def load(name: str) -> object:
    return yaml.safe_load((DEPLOY / name).read_text())


def k8s(name: str) -> dict:
    doc = load(f"k8s/{name}")
    assert isinstance(doc, dict)
    return doc


def test_the_dockerfile_runs_the_server_unprivileged_with_a_healthcheck() -> None:
    text = (DEPLOY / "Dockerfile").read_text()
    assert text.count("FROM ") >= 2  # multi-stage
    assert re.search(r"^USER (?!root)\w+", text, re.M)
    assert f"EXPOSE {PORT}" in text
    # the port it asks is the one configured (tests/app/test_healthcheck.py runs it)
    assert "HEALTHCHECK" in text and "127.0.0.1:{port}/healthz" in text
    assert "os.environ.get('PATIENCE_PORT', '8765')" in text
    assert 'CMD ["patience-race-server"]' in text
    for variable in re.findall(r"(PATIENCE_[A-Z_]+)=", text):
        assert variable in (*ENV_NAMES.values(), native.ENV), variable


def test_the_image_compiles_the_move_path_and_runs_only_compiled() -> None:
    """The build stage compiles into the virtualenv the runtime stage copies, and checks
    the build is in use; the image refuses to start without it."""
    text = (DEPLOY / "Dockerfile").read_text()
    build, runtime = text.split("\nFROM ", 2)[1:]
    assert "gcc" in build and "patience-race-server native build" in build
    assert "native status | grep -qx compiled" in build
    venv = re.search(r"python -m venv (\S+)", build)
    assert venv is not None
    assert f"COPY --from=build {venv[1]} {venv[1]}" in runtime
    assert f"{native.ENV}=1" in runtime and "gcc" not in runtime


def test_the_image_installs_the_server_alone() -> None:
    """No extras (the terminal client's libraries, the embedded Redis), and mypy in a
    folder the runtime stage does not copy; the data directory a volume."""
    text = (DEPLOY / "Dockerfile").read_text()
    build, runtime = text.split("\nFROM ", 2)[1:]
    assert re.search(r"/opt/patience/bin/pip install --no-cache-dir \. ", build)
    assert ".[" not in build and "mypy" not in runtime
    mypy = re.search(r'pip install --no-cache-dir --target (\S+) "mypy', build)
    assert mypy is not None and not mypy[1].startswith("/opt/patience")
    assert f"PYTHONPATH={mypy[1]} /opt/patience/bin/patience-race-server native build" in build
    assert re.findall(r"^COPY --from=build (\S+)", runtime, re.M) == ["/opt/patience"]
    assert "VOLUME /data" in runtime and "PATIENCE_DATA_DIR=/data" in runtime


def test_compose_has_redis_with_a_volume_three_servers_and_haproxy() -> None:
    compose = load("compose.yaml")
    assert isinstance(compose, dict)
    services = compose["services"]
    assert set(services) == {"redis", "server", "haproxy"}
    redis = services["redis"]
    assert "--appendonly" in redis["command"] and "yes" in redis["command"]
    volume = redis["volumes"][0].split(":")[0]
    assert volume in compose["volumes"]
    server = services["server"]
    assert server["deploy"]["replicas"] == 3
    assert server["environment"]["PATIENCE_REDIS_URL"].startswith("redis://redis:")
    assert server["environment"]["PATIENCE_PORT"] == str(PORT)
    for variable in server["environment"]:
        assert variable in ENV_NAMES.values(), variable
    assert services["haproxy"]["ports"] == [f"${{PATIENCE_PUBLISHED_PORT:-{PORT}}}:{PORT}"]


def test_haproxy_balances_the_compose_servers_with_health_checks() -> None:
    cfg = (DEPLOY / "haproxy.cfg").read_text()
    assert f"bind *:{PORT}" in cfg
    assert "option httpchk GET /healthz" in cfg
    assert re.search(rf"server-template \w+ 3 server:{PORT} check", cfg)
    assert "timeout tunnel" in cfg  # websockets stay open


def test_kubernetes_deployment_service_and_budget_agree() -> None:
    deployment, service, budget = k8s("deployment.yaml"), k8s("service.yaml"), k8s("pdb.yaml")
    assert deployment["kind"] == "Deployment" and deployment["spec"]["replicas"] == 3
    labels = deployment["spec"]["template"]["metadata"]["labels"]
    assert deployment["spec"]["selector"]["matchLabels"] == labels
    assert service["spec"]["selector"] == labels
    assert budget["spec"]["selector"]["matchLabels"] == labels
    assert budget["spec"]["minAvailable"] < deployment["spec"]["replicas"]
    (container,) = deployment["spec"]["template"]["spec"]["containers"]
    ports = {p["name"]: p["containerPort"] for p in container["ports"]}
    assert ports == {"ws": PORT}
    assert service["spec"]["ports"][0]["targetPort"] == "ws"
    assert container["readinessProbe"]["httpGet"] == {"path": "/healthz", "port": "ws"}
    env = {e["name"]: e for e in container["env"]}
    assert set(env) <= set(ENV_NAMES.values())
    secret = k8s("secret.example.yaml")
    for item in env.values():
        ref = item.get("valueFrom", {}).get("secretKeyRef")
        if ref:
            assert ref["name"] == secret["metadata"]["name"]
            assert ref["key"] in secret["stringData"]
    assert deployment["spec"]["template"]["spec"]["securityContext"]["runAsNonRoot"]


def test_the_systemd_unit_runs_the_server_with_a_data_directory() -> None:
    unit = (DEPLOY / "patience-race.service").read_text()
    assert re.search(r"^ExecStart=\S+/patience-race-server$", unit, re.M)
    assert "KillSignal=SIGTERM" in unit
    # SIGTERM to the server alone: it stops its Redis and workers once drained (with
    # the default control-group, Redis went down while the server still drained)
    assert re.search(r"^KillMode=mixed$", unit, re.M)
    for variable in re.findall(r"^Environment=(PATIENCE_[A-Z_]+)=", unit, re.M):
        assert variable in ENV_NAMES.values(), variable
    # installed in place, with the Redis it starts: a plain install has no browser
    # client (client_web/ is beside the package, not in it), and no Redis to start
    assert re.search(r"pip install -e '\S+\[embedded\]'", unit), unit[:400]
    # room for every connection it lets in (systemd's 1,024 stalled it short of them)
    files = re.search(r"^LimitNOFILE=(\d+)$", unit, re.M)
    assert files is not None and int(files[1]) >= Settings().max_connections + OWN_FILES


def test_the_deploy_readme_lists_every_setting() -> None:
    readme = (DEPLOY / "README.md").read_text()
    for variable in ENV_NAMES.values():
        assert variable in readme, variable


def test_every_replica_gets_the_one_secret() -> None:
    """Compose gives its replicas the one PATIENCE_SECRET it is started with and will
    not start without; every Kubernetes replica reads it from the one Secret."""
    compose = load("compose.yaml")
    assert isinstance(compose, dict)
    secret = compose["services"]["server"]["environment"]["PATIENCE_SECRET"]
    assert re.fullmatch(r"\$\{PATIENCE_SECRET:\?[^}]+\}", secret), secret
    (container,) = k8s("deployment.yaml")["spec"]["template"]["spec"]["containers"]
    (env,) = [e for e in container["env"] if e["name"] == "PATIENCE_SECRET"]
    ref = env["valueFrom"]["secretKeyRef"]
    example = k8s("secret.example.yaml")
    assert example["kind"] == "Secret" and ref["name"] == example["metadata"]["name"]
    assert ref["key"] in example["stringData"]


def probe_seconds(probe: dict) -> float:
    """How long a probe lets a container fail before it acts: its first delay, then
    ``failureThreshold`` periods (Kubernetes' defaults where not given)."""
    delay = probe.get("initialDelaySeconds", 0)
    return float(delay + probe.get("failureThreshold", 3) * probe.get("periodSeconds", 10))


def test_kubernetes_probes_restart_no_pod_for_redis() -> None:
    """Readiness asks /healthz (Redis answers); liveness asks /livez, which answers
    whatever Redis does, so that a Redis outage restarts no pod; a startup probe holds
    liveness off while a process waits up to ``redis_load_timeout`` for a loading Redis
    before it listens (and then some, for the rooms it resumes)."""
    (container,) = k8s("deployment.yaml")["spec"]["template"]["spec"]["containers"]
    ready, live = container["readinessProbe"], container["livenessProbe"]
    start = container["startupProbe"]
    assert ready["httpGet"] == {"path": "/healthz", "port": "ws"}
    assert live["httpGet"] == {"path": "/livez", "port": "ws"}
    assert start["httpGet"] == {"path": "/livez", "port": "ws"}
    assert probe_seconds(start) >= Settings().redis_load_timeout + 30
    # a busy event loop is not a dead one: a few slow answers restart nothing
    assert probe_seconds(live) >= 30 and live.get("timeoutSeconds", 1) >= 3
    # a pod leaves the Service's endpoints within about 10 s of losing Redis
    assert probe_seconds(ready) <= 15


def test_every_probe_path_is_a_probe_route() -> None:
    """The paths the manifests and the image ask are routes answered as probes."""
    from server.app.transport.web import route

    (container,) = k8s("deployment.yaml")["spec"]["template"]["spec"]["containers"]
    paths = {container[p]["httpGet"]["path"] for p in container if p.endswith("Probe")}
    assert paths == {"/healthz", "/livez"}
    for path in paths:
        found = route(path)
        assert found is not None and found.route.probe, path


def test_kubernetes_counts_each_client_behind_the_ingress() -> None:
    """The ingress the README describes (ingress-nginx) sets X-Forwarded-For: the pods
    read it, so the per-address limits count players, not the ingress, and keep their
    cap; only the ingress controller's namespace reaches the pods, so no one names an
    address of their choosing by going around it."""
    (container,) = k8s("deployment.yaml")["spec"]["template"]["spec"]["containers"]
    env = {e["name"]: e.get("value") for e in container["env"]}
    assert env.get("PATIENCE_CLIENT_IP_HEADER") == "X-Forwarded-For"
    assert env.get("PATIENCE_MAX_CONNECTIONS_PER_IP", "64") != "0"
    ingress = k8s("ingress.yaml")
    assert ingress["kind"] == "Ingress" and ingress["spec"]["ingressClassName"] == "nginx"
    (rule,) = ingress["spec"]["rules"]
    (path,) = rule["http"]["paths"]
    service = k8s("service.yaml")
    backend = path["backend"]["service"]
    assert backend == {"name": service["metadata"]["name"], "port": {"name": "ws"}}
    # websockets stay open for longer than nginx's 60 s default
    annotations = ingress["metadata"]["annotations"]
    assert int(annotations["nginx.ingress.kubernetes.io/proxy-read-timeout"]) >= 3600
    policy = k8s("networkpolicy.yaml")
    labels = k8s("deployment.yaml")["spec"]["template"]["metadata"]["labels"]
    assert policy["spec"]["podSelector"]["matchLabels"] == labels
    (allowed,) = policy["spec"]["ingress"]
    (source,) = allowed["from"]
    assert source["namespaceSelector"]["matchLabels"] == {
        "kubernetes.io/metadata.name": "ingress-nginx"
    }
    readme = (DEPLOY / "README.md").read_text()
    assert "ingress-nginx" in readme and "externalTrafficPolicy: Local" in readme


def test_the_cluster_pulls_the_image_from_a_registry() -> None:
    """The Deployment names the image as pushed to a registry, tagged with the version
    (a cluster cannot pull the image ``docker build`` left on one machine), and the README
    says to push it there."""
    version = re.search(r'^version = "([^"]+)"', (ROOT / "pyproject.toml").read_text(), re.M)
    assert version is not None
    (container,) = k8s("deployment.yaml")["spec"]["template"]["spec"]["containers"]
    registry, _, image = container["image"].rpartition("/")
    assert "." in registry.split("/")[0], container["image"]  # a registry's host
    assert image == f"patience-race:{version[1]}"
    readme = (DEPLOY / "README.md").read_text()
    assert f"docker push {container['image']}" in readme


def test_the_readme_names_the_secret_and_its_keys() -> None:
    """Every key a replica reads from the Secret is called by its name, as a key of the
    Secret named as in the manifests."""
    readme = (DEPLOY / "README.md").read_text()
    secret = k8s("secret.example.yaml")["metadata"]["name"]
    assert f"Secret `{secret}`" in readme
    (container,) = k8s("deployment.yaml")["spec"]["template"]["spec"]["containers"]
    for item in container["env"]:
        ref = item.get("valueFrom", {}).get("secretKeyRef")
        if ref:
            assert f"key `{ref['key']}`" in readme, ref["key"]
            assert f"object (`{ref['key']}`)" not in readme


def test_the_env_file_of_the_secret_is_never_committed() -> None:
    ignored = subprocess.run(
        ["git", "check-ignore", "-q", "deploy/.env"], cwd=ROOT, capture_output=True
    )
    assert ignored.returncode == 0, "deploy/.env is not in .gitignore"


def test_the_image_ships_the_rules_pages_not_the_terminal_client() -> None:
    """The server serves the players' rules pages (``/rules/GAME``, ``/web/rules/GAME.txt``)
    from the :mod:`rulebook` package, which the image installs with the server (its pages
    as package data), and neither the terminal client's package nor its command, which
    cannot run without its libraries (``ModuleNotFoundError: rich``)."""
    text = (DEPLOY / "Dockerfile").read_text()
    build, _, runtime = text.split("\nFROM ", 3)[1:]
    assert "COPY client_cli" not in build + runtime
    assert "COPY rulebook ./rulebook" in build
    assert build.index("COPY rulebook") < build.index("pip install --no-cache-dir .")
    assert "rm /opt/patience/bin/patience-race" in build
    assert '! /opt/patience/bin/python -c "import client_cli.cli"' in build
    assert "docs/games" in runtime  # the pages of the `rules` request
    pyproject = (ROOT / "pyproject.toml").read_text()
    assert '"rulebook*"' in pyproject and 'rulebook = ["pages/*.txt"]' in pyproject


def test_the_runtime_image_has_no_pip() -> None:
    """pip, setuptools and wheel leave the base image's Python too: nothing installs at
    run time, and the build stops if pip is still there."""
    runtime = (DEPLOY / "Dockerfile").read_text().split("\nFROM ")[-1]
    assert "python -m pip uninstall --yes pip setuptools wheel" in runtime
    assert "! python -m pip --version" in runtime


def ignored_by_docker(path: str, patterns: list[str]) -> bool:
    """Whether Docker leaves ``path`` (a file's, from the build context's root) out of the
    context: the last of ``.dockerignore``'s patterns that matches it or a folder above
    it decides, a ``!`` one letting it back in (moby's patternmatcher; ``*`` within one
    name, ``**`` across folders)."""

    def matches(pattern: str, name: str) -> bool:
        parts = re.split(r"(\*\*/?|\*|\?)", pattern)
        regex = "".join(
            ".*"
            if p.startswith("**")
            else "[^/]*"
            if p == "*"
            else "[^/]"
            if p == "?"
            else re.escape(p)
            for p in parts
        )
        return re.fullmatch(regex, name) is not None

    steps = path.split("/")
    left_out = False
    for line in patterns:
        negated = line.startswith("!")
        pattern = line[1:] if negated else line
        above = ("/".join(steps[: n + 1]) for n in range(len(steps)))
        if any(matches(pattern.strip("/"), name) for name in above):
            left_out = not negated
    return left_out


def test_what_the_image_copies_is_in_its_build_context() -> None:
    """Every file the Dockerfile copies from the build context reaches it: ``.dockerignore``
    leaves everything out but what it lets back in, and the rules pages' package was
    once copied (``COPY rulebook``) but never let in, so no image could be built."""
    patterns = [
        line.strip()
        for line in (ROOT / ".dockerignore").read_text().splitlines()
        if line.strip() and not line.startswith("#")
    ]
    # (the forms the matcher knows: no character classes, escapes or spaces)
    assert all(re.fullmatch(r"!?[\w*./-]+", p) for p in patterns), patterns
    tracked = subprocess.run(
        ["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout.split()
    # (the matcher's own cases: as Docker reads them)
    assert ignored_by_docker("x/a.py", ["*"]) and not ignored_by_docker("x/a.py", ["*", "!x"])
    assert ignored_by_docker("x/y/__pycache__/a.pyc", ["**/__pycache__"])
    assert not ignored_by_docker("x/y.py", ["*.py/z"])
    sources = []
    for line in (DEPLOY / "Dockerfile").read_text().splitlines():
        words = line.split()
        if words[:1] == ["COPY"] and not any(w.startswith("--from") for w in words):
            sources += [w for w in words[1:-1] if not w.startswith("--")]
    assert "rulebook" in sources and "server" in sources
    for source in sources:
        files = [f for f in tracked if f == source or f.startswith(source.rstrip("/") + "/")]
        assert files, f"COPY {source}: no such file in the checkout"
        left_out = [f for f in files if ignored_by_docker(f, patterns)]
        assert not left_out, f"COPY {source}: .dockerignore leaves out {left_out[:3]}"


def test_the_image_check_looks_for_the_rules_pages_where_the_image_has_them() -> None:
    """``make deploy-check`` asks the built image for a rules page at the path the
    ``rulebook`` package installs it to: it asked for the terminal client's old copy
    (``client_cli/rules``), which the image never has, so the check failed any image."""
    from deploy.check import IMAGE_CONTENTS

    found = re.search(r"site-packages/(\S+)", IMAGE_CONTENTS)
    assert found, IMAGE_CONTENTS
    installed = found.group(1)
    assert (ROOT / installed).is_file(), installed
    assert installed.split("/")[0] == "rulebook"
