"""Ratings, quick play and challenges in the text client, through a real server and the real client (docs/client.md):
quick play from one command with the wait saying who is queued for what, the game found put on screen, then the
ladder and a profile at 80 columns; a challenge accepted from the other player's client."""

from __future__ import annotations

import re
from pathlib import Path

from client.sessions import SessionStore
from client.tokens import SeatStore
from tests.client_support import Driver, driven
from tests.server_support import FAST, Client, running_server, url
from tests.test_accounts import PASSWORD, signed_up


async def signed_up_client(driver: Driver, name: str) -> None:
    await driver.at_prompt()
    driver.pipe.send_text(f"signup {name}\r")
    for _ in range(2):
        await driver.at_prompt()
        driver.pipe.send_text(PASSWORD + "\r")
    await driver.expect(f"Signed up and in as {name}")


async def test_quick_play_from_one_command_shows_the_wait_then_the_game_then_the_ladder(tmp_path: Path) -> None:
    files = {"sessions": SessionStore(tmp_path / "sessions.json"), "store": SeatStore(tmp_path / "seats.json")}
    async with running_server(**FAST) as server, driven(url(server), size=(80, 24), name="Ann", **files) as ann:
        await signed_up_client(ann, "Ann")
        shown = await ann.type("quick grid 3")
        assert "Waiting for a live Grid Risk (VG101) game of 3 (your rating 800" in shown
        assert "Queued: Grid Risk (VG101) 3 live: Ann." in shown
        bob, _ = await signed_up(server, "Bob")
        await bob.request(type="quick_play", ruleset="grid", players=3)
        await ann.expect("Queued: Grid Risk (VG101) 3 live: Ann, Bob.")
        cy, _ = await signed_up(server, "Cy")
        await cy.request(type="quick_play", ruleset="grid", players=3)
        found = await ann.expect("you play as Ann.")
        game_id = re.search(r"Quick play found you a rated game: game (\w+)", found).group(1)  # type: ignore[union-attr]
        await ann.expect(f"game {game_id}")
        assert ann.app.state.tracker is not None and ann.app.state.tracker.followed.game_id == game_id
        shown = await ann.type("ratings grid")
        assert "Grid Risk (VG101): nobody has played a rated game of it lately." in shown
        shown = await ann.type("profile")
        assert "Ann: no rated game yet." in shown


async def test_a_challenge_is_made_and_accepted_in_the_text_client(tmp_path: Path) -> None:
    files = {"sessions": SessionStore(tmp_path / "sessions.json"), "store": SeatStore(tmp_path / "seats.json")}
    async with running_server(**FAST) as server, driven(url(server), name="Ann", **files) as ann:
        await signed_up_client(ann, "Ann")
        bob = await Client.connect(server)
        assert (await bob.request(type="sign_up", name="Bob", password=PASSWORD))["type"] == "signed_in"
        shown = await ann.type("challenge Bob seed 2 rated")
        game_id = re.search(r"You challenged Bob: game (\w+) waits for them", shown).group(1)  # type: ignore[union-attr]
        home = await bob.request(type="my_games")
        assert [(c["game_id"], c["by"]) for c in home["challenges"]] == [(game_id, "Ann")]
        assert home["challenges"][0]["game"]["settings"]["rated"] is True
        assert (await bob.request(type="answer_challenge", game_id=game_id, accept=True))["accepted"]
        await ann.expect("Bob joined")


async def test_a_rated_game_s_end_says_what_it_did_to_each_rating(tmp_path: Path) -> None:
    files = {"sessions": SessionStore(tmp_path / "sessions.json"), "store": SeatStore(tmp_path / "seats.json")}
    async with running_server(**FAST) as server, driven(url(server), name="Ann", **files) as ann:
        await signed_up_client(ann, "Ann")
        shown = await ann.type("create 3 rules=grid bots=2 rated")
        game_id = re.search(r"Created game (\w+)", shown).group(1)  # type: ignore[union-attr]
        await ann.at_prompt()
        ann.pipe.send_text("resign\r")
        await ann.at_prompt()
        ann.pipe.send_text("yes\r")
        said = await ann.expect(f"Ratings after game {game_id} (Grid Risk (VG101)): ", timeout=120)
        client = await Client.connect(server)
        rated = await client.request(type="game_ratings", game_id=game_id)
        moves = ", ".join(
            f"{m['name']} {m['before']} to {m['after']}{'?' * m['provisional']} ({m['after'] - m['before']:+d})"
            for m in rated["players"]
        )
        assert moves.startswith("bot:strategist 800 to ")
        await ann.expect(moves + ".")
        assert "Ratings after" in said
