"""Rated games through a real server, real connections and both stores (docs/ratings.md): a rated game's final
ranking and what it does to each player's rating, in every rule set (a resignation, the server's computers, a draw
at the turn limit); a guest refused from a rated game; the ladders and a profile."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import psycopg
import pytest

from server.ratings.model import NEW, rate
from server.storage import SqliteStorage
from server.storage.base import Storage
from server.storage.codec import game_from_dict, map_from_dict
from server.storage.postgres import PostgresStorage
from shared.game.ranking import final_ranking
from shared.rulesets import game_ruleset
from tests.server_support import FAST, Client, create_game, finished, join, running_server
from tests.test_accounts import signed_up

GAMES: dict[str, dict[str, Any]] = {
    "risc": {"ruleset": "risc", "map": "seed", "players": 3},
    "warzone": {"ruleset": "warzone", "map": "seed", "players": 3},
    "classic": {"ruleset": "classic", "map": "seed", "players": 3},
    "grid": {"ruleset": "grid", "map": None, "players": 3},
}


def store(kind: str, tmp_path: Path, request: pytest.FixtureRequest) -> Storage:
    if kind == "sqlite":
        return SqliteStorage(tmp_path / "games.sqlite3")
    return PostgresStorage(request.getfixturevalue("postgres_dsn"), node_id="alone")


async def ranking_of(storage: Storage, game_id: str) -> tuple[tuple[str, ...], ...]:
    """The game's final ranking as the rules make it from what the store kept (shared/game/ranking.py)."""
    stored = await storage.load(game_id)
    assert stored is not None and stored.progress.state is not None
    settings = stored.record.settings
    ruleset, options = game_ruleset(settings.ruleset, settings.options)
    game = game_from_dict(ruleset, stored.progress.state, map_from_dict(stored.record.game_map), options)
    return final_ranking(ruleset, game, stored.events).places


