"""The protocol as published: the JSON Schema `risc protocol schema` prints, and docs/protocol.md's frames."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from pydantic import ValidationError

from risc.cli import main
from shared.protocol.codes import PROTOCOL_VERSION
from shared.protocol.messages import CLIENT_ADAPTER, CLIENT_TYPES, SERVER_ADAPTER
from shared.rulesets import RULESETS
from tests import schema_support as published
from tests.server_support import Client, create_game, running_server

DOC = Path(__file__).resolve().parent.parent / "docs" / "protocol.md"
SERVER_TYPES = (
    "welcome",
    "error",
    "games",
    "maps",
    "rulesets",
    "game_created",
    "joined",
    "resumed",
    "watching",
    "left",
    "order_accepted",
    "orders_accepted",
    "order_withdrawn",
    "order_moved",
    "orders",
    "legal",
    "commit_accepted",
    "resigned",
    "chat_sent",
    "lobby_chat",
    "rematch_pending",
    "hand_over_pending",
    "game_map",
    "update",
    "redirect",
    "game_listed",
    "statistics",
    "replay",
    "replayed_turn",
    "shutting_down",
    "signed_in",
    "signed_out",
    "password_changed",
    "sessions",
    "session_ended",
    "my_games",
    "account_deleted",
    "account_export",
    "notification_settings",
    "vacation",
    "nudged",
    "notice",
    "leaderboard",
    "profile",
    "game_ratings",
    "quick_play_waiting",
    "quick_play_left",
    "quick_play_found",
    "challenge_sent",
    "challenge_answered",
)


def test_risc_protocol_schema_prints_both_directions_and_every_rule_set(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["protocol", "schema"]) == 0
    schema = json.loads(capsys.readouterr().out)
    assert schema["protocol"] == PROTOCOL_VERSION
    for direction, types in (("client_to_server", CLIENT_TYPES), ("server_to_client", SERVER_TYPES)):
        mapping = schema[direction]["discriminator"]["mapping"]
        assert sorted(mapping) == sorted(types)
        assert schema[direction]["discriminator"]["propertyName"] == "type"
    assert set(schema["rulesets"]) == set(RULESETS)
    for name, ruleset in RULESETS.items():
        described = schema["rulesets"][name]
        assert set(described) >= {"options", "order", "event", "view"}
        kinds = json.dumps(described["order"])
        assert all(f'"{kind}"' in kinds for kind in ruleset.order_kinds())


def documented_frames() -> list[tuple[str, str]]:
    """(direction, frame) for every frame of the worked example that is shown whole."""
    text = DOC.read_text()
    frames = []
    for block in re.findall(r"```jsonc\n(.*?)```", text, flags=re.S):
        for part in re.split(r"^// ", block, flags=re.M)[1:]:
            header, _, body = part.partition("\n")
            if "→" in header and "{…}" not in body and "not JSON" not in header:
                frames.append(("client" if header.endswith("→ server") else "server", body.strip()))
    return frames


def test_every_frame_of_the_worked_example_fits_the_schema() -> None:
    frames = documented_frames()
    assert len(frames) > 50
    seen = set()
    for direction, body in frames:
        adapter = CLIENT_ADAPTER if direction == "client" else SERVER_ADAPTER
        try:
            message = adapter.validate_json(body)
        except ValidationError as exc:
            if json.loads(body).get("turn") == "two":  # the example's deliberately malformed commit
                continue
            raise AssertionError(f"{direction} frame does not fit the schema: {body}") from exc
        seen.add(message.type)
    # The example shows most of the protocol: every client request but spectating, resigning (a resignation would
    # end its two-player game before its end, its rematch and its reconnection) and chat, and the common replies.
    assert set(CLIENT_TYPES) - seen <= {"leave_game", "watch_game", "resign", "chat"} | DAYS_TYPES
    assert {
        "welcome",
        "error",
        "games",
        "game_created",
        "joined",
        "resumed",
        "order_accepted",
        "order_withdrawn",
        "orders",
        "commit_accepted",
        "rematch_pending",
        "update",
        "statistics",
        "replay",
        "replayed_turn",
        "shutting_down",
    } <= seen


DAYS_TYPES = {"notifications", "set_notifications", "vacation", "nudge", "looking"}
"""Told in "Games of days" with their own example (the whole game's example is played in one sitting)."""


def test_every_message_type_is_documented() -> None:
    text = DOC.read_text()
    for kind in (*CLIENT_TYPES, *SERVER_TYPES):
        assert f"| `{kind}` |" in text, kind


def example_frames(text: str) -> list[tuple[str, str]]:
    """(header, frame) for every line of the worked example's blocks that is a frame, as written."""
    frames = []
    for block in re.findall(r"```jsonc\n(.*?)```", text, flags=re.S):
        for part in re.split(r"^// ", block, flags=re.M)[1:]:
            header, _, body = part.partition("\n")
            if "→" in header:
                frames.append((header, body.strip()))
    return frames


def outline(text: str) -> list[tuple[str, str]]:
    """The worked example's course: each frame's header and what it is (its type, and an error's code)."""
    shown = []
    example = text[text.index("### Lobby and placement") :]
    for header, body in example_frames(example):
        if "not JSON" in header:
            shown.append((header, "not JSON"))
            continue
        frame = json.loads(body)
        shown.append((header, f"{frame['type']} {frame.get('code') or ''}".strip()))
    return shown


def test_the_worked_example_shows_the_map_views_whole_and_patched_a_catch_up_and_a_snapshot() -> None:
    frames = [
        (header, json.loads(body))
        for header, body in example_frames(DOC.read_text())
        if "not JSON" not in header and "{…}" not in body
    ]
    updates = [frame for _, frame in frames if frame["type"] == "update"]
    maps = [frame for _, frame in frames if frame["type"] == "game_map"]
    assert maps and all(m["map"]["territories"] for m in maps)
    mapped = set()
    for header, frame in frames:  # a connection gets a game's map before any update about it
        if frame["type"] == "game_map":
            mapped.add((header, frame["game_id"]))
        elif frame["type"] == "update":
            assert (header, frame["game_id"]) in mapped, (header, frame["game_id"])
    assert any(u["view"] is not None for u in updates)
    assert any(u["view_patch"] for u in updates)
    assert not any(u["view"] is not None and u["view_patch"] is not None for u in updates)
    assert any(u["snapshot"] and not u["events"] for u in updates)
    resumes = [f for _, f in frames if f["type"] == "resume" and f.get("last_seq")]
    assert resumes
    for resume in resumes:  # the update that follows brings the entries of every change after last_seq
        caught_up = next(
            u
            for u in updates
            if u["game_id"] == resume["game_id"] and u["events"] and u["events"][0]["seq"] == resume["last_seq"] + 1
        )
        numbers = [e["seq"] for e in caught_up["events"]]
        assert numbers == sorted(numbers) and sorted(set(numbers)) == list(
            range(resume["last_seq"] + 1, caught_up["seq"] + 1)
        )
    codes = {f.get("code") for _, f in frames if f["type"] == "error"}
    assert {"unknown-order", "invalid-order", "bad-map", "not-seated", "not-json"} <= codes
    kinds = {e["event"]["kind"] for u in updates for e in u["events"]}
    assert {"orders_revealed", "combat", "game_won", "seat_handed_over", "rematch_started"} <= kinds


def test_risc_protocol_example_plays_the_worked_example_again(capsys: pytest.CaptureFixture[str]) -> None:
    """The page's example is what `risc protocol example` prints: after a change to what the example shows, run it
    again and paste its output into docs/protocol.md (from "### Lobby and placement" on)."""
    assert main(["protocol", "example"]) == 0
    printed = capsys.readouterr().out
    assert outline(printed) == outline(DOC.read_text()), "docs/protocol.md's example is stale: see this test's doc"
    assert len(outline(printed)) > 100


def section(text: str, heading: str) -> str:
    """One section of a markdown page, from its heading to the next heading of the same level or above."""
    start = text.index(heading)
    level = heading.split(" ", 1)[0]
    ends = [text.find("\n" + "#" * n + " ", start + len(heading)) for n in range(1, len(level) + 1)]
    return text[start : min((e for e in ends if e != -1), default=len(text))]


async def test_every_key_of_the_map_a_follower_is_sent_is_documented_and_fits_the_published_schema() -> None:
    maps = section(DOC.read_text(), "### Maps")
    async with running_server() as server:
        client = await Client.connect(server)
        for settings in ({"map": "meridian"}, {"map": "meridian", "options": {"evolution": 3}}):
            game_id = await create_game(client, players=2, **settings)
            await client.request(type="watch_game", game_id=game_id)
            sent = (await client.wait_type("game_map", game_id=game_id))["map"]
            assert published.game_map(sent) == []
            keys = {*sent, *sent["territories"][0], *sent["details"]}
            assert not [k for k in keys if f"`{k}`" not in maps], "undocumented keys of the map"
            assert isinstance(sent["borders"], dict) and "an object" in maps
            if settings.get("options"):  # under fog: production is null, not left out, as the page says
                assert all(t["food"] is None and "food" in t for t in sent["territories"])


def test_the_docs_say_a_spy_may_come_home_as_the_rules_let_it() -> None:
    """docs/rules.md E13 lets a spy abroad come home through its owner's land (and the server does:
    tests/test_evolution3_spies_and_cloaking.py); docs/protocol.md said a spy may not end on its owner's land."""
    spy_move = next(
        line for line in section(DOC.read_text(), "### RISC evolutions").split("\n- ") if line.startswith("`spy_move`")
    )
    assert "not one's own" not in spy_move and "come home" in spy_move


def test_the_docs_say_when_the_servers_players_ask_for_a_rematch_as_the_server_does() -> None:
    """The server's players ask as soon as one player has (server/computers/players.py ServerBot.send;
    tests/test_bots.py); the
    two pages said otherwise of each other."""
    bots = (DOC.parent / "bots.md").read_text()
    assert "once every other player has" not in bots
    assert "as soon as" in section(bots, "## Seats the server plays")
    assert "ask for the rematch as soon as a player has" in section(DOC.read_text(), "## The end and rematches")
