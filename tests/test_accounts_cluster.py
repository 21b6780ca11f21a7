"""Accounts on a server of several nodes sharing a PostgreSQL store: a session made on one node is good on every node,
an account's home lists its games whichever node plays them, and an account disabled from the store (`risc accounts
disable`, beside the running nodes) is refused on all of them at once."""

from __future__ import annotations

import asyncio
import sys

from shared.protocol.codes import CloseCode
from tests.cluster_support import follow, nodes
from tests.server_support import Client, create_game

PASSWORD = "correct horse battery"


async def test_a_session_made_on_one_node_signs_in_on_another_and_seats_its_account_where_the_game_is_played(
    postgres_dsn: str,
) -> None:
    async with nodes(postgres_dsn, 2) as (a, b):
        on_a = await Client.connect(a)
        made = await on_a.request(type="sign_up", name="Ann", password=PASSWORD)
        session = made["session"]
        on_b = await Client.connect(b, session=session)
        assert on_b.welcome["account"]["name"] == "Ann"
        game_on_a = await create_game(on_a, players=2)
        request = {"type": "join_game", "game_id": game_on_a, "name": "Ann"}
        seated_on, joined = await follow(on_b, await on_b.request(**request), **request)
        assert joined["type"] == "joined" and joined["player"] == "Ann" and joined["token"] == ""
        assert seated_on.welcome["account"]["name"] == "Ann", "the node the redirect led to signed the session in too"

        game_on_b = await create_game(on_b, players=2)
        assert (await on_b.request(type="join_game", game_id=game_on_b, name="Ann"))["type"] == "joined"
        for node in (a, b):
            home = await (await Client.connect(node, session=session)).request(type="my_games")
            assert {g["game"]["game_id"] for g in home["games"]} == {game_on_a, game_on_b}
            assert {g["stands"] for g in home["games"]} == {"waiting"}


async def test_an_account_disabled_in_the_store_is_refused_on_every_node_at_once(postgres_dsn: str) -> None:
    async with nodes(postgres_dsn, 2) as (a, b):
        session = (await (await Client.connect(a)).request(type="sign_up", name="Ann", password=PASSWORD))["session"]
        on_a, on_b = await Client.connect(a, session=session), await Client.connect(b, session=session)
        assert on_a.welcome["account"] and on_b.welcome["account"]
        operator = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "risc", "accounts", "--store", postgres_dsn, "disable", "ANN",
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
        )  # fmt: skip
        out, err = await operator.communicate()
        assert operator.returncode == 0, err.decode()
        assert "Ann disabled" in out.decode()
        for connection in (on_a, on_b):
            told = await connection.wait_type("signed_out")
            assert told["ref"] is None
            await connection.closed.wait()
            assert connection.ws.close_code == CloseCode.SIGNED_OUT
        for node in (a, b):
            again = await Client.connect(node, session=session)
            assert again.welcome["account"] is None and "disabled" in again.welcome["session_problem"]
            refused = await again.request(type="sign_in", name="Ann", password=PASSWORD)
            assert refused["code"] == "bad-credentials"  # a disabled account answers as an unknown one
