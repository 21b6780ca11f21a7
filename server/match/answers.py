"""Requests answered again: the replies to the requests that changed a game lately, by player and request id.

A client that lost a reply (its connection dropped, or its server died before answering) sends the same request
again with the same id; it is answered as it was the first time rather than carried out twice. A reply is kept under
the player the request was made for (the seat that issued an order, the name a join took) and the client's id
together, and given back only to that player asking the same kind of thing again: clients choose their ids, two of
them may choose the same one, and neither may be handed the other's answer (nor have its own request dropped for
it). Apart from the match because every changing request goes through it the same way; which replies are still
kept is the core's (core.requests_kept), as the stores keep the same.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import orjson
from pydantic import BaseModel

from server import core
from server.match.followers import Subscriber
from server.refusal import Refusal
from server.storage.base import RequestKey, RequestRecord
from shared.protocol.codes import ErrorCode
from shared.protocol.messages import SERVER_ADAPTER, with_ref


@dataclass(frozen=True)
class Reply:
    """The reply to a request that changes the game, encoded once with a null ref: kept so with the change when the
    request has an id (and sent as it is to the same request sent again), and sent with the request's own ref. Built
    from the protocol's model, so the model alone says what goes on the wire."""

    message: BaseModel
    frame: str

    @classmethod
    def of(cls, message: BaseModel) -> Reply:
        return cls(message, message.model_dump_json())

    def send(self, sub: Subscriber, ref: str | None) -> None:
        """The reply to the request of `ref`: its frame with that ref; the message with it too, for a subscriber that
        reads messages (a network connection reads the frame alone, so copying the message would go unread)."""
        message = self.message if sub.reads_text else self.message.model_copy(update={"ref": ref})
        sub.send(message, with_ref(self.frame, ref))


class Answers:
    def __init__(self, kept: Mapping[RequestKey, tuple[int, str]] | None = None) -> None:
        self.kept: dict[RequestKey, tuple[int, str]] = dict(kept or {})
        """By player and request id: the game's step when it was carried out, and the reply sent (with a null ref)."""
        self._kept_at: int | None = None
        """The step the kept replies were last sorted at: those of steps long past go once a step, not with every
        request (a turn's orders each carry an id)."""

    def reply_of(self, player: str, request_id: str | None, answered_by: type[BaseModel]) -> str | None:
        """The reply kept for `player`'s request `request_id` (JSON text with a null ref), when it is the same kind of
        request (one `answered_by` answers); None when the player made no request of that id. Refusal when the id
        is one of the player's requests of another kind: it can be neither answered as that one nor carried out
        under an id that is taken."""
        if request_id is None:
            return None
        kept = self.kept.get((player, request_id))
        if kept is None:
            return None
        reply = kept[1]
        kind = orjson.loads(reply).get("type")
        if kind != answered_by.model_fields["type"].default:
            raise Refusal(
                ErrorCode.INVALID_MESSAGE,
                f"request id {request_id} is taken by an earlier request of {player}'s of another kind (answered "
                f"{kind}): give this request an id of its own",
                field="request_id",
            )
        return reply

    @staticmethod
    def record(player: str, request_id: str | None, step: int, reply: BaseModel | str) -> RequestRecord | None:
        """What to keep with a change made by `player`'s request that has an id: the reply it gets, with a null ref
        (as a model, or its frame made already with a null ref)."""
        if request_id is None:
            return None
        text = reply if isinstance(reply, str) else reply.model_copy(update={"ref": None}).model_dump_json()
        return RequestRecord(player, request_id, step, text)

    def answered_before(
        self, sub: Subscriber, player: str, request_id: str | None, answered_by: type[BaseModel], ref: str | None
    ) -> bool:
        """Answer a request of `player`'s this game carried out already (its reply was lost) as it was answered then."""
        reply = self.reply_of(player, request_id, answered_by)
        if reply is None:
            return False
        sub.send(SERVER_ADAPTER.validate_json(reply).model_copy(update={"ref": ref}), with_ref(reply, ref))
        return True

    def remember(self, request: RequestRecord, step: int) -> None:
        """Keep a carried-out request's reply, now that the game is at `step`; those of steps long past go."""
        if step != self._kept_at:
            self.kept = core.requests_kept(self.kept, step)
            self._kept_at = step
        self.kept[request.key] = (request.step, request.reply)
