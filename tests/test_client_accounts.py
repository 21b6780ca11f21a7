"""Accounts in the text client, through a real server and the real client (docs/client.md, "Your account"): two
devices (two client processes, each with a config directory of its own) signed in to one account in real terminals
at 80x24, the seat taken back from the second without its token, the home, a password prompt that shows nothing,
signing out everywhere; a session that ends elsewhere or no longer signs in; servers without accounts and servers
that need one; and a home of games played on two nodes of a cluster. (The decisions alone: tests/
test_client_accounts_core.py.)"""

from __future__ import annotations

import json
import re
import stat
from pathlib import Path
from typing import Any

from client.core.account import ACCOUNT_NEEDED, NO_ACCOUNTS
from client.core.status import status_bar
from client.sessions import SessionStore
from client.tokens import SeatStore
from server.app import RiscServer
from tests.client_support import Driver, driven
from tests.cluster_support import nodes
from tests.server_support import FAST, Client, create_game, join, running_server, url
from tests.terminal_support import Terminal, server_process, terminals

PASSWORD = "correct horse battery"


def device(tmp_path: Path, name: str) -> dict[str, str]:
    """A computer of the player's: its own config directory (seats and session) and data directory."""
    return {"XDG_CONFIG_HOME": str(tmp_path / name / "config"), "XDG_DATA_HOME": str(tmp_path / name / "data")}


def kept_sessions(tmp_path: Path, name: str) -> list[dict[str, str]]:
    path = tmp_path / name / "config" / "risc" / "sessions.json"
    return list(json.loads(path.read_text(encoding="utf-8"))["sessions"])


def own_files(tmp_path: Path) -> dict[str, Any]:
    """Where a client of this test keeps its account's session and its seats: a computer of its own."""
    return {"sessions": SessionStore(tmp_path / "sessions.json"), "store": SeatStore(tmp_path / "seats.json")}


def status(driver: Driver) -> str:
    """The status bar as the client draws it now."""
    app = driver.app
    return "".join(text for _, text in status_bar(app.state, 0.0, app.session.state, app.url))


def typed_unechoed(terminal: Terminal, question: str) -> None:
    """Answer a password's question, and check that the terminal showed nothing of it: no character, no star."""
    asked = question.rstrip()
    terminal.expect(asked)
    terminal.type(PASSWORD)
    terminal.expect("\n")  # the answer taken: the line is done
    for line in terminal.text.splitlines():
        if asked in line:
            assert line.replace(asked, "").strip() == "", f"the password's prompt showed {line!r}"
    assert PASSWORD not in terminal.raw and "*" not in terminal.raw


