"""A finished game told again, over the protocol: its statistics (game_statistics) and its replay (open_replay,
replay_turn), for every rule set, from the store.

Each game is played to its end by the server's own computer players with a fixed seed. What the server tells is
checked against the stored log as it was written while the game was played (its events as JSON, their audiences),
and against the rules: who holds what at the end, who put whom out, what each sight may see under fog of war.
"""

from __future__ import annotations

import re
from collections import Counter
from typing import Any

import pytest

from shared.protocol.log import FRAMEWORK_KINDS
from tests.server_support import FAST, Client, create_game, finished, resigned_at_once, running_server

pytestmark = pytest.mark.asyncio

GAME_SECONDS = 60.0
GAMES = {
    "risc": {"ruleset": "risc", "map": "seed", "players": 2},
    "risc-evolution-3": {"ruleset": "risc", "map": "cataract", "players": 2, "options": {"evolution": 3}},
    "warzone": {"ruleset": "warzone", "map": "seed", "players": 2},
    "classic": {"ruleset": "classic", "map": "seed", "players": 2},
    "grid": {"ruleset": "grid", "map": None, "players": 3},
}
BATTLES = {"risc": ("combat",), "risc-evolution-3": ("battle",), "warzone": ("battle",)}
"""The logged events that are one battle each (the turn-by-turn games' battles are runs of rolls)."""


async def finished_game(server: Any, client: Client, settings: dict[str, Any]) -> str:
    """A game of the server's computer players, played to its end while `client` watches."""
    game_id = await create_game(client, **settings, bots=settings["players"])
    await client.request(type="watch_game", game_id=game_id)
    await finished(client, game_id, GAME_SECONDS)
    return game_id


def logged_turns(events: list[dict[str, Any]]) -> list[tuple[int, list[dict[str, Any]]]]:
    """The stored log's resolutions, as written while the game was played: each turn with its rule-set entries (each
    with its audience), in order."""
    turns: list[tuple[int, list[dict[str, Any]]]] = []
    current: list[dict[str, Any]] | None = None
    for entry in events:
        kind = entry["event"]["kind"]
        if kind == "orders_revealed":
            turn = entry["event"]["turn"]
            if not turns or turns[-1][0] != turn:
                turns.append((turn, []))
            current = turns[-1][1]
        elif kind not in FRAMEWORK_KINDS and current is not None:
            current.append(entry)
    return turns


@pytest.mark.parametrize("name", list(GAMES))
async def test_a_player_who_resigned_is_counted_out_by_resigning_not_put_out_by_whoever_took_what_they_left(
    name: str,
) -> None:
    """One seat resigns at once, the server's computer players play the others to the end: the statistics say the
    resigned player went out on that turn by resigning, and credit nobody with putting them out."""
    settings = {**GAMES[name], "players": GAMES[name]["players"] + 1}
    async with running_server(seeds=lambda: 7, **FAST) as server:
        client = await Client.connect(server)
        game_id = await resigned_at_once(client, settings)
        statistics = (await client.request(type="game_statistics", game_id=game_id))["statistics"]
        (quitter,) = [e for e in statistics["eliminations"] if e["player"] == "Quitter"]
        assert quitter["resigned"] is True and quitter["by"] is None, quitter
        assert quitter["turn"] == statistics["turns"][0]["turn"]  # resigned before the first turn was over
        totals = statistics["totals"]
        assert totals["Quitter"]["resigned"] is True and totals["Quitter"]["eliminated_by"] is None
        assert not any("Quitter" in t["eliminated"] for t in totals.values())
        assert all(not e["resigned"] for e in statistics["eliminations"] if e["player"] != "Quitter")


