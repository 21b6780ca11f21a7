"""Ten games at once on one real server: each is played to its end by its own three players, none refused, none
told anything of another game.

The players are the benchmarks' all-out players (bench/players.py: gather, then strike the weakest foe; every fourth
turn strike regardless), on the seed map, so games really end. Every frame is checked against the server-to-client
schema.
"""

from __future__ import annotations

import asyncio
from typing import Any

from bench.players import orders_for, seen_listed
from tests.server_support import FAST, Client, Message, create_game, join, running_server

GAMES = 10
MAX_TURNS = 300
"""Far past the longest of these games (a few dozen turns); a game still running here fails the test."""

PLAYER_KEYS = ("player", "attacker", "defender", "new_owner", "winner")


def named_players(event: dict[str, Any]) -> set[str]:
    names = {event[k] for k in PLAYER_KEYS if isinstance(event.get(k), str)}
    names.update(event.get("players") or ())
    names.update(event.get("orders") or {})
    return names


async def play(client: Client, game_id: str, me: str, seats: set[str], problems: list[str]) -> str | None:
    """Play until the game ends; return the winner. Anything that concerns another game goes into `problems`."""
    pending: list[Message] = []
    key: tuple[str, int] | None = None
    while True:
        frame = await client.wait_for(lambda m: True, timeout=10)
        kind = frame["type"]
        if "game_id" in frame and frame["game_id"] not in (None, game_id):
            problems.append(f"{me} got a {kind} of game {frame['game_id']}")
        if kind == "error":
            problems.append(f"{me} was refused: {frame}")
            return None
        if kind == "update":
            for entry in frame["events"]:
                strangers = named_players(entry["event"]) - seats
                if strangers:
                    problems.append(f"{me} was told of {sorted(strangers)} in {entry['event']}")
            view = frame["view"]
            if view is None or (view["phase"], view["turn"]) == key:
                continue
            key = (view["phase"], view["turn"])
            if view["phase"] == "finished":
                return str(view["winner"])
            assert view["turn"] <= MAX_TURNS, f"game {game_id} still runs at turn {view['turn']}"
            if me not in {p["name"] for p in view["players"] if not p["eliminated"]}:
                continue
            pending = orders_for(seen_listed(view), me)
            pending.reverse()
        elif kind != "order_accepted":
            continue
        if pending:
            await client.send(type="issue_order", game_id=game_id, turn=key[1], order=pending.pop())
        else:
            await client.send(type="commit", game_id=game_id, turn=key[1])


async def test_ten_games_at_once_each_end_and_stay_apart() -> None:
    async with running_server(**FAST) as server:
        games: list[tuple[str, list[Client], list[str]]] = []
        for g in range(GAMES):
            clients = [await Client.connect(server) for _ in range(3)]
            game_id = await create_game(clients[0], players=3)
            names = [f"g{g}p{s}" for s in range(3)]
            games.append((game_id, clients, names))
        for game_id, clients, names in games:  # every game seated before any is played
            for client, name in zip(clients, names, strict=True):
                await join(client, game_id, name)
        problems: list[str] = []
        winners = await asyncio.gather(
            *(
                play(client, game_id, name, set(names), problems)
                for game_id, clients, names in games
                for client, name in zip(clients, names, strict=True)
            )
        )
        assert problems == []
        for index, (game_id, _, names) in enumerate(games):
            won = set(winners[3 * index : 3 * index + 3])
            assert len(won) == 1 and won <= set(names), f"game {game_id}: players saw winners {won}"
        summaries = {g["game_id"]: g for g in (await games[0][1][0].request(type="list_games"))["games"]}
        for game_id, _, names in games:
            assert summaries[game_id]["phase"] == "finished"
            assert summaries[game_id]["winner"] in names
        for _, clients, _ in games:
            for client in clients:
                await client.close()
