"""`risc maps edit` as a map maker meets it: a real terminal (a pty), and files of commands.

The terminal tests start `python -m risc maps edit` on a pseudo-terminal, type as a person would (Tab, arrow
keys, Ctrl-D) and read what comes back, escape sequences removed. They wait for the text they expect with a
generous timeout instead of sleeping, so they are quick on a fast machine and still pass on a slow one.
"""

from __future__ import annotations

import fcntl
import os
import re
import select
import struct
import subprocess
import sys
import termios
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from risc.cli import main
from shared.maps import Continent, Territory, build_map, load_map
from shared.maps.native import write_native
from tests.map_editor_support import two_way

PROJECT = Path(__file__).resolve().parents[1]
_ESCAPES = re.compile(r"\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(\x07|\x1b\\)|\x1b[()][0-9A-Za-z]|\x1b[=>78]|\r")


class Terminal:
    """A program on a pseudo-terminal of 40 rows and 120 columns, and everything it has written."""

    def __init__(self, args: list[str], cwd: Path) -> None:
        master, slave = os.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 40, 120, 0, 0))
        env = {
            **os.environ,
            "TERM": "xterm",
            "PROMPT_TOOLKIT_NO_CPR": "1",
            "XDG_CONFIG_HOME": str(cwd / "config"),
            "PYTHONPATH": str(PROJECT),
        }
        self.process = subprocess.Popen(
            [sys.executable, "-m", "risc", "maps", "edit", *args],
            stdin=slave,
            stdout=slave,
            stderr=slave,
            cwd=cwd,
            env=env,
            start_new_session=True,
        )
        os.close(slave)
        self.fd = master
        self.raw = b""
        self.seen = 0

    @property
    def screen(self) -> str:
        return _ESCAPES.sub("", self.raw.decode("utf-8", "replace"))

    def _read(self, timeout: float) -> bool:
        ready, _, _ = select.select([self.fd], [], [], timeout)
        if not ready:
            return True
        try:
            data = os.read(self.fd, 65536)
        except OSError:  # EIO: the program closed the terminal
            data = b""
        self.raw += data
        return bool(data)

    def expect(self, wanted: str, timeout: float = 20.0) -> str:
        """Wait until `wanted` appears after what was expected before; the text up to it."""
        deadline = time.monotonic() + timeout
        while True:
            screen = self.screen
            at = screen.find(wanted, self.seen)
            if at >= 0:
                said, self.seen = screen[self.seen : at + len(wanted)], at + len(wanted)
                return said
            left = deadline - time.monotonic()
            if left <= 0 or not self._read(min(left, 0.2)):
                raise AssertionError(f"{wanted!r} did not appear; the terminal shows:\n{screen[-1500:]}")

    def type(self, keys: str) -> None:
        os.write(self.fd, keys.encode())

    def line(self, text: str) -> None:
        self.type(text + "\r")

    def exit_status(self, timeout: float = 20.0) -> int:
        deadline = time.monotonic() + timeout
        while self.process.poll() is None and time.monotonic() < deadline:
            self._read(0.1)
        return self.process.wait(timeout=max(0.1, deadline - time.monotonic()))

    def close(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()
        os.close(self.fd)


@pytest.fixture
def terminal(tmp_path: Path) -> Iterator[list[Terminal]]:
    started: list[Terminal] = []
    yield started
    for t in started:
        t.close()


def open_terminal(started: list[Terminal], tmp_path: Path, *args: str) -> Terminal:
    t = Terminal(list(args), tmp_path)
    started.append(t)
    return t


def test_the_shell_edits_refuses_asks_before_quitting_and_saves(terminal: list[Terminal], tmp_path: Path) -> None:
    t = open_terminal(terminal, tmp_path, "small.map")
    t.expect("this is a new map")
    t.expect("small.map>")
    t.line("frobnicate")
    t.expect('unknown command "frobnicate"')
    t.expect("small.map>")
    t.line('editcontinent -add North 3 -add "Far South" 2')
    t.expect('added continent "Far South", worth 2')
    t.expect("small.map*>")  # the prompt marks unsaved changes
    t.line("editcountry -add Narnia North -add Oz far")
    t.expect('added territory "Oz" to "Far South"')
    t.expect("small.map*>")
    t.line("editneighbor -add Narnia Oz")
    t.expect('"Narnia" and "Oz" now border each other')
    t.expect("small.map*>")
    t.line("quit")
    t.expect("the map has unsaved changes")
    t.expect("quit without saving? [y/N]")
    t.line("n")
    t.expect("not quitting")
    t.expect("small.map*>")
    assert not (tmp_path / "small.map").exists()
    t.line("savemap")
    t.expect(f"saved {Path('small.map')} (Domination): small, 2 territories, 2 continents")
    t.expect("small.map>")
    t.line("quit")
    assert t.exit_status() == 0
    saved = load_map(tmp_path / "small.map")
    assert saved.names == ("Narnia", "Oz") and two_way(saved) == {frozenset(("Narnia", "Oz"))}
    assert [c.name for c in saved.continents] == ["North", "Far_South"]


def test_the_shell_completes_names_recalls_lines_and_takes_ctrl_d_as_quit(
    terminal: list[Terminal], tmp_path: Path
) -> None:
    path = tmp_path / "realm.toml"
    realm = build_map(
        "Realm",
        [Territory("Narnia", "West"), Territory("Oz", "West"), Territory("Gondor", "East")],
        {"Narnia": ["Oz"], "Oz": ["Narnia", "Gondor"], "Gondor": ["Oz"]},
        [Continent("West", 2), Continent("East", 1)],
    )
    path.write_text(write_native(realm), encoding="utf-8")
    t = open_terminal(terminal, tmp_path, "realm.toml")
    t.expect("opened realm.toml (native): Realm, 3 territories, 2 continents")
    t.expect("realm.toml>")
    t.type("showm\t")  # completes the command
    t.expect("showmap")
    t.line("")
    t.expect("Territories:")
    t.expect("realm.toml>")
    t.type("\x1b[A")  # the up arrow recalls the line before
    t.expect("showmap")
    t.line("")
    t.expect("Territories:")
    t.expect("realm.toml>")
    t.type("editcountry -remove Nar\t")  # completes a territory of the map
    t.expect("-remove Narnia")
    t.line("")
    t.expect('removed territory "Narnia" and its borders with "Oz"')
    t.expect("realm.toml*>")
    t.type("editcountry -add Rohan Ea\t")  # completes a continent
    t.expect("Rohan East")
    t.line("")
    t.expect('added territory "Rohan" to "East"')
    t.expect("realm.toml*>")  # keys typed before the prompt is up would meet the terminal's own line editing
    t.type("\x04")  # Ctrl-D is quit, which asks first
    t.expect("quit without saving? [y/N]")
    t.line("y")
    assert t.exit_status() == 0
    assert load_map(path) == realm, "quitting without saving left the file as it was"


# --- files of commands ------------------------------------------------------------------------------------------

SEED_COMMANDS = """\
# The seed's map, with the example's colours as continents, saved in the three formats.
editcontinent -add Green 3 -add Blue 3 -add Red 3
editcountry -add Narnia Green -add Midkemia Green -add Oz Green
editcountry -add Elantris Blue -add Roshar Blue -add Scadrial Blue
editcountry -add Gondor Red -add Mordor Red -add Hogwarts Red
editneighbor -add Narnia Elantris -add Narnia Midkemia -add Midkemia Elantris -add Midkemia Scadrial
editneighbor -add Midkemia Oz -add Oz Scadrial -add Oz Mordor -add Oz Gondor -add Elantris Roshar
editneighbor -add Elantris Scadrial -add Roshar Hogwarts -add Roshar Scadrial -add Scadrial Hogwarts
editneighbor -add Scadrial Mordor -add Gondor Mordor -add Mordor Hogwarts
validatemap
savemap seed.map
savemap seed-conquest.map -format conquest
savemap seed.toml
quit
"""


def run_commands(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    text: str,
    file: str = "seed.map",
) -> tuple[int, str, str]:
    commands = tmp_path / "commands.txt"
    commands.write_text(text, encoding="utf-8")
    cwd = Path.cwd()
    os.chdir(tmp_path)
    try:
        status = main(["maps", "edit", file, "--commands", str(commands)])
    finally:
        os.chdir(cwd)
    out, err = capsys.readouterr()
    return status, out, err


def test_a_command_file_builds_the_seed_map_and_saves_it_in_three_formats(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, err = run_commands(tmp_path, capsys, SEED_COMMANDS)
    assert status == 0, err
    assert "> editcontinent -add Green 3 -add Blue 3 -add Red 3\n" in out
    assert 'added continent "Red", worth 3\n' in out
    assert "the map is valid under the course rules (seed, 9 territories, 3 continents)" in out
    seed = load_map("seed")
    for name, fmt in (("seed.map", "domination"), ("seed-conquest.map", "conquest"), ("seed.toml", "native")):
        assert f"saved {name} (" in out
        back = load_map(tmp_path / name)
        assert set(back.names) == set(seed.names) and two_way(back) == two_way(seed), fmt
        assert sorted((c.name, c.bonus) for c in back.continents) == [("Blue", 3), ("Green", 3), ("Red", 3)]
    assert err == ""


def test_a_failing_command_stops_the_file_and_names_its_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, err = run_commands(
        tmp_path, capsys, "editcontinent -add K 1\n\n# next\neditcountry -add A Q\nsavemap\n"
    )
    assert status == 1
    assert err == f'{tmp_path / "commands.txt"}:4: error: there is no continent "Q" (nothing was changed)\n'
    assert "> savemap" not in out and not (tmp_path / "seed.map").exists()


def test_a_refused_save_fails_the_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run_commands(tmp_path, capsys, "editcontinent -add K 1\nsavemap\n")
    assert status == 1
    assert ":2: error: not saved: the map has 1 error" in err and "error: the map has no territories" in out


def test_quit_with_unsaved_changes_fails_a_command_file_unless_forced(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status, _, err = run_commands(tmp_path, capsys, "editcontinent -add K 1\nquit\n")
    assert status == 1 and ":2: error: quit with unsaved changes" in err
    status, _, err = run_commands(tmp_path, capsys, "editcontinent -add K 1\nquit -force\nshowmap\n")
    assert status == 0 and err == ""


def test_commands_come_from_standard_input_when_it_is_not_a_terminal(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "risc", "maps", "edit", "piped.map"],
        input=SEED_COMMANDS,
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=60,
        env={**os.environ, "PYTHONPATH": str(PROJECT)},
    )
    assert done.returncode == 0, done.stderr
    assert "saved seed.toml (native)" in done.stdout
    assert two_way(load_map(tmp_path / "seed.toml")) == two_way(load_map("seed"))


def test_a_file_that_holds_no_map_is_not_opened(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "broken.toml").write_text("name = [\n", encoding="utf-8")
    status = main(["maps", "edit", str(tmp_path / "broken.toml"), "--commands", "-"])
    _, err = capsys.readouterr()
    assert status == 1 and "holds no map that can be edited" in err and "not valid TOML" in err
    assert main(["maps", "edit", str(tmp_path), "--commands", "-"]) == 1
    assert "is a folder, not a map file" in capsys.readouterr().err


def test_a_map_with_errors_opens_with_what_reading_it_found(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "bad.map").write_bytes(b"[Continents]\nK=1\n[Territories]\nA,1,2,K,B\nB,3,4,K,A,Atlantis\n")
    (tmp_path / "fix.txt").write_text("validatemap\nsavemap\n", encoding="utf-8")
    status = main(["maps", "edit", str(tmp_path / "bad.map"), "--commands", str(tmp_path / "fix.txt")])
    out, _ = capsys.readouterr()
    assert status == 0
    assert 'line 5: error: "B" borders "Atlantis", which is not a territory of the map' in out
    assert "the map is valid under the course rules" in out
    assert b"Atlantis" not in (tmp_path / "bad.map").read_bytes()


def test_a_bundled_maps_name_starts_a_new_file_and_says_where_the_bundled_one_is(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, _ = run_commands(tmp_path, capsys, "quit\n", file="seed")
    assert status == 0
    assert out.startswith("seed does not exist: this is a new map")
    assert 'note: "seed" is also a bundled map; to edit it, give its file: ' in out and "seed.toml" in out
