"""Real terminals for the tests: `risc` run in a pseudo-terminal of a given size, typed into and read as a player
would, and a real server in a process of its own.

A pty is the terminal's own test: the window size the client reads, the colours it writes, the line it wraps, and
the hangup a closed terminal sends. What the client wrote is kept whole (`raw`, escape sequences and all) and as
text (`text`, the escape sequences taken out), and a test waits for what it expects to see.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import re
import select
import signal
import struct
import subprocess
import sys
import termios
import threading
import time
from collections.abc import Iterator
from pathlib import Path

from client.core.paging import MORE

ROOT = Path(__file__).resolve().parent.parent
TIMEOUT = 15.0

_ESCAPE = re.compile(r"\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b[()][0-9A-Za-z]|\x1b[=>78]|\x1b\][^\x07]*\x07|\x07")


def plain(raw: str) -> str:
    """What the terminal shows as text: escape sequences out, line ends as \\n."""
    return re.sub(r"\r+\n?", "\n", _ESCAPE.sub("", raw))


class Terminal:
    """One `python -m risc ...` in a pseudo-terminal of `columns` by `rows`."""

    def __init__(self, args: list[str], env: dict[str, str], columns: int = 80, rows: int = 24) -> None:
        master, slave = os.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", rows, columns, 0, 0))
        self.master = master
        self.process = subprocess.Popen(
            [sys.executable, "-m", "risc", *args],
            cwd=ROOT,
            stdin=slave,
            stdout=slave,
            stderr=slave,
            env={
                **os.environ,
                "TERM": "xterm-256color",
                "PROMPT_TOOLKIT_NO_CPR": "1",
                "COLUMNS": str(columns),
                "LINES": str(rows),
                **env,
            },
            start_new_session=True,
            preexec_fn=_take_terminal,
            close_fds=True,
        )
        os.close(slave)
        self.raw = ""
        self._seen = 0
        self.closed = False

    def _read(self, wait: float) -> None:
        if self.closed:
            time.sleep(wait)
            return
        ready, _, _ = select.select([self.master], [], [], wait)
        if ready:
            try:
                data = os.read(self.master, 65536)
            except OSError:  # the child is gone and the pty hung up
                data = b""
            if not data:
                time.sleep(wait)
            self.raw += data.decode("utf-8", errors="replace")

    @property
    def text(self) -> str:
        return plain(self.raw)

    def expect(self, wanted: str, timeout: float = TIMEOUT) -> str:
        """Wait until `wanted` is shown after what was seen before; returns everything shown up to it."""
        return self._first_of((wanted,), timeout)

    def pages(self, wanted: str, timeout: float = TIMEOUT) -> str:
        """As `expect`, pressing Enter at each "(more: ..." on the way, as a player reads a long answer a screen
        at a time; returns everything shown up to `wanted`, the screens one after the other."""
        shown = ""
        while True:
            seen = self._first_of((wanted, MORE.strip()), timeout)
            shown += seen
            if seen.endswith(wanted):
                return shown
            self.type("")

    def _first_of(self, words: tuple[str, ...], timeout: float) -> str:
        """Wait until one of `words` is shown after what was seen before (the first to come); returns everything
        shown up to it."""
        wanted = words[0]
        end = time.monotonic() + timeout
        while True:
            text = self.text
            found = [(at, word) for word in words if (at := text.find(word, self._seen)) >= 0]
            if found:
                at, word = min(found)
                seen, self._seen = text[self._seen : at + len(word)], at + len(word)
                return seen
            if time.monotonic() > end:
                raise AssertionError(f"no {wanted!r} within {timeout} s; the terminal showed:\n{text[-3000:]}")
            if self.process.poll() is not None and not self._pending():
                raise AssertionError(
                    f"the program ended ({self.process.returncode}) before {wanted!r}; it showed:\n{text[-3000:]}"
                )
            self._read(0.05)

    def _pending(self) -> bool:
        ready, _, _ = select.select([self.master], [], [], 0)
        if ready:
            self._read(0)
            return True
        return False

    def type(self, line: str) -> None:
        os.write(self.master, line.encode() + b"\r")

    def hang_up(self, timeout: float = TIMEOUT) -> int:
        """Close the terminal, as a player closes its window: the program gets the hangup signal."""
        os.close(self.master)
        self.closed = True
        try:
            return self.process.wait(timeout)
        except subprocess.TimeoutExpired:
            self.process.kill()
            raise AssertionError("the program outlived its terminal") from None

    def wait(self, timeout: float = TIMEOUT) -> int:
        end = time.monotonic() + timeout
        while self.process.poll() is None and time.monotonic() < end:
            self._read(0.05)
        self._read(0)
        return self.process.wait(max(0.0, end - time.monotonic()))

    def stop(self) -> None:
        if self.process.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait(5)
        if not self.closed:
            os.close(self.master)
            self.closed = True


def _take_terminal() -> None:
    """In the child, once it leads a session of its own: the pty on its stdin becomes its controlling terminal."""
    fcntl.ioctl(0, termios.TIOCSCTTY, 0)


def modules_loaded(statement: str, wanted: tuple[str, ...]) -> list[str]:
    """The modules named (or under a package named) in `wanted` that a fresh Python has loaded after `statement`."""
    script = f"import sys; {statement}; print('\\n'.join(sorted(m for m in sys.modules if m.startswith({wanted!r}))))"
    loaded = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, check=True)
    return loaded.stdout.split()


@contextlib.contextmanager
def server_process(data_dir: Path, *extra: str) -> Iterator[str]:
    """`risc server` in a process of its own on a free port; yields its address."""
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "risc",
            "server",
            "--host",
            "127.0.0.1",
            "--port",
            "0",
            "--data-dir",
            str(data_dir),
            *extra,
        ],
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert process.stderr is not None
        end = time.monotonic() + TIMEOUT
        address = None
        while address is None and time.monotonic() < end:
            line = process.stderr.readline()
            if not line:
                break
            found = re.search(r"listening on 127\.0\.0\.1:(\d+)", line)
            if found:
                address = f"ws://127.0.0.1:{found.group(1)}"
        assert address is not None, "the server did not start"
        threading.Thread(target=process.stderr.read, daemon=True).start()  # its log, read so it never blocks
        yield address
    finally:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


@contextlib.contextmanager
def terminals() -> Iterator[list[Terminal]]:
    """Every terminal a test opens, stopped at the end whatever happened."""
    opened: list[Terminal] = []
    try:
        yield opened
    finally:
        for terminal in opened:
            terminal.stop()
