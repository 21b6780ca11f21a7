"""`risc protocol schema`: the JSON Schema of both directions, and of every registered rule set's options, orders,
events and views, for anyone writing a client in another language."""

from __future__ import annotations

from typing import Any

from shared.protocol.codes import PROTOCOL_VERSION
from shared.protocol.log import FRAMEWORK_ENTRY
from shared.protocol.messages import CLIENT_ADAPTER, SERVER_ADAPTER
from shared.rulesets import RULESETS


def schemas() -> dict[str, Any]:
    return {
        "protocol": PROTOCOL_VERSION,
        "client_to_server": CLIENT_ADAPTER.json_schema(),
        "server_to_client": SERVER_ADAPTER.json_schema(),
        "log_entries": FRAMEWORK_ENTRY.json_schema(),
        "rulesets": {
            name: {
                "title": ruleset.title,
                "simultaneous": ruleset.simultaneous,
                "options": ruleset.options_type.model_json_schema(),
                "order": ruleset.order_type.json_schema(),
                "event": ruleset.event_type.json_schema(),
                "view": ruleset.view_type.json_schema(),
            }
            for name, ruleset in sorted(RULESETS.items())
        },
    }
