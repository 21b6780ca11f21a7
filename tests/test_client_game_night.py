"""A game night in the text client: the lobby's refusals, quick commands, players who drop, come back or are handed
to the computer, a rematch someone left, and answers that come before what follows them."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from server.clock import ManualClock
from tests.client_support import Driver, driven
from tests.server_support import FAST, Client, any_news, join, looking, running_server, until, url
from tests.toy_ruleset import GOAL, RaceToTwenty

DUEL = """name = "Duel"
description = "Two hills that see each other: a game over in a turn or two."

[territories.West]
borders = ["East"]

[territories.East]
borders = ["West"]
"""


@pytest.fixture(autouse=True)
def config_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    return tmp_path / "config"


def game_id_of(driver: Driver) -> str:
    assert driver.app.tracker is not None
    return driver.app.tracker.game_id


def seat_of(client: Client, game_id: str, name: str) -> dict[str, Any]:
    update = client.latest("update", game_id)
    assert update is not None
    return next(s for s in update["game"]["seats"] if s["name"] == name)


# ---- the lobby ----------------------------------------------------------------------------------------------------


async def test_create_while_sitting_in_a_game_that_has_not_started_keeps_that_seat_too() -> None:
    """One name sits in several games at once: the first keeps waiting for its players, off screen."""
    async with running_server(**FAST) as server, driven(url(server), name="Ann") as ann:
        shown = await ann.type("create seed 3")
        assert "You sit in game" in shown
        first = game_id_of(ann)
        shown = await ann.type("create seed 2")
        second = game_id_of(ann)
        assert f"Game {first} goes on without being on screen" in shown and second != first
        assert [s.name for s in server.lobby.get(first).seats] == ["Ann"]
        assert [s.name for s in server.lobby.get(second).seats] == ["Ann"]


async def test_settings_are_refused_in_a_player_s_words() -> None:
    async with running_server(**FAST) as server, driven(url(server), name="Ann") as ann:
        for players in (9, 6, 1):  # beyond what the protocol seats, or only what RISC does: one sentence
            shown = await ann.type(f"create seed {players}")
            assert shown == f"Those settings will not do: a RISC game has 2 to 5 players, not {players}.\n", shown
        shown = await ann.type("create seed 7 max_players=8")
        assert "You sit in game" in shown, "RISC seats up to 8 by choice"
        await ann.type("leave")
        shown = await ann.type("create seed 2 units=0")
        assert "units must be at least 1" in shown
        assert "Input should" not in ann.app.text() and "initial_units" not in ann.app.text()
        assert len(server.lobby.matches) <= 1, "only the game of 7 was created (and closed when Ann left it)"


async def test_a_unique_prefix_of_a_game_id_is_enough_to_join() -> None:
    async with running_server(**FAST) as server:
        ann = await Client.connect(server)
        reply = await ann.request(type="create_game", settings={"map": "seed", "players": 2})
        game_id = reply["game"]["game_id"]
        async with driven(url(server), name="Bob") as bob:
            await bob.expect(game_id)
            shown = await bob.type(f"join {game_id[:3]}")
            assert f"You sit in game {game_id} as Bob." in shown
        await ann.close()


# ---- placing quickly, and taking it all back ----------------------------------------------------------------------


async def test_placing_spread_over_several_territories_the_rest_and_withdrawing_everything() -> None:
    async with running_server(**FAST) as server, driven(url(server), name="Ann") as ann:
        await ann.type("create seed 2 units=13")
        bob = await Client.connect(server)
        await join(bob, game_id_of(ann), "Bob")
        await ann.expect("Place your 13 units")
        tracker = ann.app.tracker
        assert tracker is not None and tracker.view is not None
        mine = [n for n, t in tracker.view.territories.items() if t.owner == "Ann"]
        shown = await ann.type(f"place 5 {mine[0]} {mine[1]}")
        assert shown == f"Orders 1-2: place 3 on {mine[0]}; place 2 on {mine[1]}. 8 units left to place.\n"
        shown = await ann.type("place 3 *")
        assert shown.startswith("Orders 3-5: place 1 on") and "5 units left to place" in shown
        shown = await ann.type(f"place rest {mine[2]}")
        assert f"Order 6: place 5 on {mine[2]}. 0 units left to place." in shown
        # the last order first: the server moves it, and the list it keeps says so
        shown = await ann.type("reorder 6 1")
        assert "Order 6 is number 1 now." in shown and f"  1. place 5 on {mine[2]}\n  2. place 3 on {mine[0]}" in shown
        shown = await ann.type("orders")
        assert f"  1. place 5 on {mine[2]}\n  2. place 3 on {mine[0]}" in shown
        shown = await ann.type("withdraw all")
        assert "Withdrew all 6 orders." in shown
        shown = await ann.type("orders")
        assert "No orders yet." in shown
        assert "13 units left to place" in shown
        await bob.close()


# ---- players who drop, come back, or are handed to the computer -------------------------------------------------


async def test_the_others_are_told_who_drops_and_comes_back_and_a_seat_is_handed_to_the_computer() -> None:
    clock = ManualClock()
    async with (
        running_server(clock=clock, hand_over_after=60, **FAST) as server,
        driven(url(server), name="Ann") as ann,
    ):
        await ann.type("create seed 3 units=6")
        game_id = game_id_of(ann)
        bob, cy = await Client.connect(server), await Client.connect(server)
        bob_token = await join(bob, game_id, "Bob")
        await join(cy, game_id, "Cy")
        await ann.expect("Place your 6 units")
        await bob.close()
        dropped = await ann.expect("Bob dropped")
        assert (
            "Bob dropped: the game waits for them (if they stay away, handover Bob lets the computer play for "
            "them)." in ann.app.text()[-400:]
        ), dropped
        shown = await ann.type("handover Bob")
        assert "Refused: Bob has been away 0 s; a seat can be handed over after 60 s" in shown

        clock.advance(61)
        vote = await cy.request(type="hand_over", game_id=game_id, player="Bob")
        assert vote["type"] == "hand_over_pending" and vote["needed"] == ["Ann"]
        await ann.type("handover Bob")  # the game's creator decides
        await ann.expect("Bob's seat is played by the computer (strategist) until they come back.")

        # The computer places Bob's units; Ann and Cy place theirs and the game goes on.
        await ann.type(f"place rest {own(ann)[0]}")
        await ann.type("done")
        update = cy.latest("update", game_id)
        assert update is not None
        mine = [t["name"] for t in update["view"]["territories"] if t["owner"] == "Cy"]
        await cy.request(
            type="issue_order", game_id=game_id, turn=0, order={"kind": "place", "territory": mine[0], "units": 6}
        )
        await cy.request(type="commit", game_id=game_id, turn=0)
        turn = await ann.expect("Turn 1: move N FROM TO")
        assert "Bob placed " in turn

        back = await Client.connect(server)
        assert (await back.request(type="resume", game_id=game_id, token=bob_token))["type"] == "resumed"
        await ann.expect("Bob is back and plays their own seat again.")
        await until(lambda: seat_of(cy, game_id, "Bob")["handed_over"] is False, "Bob's seat given back", cy)
        await back.close()
        # Seats coming and going are told at most once a second: a second on, Bob's going is told whether the server
        # saw it before (its timer falls due) or after (it tells at once).
        clock.advance(1)
        await ann.expect("Bob dropped")
        back = await Client.connect(server)
        assert (await back.request(type="resume", game_id=game_id, token=bob_token))["type"] == "resumed"
        clock.advance(1)
        await ann.expect("Bob is back.")
        for client in (back, cy):
            await client.close()


def own(driver: Driver) -> list[str]:
    tracker = driver.app.tracker
    assert tracker is not None and tracker.view is not None
    return [n for n, t in tracker.view.territories.items() if t.owner == tracker.player]


# ---- the end: a rematch someone left, and answers in their place -----------------------------------------------


async def race_to_the_end(ann: Driver, others: dict[str, Client], game_id: str) -> None:
    """Everyone adds as much as they may when it is their turn, until someone reaches the goal (looking again
    whenever anyone hears or shows something)."""
    while True:
        looking(ann, *others.values())
        tracker = ann.app.tracker
        assert tracker is not None
        game = tracker.followed.game
        if game is not None and game.status.value == "finished":
            return
        if tracker.followed.awaited and tracker.view is not None:
            await ann.type(f"add {min(3, GOAL - tracker.view.total)}")
            continue
        for name, client in others.items():
            update = client.latest("update", game_id)
            if update is None or update["game"]["status"] != "playing":
                continue
            seat = next(s for s in update["game"]["seats"] if s["name"] == name)
            if seat["awaited"]:
                total = update["game"]["turn"]
                await client.request(
                    type="issue_order",
                    game_id=game_id,
                    turn=total,
                    order={"kind": "add", "amount": min(3, GOAL - total)},
                )
        await any_news(ann, *others.values(), what="move in the race")


async def finished_race(server: Any, ann: Driver, names: list[str]) -> tuple[str, dict[str, Client]]:
    await ann.type(f"create rules=race {len(names) + 1}")
    game_id = game_id_of(ann)
    others = {name: await Client.connect(server) for name in names}
    for name, client in others.items():
        await join(client, game_id, name)
    await race_to_the_end(ann, others, game_id)
    await ann.expect("Type rematch for a new game with the same players, or leave.")
    return game_id, others


async def test_a_rematch_goes_on_without_the_player_who_left(race: RaceToTwenty) -> None:
    async with running_server(**FAST) as server, driven(url(server), name="Ann") as ann:
        game_id, others = await finished_race(server, ann, ["Bob", "Cy"])
        await others["Bob"].request(type="rematch", game_id=game_id)
        await ann.expect("Bob wants a rematch.")
        await others["Cy"].request(type="leave_game", game_id=game_id)
        told = await ann.expect("The rematch goes on without them: waiting for Ann to ask.")
        assert "Cy left the table: no rematch for them." in told
        shown = await ann.type("rematch")
        assert "Waiting for" not in shown
        await ann.expect("The rematch begins")
        tracker = ann.app.tracker
        assert tracker is not None and tracker.followed.players() == ["Ann", "Bob"]
        for client in others.values():
            await client.close()


async def test_a_rematch_that_cannot_be_had_when_too_few_are_left_says_so(race: RaceToTwenty) -> None:
    async with running_server(**FAST) as server, driven(url(server), name="Ann") as ann:
        game_id, others = await finished_race(server, ann, ["Bob"])
        await others["Bob"].request(type="leave_game", game_id=game_id)
        told = await ann.expect("Type leave to go back to the lobby.")
        assert (
            "There will be no rematch: Bob left the table, and a Race to twenty game needs at least 2 players." in told
        )
        shown = await ann.type("rematch")
        assert "There will be no rematch" in shown and "Rematch asked" not in shown
        await others["Bob"].close()


async def test_asking_for_a_rematch_someone_asked_for_already_waits_for_nobody(race: RaceToTwenty) -> None:
    async with running_server(**FAST) as server, driven(url(server), name="Ann") as ann:
        game_id, others = await finished_race(server, ann, ["Bob"])
        await others["Bob"].request(type="rematch", game_id=game_id)
        shown = await ann.type("rematch")  # Bob's request may not even be on screen yet
        assert "to ask too" not in shown
        await ann.expect("The rematch begins")
        assert "to ask too" not in ann.app.text()
        await others["Bob"].close()


async def test_the_commit_that_ends_the_game_is_acknowledged_before_the_result(tmp_path: Path) -> None:
    (tmp_path / "duel.toml").write_text(DUEL)
    async with (
        running_server(maps=(tmp_path,), seeds=lambda: 7, **FAST) as server,
        driven(url(server), name="Ann") as ann,
    ):
        await ann.type("create duel 2 units=5")
        game_id = game_id_of(ann)
        bob = await Client.connect(server)
        await join(bob, game_id, "Bob")
        await ann.expect("Place your 5 units")
        await ann.type("place rest *")
        update = bob.latest("update", game_id)
        assert update is not None
        hill = next(t["name"] for t in update["view"]["territories"] if t["owner"] == "Bob")
        await bob.request(
            type="issue_order", game_id=game_id, turn=0, order={"kind": "place", "territory": hill, "units": 5}
        )
        await bob.request(type="commit", game_id=game_id, turn=0)
        await ann.type("done")
        for turn in range(1, 30):
            tracker = ann.app.tracker
            assert tracker is not None
            await until(
                lambda: tracker.finished or (tracker.turn == turn and tracker.followed.awaited),  # noqa: B023
                f"turn {turn}",
                ann,
            )
            if tracker.finished:
                break
            # Bob throws everything at Ann's hill, leaving his own empty; Ann sends one unit to take it.
            view = tracker.view
            assert view is not None
            hers = next(n for n, t in view.territories.items() if t.owner == "Ann")
            his = next(n for n, t in view.territories.items() if t.owner == "Bob")
            await bob.request(
                type="issue_order",
                game_id=game_id,
                turn=turn,
                order={"kind": "attack", "source": his, "target": hers, "units": view.territories[his].units},
            )
            await bob.request(type="commit", game_id=game_id, turn=turn)
            await ann.expect("Bob committed.")
            await ann.type(f"attack 1 {hers} {his}")
            await ann.type("done")
        assert ann.app.tracker is not None and ann.app.tracker.finished
        again = await ann.type("report")  # the last turn's report, again
        assert again.startswith("This turn you took")
        picture = await ann.type("map")  # a map file without coordinates is laid out by the server that offers it
        assert "Eas A" in picture and "Wes A" in picture and "A Ann (you)  B Bob" in picture
        shown = ann.app.text()
        end = shown.index(f"You won game {game_id}")
        assert "Committed turn" not in shown[end:], "the answer to the last commit came after the game's end"
        assert "Waiting for Bob" not in shown, "Bob had committed each turn before Ann"
        await bob.close()


async def test_a_large_map_s_start_says_where_the_player_stands_board_front_lists_it_and_map_draws_it() -> None:
    async with running_server(**FAST) as server, driven(url(server), name="Ann") as ann:
        await ann.type("create meridian 2")
        bob = await Client.connect(server)
        await join(bob, game_id_of(ann), "Bob")
        shown = await ann.expect("Place your")
        assert "You hold 0 units on 30 territories, " in shown and len(shown.splitlines()) < 15
        front = await ann.type("board front")
        rows = [row for row in front.splitlines() if " | " in row]
        assert f", {len(rows)} of them next to others'" in shown
        assert all(" A |" in row for row in rows), "her own territories alone"
        picture = await ann.type("map")
        assert "Fro " in picture and "A Ann (you)  B Bob" in picture
        everything = await ann.type("board")
        assert len([row for row in everything.splitlines() if " | " in row]) == 60
        one = await ann.type("board frostg")
        assert one.splitlines()[2].startswith("  Frostgate ")
        await bob.close()