def test_two_devices_share_the_account_s_seat_without_a_token_and_sign_out_everywhere(tmp_path: Path) -> None:
    with server_process(tmp_path / "server") as address, terminals() as opened:

        def client(on: str) -> Terminal:
            opened.append(Terminal(["client", address], device(tmp_path, on), columns=80, rows=24))
            return opened[-1]

        laptop = client("laptop")
        laptop.expect("Your name:")
        laptop.type("")  # no guest's name: an account's
        laptop.expect("lobby>")
        laptop.type("signup Ann")
        typed_unechoed(laptop, "Choose a password (8 characters or more; it is not shown): ")
        typed_unechoed(laptop, "The same password again: ")
        laptop.expect("Signed up and in as Ann")
        laptop.expect("Ann's games: none on this server yet")
        [kept] = kept_sessions(tmp_path, "laptop")
        assert kept["name"] == "Ann" and len(kept["token"]) >= 43
        for path in (tmp_path / "laptop").rglob("*"):
            assert path.is_dir() or PASSWORD not in path.read_text(encoding="utf-8"), path
        sessions_file = tmp_path / "laptop" / "config" / "risc" / "sessions.json"
        assert stat.S_IMODE(sessions_file.stat().st_mode) == 0o600

        laptop.type("create seed 2 bots=1")  # a computer takes the other seat: the game starts at once
        game_id = re.search(r"You sit in game (\w+) as Ann", laptop.expect("as Ann.")).group(1)  # type: ignore[union-attr]
        laptop.expect(f"Ann@{game_id}>")

        # The phone signs in to the same account and takes the seat from the home, with no token.
        phone = client("phone")
        phone.expect("Your name:")
        phone.type("")
        phone.expect("lobby>")
        phone.type("signin ann")
        typed_unechoed(phone, "Password (it is not shown): ")
        home = phone.expect("lobby>")
        assert "Signed in as Ann" in home
        assert re.search(rf"Ann's games \(type a number to open one\):\n +1 +your turn +{game_id} ", home), home
        phone.type("1")
        phone.expect(f"Back in game {game_id} as Ann.")
        phone.expect(f"Ann@{game_id}>")
        laptop.expect(f"Game {game_id} is open on another device signed in to your account now")
        assert not (tmp_path / "phone" / "config" / "risc" / "seats.json").exists(), "no seat token was kept"

        # The phone's next start opens on the home, signed in, with no question.
        phone.type("quit")
        assert phone.wait() == 0
        phone = client("phone")
        seen = phone.expect("lobby>")
        assert "Your name" not in seen and "Ann's games (type a number to open one):" in seen

        # Signed out everywhere: the laptop is told, forgets its session and plays on as a guest.
        phone.type("signout everywhere")
        phone.expect("Signed out of Ann on every device: you play as a guest now.")
        laptop.expect("Signed out: this computer's session was ended elsewhere")
        laptop.expect("lobby>")
        assert kept_sessions(tmp_path, "laptop") == [] and kept_sessions(tmp_path, "phone") == []
        laptop.type("home")
        laptop.expect("You are not signed in")
        laptop.type("games")
        listed = laptop.expect(f"{game_id} ")
        assert "Games:" in listed and "Not connected" not in listed and "Connection lost" not in laptop.text


async def test_a_dropped_link_takes_the_account_s_seat_back_and_a_session_ended_elsewhere_makes_a_guest_once(
    tmp_path: Path,
) -> None:
    async with running_server(**FAST) as server:
        files = own_files(tmp_path)
        sessions = files["sessions"]
        async with driven(url(server), name="Ann", **files) as ann:
            await ann.at_prompt()
            ann.pipe.send_text("signup Ann\r")
            for _ in range(2):
                await ann.at_prompt()
                ann.pipe.send_text(PASSWORD + "\r")
            await ann.expect("Signed up and in as Ann")
            assert PASSWORD not in ann.app.text()
            shown = await ann.type("create seed 2")
            game_id = re.search(r"You sit in game (\w+) as Ann", shown).group(1)  # type: ignore[union-attr]
            await ann.app.connection.drop()  # the network fails: the account's seat comes back with no token
            await ann.expect(f"Back in game {game_id} as Ann.")
            before_the_end = len(ann.app.text())
            kept = sessions.get(url(server))
            assert kept is not None
            assert "signed in as Ann" in status(ann)

            other = await Client.connect(server, session=kept.token)  # the same session, elsewhere
            assert (await other.request(type="sign_out", everywhere=True))["type"] == "signed_out"
            await ann.expect("Signed out: this computer's session was ended elsewhere")
            await ann.expect("Your games stay your account's")
            assert sessions.get(url(server)) is None
            shown = await ann.type("games")
            assert game_id in shown, shown
            welcome = ann.app.connection.welcome
            assert welcome is not None and welcome.account is None
            assert welcome.session_problem is None, "the hello after the end carried no session: never the dead one"
            assert ann.app.state.tracker is None and ann.app.state.name is None
            assert "signed in" not in status(ann)
            since = ann.app.text()[before_the_end:]
            assert "Connection lost" not in since and "Reconnected" not in since


async def test_a_kept_session_that_no_longer_signs_in_is_said_once_and_forgotten(tmp_path: Path) -> None:
    async with running_server(**FAST) as server:
        sessions = SessionStore(tmp_path / "sessions.json")
        sessions.keep(url(server), "Ann", "a session this server never gave")
        async with driven(url(server), name="Dee", sessions=sessions) as dee:
            shown = await dee.expect("No games yet")
            assert "The session kept on this computer no longer signs you in: that session is not one of this " in shown
            assert sessions.get(url(server)) is None
        async with driven(url(server), name="Dee", sessions=sessions) as dee:
            assert "no longer signs you in" not in await dee.expect("No games yet")


