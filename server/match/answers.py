"""Requests answered again: the replies to the requests that changed a game lately, by the client's request id.

A client that lost a reply (its connection dropped, or its server died before answering) sends the same request
again with the same id; it is answered as it was the first time rather than carried out twice. Apart from the
match because every changing request goes through it the same way; which replies are still kept is the core's
(core.requests_kept), as the stores keep the same.
"""

from __future__ import annotations

from collections.abc import Mapping

from pydantic import BaseModel

from server import core
from server.match.followers import Subscriber
from server.storage.base import RequestRecord
from shared.protocol.messages import SERVER_ADAPTER


class Answers:
    def __init__(self, kept: Mapping[str, tuple[int, str]] | None = None) -> None:
        self.kept: dict[str, tuple[int, str]] = dict(kept or {})
        """By request id: the game's step when it was carried out, and the reply sent (with a null ref)."""

    def __contains__(self, request_id: str | None) -> bool:
        return request_id is not None and request_id in self.kept

    def reply_of(self, request_id: str) -> str:
        """The reply a kept request was sent, as JSON text with a null ref."""
        return self.kept[request_id][1]

    @staticmethod
    def record(request_id: str | None, step: int, reply: BaseModel) -> RequestRecord | None:
        """What to keep with a change made by a request that has an id: the reply it gets (without its ref)."""
        if request_id is None:
            return None
        return RequestRecord(request_id, step, reply.model_copy(update={"ref": None}).model_dump_json())

    def answered_before(self, sub: Subscriber, request_id: str | None, ref: str | None) -> bool:
        """Answer a request this game carried out already (its reply was lost) as it was answered then."""
        if request_id is None or request_id not in self.kept:
            return False
        sub.send(SERVER_ADAPTER.validate_json(self.reply_of(request_id)).model_copy(update={"ref": ref}))
        return True

    def remember(self, request: RequestRecord, step: int) -> None:
        """Keep a carried-out request's reply, now that the game is at `step`; those of steps long past go."""
        self.kept = core.requests_kept(self.kept, step)
        self.kept[request.request_id] = (request.step, request.reply)
