"""The published schema, as `risc protocol schema` prints it, read by a third-party validator (jsonschema, Draft
2020-12): what a client written in another language would check frames with. Nothing here comes from pydantic's
own validation, so a frame the server's models take but the published schema refuses (or the reverse) shows."""

from __future__ import annotations

import json
from functools import cache
from typing import Any

from jsonschema import Draft202012Validator

from shared.protocol.schema import schemas


@cache
def published() -> dict[str, Any]:
    """The schema exactly as printed: through JSON text, as a client in another language would read it."""
    return json.loads(json.dumps(schemas()))  # type: ignore[no-any-return]


def _checker(schema: dict[str, Any]) -> Draft202012Validator:
    Draft202012Validator.check_schema(schema)
    return Draft202012Validator(schema)


@cache
def _part(*path: str) -> Draft202012Validator:
    schema: Any = published()
    for key in path:
        schema = schema[key]
    return _checker(schema)


@cache
def _defined(direction: str, name: str) -> Draft202012Validator:
    """One definition of a direction's schema (`GameSummary`), with the definitions it refers to."""
    whole = published()[direction]
    return _checker({"$ref": f"#/$defs/{name}", "$defs": whole["$defs"]})


def problems(checker: Draft202012Validator, value: Any) -> list[str]:
    """What the validator finds wrong with `value`: empty when it fits."""
    return [f"{'/'.join(str(p) for p in error.absolute_path) or '(top)'}: {error.message}"
            for error in checker.iter_errors(value)]


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
