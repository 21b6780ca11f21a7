"""E12-E15 on the wire: in whole served games under fog of war, no frame a player or a spectator is sent carries
what the fog hides from them, checked against the server's own game at the moment the frame was made.

The players are the server's own computer players, each recording every frame the match sends it (its text, as a
connection would write it) together with the game as it stood then (games are immutable, so holding it is enough).
"""

from __future__ import annotations

import asyncio
import json
import random
import re
from pathlib import Path
from typing import Any

import pytest
from pydantic import BaseModel

from risc.cli import main
from server.computers.players import ServerBot
from server.core.entries import from_stored, logged, number
from server.match import Match
from server.storage import SqliteStorage
from server.storage.sqlite import DATABASE_NAME
from shared.bots.tournament import make_strategy
from shared.game.game import Game
from shared.maps import load_map
from shared.protocol.patch import apply
from shared.rulesets.risc.board import Phase
from shared.rulesets.risc.fog import sight
from shared.rulesets.risc.levels import NO_UNITS
from tests.evolution_support import RISC, new_game, place_all, play_turn, random_legal_orders
from tests.server_support import FAST, Client, create_game, join, running_server, until

PLAYERS = ("ann", "bob", "cyd")


class Recorder(ServerBot):
    """A computer player that keeps every frame it is sent, with the game as the server held it then."""

    def __init__(self, name: str, match: Match, seed: int) -> None:
        super().__init__(name, make_strategy(match.ruleset, "strategist"), lambda _: match, seed=seed)
        self.match = match
        self.seen: list[tuple[dict[str, Any], Game[Any, Any] | None]] = []

    def send(self, message: BaseModel, text: str | None = None) -> None:
        self.seen.append((json.loads(text if text is not None else message.model_dump_json()), self.match.game))
        super().send(message, text)


class Watcher:
    """A spectator's connection inside the server: it keeps what it is sent."""

    def __init__(self, match: Match) -> None:
        self.match = match
        self.games: set[str] = set()
        self.reads_text = True
        self.views: dict[str, dict[str, Any]] = {}
        self.seen: list[tuple[dict[str, Any], Game[Any, Any] | None]] = []
        self.words = False
        self.changed = asyncio.Event()
        """Set at every frame: what a wait looks again on."""

    @property
    def label(self) -> str:
        return "watcher"

    def send(self, message: BaseModel, text: str | None = None) -> None:
        self.seen.append((json.loads(text if text is not None else message.model_dump_json()), self.match.game))
        self.changed.set()


def _told(entry: dict[str, Any]) -> str:
    """An entry as its receivers were told it (its change's number and its event): the key to the log's own."""
    return json.dumps(entry, sort_keys=True)


def check_frames(
    who: str | None, frames: list[tuple[dict[str, Any], Game[Any, Any] | None]], match: Match
) -> tuple[int, dict[str, Any] | None]:
    """Every territory in every view a receiver got is either in its sight (and true), remembered (and as the
    server remembers it for them), or unknown; every log entry it got was for it. Returns how many views were
    checked, and the last view."""
    entries = {_told(json.loads(e.text)): e for e in match.log.after(0) or []}
    view: dict[str, Any] | None = None
    checked = 0
    for frame, game in frames:
        if frame.get("type") != "update" or game is None:
            continue
        board, finished = game.board, game.board.phase is Phase.FINISHED
        for entry in frame["events"]:
            kept = entries.get(_told(entry))
            if kept is not None and kept.audience is not None and not finished:
                assert who in kept.audience, f"{who} was told of {entry['event']} meant for {kept.audience}"
        if frame["view"] is not None:
            view = frame["view"]
        elif frame["view_patch"] is not None and view is not None:
            view = apply(view, frame["view_patch"])
        if view is None or finished or board.evo is None:
            continue
        sees = sight(game.game_map, board, who) if who is not None else frozenset()
        memory = board.evo.memory.get(who, {}) if who is not None else {}
        for name, shown in view["territories"].items():
            if name in sees:
                assert (shown.get("owner"), shown.get("units", 0)) == (board.owner[name], board.units[name])
                assert shown.get("fog", "clear") == "clear"
            elif name in memory:
                seen = memory[name]
                assert shown.get("fog") == "memory" and shown.get("seen") == seen.turn, (who, name, shown)
                assert (shown.get("owner"), tuple(shown.get("levels", NO_UNITS))) == (seen.owner, tuple(seen.levels))
            else:
                assert shown.get("fog") == "unknown", (who, name, shown)
                assert set(shown) <= {"size", "fog", "levels", "units", "spies"} and not shown.get("units"), shown
        for player, status in view["players"].items():
            if player != who:
                assert status.get("food") is None and status.get("technology") is None, "others' stocks are secret"
        checked += 1
    return checked, view