@pytest.mark.parametrize("name", list(GAMES))
async def test_a_finished_game_s_statistics_and_replay_agree_with_its_log_and_its_rules(name: str) -> None:
    settings = GAMES[name]
    async with running_server(seeds=lambda: 7, **FAST) as server:
        client = await Client.connect(server)
        game_id = await finished_game(server, client, settings)
        stored = await server.lobby.storage.load(game_id)
        assert stored is not None
        match = server.lobby.get(game_id)
        ruleset = match.ruleset
        final = match.table.game
        players = [seat.name for seat in stored.progress.seats]
        logged = logged_turns(stored.events)
        flat = [entry["event"] for _, entries in logged for entry in entries]

        reply = await client.request(type="game_statistics", game_id=game_id)
        assert reply["type"] == "statistics", reply
        statistics = reply["statistics"]
        assert statistics["players"] == players
        status = ruleset.status(final)
        assert status.winner is not None and statistics["winner"] == status.winner
        assert [line["turn"] for line in statistics["turns"]] == [turn for turn, _ in logged]

        # the end: the winner holds what the board says they hold; everyone else went out, and by whom the log says
        holdings = ruleset.holdings(final)
        end = statistics["totals"]
        assert end[status.winner]["territories"] == sum(1 for owner, _ in holdings.values() if owner == status.winner)
        assert end[status.winner]["units"] == sum(units for owner, units in holdings.values() if owner == status.winner)
        out = {e["player"]: e for e in statistics["eliminations"]}
        assert set(out) == set(players) - {status.winner}
        for event in flat:
            if event["kind"] == "player_eliminated" and "by" in event:  # the turn-by-turn games name the taker
                assert out[event["player"]]["by"] == event["by"]
        for player, elimination in out.items():
            assert end[player]["territories"] == 0 and end[player]["eliminated_by"] == elimination["by"]
            assert player in end[elimination["by"]]["eliminated"]
            # a player's lines stop with the turn they went out
            assert [line["turn"] for line in statistics["turns"] if player in line["players"]][-1] == elimination[
                "turn"
            ]

        # income and battles, counted from the log as it was written
        income = Counter[str]()
        for event in flat:
            if event["kind"] in ("units_received", "reinforcements"):
                income[event["player"]] += event["units"]
            elif event["kind"] == "turn_started" and "player" in event:
                income[event["player"]] += event.get("armies", event.get("new_troops", 0))
        assert {p: end[p]["income"] for p in players} == {p: income[p] for p in players}
        won = sum(end[p]["battles_won"] for p in players)
        lost = sum(end[p]["battles_lost"] for p in players)
        if name in BATTLES:
            fought = [e for e in flat if e["kind"] in BATTLES[name]]
            owner_field = "holder" if name == "warzone" else "new_owner"
            against_players = [e for e in fought if e["defender"] is not None]
            assert won + lost == len(fought) + len(against_players)  # each battle counts for both sides but a neutral
            assert won == sum(1 for e in fought if e[owner_field] == e["attacker"]) + sum(
                1 for e in against_players if e[owner_field] != e["attacker"]
            )
        else:
            conquests = sum(1 for e in flat if e["kind"] in ("country_conquered", "cell_taken"))
            assert won >= conquests and lost >= conquests  # every conquest a battle won by one and lost by another
            assert won == lost  # no neutrals: every battle is won by one player and lost by another
        if name == "warzone":
            cards = Counter[str]()
            for event in flat:
                if event["kind"] == "turn_stats":
                    cards.update({p: s["cards_played"] for p, s in event["players"].items()})
            assert {p: end[p]["cards_played"] for p in players} == {p: cards[p] for p in players}

        # the replay: the set-up board, then one point per turn, each with the turn's events as the log holds them
        opened = await client.request(type="open_replay", game_id=game_id)
        assert opened["type"] == "replay", opened
        assert opened["players"] == players and opened["winner"] == status.winner and opened["difference"] is None
        assert opened["map"]["territories"] == stored.record.game_map["territories"]
        assert [t["turn"] for t in opened["turns"][1:]] == [turn for turn, _ in logged]
        assert opened["turns"][0]["steps"] == 0
        assert opened["fog"] is (name == "risc-evolution-3")
        for index, (_, entries) in enumerate(logged, start=1):
            shown = await client.request(type="replay_turn", game_id=game_id, index=index)
            assert shown["type"] == "replayed_turn", shown
            assert shown["events"] == [entry["event"] for entry in entries]
            assert opened["turns"][index]["events"] == len(entries)
        # after the last turn the board is the finished game's, as its spectators were last shown it
        assert shown["view"] == ruleset.dump_view(ruleset.view(final, None))
        first = await client.request(type="replay_turn", game_id=game_id, index=0)
        assert first["events"] == [] and first["view"] != shown["view"]


