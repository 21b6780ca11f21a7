"""E12-E15 on the wire: in whole served games under fog of war, no frame a player or a spectator is sent carries
what the fog hides from them, checked against the server's own game at the moment the frame was made.

The players are the server's own computer players, each recording every frame the match sends it (its text, as a
connection would write it) together with the game as it stood then (games are immutable, so holding it is enough).
"""

from __future__ import annotations

import asyncio
import json
import random
from pathlib import Path
from typing import Any

import pytest
from pydantic import BaseModel

from risc.cli import main
from server.bots import ServerBot
from server.entries import from_stored, logged, number
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


def check_frames(who: str | None, frames: list[tuple[dict[str, Any], Game[Any, Any] | None]],
                 match: Match) -> tuple[int, dict[str, Any] | None]:
    """Every territory in every view a receiver got is either in its sight (and true), remembered (and as the
    server remembers it for them), or unknown; every log entry it got was for it. Returns how many views were
    checked, and the last view."""
    entries = {e.seq: e for e in match.log.after(0) or []}
    view: dict[str, Any] | None = None
    checked = 0
    for frame, game in frames:
        if frame.get("type") != "update" or game is None:
            continue
        board, finished = game.board, game.board.phase is Phase.FINISHED
        for entry in frame["events"]:
            kept = entries.get(entry["seq"])
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
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
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
    own_kinds = {"stocks", "units_received", "spies_trained", "spies_moved", "territory_cloaked",
                 "cloaking_researched"}
    rng = random.Random(5)
    game = place_all(new_game(load_map("cataract"), PLAYERS, seed=5, evolution=3, initial_units=24), rng)
    told: list[Any] = []
    for _ in range(6):
        for player in PLAYERS:
            game = random_legal_orders(game, player, rng)
        game, events = play_turn(game, {}, seed=rng.randrange(1000))
        told += events
    entries = number([logged(t) for t in told], 0, RISC)
    private = [e for e in entries if e.audience is not None]
    assert {e.kind for e in private} >= {"stocks", "units_received"}, "the turns told each player their own affairs"
    assert any(not e.own for e in private), "and told some players what they saw in the fog"
    for entry in private:
        assert entry.own == (entry.kind in own_kinds), entry.kind
        for player in entry.audience or ():
            assert entry.visible_to(player, finished=False), "the player is told"
            assert entry.visible_to(player, finished=False, following=True) is not entry.own, \
                "whoever follows their sight hears what they see, not their own affairs"
            assert entry.visible_to(player, finished=True, following=True), "once the game is over, everything"
    stored = [from_stored(json.loads(e.stored)) for e in private]
    assert [(e.audience, e.own) for e in stored] == [(e.audience, e.own) for e in private], "a restart keeps both"
