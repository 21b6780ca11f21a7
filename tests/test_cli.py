"""The `risc` command as a shell uses it: its version, and output piped into a reader that stops early."""

from __future__ import annotations

import os
import subprocess
import sys
from importlib import metadata
from pathlib import Path

from tests.terminal_support import modules_loaded

ROOT = Path(__file__).resolve().parent.parent


def risc(*args: str, **options: object) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "risc", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=30,
        check=False,
        **options,
    )  # type: ignore[call-overload]


def test_risc_version_names_the_installed_release() -> None:
    done = risc("--version")
    assert done.returncode == 0
    assert done.stdout.strip() == f"risc {metadata.version('risc')}"


def test_output_into_a_pipe_whose_reader_has_gone_ends_quietly() -> None:
    """`risc maps list | head -1`: the reader may be gone before the command writes; no traceback for that."""
    read, write = os.pipe()
    os.close(read)  # the reader left before a single line was written
    try:
        done = subprocess.run(
            [sys.executable, "-m", "risc", "maps", "list"],
            cwd=ROOT,
            stdout=write,
            stderr=subprocess.PIPE,
            text=True,
            timeout=30,
            check=False,
        )
    finally:
        os.close(write)
    assert "Traceback" not in done.stderr and "BrokenPipeError" not in done.stderr, done.stderr
    assert done.returncode == 1


def test_a_long_output_cut_short_by_head_in_a_shell() -> None:
    done = subprocess.run(
        f"'{sys.executable}' -m risc protocol schema | head -1",
        shell=True,
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=30,
        check=False,
    )
    assert done.stdout == "{\n"
    assert done.stderr == "", done.stderr


def test_a_command_loads_only_its_own_module_and_help_still_lists_every_command() -> None:
    """`risc client` starts a terminal client: it need not load the server (`risc server` describes its options by
    loading it), which would only make every client start slower."""
    loaded = modules_loaded("from risc.cli import build_parser; build_parser('client')", ("server.", "risc.commands."))
    assert loaded == ["risc.commands.client"], loaded
    listed = risc("--help").stdout
    assert all(f"    {command} " in listed or f"    {command}\n" in listed for command in ("client", "server", "play"))
    assert "client" in risc("clien").stderr, "a command typed wrong is told among all of them"
