"""The real client against a real server: a seat, placement, orders typed and withdrawn, refusals, commits, turns,
a game played to its end and its rematch, and watching."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from client.app import ClientApp
from client.render import plain
from server.clock import ManualClock
from shared.protocol.messages import Error, ServerMessage
from shared.rulesets.risc.board import Phase
from shared.rulesets.risc.view import RiscView as GameView
from tests.client_support import Driver, driven
from tests.server_support import FAST, Client, bob_commits_placement, join, running_server, url

MAX_TURNS = 60


@pytest.fixture(autouse=True)
def config_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Seat tokens go to a fresh config directory: the tests never touch the real home."""
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    return tmp_path / "config"


def record_refusals(app: ClientApp) -> list[Error]:
    """Every error the server answers the client's requests with, as the server worded it."""
    refusals: list[Error] = []
    request = app.connection.request

    async def recording(message: Any) -> ServerMessage:
        reply = await request(message)
        if isinstance(reply, Error):
            refusals.append(reply)
        return reply

    app.connection.request = recording  # type: ignore[method-assign]
    return refusals


def row_of(board: str, territory: str) -> str:
    """A territory's line on the board (the last one shown)."""
    return [row for row in board.splitlines() if row.startswith(f"  {territory} ")][-1]


def game_view(driver: Driver) -> GameView:
    tracker = driver.app.tracker
    assert tracker is not None and tracker.view is not None
    return tracker.view


def own(view: GameView, player: str) -> list[str]:
    return [name for name, t in view.territories.items() if t.owner == player]


def board_of(driver: Driver) -> dict[str, SimpleNamespace]:
    """Each territory as the client knows it: owner and units from the view, neighbours from the map."""
    tracker = driver.app.tracker
    assert tracker is not None and tracker.view is not None and tracker.followed.game_map is not None
    game_map = tracker.followed.game_map
    return {
        name: SimpleNamespace(name=name, owner=t.owner, units=t.units, neighbours=game_map.neighbours_in_order(name))
        for name, t in tracker.view.territories.items()
    }


async def started_game(server: Any, alice: Driver) -> tuple[str, Client]:
    """Alice creates a 2-player game on the seed map from the client and sits in it; Bob joins over the protocol."""
    shown = await alice.type("create seed 2 units=12")
    assert "You sit in game" in shown
    assert alice.app.tracker is not None
    game_id = alice.app.tracker.game_id
    bob = await Client.connect(server)
    await join(bob, game_id, "Bob")
    await alice.expect("Place your 12 units")
    return game_id, bob


