"""`risc protocol schema`: the JSON Schema of both directions, and of every registered rule set's options, orders,
events and views, for anyone writing a client in another language.

The schema says what the server does, no more and no less (tests/test_wire_schema.py validates every frame of real
games of each rule set against it with a third-party validator). Pydantic's own schemas are a little looser than the
server, and are tightened here where they are:

- a field with a default is optional to pydantic, but a message's `type`, and an order's, event's or log entry's
  `kind`, is what tells it apart: the server refuses one without it, so the schema requires it;
- the server sends every field of its messages, null or not ("every message always has the same keys"), so the
  server-to-client schema requires them all;
- an order has exactly the fields of its kind: the server refuses any other, so the schema allows no other;
- a game's settings may name a rule set's option beside the common fields (it is moved into `options`, where the
  rule set judges it), so the settings a client sends allow other properties.
"""

from __future__ import annotations

from typing import Any

from pydantic import TypeAdapter

from shared.maps.model import GameMap
from shared.protocol.codes import PROTOCOL_VERSION
from shared.protocol.log import FRAMEWORK_ENTRY, WHEN_ASKED
from shared.protocol.messages import CLIENT_ADAPTER, SERVER_ADAPTER
from shared.rulesets import RULESETS

_MAP: TypeAdapter[GameMap] = TypeAdapter(GameMap)


def schemas() -> dict[str, Any]:
    return {
        "protocol": PROTOCOL_VERSION,
        "client_to_server": _options_beside(tag_required(CLIENT_ADAPTER.json_schema(), "type")),
        "server_to_client": every_key_sent(SERVER_ADAPTER.json_schema(mode="serialization")),
        "log_entries": every_key_sent(FRAMEWORK_ENTRY.json_schema(mode="serialization")),
        "map": every_key_sent(_MAP.json_schema(mode="serialization")),
        "rulesets": {
            name: {
                "title": ruleset.title,
                "simultaneous": ruleset.simultaneous,
                "options": ruleset.options_type.model_json_schema(),
                "order": exact(tag_required(ruleset.order_type.json_schema(), "kind")),
                "event": every_key_sent(ruleset.event_type.json_schema(mode="serialization")),
                "view": tag_required(ruleset.view_type.json_schema(mode="serialization"), "kind"),
            }
            for name, ruleset in sorted(RULESETS.items())
        },
    }


def _objects(schema: dict[str, Any]) -> list[dict[str, Any]]:
    """The schema's object schemas: its definitions, and the schema itself when it is one."""
    found = [d for d in schema.get("$defs", {}).values() if d.get("type") == "object"]
    if schema.get("type") == "object":
        found.append(schema)
    return found


def tag_required(schema: dict[str, Any], tag: str) -> dict[str, Any]:
    """Every object whose `tag` is a constant (a message's `type`, an order's `kind`) requires it."""
    for body in _objects(schema):
        if "const" in body.get("properties", {}).get(tag, {}):
            required = body.setdefault("required", [])
            if tag not in required:
                required.insert(0, tag)
    return schema


def every_key_sent(schema: dict[str, Any]) -> dict[str, Any]:
    """Every object requires every property it has: the server leaves no field out of what it sends, but those it
    sends only when asked (marked WHEN_ASKED)."""
    for body in _objects(schema):
        if body.get("properties"):
            body["required"] = [name for name, prop in body["properties"].items() if not prop.get(WHEN_ASKED)]
    return schema


def exact(schema: dict[str, Any]) -> dict[str, Any]:
    """Every object allows no property but its own."""
    for body in _objects(schema):
        body["additionalProperties"] = False
    return schema


def _options_beside(schema: dict[str, Any]) -> dict[str, Any]:
    settings = schema["$defs"]["GameSettings"]
    settings["additionalProperties"] = True
    settings["description"] += (
        " A property besides these names one of the rule set's options: it is moved into "
        "`options`, where the rule set judges it."
    )
    return schema
