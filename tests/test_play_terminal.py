"""`risc play` in a real terminal, as a new player meets it: games of two rule sets left unfinished, each offered
only when its rule set is asked for, both listed to choose from when none is, and every one reachable."""

from __future__ import annotations

import re
from pathlib import Path

from tests.terminal_support import Terminal, terminals


def test_a_player_leaves_games_of_two_rule_sets_unfinished_and_reaches_each_again(tmp_path: Path) -> None:
    home = {"XDG_CONFIG_HOME": str(tmp_path / "config"), "XDG_DATA_HOME": str(tmp_path / "data")}
    with terminals() as opened:

        def play(*args: str) -> Terminal:
            opened.append(Terminal(["play", "--name", "Ann", *args], home, columns=100))
            return opened[-1]

        first = play("--option", "evolution=2", "--bots", "1")
        evolution = game_of(first.expect("You sit in game"))
        first.expect(f"Ann@{evolution}>")
        first.type("quit")
        assert first.wait() == 0
        assert f"risc play --continue {evolution}" in first.text

        second = play("--rules", "warzone", "--bots", "1")
        shown = second.expect("You sit in game")
        assert "Continue game" not in shown, "a RISC game is not offered to whoever asked for Warzone"
        assert "1 unfinished game of other rule sets: risc play --list shows them" in shown
        warzone = game_of(shown)
        second.expect(f"Ann@{warzone}>")
        second.type("quit")
        assert second.wait() == 0

        third = play()
        listed = third.expect("Continue which (1-2, Enter for 1; n for a new RISC game)?")
        assert f"1. {warzone}  Warzone on Cataract (turn 1, Ann vs bot-strategist-1)" in listed
        assert f"2. {evolution}  RISC with evolution 2 on Seed example (turn 0, Ann vs bot-strategist-1)" in listed
        third.type("2")
        third.expect(f"Back in game {evolution} as Ann.")
        third.expect(f"Ann@{evolution}>")
        third.type("quit")
        assert third.wait() == 0

        listing = Terminal(["play", "--list"], home, columns=100)
        opened.append(listing)
        assert listing.wait() == 0
        assert (
            f"  {warzone}  Warzone on Cataract" in listing.text
            and f"  {evolution}  RISC with evolution 2" in listing.text
        )

        fourth = play("--continue", warzone)
        back = fourth.expect(f"Back in game {warzone} as Ann.")
        assert "Continue" not in back
        fourth.expect(f"Ann@{warzone}>")
        fourth.type("quit")
        assert fourth.wait() == 0


def game_of(shown: str) -> str:
    found = re.search(r"New game (\w+)\.", shown)
    assert found is not None, shown
    return found.group(1)
