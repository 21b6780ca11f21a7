"""The client in real terminals: three players of one computer, each in a terminal of their own, closing it in the
middle of the game and coming back to their own seat with what they missed; the board in colour with a mark beside
each colour, wrapped to the terminal's width; `risc --version` in a terminal. (Which seat someone without a name is
offered is the core's decision: tests/test_client_core.py.)"""

from __future__ import annotations

import re
from pathlib import Path

from tests.terminal_support import Terminal, server_process, terminals


def test_three_players_of_one_computer_close_their_terminals_and_come_back_to_their_own_seats(tmp_path: Path) -> None:
    home = {"XDG_CONFIG_HOME": str(tmp_path / "config"), "XDG_DATA_HOME": str(tmp_path / "data")}
    with server_process(tmp_path / "server") as address, terminals() as opened:

        def client(*args: str) -> Terminal:
            opened.append(Terminal(["client", address, *args], home))
            return opened[-1]

        ann = client("--name", "Ann")
        ann.expect("No games yet")
        ann.type("create seed 3 units=3")
        game_id = re.search(r"You sit in game (\w+) as Ann", ann.expect("as Ann.")).group(1)  # type: ignore[union-attr]

        # The board, in colour and with each holder's mark, wrapped at word boundaries to the 80 columns.
        bob = client("--name", "Bob")
        bob.expect(game_id)
        bob.type(f"join {game_id[:3]}")
        cy = client("--name", "Cy")
        cy.expect(game_id)
        cy.type(f"join {game_id}")
        board = ann.expect("then done.")
        assert "A Ann (you)  B Bob  C Cy" in board
        colours = re.search(r"\x1b\[([0-9;]*)mA Ann \(you\)\x1b\[0m  \x1b\[([0-9;]*)mB Bob\x1b\[0m", ann.raw)
        assert colours is not None and colours.group(1) != colours.group(2), "each mark in its player's colour"
        hint = board[board.index("Place your") :]
        rows = hint.splitlines()
        assert len(rows) >= 2 and all(len(row) <= 80 for row in rows), rows
        assert rows[1].startswith("    ") and not rows[0].endswith(" "), "broken at a space, then indented"
        words = " ".join(row.strip() for row in rows)
        assert "Place your 3 units on your territories (" in words

        for player in (ann, bob, cy):
            player.type("place 3 *")
            player.type("done")
        for player in (ann, bob, cy):
            player.expect("Turn 1: move N FROM TO")

        # Turn 1: Ann and Bob commit and close their terminals; Cy commits, so the turn is played without them.
        # (Each waits for its prompt: what was shown before it is remembered as seen by then.)
        ann.type("done")
        ann.expect("Committed turn 1.")
        ann.expect(f"Ann@{game_id}>")
        ann.hang_up()
        cy.expect("Ann dropped.")
        bob.type("done")
        bob.expect("Committed turn 1.")
        bob.expect(f"Bob@{game_id}>")
        bob.hang_up()
        cy.type("done")
        cy.expect("Turn 2: move N FROM TO")
        cy.expect(f"Cy@{game_id}>")
        cy.hang_up()

        # Each comes back by the same command, to their own seat, and is shown the turn they missed.
        for name in ("Bob", "Ann"):
            back = client("--name", name)
            seen = back.expect("Turn 2: move N FROM TO")
            assert f"Back in game {game_id} as {name}." in seen
            assert "Cy committed." in seen and "New units: " in seen and " Turn 2 " in seen, "the turn they missed"
            assert "No games yet" not in seen
        back = client("--name", "Cy")
        seen = back.expect("Turn 2: move N FROM TO")
        assert f"Back in game {game_id} as Cy." in seen
        assert "New units: " not in seen, "Cy had seen the turn: nothing is told twice"
        back.expect(f"Cy@{game_id}>")


def test_risc_version_in_a_terminal(tmp_path: Path) -> None:
    with terminals() as opened:
        opened.append(Terminal(["--version"], {}))
        assert opened[0].expect("risc ").endswith("risc ")
        assert opened[0].wait() == 0
        assert re.search(r"risc \d+\.\d+", opened[0].text)
