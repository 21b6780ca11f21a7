"""Game night III at 80x24, through a real pty: an answer longer than the screen comes a screen at a time (a server's
30-odd maps, Warzone's `help orders`, the board of Cataract), and the largest real map is read by continent, each
screen of it fitting the terminal."""

from __future__ import annotations

import re
from pathlib import Path

from client.core.paging import MORE
from tests.terminal_support import Terminal, server_process, terminals

MAPS = Path(__file__).resolve().parents[2] / "shared" / "maps"
COLUMNS, ROWS = 80, 24
SCREEN = ROWS - 2
"""The lines of an answer one screen shows: the prompt (or the question for more) and the status bar take two."""
MORE_SHOWN = MORE.strip()


def screen_of(shown: str, first: str) -> list[str]:
    """The lines an answer printed on its first screen: from its first line (which starts with `first`; news that
    came before it is not the answer's), up to the question for more (or the next prompt)."""
    start = max(shown.rfind("\n" + first) + 1, 0)
    return shown[start:].split(MORE_SHOWN)[0].splitlines()


def test_long_answers_come_a_screen_at_a_time_and_the_largest_map_is_read_by_continent(tmp_path: Path) -> None:
    home = {"XDG_CONFIG_HOME": str(tmp_path / "config"), "XDG_DATA_HOME": str(tmp_path / "data")}
    folders = ("--maps", str(MAPS / "domination"), "--maps", str(MAPS / "conquest"))
    with server_process(tmp_path / "server", *folders) as address, terminals() as opened:
        ann = Terminal(["client", address, "--name", "Ann"], home, columns=COLUMNS, rows=ROWS)
        opened.append(ann)
        ann.expect("lobby>")

        # The server's maps: more than a screen, so the first screen waits for Enter, then the rest comes.
        ann.type("maps")
        first = ann.expect(MORE_SHOWN)
        assert 0 < len(screen_of(first, "Maps (create MAP")) <= SCREEN, first
        assert "Maps (create MAP ...):" in first and "  cataract " in first
        ann.type("")
        rest = ann.pages("lobby>")
        listed = len(re.findall(r"^  \S+ +\d+ territories", first + rest, re.MULTILINE))
        assert listed >= 30 and "  world " in rest, rest

        # Warzone's orders: the first screen, then q stops the rest.
        ann.type("create rules=warzone 2 bots=1")
        ann.expect("Turn 1: deploy")
        prompt = re.findall(r"(Ann@\w+>)", ann.expect("Ann@") + ann.expect(">"))[-1]
        ann.type("help orders")
        first = ann.expect(MORE_SHOWN)
        assert 0 < len(screen_of(first, "Orders in this game")) <= SCREEN, first
        assert "Orders in this game" in first
        ann.type("q")
        stopped = ann.expect(prompt)
        assert "negotiate" not in stopped.split("q\n", 1)[-1], "nothing more after q"

        # The board of Cataract: a screen at a time, every territory on one of them.
        ann.type("board")
        first = ann.expect(MORE_SHOWN)
        assert 0 < len(screen_of(first, "Continents")) <= SCREEN, first
        ann.type("")
        whole = first + ann.pages(prompt)
        assert len(re.findall(r"^  \S+ +\d+ [A-H-].* \| ", whole, re.MULTILINE)) == 24, whole

        # The largest real map: `map` lists its continents on one screen, `map NAME` draws one on one screen.
        ann.type("create bigeurope 2 bots=1")
        ann.expect("Place your")
        ann.expect("Ann@")
        ann.type("map")
        overview = ann.expect("map NAME draws a continent") + ann.expect("Ann@")
        assert MORE_SHOWN not in overview and "no room for" not in overview
        assert len(screen_of(overview, "bigeurope has 180")) <= SCREEN + 1, overview  # the prompt ends it
        assert "  Russia " in overview and "  Britian " in overview
        ann.type("map Russia")
        russia = ann.expect("Russia (18 territories)") + ann.expect("Ann@")
        assert MORE_SHOWN not in russia
        drawn = screen_of(russia, "Russia (18")
        assert len(drawn) <= SCREEN + 1 and all(len(row) < COLUMNS for row in drawn), russia
        assert {f"r{n}" for n in range(1, 19)} <= set(re.findall(r"\b(r\d+) [A-H-]\d+", russia)), russia
        assert "Beyond this picture: " in russia
        ann.type("quit")
        assert ann.wait() == 0