async def test_placement_orders_refusal_withdraw_commit_and_the_turn_s_result() -> None:
    async with running_server(**FAST) as server, driven(url(server), name="Alice") as alice:
        await alice.expect("No games yet")
        refusals = record_refusals(alice.app)
        game_id, bob = await started_game(server, alice)
        view = game_view(alice)
        assert view.phase is Phase.PLACEMENT
        first, second, third = own(view, "Alice")[:3]
        shown = alice.app.text()
        assert "A Alice (you)  B Bob" in shown and row_of(shown, first).startswith(f"  {first} ")

        # Names in any case, by unique prefix (D4); what is left of the pool after each placement.
        shown = await alice.type(f"place 5 {first.lower()}")
        assert f"Order 1: place 5 on {first}. 7 units left to place." in shown
        # A refused order shows the server's reason at once, and changes nothing.
        shown = await alice.type(f"p 20 {second}")
        assert refusals and refusals[-1].code == "pool-exceeded"
        assert f"Refused: {refusals[-1].message}" in shown
        await alice.type(f"place 7 {second.upper()}")
        shown = await alice.type("orders")
        assert f"1. place 5 on {first}" in shown and f"2. place 7 on {second}" in shown
        shown = await alice.type("withdraw 2")
        assert f"Withdrew order 2: place 7 on {second}." in shown
        assert f"place 7 on {second}" not in shown.split("Your orders:")[1]
        await alice.type(f"place 7 {third}")
        shown = await alice.type("board")  # what she has placed so far, beside each territory
        assert " 0 (+5 to place) A |" in row_of(shown, first) and " 0 (+7 to place) A |" in row_of(shown, third)
        assert "to place" not in row_of(shown, second)
        shown = await alice.type("D")
        assert "Committed placement. Waiting for Bob." in shown

        await bob_commits_placement(bob, game_id)
        placed = await alice.expect("Turn 1: move N FROM TO")
        assert "Bob committed." in placed
        assert f"Alice placed 5 on {first}, 7 on {third}." in placed
        view = game_view(alice)
        assert view.phase is Phase.ORDERS and view.turn == 1
        by_name = board_of(alice)
        assert by_name[first].units == 5 and by_name[third].units == 7

        # Turn 1: a move, an attack, and a refused attack on one's own territory.
        source = first
        target = next(n for n in by_name[source].neighbours if by_name[n].owner != "Alice")
        friend = next(n for n in by_name[source].neighbours if by_name[n].owner == "Alice")  # groups are contiguous
        shown = await alice.type(f"attack 3 {source} {target}")
        assert f"Order 1: attack 3 from {source} to {target}." in shown
        shown = await alice.type(f"a 1 {source} {friend}")
        assert refusals[-1].code == "attack-on-own-territory"
        assert f"Refused: {refusals[-1].message}" in shown
        shown = await alice.type(f"m 1 {source} {friend}")
        assert f"Order 2: move 1 from {source} to {friend}." in shown
        shown = await alice.type("move 1 Narnia")
        assert "usage: move N FROM TO" in shown
        shown = await alice.type("mvoe 1 Narnia Oz")
        assert "did you mean move?" in shown
        shown = await alice.type("done")
        assert "Committed turn 1. Waiting for Bob." in shown
        assert (await bob.request(type="commit", game_id=game_id, turn=1))["type"] == "commit_accepted"

        result = await alice.expect(" Turn 2 ")
        assert "Bob committed." in result
        # What concerns her first, a few words a fight: her attack, taken or failed, with its forces.
        assert (
            f"You took 1 territory, from Bob: {target} (3 from {source} against " in result
            or f"1 attack of yours failed, against Bob: {target} (3 from {source} against " in result
        ), result
        assert "New units: " in result
        stands = await alice.expect("Turn 2: move N FROM TO")
        assert "You hold " in stands and "(board front: those; board: everything" in stands
        assert "A Alice (you)  B Bob" not in stands, "the board is shown on request"
        assert "A Alice (you)  B Bob" in await alice.type("board")
        full = await alice.type("report")
        assert f"Alice attacked {target} (Bob) with 3 from {source} against " in full
        assert alice.app.tracker is not None and alice.app.tracker.turn == 2
        tracker = alice.app.tracker
        summary = tracker.presentation.summary(
            tracker.view,
            tracker.followed.game_map,  # type: ignore[union-attr]
            tracker.palette(),
            "Alice",
        )
        shown = await alice.type("summary")
        assert plain(summary) in shown and "waiting for Alice, Bob; nobody has committed yet" in shown
        await bob.close()


def attack_plan(by_name: dict[str, SimpleNamespace], me: str) -> list[str]:
    """Commands for one turn: every territory sends all it has against its weakest enemy neighbour."""
    lines = []
    for territory in by_name.values():
        if territory.owner != me or territory.units == 0:
            continue
        enemies = [by_name[n] for n in territory.neighbours if by_name[n].owner != me]
        if enemies:
            weakest = min(enemies, key=lambda t: (t.units, t.name))
            lines.append(f"a {territory.units} {territory.name} {weakest.name}")
    return lines


