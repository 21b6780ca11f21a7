"""The Docker Compose files are what docker-compose reads (`docker-compose config`, which needs no engine): the
single server, and the cluster of three nodes on PostgreSQL behind a reverse proxy that routes to each node, with
Prometheus scraping every node and Grafana showing a dashboard of what they expose."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parent.parent


SET = {"RISC_HOST": "games.example", "POSTGRES_PASSWORD": "a long passphrase"}
"""What an operator sets before starting the cluster."""


def compose_config(name: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    program = shutil.which("docker-compose")
    assert program is not None, (
        "docker-compose checks the compose files: install it with `apt-get install docker-compose` (.ci/run does)"
    )
    return subprocess.run(
        [program, "-f", str(ROOT / name), "config"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
        env={"PATH": "/usr/bin:/bin", **env},
    )


def composed(name: str) -> dict[str, object]:
    done = compose_config(name, SET)
    assert done.returncode == 0 and not done.stderr.strip(), done.stderr
    config = yaml.safe_load(done.stdout)
    assert isinstance(config, dict)
    return config


@pytest.mark.parametrize("name", ["docker-compose.yml", "docker-compose.cluster.yml"])
def test_each_compose_file_is_clean(name: str) -> None:
    assert composed(name)["services"]


def test_the_cluster_is_three_nodes_on_postgres_behind_a_proxy_routing_to_each() -> None:
    services = composed("docker-compose.cluster.yml")["services"]
    assert isinstance(services, dict)
    postgres = services["postgres"]
    assert "pg_isready" in postgres["healthcheck"]["test"] and postgres["volumes"]
    nodes = [name for name in services if name.startswith("node")]
    assert nodes == ["node1", "node2", "node3"]
    caddyfile = (ROOT / "deploy" / "Caddyfile").read_text()
    for name in nodes:
        node = services[name]
        assert node["depends_on"]["postgres"]["condition"] == "service_healthy"
        assert node["environment"]["RISC_STORE"].startswith("postgresql://")
        command = node["command"]
        assert command[command.index("--node-id") + 1] == name
        public = command[command.index("--public-url") + 1]
        assert public == f"ws://games.example:8765/{name}/"
        assert re.search(rf"handle_path /{name}/\* {{\s*respond /metrics 404\s*reverse_proxy {name}:8765", caddyfile)
    assert re.search(r"reverse_proxy node1:8765 node2:8765 node3:8765", caddyfile)
    assert "health_uri /readyz" in caddyfile  # a node stopping or without its database gets no new players
    assert caddyfile.count("respond /metrics 404") == 4  # the nodes' figures are Prometheus', not the players'
    proxy = services["proxy"]
    assert proxy["image"].startswith("caddy") and proxy["ports"] == [{"published": 8765, "target": 8765}]
    assert any(volume.endswith("deploy/Caddyfile:/etc/caddy/Caddyfile:ro") for volume in proxy["volumes"])


@pytest.mark.parametrize("unset", ["RISC_HOST", "POSTGRES_PASSWORD"])
def test_the_cluster_refuses_to_start_without_its_host_and_database_password(unset: str) -> None:
    """Unset, they fell back to `localhost` (a public URL no player can reach) and `risc` (a password anyone
    guesses) without a word."""
    done = compose_config("docker-compose.cluster.yml", {k: v for k, v in SET.items() if k != unset})
    assert done.returncode != 0 and f"set {unset}" in done.stderr, done.stderr


def test_prometheus_scrapes_every_node_and_grafana_shows_what_they_expose() -> None:
    from server.metrics import Metrics

    services = composed("docker-compose.cluster.yml")["services"]
    assert isinstance(services, dict)
    nodes = sorted(name for name in services if name.startswith("node"))
    prometheus = yaml.safe_load((ROOT / "deploy" / "prometheus.yml").read_text())
    (job,) = prometheus["scrape_configs"]
    assert job["metrics_path"] == "/metrics"
    assert job["static_configs"][0]["targets"] == [f"{n}:8765" for n in nodes]
    assert any(
        v.endswith("deploy/prometheus.yml:/etc/prometheus/prometheus.yml:ro") for v in services["prometheus"]["volumes"]
    )
    for name in ("prometheus", "grafana"):  # this machine only
        assert all(str(p).startswith("127.0.0.1:") for p in services[name]["ports"]), services[name]["ports"]
    source = yaml.safe_load((ROOT / "deploy/grafana/provisioning/datasources/prometheus.yml").read_text())
    assert source["datasources"][0]["url"] == "http://prometheus:9090"

    suffixes = {"counter": ["_total"], "histogram": ["_bucket", "_count", "_sum"], "gauge": [""]}
    exposed = {f.name + end for f in Metrics().registry.collect() for end in suffixes[f.type]}
    dashboard = json.loads((ROOT / "deploy/grafana/dashboards/risc-cluster.json").read_text())
    asked = {
        name
        for panel in dashboard["panels"]
        for target in panel["targets"]
        for name in re.findall(r"\b(risc_[a-z_]+)", target["expr"])
    }
    assert asked and asked <= exposed, asked - exposed  # every figure it draws is one a node gives


@pytest.mark.parametrize("name", ["docker-compose.yml", "docker-compose.cluster.yml"])
def test_a_mail_catcher_shows_the_server_s_mail_at_once(name: str) -> None:
    services = composed(name)["services"]
    assert isinstance(services, dict)
    mailpit = services["mailpit"]
    assert mailpit["image"].startswith("axllent/mailpit") and mailpit["ports"][0]["target"] == 8025
    servers = [s for n, s in services.items() if n == "risc" or n.startswith("node")]
    assert servers and all(s["environment"]["RISC_SMTP"] == "smtp://mailpit:1025" for s in servers)
    assert all("mailpit" in s["depends_on"] for s in servers)