async def test_under_fog_a_replay_shows_one_player_s_sight_or_everything() -> None:
    async with running_server(seeds=lambda: 7, **FAST) as server:
        client = await Client.connect(server)
        game_id = await finished_game(server, client, GAMES["risc-evolution-3"])
        stored = await server.lobby.storage.load(game_id)
        assert stored is not None
        ann, _ = [seat.name for seat in stored.progress.seats]
        logged = logged_turns(stored.events)
        index = len(logged) // 2
        everything = await client.request(type="replay_turn", game_id=game_id, index=index)
        hers = await client.request(type="replay_turn", game_id=game_id, index=index, sight=ann)
        assert hers["sight"] == ann and everything["sight"] is None
        # everyone's: every territory as it stands, every event; hers: what she saw and what she was told
        assert all(t.get("fog", "clear") == "clear" for t in everything["view"]["territories"].values())
        assert any(t.get("fog") in ("memory", "unknown") for t in hers["view"]["territories"].values())
        entries = logged[index - 1][1]
        assert everything["events"] == [entry["event"] for entry in entries]
        assert hers["events"] == [
            entry["event"] for entry in entries if entry.get("audience") is None or ann in entry["audience"]
        ]
        assert len(hers["events"]) < len(everything["events"])
        assert hers["view"]["players"][ann]["territories"] == everything["view"]["players"][ann]["territories"]


async def test_a_client_that_asks_for_words_gets_each_replayed_event_in_words_as_the_sight_was_told_it() -> None:
    async with running_server(seeds=lambda: 7, **FAST) as server:
        client = await Client.connect(server)
        game_id = await finished_game(server, client, GAMES["risc-evolution-3"])
        ruleset = server.lobby.get(game_id).ruleset
        worded = await Client.connect(server, words=True)
        stored = await server.lobby.storage.load(game_id)
        assert stored is not None
        ann, bob = [seat.name for seat in stored.progress.seats]
        index = len(logged_turns(stored.events)) // 2
        for sight in (None, ann, bob):
            shown = await worded.request(type="replay_turn", game_id=game_id, index=index, sight=sight)
            assert shown["type"] == "replayed_turn", shown
            assert shown["events"], "a turn in the middle of the game tells something"
            assert shown["texts"] == [
                ruleset.presentation.event_text(ruleset.load_event(e), [ann, bob], sight) for e in shown["events"]
            ]
            assert all(shown["texts"])
            said = dict(zip((e["kind"] for e in shown["events"]), shown["texts"], strict=False))
            if sight is None:  # everyone's eyes: every line says whose, none says "you"
                assert not any(re.search(r"\byou\b", text, re.IGNORECASE) for text in shown["texts"]), shown["texts"]
                stocks = [t for e, t in zip(shown["events"], shown["texts"], strict=True) if e["kind"] == "stocks"]
                assert stocks and all(t.startswith((f"{ann} spent", f"{bob} spent")) for t in stocks), stocks
            else:  # a player's eyes: what they were told of themselves, as "you"
                assert said.get("stocks", "").startswith("You spent") and sight not in said["stocks"]
            plain = await client.request(type="replay_turn", game_id=game_id, index=index, sight=sight)
            assert plain["events"] == shown["events"] and plain["texts"] is None, "no words unless asked"


async def test_what_cannot_be_told_is_refused_and_changes_nothing() -> None:
    async with running_server(seeds=lambda: 7, **FAST) as server:
        client = await Client.connect(server)
        game_id = await finished_game(server, client, GAMES["risc"])
        playing = await create_game(client, map="seed", players=2, bots=1)
        for request, code in (
            ({"type": "game_statistics", "game_id": playing}, "not-finished"),
            ({"type": "open_replay", "game_id": playing}, "not-finished"),
            ({"type": "game_statistics", "game_id": "nosuch"}, "no-such-game"),
            ({"type": "open_replay", "game_id": game_id, "sight": "Zed"}, "no-such-player"),
            ({"type": "replay_turn", "game_id": game_id, "index": 500}, "invalid-message"),
            ({"type": "replay_turn", "game_id": game_id, "index": -1}, "invalid-message"),
            ({"type": "open_replay", "game_id": "../../etc/passwd"}, "invalid-message"),
        ):
            reply = await client.request(**request)
            assert reply["type"] == "error" and reply["code"] == code, (request, reply)
            assert reply["request"] == request["type"]
        refused = await client.request(type="open_replay", game_id=game_id, sight="Zed")
        assert "did not play game" in refused["message"] and "bot-strategist-1" in refused["message"]
        assert (await client.request(type="open_replay", game_id=game_id))["type"] == "replay"
        assert server.lobby.get(playing).table.game is None  # still waiting for its player: untouched
