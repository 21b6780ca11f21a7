"""A throwaway PostgreSQL for the tests: its own cluster in a temporary directory, listening on a unix socket only,
started once for the test run and removed at its end; each test that asks gets a database of its own.

initdb and pg_ctl refuse to run as root, so as root they run as the `postgres` user (runuser); as anyone else they
run as that user. A machine without PostgreSQL fails the tests that need it, saying how to install it: nothing is
skipped.
"""

from __future__ import annotations

import contextlib
import glob
import itertools
import os
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlparse

INSTALL_HINT = (
    "PostgreSQL's server programs (initdb, pg_ctl) are needed for the store's tests: install them with "
    "`apt-get install postgresql` (Debian, Ubuntu) or your system's package; .ci/run does it by itself"
)


def server_programs() -> Path:
    """The folder holding initdb and pg_ctl: Debian keeps them off PATH, under /usr/lib/postgresql/VERSION/bin."""
    found = shutil.which("initdb")
    if found is not None and shutil.which("pg_ctl") is not None:
        return Path(found).resolve().parent
    versions = sorted(
        glob.glob("/usr/lib/postgresql/*/bin/initdb"),
        key=lambda p: int(Path(p).parent.parent.name) if Path(p).parent.parent.name.isdigit() else 0,
    )
    if versions:
        return Path(versions[-1]).parent
    raise RuntimeError(INSTALL_HINT)


def _as_owner(command: list[str]) -> list[str]:
    """Run as the cluster's owner: `postgres` when the tests run as root (initdb refuses root), else ourselves."""
    if os.geteuid() == 0:
        return ["runuser", "-u", "postgres", "--", *command]
    return command


@dataclass
class PostgresCluster:
    """A running throwaway cluster. `dsn(name)` addresses one of its databases over its unix socket."""

    directory: Path
    bin_dir: Path
    _names: Iterator[int] = field(default_factory=lambda: itertools.count(1))

    @property
    def socket_dir(self) -> Path:
        return self.directory

    def dsn(self, database: str = "postgres") -> str:
        return f"postgresql://postgres@/{database}?host={self.socket_dir}"

    def end_sessions(self, dsn: str, application_name: str, *, like: bool = False) -> int:
        """Terminate the sessions of one application on the database `dsn` names (`like`: of every application
        whose name matches the LIKE pattern), as an operator, a node fencing another or a restarting database
        would; returns how many ended."""
        database = urlparse(dsn).path.lstrip("/")
        ended = self.psql(
            "postgres",
            "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity "
            f"WHERE datname = '{database}' AND application_name {'LIKE' if like else '='} '{application_name}'",
        )
        return int(ended)

    def sessions(self, dsn: str) -> list[str]:
        """The application names of the sessions open on the database `dsn` names (psql's own left out)."""
        database = urlparse(dsn).path.lstrip("/")
        names = self.psql(
            "postgres",
            f"SELECT application_name FROM pg_stat_activity WHERE datname = '{database}' AND pid <> pg_backend_pid() "
            "ORDER BY application_name",
        )
        return [line for line in names.splitlines() if line]

    def psql(self, database: str, sql: str) -> str:
        """Run `sql` with psql and return what it printed (tuples only, unaligned)."""
        done = subprocess.run(
            ["psql", "-X", "-q", "-t", "-A", "-v", "ON_ERROR_STOP=1", "-d", self.dsn(database), "-c", sql],
            capture_output=True,
            text=True,
            check=False,
        )
        if done.returncode != 0:
            raise RuntimeError(f"psql failed: {done.stderr.strip()}")
        return done.stdout.strip()

    def load(self, dsn: str, dump: Path) -> None:
        """Load a plain SQL dump (pg_dump's) into the database `dsn` names."""
        done = subprocess.run(
            ["psql", "-X", "-q", "-v", "ON_ERROR_STOP=1", "-d", dsn, "-f", str(dump)],
            capture_output=True,
            text=True,
            check=False,
        )
        if done.returncode != 0:
            raise RuntimeError(f"psql could not load {dump.name}: {done.stderr.strip()}")

    def new_database(self) -> str:
        name = f"risc_test_{os.getpid()}_{next(self._names)}"
        self.psql("postgres", f"CREATE DATABASE {name}")
        return name

    def drop_database(self, name: str) -> None:
        with contextlib.suppress(RuntimeError):
            self.psql("postgres", f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")

    def stop(self) -> None:
        subprocess.run(
            _as_owner([str(self.bin_dir / "pg_ctl"), "-D", str(self.directory / "data"), "-m", "fast", "-w", "stop"]),
            capture_output=True,
            check=False,
        )
        shutil.rmtree(self.directory, ignore_errors=True)


def start_cluster() -> PostgresCluster:
    """initdb a new cluster in a temporary directory and start it on a unix socket there (no TCP port)."""
    bin_dir = server_programs()
    directory = Path(tempfile.mkdtemp(prefix="risc-pg-"))
    if os.geteuid() == 0:
        shutil.chown(directory, "postgres", "postgres")
    data = directory / "data"
    try:
        subprocess.run(
            _as_owner(
                [
                    str(bin_dir / "initdb"),
                    "-D",
                    str(data),
                    "-U",
                    "postgres",
                    "--auth=trust",
                    "-E",
                    "UTF8",
                    "--no-locale",
                ]
            ),
            capture_output=True,
            text=True,
            check=True,
        )
        options = f"-c listen_addresses='' -c unix_socket_directories='{directory}' -c max_connections=300"
        subprocess.run(
            _as_owner(
                [
                    str(bin_dir / "pg_ctl"),
                    "-D",
                    str(data),
                    "-o",
                    options,
                    "-l",
                    str(directory / "log"),
                    "-w",
                    "-t",
                    "60",
                    "start",
                ]
            ),
            capture_output=True,
            text=True,
            check=True,
        )
    except subprocess.CalledProcessError as exc:
        log = (directory / "log").read_text() if (directory / "log").exists() else ""
        shutil.rmtree(directory, ignore_errors=True)
        raise RuntimeError(f"could not start a throwaway PostgreSQL: {exc.stderr or exc.stdout} {log}") from exc
    except FileNotFoundError as exc:  # runuser or the programs are missing
        shutil.rmtree(directory, ignore_errors=True)
        raise RuntimeError(f"{INSTALL_HINT} ({exc})") from exc
    return PostgresCluster(directory, bin_dir)


def restart(cluster: PostgresCluster) -> None:
    """Restart the cluster as an operator would (pg_ctl restart, fast: sessions are ended), with the options it was
    started with (pg_ctl keeps them)."""
    subprocess.run(
        _as_owner(
            [
                str(cluster.bin_dir / "pg_ctl"),
                "-D",
                str(cluster.directory / "data"),
                "-m",
                "fast",
                "-l",
                str(cluster.directory / "log"),
                "-w",
                "-t",
                "60",
                "restart",
            ]
        ),
        capture_output=True,
        text=True,
        check=True,
    )
