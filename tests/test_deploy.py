"""The Docker Compose files are what docker-compose reads (`docker-compose config`, which needs no engine): the
single server, and the cluster of three nodes on PostgreSQL behind a reverse proxy that routes to each node."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parent.parent


def composed(name: str) -> dict[str, object]:
    program = shutil.which("docker-compose")
    assert program is not None, (
        "docker-compose checks the compose files: install it with `apt-get install docker-compose` (.ci/run does)"
    )
    done = subprocess.run(
        [program, "-f", str(ROOT / name), "config"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
        env={"PATH": "/usr/bin:/bin", "RISC_HOST": "games.example"},
    )
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
        assert re.search(rf"handle_path /{name}/\* {{\s*reverse_proxy {name}:8765", caddyfile)
    assert re.search(r"reverse_proxy node1:8765 node2:8765 node3:8765", caddyfile)
    proxy = services["proxy"]
    assert proxy["image"].startswith("caddy") and proxy["ports"] == [{"published": 8765, "target": 8765}]
    assert any(volume.endswith("deploy/Caddyfile:/etc/caddy/Caddyfile:ro") for volume in proxy["volumes"])


@pytest.mark.parametrize("name", ["docker-compose.yml", "docker-compose.cluster.yml"])
def test_a_mail_catcher_shows_the_server_s_mail_at_once(name: str) -> None:
    services = composed(name)["services"]
    assert isinstance(services, dict)
    mailpit = services["mailpit"]
    assert mailpit["image"].startswith("axllent/mailpit") and mailpit["ports"][0]["target"] == 8025
    servers = [s for n, s in services.items() if n == "risc" or n.startswith("node")]
    assert servers and all(s["environment"]["RISC_SMTP"] == "smtp://mailpit:1025" for s in servers)
    assert all("mailpit" in s["depends_on"] for s in servers)