def assert_map_keeps_production_hidden(frames: list[tuple[dict[str, Any], Game[Any, Any] | None]]) -> None:
    """E12: a territory's production shows once seen, so the map a follower is sent gives nobody's (cataract's own
    figures are the game's when fair, and would tell it for every territory)."""
    maps = [frame["map"] for frame, _ in frames if frame.get("type") == "game_map"]
    assert maps, "the map was sent"
    for sent in maps:
        assert all(t["food"] is None and t["technology"] is None for t in sent["territories"])
        assert any(t["size"] != 1 for t in sent["territories"]), "sizes are public (E12)"


async def test_E12_the_map_keeps_production_for_the_view_under_fog_only() -> None:
    async with running_server(**FAST) as server:
        lobby = await Client.connect(server)
        for evolution, hidden in ((2, False), (3, True)):
            game_id = await create_game(lobby, map="twin-keeps", players=2, evolution=evolution)
            await lobby.request(type="watch_game", game_id=game_id)
            sent = await lobby.wait_for(lambda m, g=game_id: m.get("type") == "game_map" and m["game_id"] == g)
            foods = [t["food"] for t in sent["map"]["territories"]]
            assert all(food is None for food in foods) is hidden, (evolution, foods)
            await lobby.request(type="leave_game", game_id=game_id)
        await lobby.close()


async def test_E12_a_watcher_refused_a_sight_is_told_who_may_follow() -> None:
    async with running_server(**FAST) as server:
        lobby = await Client.connect(server)
        game_id = await create_game(lobby, map="twin-keeps", players=2, evolution=3)
        ann = await Client.connect(server)
        await join(ann, game_id, "ann")
        await join(await Client.connect(server), game_id, "bob")
        refused = await lobby.request(type="watch_game", game_id=game_id, follow="ANN")  # names ignore case
        assert refused["type"] == "error" and refused["code"] == "cannot-follow"
        assert "only a player who is out may follow" in refused["message"]
        assert "ann's eyes" in refused["message"], "the seat's own name, however it was typed"
        assert "all there is to see" not in refused["message"]
        still_in = await ann.request(type="watch_game", game_id=game_id, follow="bob")
        assert still_in["code"] == "cannot-follow" and "only a player who is out" in still_in["message"]
        plain = await lobby.request(type="watch_game", game_id=game_id)
        assert plain["type"] == "watching"
        await lobby.close()
        await ann.close()


