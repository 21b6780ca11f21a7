"""Every frame of real games, both ways, against the published schema (issue 27): what `risc protocol schema` says is
what the server and its clients send.

A game of each rule set is played to its end on a real server by network bots (the text client's session) through a
relay that keeps every frame (tests/wire_support.py), with a spectator watching from the start, a player who is
eliminated and watches on, and a player whose link drops and who takes the seat back with `resume` and its
`last_seq`. Each frame is checked by a third-party validator (jsonschema, Draft 2020-12) against the schema as
printed, and what a frame carries against the rule set's part of it: orders, log entries and events, the map, and
each connection's summary and view as a client rebuilds them from the merge patches. Negative controls alter real
frames in one place each: the validator must refuse every one, or the check proves nothing.
"""

from __future__ import annotations

import asyncio
import functools
import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import pytest

from client.bot import NetworkBot
from client.connection import Backoff
from shared.protocol.patch import apply, seats_keyed, seats_listed
from tests import schema_support as published
from tests.server_support import FAST, Client, create_game, running_server, url
from tests.wire_support import Frame, Relay, relayed

QUICK = Backoff(first=0.05, most=0.2)
GAME_SECONDS = 120.0
SEED = 20261126
"""Every game of the run is dealt and rolled alike: a game that ends with a player out does so every run."""

GAMES: dict[str, dict[str, Any]] = {
    "risc": {"map": "seed", "players": 3},
    "risc evolution 2": {"map": "twin-keeps", "players": 3, "options": {"evolution": 2}},
    "risc evolution 3 (fog)": {"map": "cataract", "players": 3, "options": {"evolution": 3, "initial_units": 24}},
    "warzone": {"ruleset": "warzone", "map": "twin-keeps", "players": 3, "options": {"max_turns": 30}},
    "classic": {"ruleset": "classic", "map": "twin-keeps", "players": 3},
    "grid": {"ruleset": "grid", "map": None, "players": 3},
}


def framework_kinds() -> set[str]:
    return set(published.published()["log_entries"]["discriminator"]["mapping"])


@dataclass
class Followed:
    """What one connection holds of one game, rebuilt from what it was sent, as a client keeps it."""

    ruleset: str | None = None
    summary: dict[str, Any] | None = None
    """Seats keyed by position, as `game_patch` patches it."""
    view: dict[str, Any] | None = None


@dataclass
class Checked:
    """What the frames of one run held, and everything found wrong with them."""

    problems: list[str] = field(default_factory=list)
    types: set[tuple[str, str]] = field(default_factory=set)
    summaries: int = 0
    views: int = 0
    patched_views: int = 0
    patched_summaries: int = 0
    events: int = 0
    orders: int = 0

    def fault(self, frame: Frame, what: str, found: list[str]) -> None:
        if found:
            self.problems.append(
                f"connection {frame.connection} {frame.direction} {what}: {found[:3]} in {frame.text[:300]}"
            )