@pytest.mark.parametrize("kind", ["sqlite", "postgres"])
async def test_a_rated_game_with_a_resignation_ranks_the_computers_first_and_moves_each_rating_by_rule_set(
    kind: str, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    storage = store(kind, tmp_path, request)
    async with running_server(storage, **FAST) as server:
        ann, _ = await signed_up(server)
        for name, settings in GAMES.items():
            game_id = await create_game(ann, **settings, bots=2, rated=True)
            await join(ann, game_id, "Ann")
            await ann.wait_for(lambda m, g=game_id: m["type"] == "update" and ann.summaries[g]["status"] != "waiting")
            assert (await ann.request(type="resign", game_id=game_id))["type"] == "resigned"
            await finished(ann, game_id, 120)
            places = await ranking_of(storage, game_id)
            assert places[-1] == ("Ann",)  # the only one out, first: last
            rated = await ann.request(type="game_ratings", game_id=game_id)
            assert rated["rated"] and rated["ruleset"] == name
            moves = {m["name"]: m for m in rated["players"]}
            # Two seats of one strategy are rated once, at the better place: the strategist against Ann.
            assert set(moves) == {"Ann", "bot:strategist"}
            assert moves["Ann"]["place"] == 3 and moves["bot:strategist"]["place"] == 1
            expected = rate([["bot:strategist"], ["Ann"]], {})
            assert moves["Ann"]["before"] == NEW.shown == 800
            assert moves["Ann"]["after"] == expected["Ann"].shown < 800
            assert moves["bot:strategist"]["after"] == expected["bot:strategist"].shown
            assert moves["Ann"]["provisional"]
        profile = await ann.request(type="profile", name="ann")
        assert profile["type"] == "profile" and profile["name"] == "Ann" and not profile["computer"]
        assert sorted(r["ruleset"] for r in profile["ratings"]) == sorted(GAMES)
        assert all(r["games"] == 1 and r["wins"] == 0 for r in profile["ratings"])
        assert [g["ruleset"] for g in profile["games"]] == list(GAMES)  # oldest first
        assert all(g["place"] == 3 and g["players"] == 3 and g["change"] < 0 for g in profile["games"])
        for name in GAMES:
            board = await ann.request(type="leaderboard", ruleset=name)
            assert [(p["place"], p["name"], p["computer"], p["games"], p["wins"]) for p in board["players"]] == [
                (1, "bot:strategist", True, 1, 1),
                (2, "Ann", False, 1, 0),
            ]
        refused = await ann.request(type="leaderboard", ruleset="chess")
        assert refused["type"] == "error" and refused["code"] == "bad-settings" and "chess" in refused["message"]
        unknown = await ann.request(type="profile", name="nobody")
        assert unknown["type"] == "error" and unknown["code"] == "no-such-player"


@pytest.mark.parametrize("kind", ["sqlite", "postgres"])
async def test_a_draw_at_the_turn_limit_ranks_those_still_in_by_their_standing_and_rates_nobody_a_winner(
    kind: str, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    storage = store(kind, tmp_path, request)
    async with running_server(storage, min_turn_seconds=0.1, **FAST) as server:
        ann, _ = await signed_up(server)
        bob, _ = await signed_up(server, "Bob")
        # Grid Risk for two turns, nobody acting: each turn runs out and the rules play it, then a draw.
        game_id = await create_game(
            ann, ruleset="grid", map=None, players=3, bots=1, rated=True, turn_seconds=0.2, options={"max_turns": 2}
        )
        await join(ann, game_id, "Ann")
        await join(bob, game_id, "Bob")
        await finished(ann, game_id, 60)
        stored = await storage.load(game_id)
        assert stored is not None
        assert any(e["event"]["kind"] == "game_drawn" for e in stored.events)
        places = await ranking_of(storage, game_id)
        rated = await ann.request(type="game_ratings", game_id=game_id)
        seat_place = {m["player"]: m["place"] for m in rated["players"]}
        expected_place = {}
        before = 0
        for tied in places:
            for player in tied:
                expected_place[player] = before + 1
            before += len(tied)
        assert seat_place == expected_place
        holders = {m["player"]: m["name"] for m in rated["players"]}
        expected = rate([[holders[p] for p in tied] for tied in places], {})
        assert {m["name"]: m["after"] for m in rated["players"]} == {h: s.shown for h, s in expected.items()}
        alone_first = len(places[0]) == 1
        profile = await bob.request(type="profile", name="Bob")
        assert profile["ratings"][0]["wins"] == (1 if alone_first and places[0] == ("Bob",) else 0)


async def test_a_guest_is_refused_from_a_rated_game_and_may_not_create_one() -> None:
    async with running_server(**FAST) as server:
        ann, _ = await signed_up(server)
        game_id = await create_game(ann, players=3, rated=True)
        guest = await Client.connect(server)
        refused = await guest.request(type="join_game", game_id=game_id, name="zed")
        assert refused["type"] == "error" and refused["code"] == "account-needed" and "rated" in refused["message"]
        created = await guest.request(type="create_game", settings={"map": "seed", "players": 3, "rated": True})
        assert created["type"] == "error" and created["code"] == "account-needed"
        watched = await guest.request(type="watch_game", game_id=game_id)
        assert watched["type"] == "watching"  # a guest may watch it
        summary = (await ann.request(type="list_games"))["games"][0]
        assert summary["settings"]["rated"] is True and summary["seats"] == []
    async with running_server(accounts="off", **FAST) as server:
        guest = await Client.connect(server)
        created = await guest.request(type="create_game", settings={"map": "seed", "players": 3, "rated": True})
        assert created["type"] == "error" and created["code"] == "bad-settings" and "no accounts" in created["message"]


async def test_a_store_of_the_release_before_gains_the_ratings_tables_and_keeps_its_games(
    tmp_path: Path, postgres_dsn: str
) -> None:
    """SQLite version 8 and PostgreSQL version 4 upgraded: new tables only, the games as they were."""
    from tests.test_storage_requests import LATER_POSTGRES_TABLES, LATER_SQLITE_TABLES, record, started_progress

    sqlite_path = tmp_path / "games.sqlite3"
    for kind in ("sqlite", "postgres"):
        before: Storage = SqliteStorage(sqlite_path) if kind == "sqlite" else PostgresStorage(postgres_dsn)
        await before.open()
        await before.create(record(), started_progress(), [])
        await before.close()
        if kind == "sqlite":
            with sqlite3.connect(sqlite_path) as db:
                for table in LATER_SQLITE_TABLES:
                    db.execute(f"DROP TABLE {table}")
                db.execute("PRAGMA user_version = 8")
        else:
            with psycopg.connect(postgres_dsn, autocommit=True) as db:
                for table in LATER_POSTGRES_TABLES:
                    db.execute(f"DROP TABLE {table}")
                db.execute("UPDATE risc_schema SET version = 4")
        after: Storage = SqliteStorage(sqlite_path) if kind == "sqlite" else PostgresStorage(postgres_dsn)
        await after.open()
        try:
            restored = await after.restore("g1", 10)
            assert restored is not None and restored.progress == started_progress()
            board = await after.ratings().leaderboard("risc", 0.0, 0, 10)
            assert board.total == 0 and board.standings == []
        finally:
            await after.close()
