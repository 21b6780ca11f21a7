"""Games of days on a real server: players with accounts, a game of a day a turn, and turns played by hand, all on
the test's clock (server/clock.py's ManualClock): time moves only when a test says, never by waiting."""

from __future__ import annotations

from typing import Any

from server.app import RiscServer
from tests.server_support import Client, Message, create_game, current_view, owned

PASSWORD = "correct horse battery"
DAY = 86_400.0


async def account(server: RiscServer, name: str) -> Client:
    """A connection signed up to a new account of that name."""
    client = await Client.connect(server)
    reply = await client.request(type="sign_up", name=name, password=PASSWORD)
    assert reply["type"] == "signed_in", reply
    return client


async def seated(server: RiscServer, names: list[str], **settings: Any) -> tuple[str, list[Client]]:
    """A started game whose every seat is an account's (each a fresh connection), on the seed map."""
    clients = [await account(server, name) for name in names]
    settings.setdefault("map", "seed")
    settings.setdefault("initial_units", 4)
    game_id = await create_game(clients[0], players=len(names), **settings)
    for client, name in zip(clients, names, strict=True):
        reply = await client.request(type="join_game", game_id=game_id, name=name)
        assert reply["type"] == "joined", reply
    for client in clients:
        await client.wait_for(lambda m: m["type"] == "update" and m["view"] is not None)
    return game_id, clients


async def place_and_commit(client: Client, game_id: str, name: str) -> None:
    """A player's whole placement on their first territory, committed."""
    view = current_view(client, game_id)
    order = {"kind": "place", "territory": owned(view, name)[0], "units": view["pool_left"]}
    assert (await client.request(type="issue_order", game_id=game_id, turn=0, order=order))["type"] == "order_accepted"
    assert (await client.request(type="commit", game_id=game_id, turn=0))["type"] == "commit_accepted"


def seat(server: RiscServer, game_id: str, name: str) -> Message:
    """A seat as the game's summary says it now."""
    summary = server.lobby.get(game_id).summary()
    return next(s for s in summary.model_dump(mode="json")["seats"] if s["name"] == name)


def log_kinds(server: RiscServer, game_id: str) -> list[str]:
    return [entry.kind for entry in server.lobby.get(game_id).log.kept()]