class WireChecker:
    """Every frame of a run, in order, each against its part of the published schema."""

    def __init__(self) -> None:
        self.checked = Checked()
        self.games: dict[str, str] = {}
        """The rule set of each game, from the summaries the server sent."""
        self.followed: dict[tuple[int, str], Followed] = {}
        self.framework = framework_kinds()

    def run(self, frames: list[Frame]) -> Checked:
        for frame in frames:
            message = json.loads(frame.text)
            self.checked.types.add((frame.direction, str(message.get("type"))))
            if frame.direction == "client":
                self.client(frame, message)
            else:
                self.server(frame, message)
        return self.checked

    def ruleset_of(self, game_id: Any) -> str | None:
        return self.games.get(game_id) if isinstance(game_id, str) else None

    # ---- client to server ---------------------------------------------------------------------------------------

    def client(self, frame: Frame, message: dict[str, Any]) -> None:
        self.checked.fault(frame, "frame", published.client_frame(message))
        ruleset = self.ruleset_of(message.get("game_id"))
        if message.get("type") == "issue_order" and ruleset is not None:
            self.order(frame, ruleset, message["order"])
        if message.get("type") == "issue_orders" and ruleset is not None:
            for order in message["orders"]:
                self.order(frame, ruleset, order)
        if message.get("type") == "create_game":
            settings = message["settings"]
            self.checked.fault(
                frame, "options", published.options(settings.get("ruleset", "risc"), settings.get("options", {}))
            )

    # ---- server to client ---------------------------------------------------------------------------------------

    def server(self, frame: Frame, message: dict[str, Any]) -> None:
        self.checked.fault(frame, "frame", published.server_frame(message))
        kind = message.get("type")
        if kind in ("games", "game_created"):
            for summary in message["games"] if kind == "games" else [message["game"]]:
                self.summary(frame, summary)
        elif kind == "rulesets":
            for info in message["rulesets"]:
                self.checked.fault(frame, "options schema", _schema_problems(info["options"]))
        elif kind == "game_map":
            self.checked.fault(frame, "map", published.game_map(message["map"]))
        elif kind in ("order_accepted", "orders_accepted", "orders", "legal"):
            ruleset = self.ruleset_of(message["game_id"])
            assert ruleset is not None, "an order of a game whose rule set no summary told"
            given = (
                [message["order"]]
                if kind == "order_accepted"
                else [o["order"] for o in message["accepted"]]
                if kind == "orders_accepted"
                else message["orders"]
                if kind == "orders"
                else [o["order"] for o in message["orders"]]
            )
            for order in given:
                self.order(frame, ruleset, order)
        elif kind == "update":
            self.update(frame, message)

    def summary(self, frame: Frame, summary: dict[str, Any]) -> None:
        self.checked.summaries += 1
        self.checked.fault(frame, "summary", published.summary(summary))
        ruleset = summary.get("settings", {}).get("ruleset")
        if isinstance(ruleset, str):
            self.games[summary["game_id"]] = ruleset
            self.checked.fault(frame, "options", published.options(ruleset, summary["settings"]["options"]))

    def order(self, frame: Frame, ruleset: str, order: Any) -> None:
        self.checked.orders += 1
        self.checked.fault(frame, f"{ruleset} order", published.order(ruleset, order))

    def update(self, frame: Frame, message: dict[str, Any]) -> None:
        game_id = message["game_id"]
        held = self.followed.setdefault((frame.connection, game_id), Followed())
        if message["game"] is not None:
            held.summary = seats_keyed(message["game"])
        elif message["game_patch"] is not None:
            assert held.summary is not None, "a summary patch before any summary"
            held.summary = apply(held.summary, message["game_patch"])
            self.checked.patched_summaries += 1
        assert held.summary is not None, "an update with no summary to go by"
        self.summary(frame, seats_listed(held.summary))
        ruleset = self.games[game_id]
        if message["view"] is not None:
            held.view = message["view"]
        elif message["view_patch"] is not None:
            assert held.view is not None, "a view patch before any view"
            held.view = apply(held.view, message["view_patch"])
            self.checked.patched_views += 1
        if held.view is not None:
            self.checked.views += 1
            self.checked.fault(frame, f"{ruleset} view", published.view(ruleset, held.view))
        for entry in message["events"]:
            self.checked.events += 1
            event = entry["event"]
            if event.get("kind") in self.framework:
                self.checked.fault(frame, "log entry", published.log_entry(event))
                for orders in (event.get("orders") or {}).values():
                    for order in orders:
                        self.order(frame, ruleset, order)
            else:
                self.checked.fault(frame, f"{ruleset} event", published.event(ruleset, event))


@functools.cache
def _schema_problems_of(text: str) -> tuple[str, ...]:
    from jsonschema import Draft202012Validator
    from jsonschema.exceptions import SchemaError

    try:
        Draft202012Validator.check_schema(json.loads(text))
    except SchemaError as exc:
        return (exc.message,)
    return ()


def _schema_problems(schema: Any) -> list[str]:
    """What makes `schema` no JSON Schema (a rule set's options, as `list_rulesets` gives them), each schema once."""
    return list(_schema_problems_of(json.dumps(schema, sort_keys=True)))


# ---- the games ----------------------------------------------------------------------------------------------------


async def play(relay: Relay, settings: dict[str, Any]) -> list[NetworkBot]:
    """A whole game through the relay: a lobby that looks around and creates it, a spectator from the start, network
    bots in every seat, the first of whom loses its link twice turns in and takes its seat back."""
    lobby = await Client.connect(relay.port)
    await lobby.request(type="list_rulesets")
    await lobby.request(type="list_maps")
    game_id = await create_game(lobby, **settings)
    await lobby.request(type="list_games")
    await lobby.request(type="watch_game", game_id=game_id)
    bots = [NetworkBot(relay.url, game_id, name=f"p{i}", seed=i, backoff=QUICK) for i in range(settings["players"])]
    playing = asyncio.gather(*(bot.run() for bot in bots))
    loop = asyncio.get_running_loop()
    end = loop.time() + GAME_SECONDS
    while bots[0].turns_played < 2 and not playing.done():
        assert loop.time() < end, "the game did not get under way"
        await asyncio.sleep(0.01)
    if not playing.done():
        await bots[0].connection.drop()
    assert await asyncio.wait_for(playing, GAME_SECONDS) == [0] * len(bots)
    assert [e.message for bot in bots for e in bot.errors] == []
    await lobby.wait_for(lambda m: m["type"] == "update" and m["game"]["status"] == "finished", timeout=GAME_SECONDS)
    await lobby.close()
    return bots


