"""Game night II at 80x24, through a real pty: a turn on a 180-territory map (bigeurope, a real Domination map read
in place) fits the screen with what concerns the player, the board comes on request, and `help` is an index that
fits a screen with a topic each for orders, chat, the lobby..."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.terminal_support import Terminal, terminals

BIGEUROPE = Path(__file__).resolve().parents[2] / "shared" / "maps" / "domination" / "bigeurope.map"
COLUMNS, ROWS = 80, 24

TURN_LINES = 40
"""What one turn may print on bigeurope at 80 columns, its report and what to do next: under two screens when two
computer players attack the player everywhere at once (before, the report and the front board ran to 120 lines in
RISC, 250 in Evolution 3 and 300 to 400 in Warzone, the whole board)."""


def lines(text: str) -> list[str]:
    return text.splitlines()


def board_rows(text: str) -> list[str]:
    """The board's territory lines (`  s4 10 C | s3 18 A, ...`; under fog `  s1 ? ? size 1 | s2 ?, b1 ?`)."""
    return [row for row in lines(text) if re.match(r"^  \S+ +(\d+|\?) .*\| ", row)]


@pytest.mark.parametrize(
    ("rules", "options"),
    [("risc", ()), ("risc", ("evolution=3",)), ("warzone", ())],
    ids=["risc", "evolution-3", "warzone"],
)
def test_a_turn_on_a_big_map_fits_the_screen_with_what_concerns_the_player_and_the_board_on_request(
    tmp_path: Path, rules: str, options: tuple[str, ...]
) -> None:
    home = {"XDG_CONFIG_HOME": str(tmp_path / "config"), "XDG_DATA_HOME": str(tmp_path / "data")}
    extra = [word for option in options for word in ("--option", option)]
    with terminals() as opened:
        ann = Terminal(
            ["play", "--name", "Ann", "--rules", rules, "--map", str(BIGEUROPE), "--bots", "2", *extra],
            home,
            columns=COLUMNS,
            rows=ROWS,
        )
        opened.append(ann)
        started = ann.expect("Turn 1: deploy" if rules == "warzone" else "Place your")
        started += ann.expect("Ann@")
        assert len(lines(started)) < ROWS, "the start: the summary and where she stands, not 180 territories"
        assert not board_rows(started)
        if rules == "risc":
            ann.type("place rest *")
            ann.expect("Orders 1-")
            placed = "Orders 1-" + ann.expect("units left to")
            assert len(lines(placed)) <= 3, "sixty orders in a line or two, the rest counted"
            ann.expect("Ann@")
            ann.type("done")
            first = ann.expect("Ann committed.") + ann.expect("Turn 1: ") + ann.expect("Ann@")
            assert len(lines(first)) < ROWS, "the placement told a line a player, then where she stands"
        turn = 1
        if rules == "warzone":
            pool, where = re.findall(
                r"deploy your (\d+) units? \(e\.g\. deploy \d+ (\S+)\)", started.replace("\n    ", " ")
            )[-1]
            ann.type(f"deploy {pool} {where}")
            ann.expect("Order 1: ")
        ann.type("done")
        ann.expect("Ann committed.")
        shown = ann.expect(f"Turn {turn + 1}: ") + ann.expect("Ann@")
        assert len(lines(shown)) < TURN_LINES, shown
        assert not board_rows(shown), "the board is not printed again at each turn"
        assert f" Turn {turn + 1} " in shown and "New units: " in shown
        flat = shown.replace("\n    ", " ")
        assert re.search(r"You hold \d+ units? on \d+ territor(y|ies), \d+ of them next to others'", flat)
        ann.type("board")
        everything = ann.expect(" |") + ann.pages("Ann@")  # a screen at a time
        assert len(board_rows(everything)) == 180, "every territory, a line each, on request"
        ann.type("report")
        full = ann.pages("New units:" if rules != "warzone" else "executes in this order") + ann.pages("Ann@")
        if "Elsewhere: " in shown or "You lost " in shown or "You held " in shown:
            assert " attacked " in full, "report tells every fight"
        ann.type("board front")
        front = ann.expect(" |") + ann.pages("Ann@")
        count = re.search(r"(\d+) of them next to others'", flat)
        assert count is not None and len(board_rows(front)) == int(count.group(1))
        ann.type("quit")
        assert ann.wait() == 0


def test_help_is_an_index_that_fits_a_screen_and_each_topic_lists_its_commands(tmp_path: Path) -> None:
    home = {"XDG_CONFIG_HOME": str(tmp_path / "config"), "XDG_DATA_HOME": str(tmp_path / "data")}
    with terminals() as opened:
        ann = Terminal(
            ["play", "--name", "Ann", "--map", "twin-keeps", "--bots", "1"], home, columns=COLUMNS, rows=ROWS
        )
        opened.append(ann)
        ann.expect("Place your")
        ann.expect("Ann@")

        def asked(line: str, first: str) -> str:
            """What the line prints, from its first line (`first`, what it starts with) to the next prompt."""
            ann.type(line)
            ann.pages(first)
            return first + ann.pages("Ann@")

        index = asked("help", "Help on (help TOPIC):")
        assert len(lines(index)) < ROWS - 2, index
        assert "  orders   this game's orders: place, move, attack, orders, withdraw, done" in index
        for topic in ("game", "chat", "lobby", "seats", "typing", "all"):
            assert f"  {topic} " in index
        orders = asked("help orders", "Orders in this game (territory names")
        assert "  place N TERRITORY... [p]" in orders and "  done [d, commit]" in orders
        assert "say TEXT" not in orders
        chat = asked("help chat", "In the lobby say speaks")
        assert "  say TEXT" in chat and "  tell PLAYER TEXT" in chat and "  place" not in chat
        assert "e.g. tell bot-strategist-1 shall we?" in chat.replace("\n    ", " "), "a player of this game"
        lobby = asked("help lobby", "Commands (short forms in brackets):")
        assert all(f"  {word}" in lobby for word in ("games [ls]", "create [MAP]", "join GAME", "watch GAME"))
        assert "  resign" not in lobby
        everything = asked("help all", "Orders in this game")
        assert len(lines(everything)) > 2 * ROWS and "  resign" in everything and "  say TEXT" in everything
        one = asked("help move", "move N FROM TO (short: m)")
        assert "e.g. move 5 " in one.replace("\n    ", " ")
        ann.type("quit")
        assert ann.wait() == 0