async def test_a_game_to_victory_its_story_and_a_rematch_with_the_same_players() -> None:
    async with running_server(**FAST) as server, driven(url(server), name="Alice") as alice:
        game_id, bob = await started_game(server, alice)
        own_first = own(game_view(alice), "Alice")[0]
        await alice.type(f"place 12 {own_first}")
        await alice.type("done")
        await bob_commits_placement(bob, game_id)
        await alice.expect("Turn 1: move N FROM TO")

        for _ in range(MAX_TURNS):
            view = game_view(alice)
            if view.phase is Phase.FINISHED:
                break
            for line in attack_plan(board_of(alice), "Alice"):
                await alice.type(line)
            await alice.type("done")
            if not view.players["Bob"].eliminated:
                await bob.request(type="commit", game_id=game_id, turn=view.turn)
            tracker = alice.app.tracker
            assert tracker is not None
            await alice._until(
                lambda: tracker.turn > view.turn or tracker.finished,  # noqa: B023
                "the next turn",
            )
        end = await alice.expect("Type rematch for a new game with the same players, or leave.")
        view = game_view(alice)
        assert view.winner == "Alice"
        assert "Bob is eliminated." in end
        assert "You win: the whole map is yours!" in end
        assert f"You won game {game_id} in {view.turn} turns!" in end
        # the game in figures, as the server worked them out: the whole map Alice's, Bob put out by her
        figures = end.split("The game in figures (")[1].splitlines()
        assert figures[1].split() == ["player", "territories", "units", "income", "battles", "out"]  # RISC: no cards
        rows = {row.split()[1]: row.split()[2:] for row in figures[2:4]}
        units = sum(t.units for t in view.territories.values())
        assert rows["Alice"][:3] == ["9", "(9)", str(units)] and rows["Alice"][-1] == "-"
        assert int(rows["Alice"][5].split("-")[0]) >= 1  # she took Bob's territories in battle
        assert rows["Bob"][0] == "0" and int(rows["Bob"][1].strip("()")) >= 1 and rows["Bob"][2] == "0"
        assert rows["Bob"][-4] == "turn" and rows["Bob"][-2:] == ["by", "Alice"]
        assert 1 <= int(rows["Bob"][-3].rstrip(",")) <= view.turn

        shown = await alice.type("rematch")
        assert "Waiting for Bob to ask too." in shown
        await bob.request(type="rematch", game_id=game_id)
        begun = await alice.expect("you play as Alice.")
        assert alice.app.tracker is not None and alice.app.tracker.game_id != game_id
        new_id = alice.app.tracker.game_id
        assert f"The rematch begins: game {new_id}, you play as Alice." in begun
        await alice.expect("Place your 12 units")
        seat = alice.app.store.get(url(server), new_id)
        assert seat is not None and seat.player == "Alice"
        await bob.close()


async def test_watching_a_game_from_the_command_line_and_the_lobby() -> None:
    async with running_server(**FAST) as server:
        players = [await Client.connect(server) for _ in range(2)]
        reply = await players[0].request(type="create_game", settings={"map": "seed", "players": 2})
        game_id = reply["game"]["game_id"]
        for client, name in zip(players, ("Ann", "Ben"), strict=True):
            await join(client, game_id, name)
        async with driven(url(server), watch=game_id) as watcher:
            await watcher.expect(f"Watching game {game_id}.")
            board = await watcher.expect("placement: waiting for Ann, Ben.")
            assert "A Ann  B Ben" in board
            shown = await watcher.type("place 3 Narnia")
            assert f"You are watching game {game_id}: only its players give orders." in shown
            for client in players:
                await bob_like_placement(client, game_id)
            turn = await watcher.expect(" Turn 1 ")
            assert "Ann committed." in turn and "Ben committed." in turn
            assert "Ann placed " in turn
            shown = await watcher.type("board")
            assert "A Ann  B Ben" in shown and "(you)" not in shown
        async with driven(url(server), name="Cy") as lobby:
            listed = await lobby.expect("players: Ann, Ben")
            assert game_id in listed
            shown = await lobby.type(f"watch {game_id}")
            assert f"Watching game {game_id}." in shown
            await lobby.expect("A Ann  B Ben")
        for client in players:
            await client.close()