@pytest.mark.parametrize("name", list(GAMES))
async def test_every_frame_of_a_whole_game_both_ways_fits_the_published_schema(name: str) -> None:
    async with running_server(seeds=lambda: SEED, **FAST) as server, relayed(url(server)) as relay:
        bots = await play(relay, GAMES[name])
    checked = WireChecker().run(relay.frames)
    assert checked.problems == []
    # What the run held: every connection's frames, and in them what a game is made of.
    assert {
        ("client", t)
        for t in (
            "hello",
            "list_rulesets",
            "list_maps",
            "create_game",
            "list_games",
            "watch_game",
            "join_game",
            "resume",
        )
    } <= checked.types
    assert {
        ("server", t)
        for t in (
            "welcome",
            "rulesets",
            "maps",
            "game_created",
            "games",
            "watching",
            "joined",
            "resumed",
            "game_map",
            "update",
        )
    } <= checked.types
    # Orders went one by one or in batches (a turn-by-turn player acts once per update), and were accepted.
    assert {("client", "issue_order"), ("client", "issue_orders")} & checked.types
    assert {("server", "order_accepted"), ("server", "orders_accepted")} & checked.types
    assert checked.patched_views and checked.patched_summaries and checked.events and checked.orders
    resumes = [json.loads(f.text) for f in relay.of("client") if '"resume"' in f.text]
    assert any(r["type"] == "resume" and r["last_seq"] for r in resumes), "the seat was taken back with last_seq"
    out = [
        bot
        for bot in bots
        if bot.followed is not None
        and bot.followed.game is not None
        and any(s.name == bot.name and s.eliminated for s in bot.followed.game.seats)
    ]
    if GAMES[name]["players"] > 2:  # a player who lost watched the rest of the game, and was sent its frames too
        assert out, "no player was eliminated before the end"


# ---- negative controls --------------------------------------------------------------------------------------------

Alteration = tuple[str, Callable[[dict[str, Any]], bool]]


def _first(
    frames: list[Frame], direction: str, kind: str, where: Callable[[dict[str, Any]], bool] = lambda _: True
) -> tuple[Frame, dict[str, Any]]:
    for frame in frames:
        message = json.loads(frame.text)
        if frame.direction == direction and message.get("type") == kind and where(message):
            return frame, message
    raise AssertionError(f"no {direction} {kind} frame in the run")


def _altered(frames: list[Frame], frame: Frame, message: dict[str, Any]) -> list[Frame]:
    return [Frame(f.connection, f.direction, json.dumps(message)) if f is frame else f for f in frames]


@pytest.fixture(scope="module")
def recorded() -> list[Frame]:
    """The frames of one whole RISC game, played once for the controls."""

    async def run() -> list[Frame]:
        async with running_server(**FAST) as server, relayed(url(server)) as relay:
            await play(relay, GAMES["risc evolution 2"])
        return relay.frames

    return asyncio.run(run())


CONTROLS = [
    "an update whose seq is not a number",
    "a server message without its type",
    "an error without game_id",
    "a client message with a field it does not have",
    "an order whose units are true",
    "an order with a field its kind does not have",
    "a summary whose status is unknown",
    "a view whose turn is a string",
    "an event of no kind the rule set has",
    "a map whose borders are a list",
    "a log entry without a field it has",
]