async def test_E15_no_frame_of_a_served_game_carries_what_the_fog_hides(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    async with running_server(SqliteStorage(tmp_path / DATABASE_NAME), seeds=lambda: 424242, **FAST) as server:
        lobby = await Client.connect(server)
        game_id = await create_game(lobby, map="cataract", players=3, evolution=3, initial_units=24)
        match = server.lobby.get(game_id)
        watcher = Watcher(match)
        await match.watch(watcher, None, None, None)
        bots = [Recorder(name, match, seed) for seed, name in enumerate(PLAYERS)]
        for bot in bots:
            await match.join(bot, bot.name, None, None)

        def far_enough() -> bool:
            game = match.game
            return game is not None and (game.board.phase is Phase.FINISHED or game.board.turn > 12)

        await until(far_enough, "thirteenth turn or end", watcher, timeout=30)
        for bot in bots:
            await bot.close()
        game = match.game
        assert game is not None and game.board.turn >= 3, "the game got under way"
        for bot in bots:
            assert bot.refused == 0
            assert check_frames(bot.name, bot.seen, match)[0] >= 3
            assert_map_keeps_production_hidden(bot.seen)
        assert_map_keeps_production_hidden(watcher.seen)
        checked, last = check_frames(None, watcher.seen, match)
        assert checked >= 3 and last is not None
        if game.board.phase is not Phase.FINISHED:  # a spectator sees only what is public
            assert all(t.get("fog") == "unknown" for t in last["territories"].values())
    if game.board.phase is not Phase.FINISHED:  # the replay of a game under way keeps its secrets too
        assert await asyncio.to_thread(main, ["replay", game_id, "--data-dir", str(tmp_path)]) == 0
        out = capsys.readouterr().out
        assert "events told only to some players are kept until the game is over" in out
        assert " attacked " not in out and " moved " not in out


def test_E12_a_follower_hears_what_the_followed_player_sees_but_never_their_own_affairs() -> None:
    """Following a player's sight shows what they see (combats in the fog they saw), never their stocks, new units,
    spies, cloaks or research of cloaking, which are told to them alone (docs/rules.md, E12)."""
    own_kinds = {"stocks", "units_received", "spies_trained", "spies_moved", "territory_cloaked", "cloaking_researched"}
    rng = random.Random(5)
    game = place_all(new_game(load_map("cataract"), PLAYERS, seed=5, evolution=3, initial_units=24), rng)
    told: list[Any] = []
    for _ in range(6):
        for player in PLAYERS:
            game = random_legal_orders(game, player, rng)
        game, events = play_turn(game, {}, seed=rng.randrange(1000))
        told += events
    entries = number([logged(t) for t in told], 0, RISC, change=1)
    private = [e for e in entries if e.audience is not None]
    assert {e.kind for e in private} >= {"stocks", "units_received"}, "the turns told each player their own affairs"
    assert any(not e.own for e in private), "and told some players what they saw in the fog"
    for entry in private:
        assert entry.own == (entry.kind in own_kinds), entry.kind
        for player in entry.audience or ():
            assert entry.visible_to(player, finished=False), "the player is told"
            assert entry.visible_to(player, finished=False, following=True) is not entry.own, (
                "whoever follows their sight hears what they see, not their own affairs"
            )
            assert entry.visible_to(player, finished=True, following=True), "once the game is over, everything"
    stored = [from_stored(json.loads(e.stored)) for e in private]
    assert [(e.audience, e.own) for e in stored] == [(e.audience, e.own) for e in private], "a restart keeps both"


async def fogged_turn(server: Any, lobby: Client, hidden_moves: int) -> tuple[Client, str, str, int]:
    """A game of ann and bob under fog on cataract (the same seed every time): both place, then in turn 1 bob makes
    `hidden_moves` moves between two of his territories ann cannot see, and both commit, and then turn 2 too. Returns
    ann's connection, the game, her token and the last number she had before turn 1 resolved."""
    game_id = await create_game(lobby, map="cataract", players=2, evolution=3)
    ann, bob = await Client.connect(server), await Client.connect(server)
    token = await join(ann, game_id, "ann")
    await join(bob, game_id, "bob")
    for client in (ann, bob):
        await client.wait_for(lambda m: m["type"] == "update" and m["game"]["phase"] == "placement")
    mine = {name: ann.views[game_id]["territories"] for name in ("ann",)}["ann"]
    theirs = bob.views[game_id]["territories"]
    game_map = bob.maps[game_id]
    hidden = [t for t, shown in theirs.items() if shown.get("owner") == "bob" and mine[t].get("fog") == "unknown"]
    source, target = next((a, b) for a in hidden for b in game_map["borders"][a] if b in hidden)
    for client, name, where in (
        (ann, "ann", next(t for t, s in mine.items() if s.get("owner") == "ann")),
        (bob, "bob", source),
    ):
        pool = client.views[game_id]["pool_left"]
        placed = await client.request(
            type="issue_order", game_id=game_id, turn=0, order={"kind": "place", "territory": where, "units": pool}
        )
        assert placed["type"] == "order_accepted", (name, placed)
        assert (await client.request(type="commit", game_id=game_id, turn=0))["type"] == "commit_accepted"
    await ann.wait_for(lambda m: m["type"] == "update" and m["game"]["turn"] == 1)
    before = ann.latest("update", game_id)
    assert before is not None
    for _ in range(hidden_moves):
        moved = await bob.request(
            type="issue_order",
            game_id=game_id,
            turn=1,
            order={"kind": "level_move", "units": 1, "level": 0, "source": source, "target": target},
        )
        assert moved["type"] == "order_accepted", moved
    for turn in (1, 2):
        for client in (ann, bob):
            assert (await client.request(type="commit", game_id=game_id, turn=turn))["type"] == "commit_accepted"
        await ann.wait_for(lambda m, t=turn: m["type"] == "update" and m["game"]["turn"] == t + 1)
    await bob.close()
    return ann, game_id, token, before["seq"]


def as_sent(client: Client, game_id: str, token: str) -> list[str]:
    """The frames a connection was sent, but for what is drawn afresh for each game (its id, the seat's token) and
    the refs the test's requests chose."""
    return [
        re.sub(r'"ref":"r\d+"', '"ref":"R"', text.replace(game_id, "GAME").replace(token, "TOKEN"))
        for text in client.raw
    ]


async def test_E15_what_a_player_is_sent_numbers_included_tells_nothing_of_moves_out_of_their_sight() -> None:
    """Entries were numbered one by one, so the gaps in what ann was sent counted bob's moves out of her sight (5 plus
    one per move); they are numbered by change now, every entry of a change sharing its number."""
    async with running_server(seeds=lambda: 11, **FAST) as server:
        lobby = await Client.connect(server)
        sent, resumed = [], []
        for moves in (0, 6):
            ann, game_id, token, before = await fogged_turn(server, lobby, moves)
            sent.append(as_sent(ann, game_id, token))
            await ann.close()
            again = await Client.connect(server)  # ann comes back, from before turn 1 resolved
            reply = await again.request(type="resume", game_id=game_id, token=token, last_seq=before)
            assert reply["type"] == "resumed", reply
            caught_up = await again.wait_type("update", game_id=game_id)
            assert not caught_up["snapshot"] and caught_up["game"]["turn"] == 3
            numbers = [e["seq"] for e in caught_up["events"]]
            assert numbers[0] == before + 1 and numbers[-1] == caught_up["seq"] and numbers == sorted(numbers)
            assert not any(e["event"]["kind"] == "orders_revealed" for e in caught_up["events"]), "fog: told to none"
            resumed.append(as_sent(again, game_id, token))
            await again.close()
        assert sent[0] == sent[1], "what ann was sent depends on what bob did out of her sight"
        assert resumed[0] == resumed[1], "and so does what she is sent when she comes back"
