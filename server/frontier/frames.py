"""Turning one inbound frame into a validated message, or into the error that says what is wrong with it."""

from __future__ import annotations

import json
import re
from typing import Any

from pydantic import ValidationError
from pydantic_core import from_json

from shared.protocol.codes import ErrorCode
from shared.protocol.messages import CLIENT_ADAPTER, CLIENT_TYPES, ClientMessage, Error

MAX_DEPTH = 200
"""Arrays and objects within each other that a frame may hold: the JSON parser's own limit. No message of the protocol
needs more than a handful; a frame deeper than this is refused as an invalid message."""

_TOO_DEEP = "recursion limit exceeded"

_GAME_ID = re.compile(r"[A-Za-z0-9_-]{1,32}")
"""A game id as the protocol writes it (shared/protocol/lobby.py GameId)."""
"""How the JSON parser says that a frame nests deeper than MAX_DEPTH."""


def parse_frame(frame: str | bytes, max_bytes: int) -> ClientMessage | Error:
    """Validate before anything else: size, kind of frame, JSON, then the message's schema, strictly."""
    if isinstance(frame, bytes):
        return Error(code=ErrorCode.BINARY_FRAME, message="binary frames are refused: send JSON in text frames")
    size = len(frame) if len(frame) > max_bytes else len(frame.encode("utf-8", "surrogatepass"))
    if size > max_bytes:
        return Error(
            code=ErrorCode.TOO_LARGE,
            message=f"a message may hold at most {max_bytes} bytes; this one has {size} or more",
        )
    try:
        return CLIENT_ADAPTER.validate_json(frame, strict=True)
    except ValidationError as exc:
        return _describe(exc, frame)


def rate_limited(frame: str | bytes, max_bytes: int, per_second: float) -> Error:
    """The refusal of a frame sent too soon, naming the request (its ref and its game) when the frame shows them, so
    that a client waiting on that request learns at once that it was dropped and may send it again."""
    head = _peek(frame) if isinstance(frame, str) and len(frame) <= max_bytes else {}
    request, ref = _request_and_ref(head)
    return Error(
        code=ErrorCode.RATE_LIMITED,
        request=request,
        ref=ref,
        game_id=_game_of(head),
        message=f"more than {per_second:g} messages a second: this one was dropped",
    )


def _request_and_ref(head: dict[str, Any]) -> tuple[str | None, str | None]:
    kind, ref = head.get("type"), head.get("ref")
    request = kind if isinstance(kind, str) and kind in CLIENT_TYPES else None
    return request, ref if isinstance(ref, str) and len(ref) <= 64 else None


def _game_of(head: dict[str, Any]) -> str | None:
    """The game a refused frame was about, when it names one that could be a game's id (never the frame's own words
    copied back whatever they are)."""
    game_id = head.get("game_id")
    return game_id if isinstance(game_id, str) and _GAME_ID.fullmatch(game_id) else None


def _peek(frame: str) -> dict[str, Any]:
    """The frame's top level when it is a JSON object. Parsed by the same parser as messages, which stops at
    MAX_DEPTH levels (the stdlib's json.loads recursed until RecursionError on a deeply nested frame)."""
    try:
        data = from_json(frame)
    except ValueError:
        return {}
    return data if isinstance(data, dict) else {}


def _describe(exc: ValidationError, frame: str) -> Error:
    errors = exc.errors(include_url=False)
    first = errors[0]
    if first["type"] == "json_invalid" and _TOO_DEEP in str(first["msg"]):
        return Error(
            code=ErrorCode.INVALID_MESSAGE,
            message=f"the message nests arrays and objects more than {MAX_DEPTH} deep; no message "
            "needs more than a few levels",
        )
    if first["type"] == "json_invalid":
        return Error(code=ErrorCode.NOT_JSON, message=f"the frame is not JSON ({first['msg']})")
    head = _peek(frame)
    kind = head.get("type")
    request, ref = _request_and_ref(head)
    field: str | None = "type"
    if first["type"] == "dict_type" and not first["loc"]:
        code, text, field = ErrorCode.INVALID_MESSAGE, 'a message is a JSON object with a "type" field', None
    elif first["type"] == "union_tag_not_found":
        code, text = ErrorCode.INVALID_MESSAGE, 'the message has no "type" field'
    elif first["type"] == "union_tag_invalid":
        shown = kind if isinstance(kind, str) else json.dumps(kind)
        code, text = (
            ErrorCode.UNKNOWN_TYPE,
            (f'there is no message of type "{shown[:40]}" (known: {", ".join(CLIENT_TYPES)})'),
        )
    else:
        parts = []
        for error in errors[:4]:
            parts.append(f"{_path(error['loc']) or 'message'}: {_words(error)}")
        more = f" (and {len(errors) - 4} more)" if len(errors) > 4 else ""
        code, text = ErrorCode.INVALID_MESSAGE, f"invalid {request or 'message'}: " + "; ".join(parts) + more
        field = _path(first["loc"]) or None
    return Error(code=code, message=text, request=request, ref=ref, game_id=_game_of(head), field=field)


def _path(loc: tuple[int | str, ...]) -> str:
    """Where in the message a problem lies, as a dotted path (`order`, `settings.players`): the error's location
    without the message's type, which pydantic puts first."""
    return ".".join(str(part) for part in loc[1:])


def _words(error: Any) -> str:
    """Pydantic's words, with what was given where a type was wrong (a number is not "a valid integer" to a reader
    who sent true)."""
    given = error.get("input")
    if error["type"] == "value_error" and (error.get("ctx") or {}).get("error") is not None:
        return str(error["ctx"]["error"])  # the protocol's own sentence, without pydantic's "Value error, " before it
    if (
        error["type"] in ("int_type", "float_type", "string_type", "bool_type", "dict_type", "list_type")
        and isinstance(given, bool | int | float | str)
        and len(json.dumps(given)) <= 40
    ):
        return f"{error['msg']}, not {json.dumps(given)}"
    return str(error["msg"])