def alter(frames: list[Frame], control: str) -> list[Frame]:
    """The frames with one of them altered as `control` says."""
    if control == "an update whose seq is not a number":
        frame, message = _first(frames, "server", "update")
        message["seq"] = str(message["seq"])
    elif control == "a server message without its type":
        frame, message = _first(frames, "server", "orders_accepted")
        del message["type"]
    elif control == "an error without game_id":
        frame, message = _first(frames, "server", "welcome")
        message = {"ref": None, "type": "error", "code": "internal", "message": "m", "request": None, "field": None}
    elif control == "a client message with a field it does not have":
        frame, message = _first(frames, "client", "issue_orders")
        message["player"] = "p1"
    elif control == "an order whose units are true":
        frame, message = _first(frames, "client", "issue_orders", lambda m: any("units" in o for o in m["orders"]))
        next(o for o in message["orders"] if "units" in o)["units"] = True
    elif control == "an order with a field its kind does not have":
        frame, message = _first(frames, "server", "orders_accepted", lambda m: bool(m["accepted"]))
        message["accepted"][0]["order"]["colour"] = "red"
    elif control == "a summary whose status is unknown":
        frame, message = _first(frames, "server", "games", lambda m: bool(m["games"]))
        message["games"][0]["status"] = "paused"
    elif control == "a view whose turn is a string":
        frame, message = _first(frames, "server", "update", lambda m: m["view"] is not None)
        message["view"]["turn"] = str(message["view"]["turn"])
    elif control == "an event of no kind the rule set has":
        frame, message = _first(
            frames, "server", "update", lambda m: any(e["event"]["kind"] not in framework_kinds() for e in m["events"])
        )
        entry = next(e for e in message["events"] if e["event"]["kind"] not in framework_kinds())
        entry["event"]["kind"] = "earthquake"
    elif control == "a map whose borders are a list":
        frame, message = _first(frames, "server", "game_map")
        message["map"]["borders"] = list(message["map"]["borders"])
    else:
        frame, message = _first(
            frames, "server", "update", lambda m: any(e["event"]["kind"] == "player_committed" for e in m["events"])
        )
        entry = next(e for e in message["events"] if e["event"]["kind"] == "player_committed")
        del entry["event"]["turn"]
    return _altered(frames, frame, message)


@pytest.mark.parametrize("control", CONTROLS)
def test_a_frame_altered_in_one_place_fails_the_check(recorded: list[Frame], control: str) -> None:
    assert WireChecker().run(recorded).problems == [], "the run itself must pass"
    assert WireChecker().run(alter(recorded, control)).problems, f"{control}: the check let it through"


# ---- bounds and options, both ways (issue 35) ---------------------------------------------------------------------

BOUNDS: list[tuple[str, dict[str, Any], bool]] = [
    ("withdraw_order index -1", {"type": "withdraw_order", "game_id": "ab12cd", "turn": 1, "index": -1}, False),
    ("withdraw_order index 0", {"type": "withdraw_order", "game_id": "ab12cd", "turn": 1, "index": 0}, True),
    ("list_games limit 0", {"type": "list_games", "limit": 0}, False),
    ("list_games limit 1", {"type": "list_games", "limit": 1}, True),
    ("list_games limit 100", {"type": "list_games", "limit": 100}, True),
    ("list_games limit 101", {"type": "list_games", "limit": 101}, False),
    ("list_games offset -1", {"type": "list_games", "offset": -1}, False),
    ("list_games offset 0", {"type": "list_games", "offset": 0}, True),
    ("list_games offset 1,000,000", {"type": "list_games", "offset": 1_000_000}, True),
    ("list_games offset 1,000,001", {"type": "list_games", "offset": 1_000_001}, False),
    ("watch_game last_seq -1", {"type": "watch_game", "game_id": "ab12cd", "last_seq": -1}, False),
    ("watch_game last_seq 0", {"type": "watch_game", "game_id": "ab12cd", "last_seq": 0}, True),
    ("resume last_seq -1", {"type": "resume", "game_id": "ab12cd", "token": "t", "last_seq": -1}, False),
    ("resume last_seq 0", {"type": "resume", "game_id": "ab12cd", "token": "t", "last_seq": 0}, True),
    ("join_game group 65", {"type": "join_game", "game_id": "ab12cd", "name": "ann", "group": 65}, False),
    ("join_game group 64", {"type": "join_game", "game_id": "ab12cd", "name": "ann", "group": 64}, True),
    ("join_game group -1", {"type": "join_game", "game_id": "ab12cd", "name": "ann", "group": -1}, False),
    ("replay_turn index -1", {"type": "replay_turn", "game_id": "ab12cd", "index": -1}, False),
    ("replay_turn index 0", {"type": "replay_turn", "game_id": "ab12cd", "index": 0}, True),
    ("replay_turn index 1,000,001", {"type": "replay_turn", "game_id": "ab12cd", "index": 1_000_001}, False),
    ("settings players 0", {"type": "create_game", "settings": {"map": "seed", "players": 0}}, False),
    ("settings players 1", {"type": "create_game", "settings": {"map": "seed", "players": 1}}, True),
    ("settings players 8", {"type": "create_game", "settings": {"map": "seed", "players": 8}}, True),
    ("settings players 9", {"type": "create_game", "settings": {"map": "seed", "players": 9}}, False),
    ("settings bots -1", {"type": "create_game", "settings": {"map": "seed", "players": 2, "bots": -1}}, False),
    ("settings bots 9", {"type": "create_game", "settings": {"map": "seed", "players": 2, "bots": 9}}, False),
    ("settings turn_seconds 0", {"type": "create_game", "settings": {"map": "seed", "turn_seconds": 0}}, False),
    ("issue_orders turn 2.0", {"type": "issue_orders", "game_id": "ab12cd", "turn": 2.0, "orders": [{}]}, True),
]
"""Frames at and past every bound a client's message has: what the schema says of each, and what the server does."""


