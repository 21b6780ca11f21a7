"""The published schema, as `risc protocol schema` prints it, read by a third-party validator (jsonschema, Draft
2020-12): what a client written in another language would check frames with. Nothing here comes from pydantic's
own validation, so a frame the server's models take but the published schema refuses (or the reverse) shows.

The schema's unions say which member a value is by its tag (`type`, `kind`), in the `discriminator` keyword the schema
carries beside each `oneOf` (OpenAPI's, which JSON Schema validators may ignore): the validator here reads it, and
checks a tagged value against its own member only. For members told apart by a constant tag this is what `oneOf`
means (no other member can match), and it spares checking every frame against all twenty members; a value whose
tag names no member is checked against the whole `oneOf`, and fails it.
"""

from __future__ import annotations

import json
from functools import cache
from typing import Any

from jsonschema import Draft202012Validator, validators
from jsonschema._keywords import oneOf as one_of

from shared.protocol.schema import schemas


@cache
def published() -> dict[str, Any]:
    """The schema exactly as printed: through JSON text, as a client in another language would read it."""
    return json.loads(json.dumps(schemas()))  # type: ignore[no-any-return]


def _tagged_one_of(validator: Any, members: Any, instance: Any, schema: dict[str, Any]) -> Any:
    """`oneOf`, going straight to the member the value's tag names when the schema says which tag tells them apart."""
    discriminator = schema.get("discriminator")
    if isinstance(discriminator, dict) and isinstance(instance, dict):
        member = discriminator.get("mapping", {}).get(instance.get(discriminator.get("propertyName")))
        if isinstance(member, str):
            yield from validator.descend(instance, {"$ref": member})
            return
    yield from one_of(validator, members, instance, schema)


Validator = validators.extend(Draft202012Validator, {"oneOf": _tagged_one_of})


def _checker(schema: dict[str, Any]) -> Any:
    Draft202012Validator.check_schema(schema)
    return Validator(schema)


@cache
def _part(*path: str) -> Any:
    schema: Any = published()
    for key in path:
        schema = schema[key]
    return _checker(schema)


@cache
def _defined(direction: str, name: str) -> Any:
    """One definition of a direction's schema (`GameSummary`), with the definitions it refers to."""
    whole = published()[direction]
    return _checker({"$ref": f"#/$defs/{name}", "$defs": whole["$defs"]})


_FOUND: dict[tuple[int, str], list[str]] = {}
"""Each value checked once against each schema: the followers of a game are sent the same summaries and views."""


def problems(checker: Any, value: Any) -> list[str]:
    """What the validator finds wrong with `value`: empty when it fits."""
    key = (id(checker), json.dumps(value, sort_keys=True))
    found = _FOUND.get(key)
    if found is None:
        found = _FOUND[key] = [
            f"{'/'.join(str(p) for p in error.absolute_path) or '(top)'}: {error.message}"
            for error in checker.iter_errors(value)
        ]
    return found


def client_frame(value: Any) -> list[str]:
    return problems(_part("client_to_server"), value)


def server_frame(value: Any) -> list[str]:
    return problems(_part("server_to_client"), value)


def summary(value: Any) -> list[str]:
    return problems(_defined("server_to_client", "GameSummary"), value)


def settings(value: Any) -> list[str]:
    return problems(_defined("client_to_server", "GameSettings"), value)


def log_entry(value: Any) -> list[str]:
    return problems(_part("log_entries"), value)


def game_map(value: Any) -> list[str]:
    return problems(_part("map"), value)


def order(ruleset: str, value: Any) -> list[str]:
    return problems(_part("rulesets", ruleset, "order"), value)


def event(ruleset: str, value: Any) -> list[str]:
    return problems(_part("rulesets", ruleset, "event"), value)


def view(ruleset: str, value: Any) -> list[str]:
    return problems(_part("rulesets", ruleset, "view"), value)


def options(ruleset: str, value: Any) -> list[str]:
    return problems(_part("rulesets", ruleset, "options"), value)
