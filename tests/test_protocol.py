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

DOC = Path(__file__).resolve().parent.parent / "docs" / "protocol.md"
SERVER_TYPES = ("welcome", "error", "games", "maps", "rulesets", "game_created", "joined", "resumed", "watching",
                "left", "order_accepted", "order_withdrawn", "orders", "legal", "commit_accepted", "rematch_pending",
                "hand_over_pending", "game_map", "update", "shutting_down")


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
    # The example shows most of the protocol: every client request but spectating, and the common replies.
    assert set(CLIENT_TYPES) - seen <= {"leave_game", "watch_game"}
    assert {"welcome", "error", "games", "game_created", "joined", "resumed", "order_accepted", "order_withdrawn",
            "orders", "commit_accepted", "rematch_pending", "update", "shutting_down"} <= seen


def test_every_message_type_is_documented() -> None:
    text = DOC.read_text()
    for kind in (*CLIENT_TYPES, *SERVER_TYPES):
        assert f"| `{kind}` |" in text, kind