def test_the_schema_states_every_bound_in_json_schemas_own_words() -> None:
    """`ge`, `le`, `gt` and `lt` are pydantic's words: a JSON Schema validator ignores them, so a bound written so
    is no bound to a client checking its frames with the schema."""
    found: list[str] = []

    def walk(schema: Any, path: str, names: bool = False) -> None:
        if isinstance(schema, dict):
            for key, value in schema.items():
                if not names and key in ("ge", "le", "gt", "lt"):
                    found.append(f"{path}/{key}")
                walk(value, f"{path}/{key}", names=not names and key in ("properties", "$defs"))
        elif isinstance(schema, list):
            for index, value in enumerate(schema):
                walk(value, f"{path}/{index}")

    walk(published.published(), "")
    assert found == []


async def test_the_schema_and_the_server_judge_every_bound_alike() -> None:
    async with running_server(**FAST, bad_frames_burst=len(BOUNDS)) as server:
        client = await Client.connect(server)
        verdicts = []
        for case, frame, valid in BOUNDS:
            schema_takes = published.client_frame(frame) == []
            reply = await client.request(**frame)
            server_takes = not (reply["type"] == "error" and reply["code"] == "invalid-message")
            verdicts.append((case, schema_takes, server_takes))
            assert server_takes == valid, (case, reply)
    assert [v for v in verdicts if v[1] != v[2]] == []


OPTIONS: list[tuple[str, dict[str, Any], bool]] = [
    ("risc", {"initial_units": "8"}, False),
    ("risc", {"initial_units": " 8 "}, False),
    ("risc", {"initial_units": True}, False),
    ("risc", {"initial_units": 8}, True),
    ("risc", {"initial_units": 8.0}, True),
    ("risc", {"initial_units": 8.5}, False),
    ("risc", {"initial_units": 0}, False),
    ("risc", {"evolution": "3"}, False),
    ("risc", {"evolution": 3}, True),
    ("risc", {"evolution": 4}, False),
    ("risc", {"choose_groups": 1}, False),
    ("risc", {"choose_groups": "true"}, False),
    ("risc", {"choose_groups": True}, True),
    ("risc", {"colour": "red"}, False),
    ("warzone", {"max_turns": True}, False),
    ("warzone", {"max_turns": 30}, True),
    ("grid", {"troops": "15"}, False),
    ("grid", {"troops": 15}, True),
    ("classic", {"mode": "capital"}, True),
    ("classic", {"mode": "Capital"}, False),
    ("classic", {"cheaters": 0}, False),
]
"""A rule set's options, as a creator may give them: read by JSON type, as orders are."""


async def test_the_schema_and_the_server_judge_every_rule_sets_options_alike() -> None:
    async with running_server(**FAST, open_games_per_connection=100, open_games_per_address=100) as server:
        client = await Client.connect(server)
        verdicts = []
        for ruleset, options, valid in OPTIONS:
            schema_takes = published.options(ruleset, options) == []
            settings = {"ruleset": ruleset, "map": None if ruleset == "grid" else "twin-keeps", "players": 3}
            reply = await client.request(type="create_game", settings={**settings, "options": options})
            server_takes = reply["type"] == "game_created"
            if not server_takes:
                assert reply["code"] == "bad-settings", reply
                assert reply["field"].startswith("settings.options."), reply
            verdicts.append((ruleset, options, schema_takes, server_takes))
            assert server_takes == valid, (ruleset, options, reply)
    assert [v for v in verdicts if v[2] != v[3]] == []
