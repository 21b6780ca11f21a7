"""What every message of the protocol shares: a client's `ref` copied into the reply, and the two bases (a client's
messages refuse fields they do not know; a server's may grow fields a client of an earlier version ignores)."""

from __future__ import annotations

from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field

Ref = Annotated[
    str | None, Field(default=None, max_length=64, description="copied into the reply, so a client can pair them")
]
Token = Annotated[str, Field(min_length=1, max_length=128)]
RequestId = Annotated[
    str | None,
    Field(
        default=None,
        min_length=8,
        max_length=64,
        pattern=r"^[A-Za-z0-9_-]+$",
        description="the client's own id of this change, unique among the player's requests in the game "
        "(a random one): sent again by the same player with the same id after a lost "
        "reply, the change is answered as before, never made twice; another player's id is their own",
    ),
]


class ClientMessageBase(BaseModel):
    model_config = ConfigDict(extra="forbid")

    ref: Ref = None


class ServerMessageBase(BaseModel):
    ref: Ref = None