async def bob_like_placement(client: Client, game_id: str) -> None:
    update = await client.wait_for(
        lambda m: m["type"] == "update" and m["view"] is not None and m["view"]["viewer"] is not None
    )
    viewer = update["view"]["viewer"]
    mine = [t["name"] for t in update["view"]["territories"] if t["owner"] == viewer]
    await client.request(
        type="issue_order",
        game_id=game_id,
        turn=0,
        order={"kind": "place", "territory": mine[0], "units": update["view"]["pool_left"]},
    )
    await client.request(type="commit", game_id=game_id, turn=0)


async def test_without_a_name_the_client_asks_for_one() -> None:
    async with running_server(**FAST) as server, driven(url(server)) as player:
        shown = await player.type("<Dee>")
        assert "a name has 1 to 20 letters" in shown
        for command in ("join 6da", "create seed 3", "help", "Games"):
            shown = await player.type(command)
            assert (
                f'"{command}" looks like a command, not a name: type the name the other players will know you '
                "by (such as Alice)" in shown
            ), shown
        shown = await player.type("Dee\u200b")
        assert "U+200B ZERO WIDTH SPACE, which players could not see" in shown
        await player.type("Dee")
        await player.expect("No games yet")
        shown = await player.type("create seed 2")
        assert "as Dee." in shown


async def test_quit_where_the_client_asks_for_a_name_closes_it() -> None:
    async with running_server(**FAST) as server, driven(url(server)) as player:
        await player.at_prompt()
        player.pipe.send_text("quit\r")
        assert await asyncio.wait_for(player.task, 5) == 0
        assert "looks like a command" not in player.app.text()


async def test_a_turn_time_limit_counts_down_in_the_status_bar_and_runs_out() -> None:
    clock = ManualClock()
    async with running_server(clock=clock, **FAST) as server, driven(url(server), name="Alice") as alice:
        await alice.expect("No games yet")
        assert plain(alice.app._toolbar()) == f" lobby: games, create, join, watch | 127.0.0.1:{server.port} "
        shown = await alice.type("create seed 2 units=6 time=90")
        assert alice.app.tracker is not None, shown
        game_id = alice.app.tracker.game_id
        bob = await Client.connect(server)
        await join(bob, game_id, "Bob")
        await alice.expect("Place your 6 units")
        bar = plain(alice.app._toolbar())  # 80 columns: what is least important (who has committed) is left out
        assert re.fullmatch(
            rf" Alice in {game_id}: turn 0, placement \| 1:(30|29) left \| 6 units left to place ", bar
        ), bar
        clock.advance(90)
        ran_out = await alice.expect("Turn 1: move N FROM TO", timeout=5)
        assert "Time ran out: the rules played for Alice, Bob." in ran_out
        await bob.close()


async def test_choosing_a_starting_group() -> None:
    async with running_server(**FAST) as server, driven(url(server), name="Alice") as alice:
        shown = await alice.type("create seed 2 choose")
        assert alice.app.session.games
        game = alice.app.session.games[-1]
        assert game.groups is not None and len(game.groups) == 2
        assert f"Starting groups of game {game.game_id} (join {game.game_id} N):" in shown
        assert f"  1: {', '.join(game.groups[1])}\n" in shown
        assert "You sit in game" not in shown  # a group must be chosen first
        refused = await alice.type(f"join {game.game_id}")
        assert "Refused: choose a starting group from 0 to 1" in refused
        assert f"  0: {', '.join(game.groups[0])}\n" in refused
        shown = await alice.type(f"join {game.game_id} 1")
        assert f"You sit in game {game.game_id} as Alice." in shown
        bob = await Client.connect(server)
        await join(bob, game.game_id, "Bob", group=0)
        await alice.expect("Place your 40 units")  # 10 per starting territory
        assert own(game_view(alice), "Alice") == list(game.groups[1])
        await bob.close()
