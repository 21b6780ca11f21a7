"""`risc maps edit` and `risc warzone` in a terminal of 80 columns break their long lines at word boundaries, as the
text client does, rather than letting the terminal cut a word in two (`Switzerlan` / `d`)."""

from __future__ import annotations

import shutil
from pathlib import Path

from tests.terminal_support import Terminal, terminals
from tests.test_real_maps import MAPS


def lines_fit(shown: str, columns: int = 80) -> None:
    too_long = [line for line in shown.splitlines() if len(line) > columns]
    assert not too_long, too_long


def test_the_map_editor_breaks_its_replies_at_word_boundaries(tmp_path: Path) -> None:
    europe = tmp_path / "europe.map"
    shutil.copyfile(MAPS / "domination" / "europe.map", europe)
    with terminals() as opened:
        editor = Terminal(["maps", "edit", str(europe)], {"XDG_CONFIG_HOME": str(tmp_path)})
        opened.append(editor)
        editor.expect("europe.map>")
        editor.type("showmap")
        shown = editor.expect("24 territories, 4 continents, 45 borders")
        shown += editor.expect("europe.map>")
        assert "Switzerland" in shown and "Switzerlan\n" not in shown
        lines_fit(shown)
        editor.type("quit")
        assert editor.wait() == 0


def test_the_warzone_console_breaks_its_lines_at_word_boundaries(tmp_path: Path) -> None:
    with terminals() as opened:
        console = Terminal(["warzone"], {"XDG_CONFIG_HOME": str(tmp_path)})
        opened.append(console)
        console.expect("start> ")
        console.type(f"loadmap {MAPS / 'domination' / 'europe.map'}")
        console.expect("validatemap checks it")
        console.type("showmap")
        shown = console.expect("Switzerland")
        shown += console.expect("> ")
        lines_fit(shown)
        assert "Switzerlan\n" not in shown
