"""How the protocol reads a number a client sends: by its JSON type, as the published schema does.

JSON has one kind of number, and JSON Schema's `integer` is any number whose fraction is zero: 2 and 2.0 are the same
integer to every validator of the schema, so the server reads both as 2. A boolean, a string ("2", " 7 ") or a
fraction (2.5) is refused where an integer is due: true is not a number, and a string is not one either.
"""

from __future__ import annotations

import json
from typing import Annotated, Any

import orjson
from pydantic import BeforeValidator


def whole_number(value: Any) -> Any:
    """2.0 as 2; anything else as it is, for the strict check that follows to take or refuse."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


def whole_numbers(value: Any) -> Any:
    """Every number with a zero fraction in a JSON value (objects and arrays gone through) as the integer it is."""
    if isinstance(value, float):
        return whole_number(value)
    if isinstance(value, dict):
        return {key: whole_numbers(item) for key, item in value.items()}
    if isinstance(value, list):
        return [whole_numbers(item) for item in value]
    return value


def json_text(value: Any) -> str:
    """A JSON value a client sent, as the text to validate strictly by JSON type (pydantic's `validate_json` with
    `strict`): 2.0 as 2. orjson writes it (every order issued passes here: a fifth of json's time); an integer past
    64 bits, which orjson refuses, goes to json, which writes integers of any size."""
    whole = whole_numbers(value)
    try:
        return orjson.dumps(whole).decode()
    except orjson.JSONEncodeError:
        return json.dumps(whole, separators=(",", ":"))


WHOLE = BeforeValidator(whole_number)
"""What makes an int field of a client's message a whole number as JSON reads one. Put after a field's bounds
(`Annotated[int, Field(ge=0), WHOLE]`): bounds put after it are left out of the schema's `minimum` and `maximum`."""

Whole = Annotated[int, WHOLE]
"""An integer of a client's message: 2 or 2.0, never true, "2" or 2.5 (without bounds: see WHOLE)."""
