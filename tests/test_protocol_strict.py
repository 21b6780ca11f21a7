"""What the published schema says is what the server does (issue 27): each case where they disagreed, decided and
checked both ways, against a real server and against the schema read by a third-party validator.

Decided: strictly where in doubt. A message without its `type`, a hello without its `protocol`, an order with a field
its kind does not have, and a whole number written as true, "5", " 7 " or 2.5 are refused by both; 2.0 is the whole
number 2 to both (JSON has one kind of number, and JSON Schema's `integer` is any number with no fraction). A refusal
names the field at fault and the game it was about.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from typing import Any

import pytest

from shared.protocol.codes import PROTOCOL_VERSION
from tests import schema_support as published
from tests.server_support import Client, running_server, seated_game

PLACE = {"kind": "place", "territory": "Narnia", "units": 3}


@contextlib.asynccontextmanager
async def at_placement() -> AsyncIterator[tuple[str, Client, str]]:
    """A RISC game of ann and bob at its placement on a real server: its id, ann's connection and one of her
    territories."""
    async with running_server() as server:
        game_id, clients, _ = await seated_game(server, ["ann", "bob"])
        update = clients[0].latest("update", game_id)
        assert update is not None
        mine = next(t["name"] for t in update["view"]["territories"] if t["owner"] == "ann")
        yield game_id, clients[0], mine


@pytest.mark.parametrize("kind", ["list_games", "list_maps", "commit", "hello"])
def test_the_schema_requires_every_messages_type_as_the_server_does(kind: str) -> None:
    assert (
        published.client_frame(
            {
                "type": kind,
                **({"game_id": "ab", "turn": 1} if kind == "commit" else {}),
                **({"protocol": PROTOCOL_VERSION} if kind == "hello" else {}),
            }
        )
        == []
    )
    message: dict[str, Any] = {"game_id": "ab", "turn": 1} if kind == "commit" else {}
    assert published.client_frame(message), f"a {kind} without its type fits the schema"


def test_the_schema_requires_the_type_of_every_server_message_and_every_field_the_server_sends() -> None:
    error = {
        "ref": None,
        "type": "error",
        "code": "no-such-game",
        "message": "m",
        "request": None,
        "game_id": None,
        "field": None,
    }
    assert published.server_frame(error) == []
    assert published.server_frame({k: v for k, v in error.items() if k != "type"})
    assert published.server_frame({k: v for k, v in error.items() if k != "game_id"})


async def test_a_message_without_its_type_is_refused_naming_the_field() -> None:
    async with running_server() as server:
        client = await Client.connect(server)
        reply = await client.request(game_id="ab12cd", turn=1)
        assert reply["type"] == "error" and reply["code"] == "invalid-message"
        assert reply["field"] == "type" and reply["game_id"] == "ab12cd"


async def test_a_hello_without_its_protocol_is_refused_as_the_schema_requires() -> None:
    assert published.client_frame({"type": "hello"}), "the schema takes a hello without its protocol"
    assert published.client_frame({"type": "hello", "protocol": PROTOCOL_VERSION}) == []
    async with running_server() as server:
        client = await Client.connect(server, hello=False)
        reply = await client.request(type="hello")
        assert reply["type"] == "error" and reply["code"] == "hello-first", reply
        assert reply["field"] == "protocol" and "protocol" in reply["message"]
        await client.closed.wait()
        assert client.ws.close_code == 4004


@pytest.mark.parametrize("units", [True, "5", " 7 ", 2.5, None])
async def test_an_order_whose_number_is_not_a_whole_number_is_refused_by_the_server_and_the_schema(units: Any) -> None:
    async with at_placement() as (game_id, ann, mine):
        order = {**PLACE, "territory": mine, "units": units}
        assert published.order("risc", order), f"the schema takes units {units!r}"
        reply = await ann.request(type="issue_order", game_id=game_id, turn=0, order=order)
        assert reply["type"] == "error" and reply["code"] == "invalid-order", reply
        assert reply["field"] == "order.units" and reply["game_id"] == game_id
        assert (await ann.request(type="list_orders", game_id=game_id))["orders"] == []  # nothing changed


async def test_a_whole_number_written_with_a_zero_fraction_is_that_number_to_the_server_and_the_schema() -> None:
    async with at_placement() as (game_id, ann, mine):
        order = {**PLACE, "territory": mine, "units": 2.0}
        assert published.order("risc", order) == []
        reply = await ann.request(type="issue_order", game_id=game_id, turn=0.0, order=order)
        assert reply["type"] == "order_accepted", reply
        assert reply["order"]["units"] == 2 and reply["turn"] == 0


async def test_an_order_with_a_field_its_kind_does_not_have_is_refused_by_the_server_and_the_schema() -> None:
    async with at_placement() as (game_id, ann, mine):
        order = {**PLACE, "territory": mine, "colour": "red"}
        assert published.order("risc", order), "the schema takes an order with a field of no kind"
        assert published.order("risc", {k: v for k, v in order.items() if k != "colour"}) == []
        reply = await ann.request(type="issue_order", game_id=game_id, turn=0, order=order)
        assert reply["type"] == "error" and reply["code"] == "invalid-order"
        assert reply["field"] == "order.colour" and reply["game_id"] == game_id
        without_kind = {k: v for k, v in order.items() if k not in ("kind", "colour")}
        assert published.order("risc", without_kind), "the schema takes an order without its kind"
        reply = await ann.request(type="issue_order", game_id=game_id, turn=0, order=without_kind)
        assert reply["code"] == "unknown-order" and reply["field"] == "order.kind"


async def test_a_misspelt_field_is_named_rather_than_told_as_the_field_it_stands_for() -> None:
    async with at_placement() as (game_id, ann, mine):
        order = {"kind": "place", "territory": mine, "unitz": 1}
        assert published.order("risc", order), "the schema takes a misspelt field"
        reply = await ann.request(type="issue_order", game_id=game_id, turn=0, order=order)
        assert reply["type"] == "error" and reply["code"] == "invalid-order"
        assert reply["field"] == "order.unitz" and "unitz" in reply["message"], reply
        assert "missing" not in reply["message"] and "units" in reply["message"], "its fields are listed"


async def test_an_order_that_is_not_an_object_is_refused_naming_the_order_and_its_game() -> None:
    async with running_server() as server:
        client = await Client.connect(server)
        reply = await client.request(type="issue_order", game_id="ab12cd", turn=1, order="attack everything")
        assert reply["type"] == "error" and reply["code"] == "invalid-message"
        assert "JSON object with a" not in reply["message"] and "order" in reply["message"]
        assert reply["field"] == "order" and reply["request"] == "issue_order" and reply["game_id"] == "ab12cd"


async def test_a_refused_frame_about_a_game_carries_that_game() -> None:
    async with running_server() as server:
        client = await Client.connect(server)
        reply = await client.request(type="commit", game_id="ab12cd", turn=True)
        assert reply["code"] == "invalid-message" and reply["field"] == "turn"
        assert reply["game_id"] == "ab12cd" and "true" in reply["message"]
        reply = await client.request(type="commit", game_id="not a game id!", turn=1)
        assert reply["game_id"] is None and reply["field"] == "game_id"


async def test_a_ref_longer_than_64_characters_is_refused_naming_the_ref() -> None:
    async with running_server() as server:
        client = await Client.connect(server)
        await client.send(type="list_games", ref="r" * 65)
        reply = await client.wait_type("error")
        assert reply["code"] == "invalid-message" and reply["field"] == "ref"
        assert reply["ref"] is None and "ref" in reply["message"] and "64" in reply["message"]


async def test_a_refused_request_names_its_field() -> None:
    async with running_server() as server:
        client = await Client.connect(server)
        reply = await client.request(type="create_game", settings={"map": "seed", "players": 9})
        assert reply["code"] == "invalid-message" and reply["field"] == "settings.players"
        reply = await client.request(type="create_game", settings={"map": "seed", "players": 1})
        assert reply["code"] == "bad-settings" and reply["field"] == "settings.players"
        reply = await client.request(type="create_game", settings={"map": "seed", "initial_units": -1})
        assert reply["code"] == "bad-settings" and reply["field"] == "settings.options.initial_units"
        reply = await client.request(type="create_game", settings={"map": "atlantis"})
        assert reply["code"] == "bad-map" and reply["field"] == "settings.map"


async def test_a_rule_set_option_named_beside_the_settings_is_taken_by_the_server_and_the_schema() -> None:
    settings = {"map": "seed", "players": 2, "initial_units": 8}
    assert published.settings(settings) == []
    assert published.client_frame({"type": "create_game", "settings": settings}) == []
    async with running_server() as server:
        client = await Client.connect(server)
        reply = await client.request(type="create_game", settings=settings)
        assert reply["type"] == "game_created" and reply["game"]["settings"]["options"]["initial_units"] == 8


def test_an_order_is_read_back_as_compact_json_with_whole_numbers_of_any_size() -> None:
    from shared.protocol.numbers import json_text

    assert json_text({"kind": "place", "units": 2.0, "of": [1.0, 2.5], "to": "Élan"}) == (
        '{"kind":"place","units":2,"of":[1,2.5],"to":"Élan"}'
    )
    assert (
        json_text({"units": 10**30, "less": -(2**64)})
        == '{"units":1000000000000000000000000000000,"less":-18446744073709551616}'
    )