async def test_a_server_without_accounts_says_so_and_one_that_needs_them_says_how_to_sign_up(tmp_path: Path) -> None:
    async with running_server(accounts="off", **FAST) as server, driven(url(server), name="Dee") as dee:
        shown = await dee.type("signup Dee")
        assert NO_ACCOUNTS in shown and "password" not in shown
        assert "signin" not in dee.app.text().split("Games:")[0], "the start says nothing of accounts"
    needed = running_server(accounts="required", **FAST)
    async with needed as server, driven(url(server), sessions=SessionStore(tmp_path / "sessions.json")) as dee:
        shown = await dee.expect("No games yet")
        assert ACCOUNT_NEEDED in shown and "Your name" not in shown
        shown = await dee.type("create seed 2")
        assert shown.strip() == ACCOUNT_NEEDED
        dee.pipe.send_text("signup Dee\r")
        for _ in range(2):
            await dee.at_prompt()
            dee.pipe.send_text(PASSWORD + "\r")
        await dee.expect("Dee's games: none on this server yet")
        shown = await dee.type("create seed 2")
        assert "You sit in game" in shown and "as Dee." in shown


async def two_nodes_games(a: RiscServer, b: RiscServer) -> tuple[str, str, str]:
    """Ann's account with a game waiting for players on node a and one under way on node b; her session, and the
    two games."""
    ann = await Client.connect(a)
    session = str((await ann.request(type="sign_up", name="Ann", password=PASSWORD))["session"])
    waiting = await create_game(ann, players=3)
    assert (await ann.request(type="join_game", game_id=waiting, name="Ann"))["token"] == ""
    ann_on_b = await Client.connect(b, session=session)
    playing = await create_game(ann_on_b, players=2)
    await ann_on_b.request(type="join_game", game_id=playing, name="Ann")
    await join(await Client.connect(b), playing, "Bob")
    assert waiting in a.lobby.matches and playing in b.lobby.matches
    await ann.close()
    await ann_on_b.close()
    return session, waiting, playing


async def test_the_home_lists_games_played_on_two_nodes_and_opens_each_where_it_is_played(
    postgres_dsn: str, tmp_path: Path
) -> None:
    async with nodes(postgres_dsn, 2) as (a, b):
        session, waiting, playing = await two_nodes_games(a, b)
        files = own_files(tmp_path)
        files["sessions"].keep(url(a), "Ann", session)
        async with driven(url(a), **files) as laptop:
            await laptop.at_prompt()
            home = laptop.app.text()
            assert re.search(rf"1 +your turn +{playing} +RISC on Seed example, \w+, turn \d+; with Bob", home), home
            assert re.search(rf"2 +waiting +{waiting} +RISC on Seed example, 2 of 3 seats free", home), home
            shown = await laptop.type("1")  # played by node b: the client follows the redirect there
            assert f"Back in game {playing} as Ann." in shown, shown
            assert laptop.app.connection.routes.get(playing, "").rstrip("/") == url(b)
            shown = await laptop.type("2")
            assert f"Back in game {waiting} as Ann." in shown and f"Game {playing} goes on without being" in shown
            shown = await laptop.type(f"join {playing}")
            assert f"Back to game {playing}, where you play as Ann." in shown


async def test_a_link_to_another_node_opened_as_a_guest_is_signed_in_with_the_rest(
    postgres_dsn: str, tmp_path: Path
) -> None:
    async with nodes(postgres_dsn, 2) as (a, b):
        _, _, playing = await two_nodes_games(a, b)
        async with driven(url(a), name="Dee", **own_files(tmp_path)) as laptop:
            shown = await laptop.type(f"watch {playing}")  # a guest's link to node b
            assert f"Watching game {playing}" in shown and playing in laptop.app.connection.routes
            await laptop.type("leave")
            laptop.pipe.send_text("signin Ann\r")
            await laptop.at_prompt()
            laptop.pipe.send_text(PASSWORD + "\r")
            await laptop.expect("Ann's games (type a number to open one):")
            shown = await laptop.type("1")
            assert f"Back in game {playing} as Ann." in shown, shown
