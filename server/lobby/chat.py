"""Chat: the lobby's, and the pacing every connection's words keep to.

A game's chat is the game's own (its log keeps it, so a player who comes back is shown it: server/core/seating.py
decides who hears a word); the lobby's is told at once to every connection that follows no game, and kept nowhere
(on a server of several nodes, every node's lobby hears it: server/cluster/node.py). Words are limited in length by
the message's schema and in rate here, on top of the limits every message keeps to: a flood of words is refused
(`rate-limited`) and never reaches anyone.
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from typing import Any

from server.refusal import Refusal
from shared.protocol.codes import ErrorCode
from shared.protocol.messages import LobbyChat
from shared.protocol.pacing import TokenBucket

WORDS_BURST = 5
WORDS_PER_SECOND = 0.5
"""A connection may say 5 things at once, then one every 2 seconds: a conversation, never a flood."""


class ChatPace:
    """How fast each connection may speak, whatever it speaks to."""

    def __init__(self, clock: Callable[[], float], burst: float = WORDS_BURST, rate: float = WORDS_PER_SECOND) -> None:
        self._clock = clock
        self._burst, self._rate = burst, rate
        self._buckets: dict[int, TokenBucket] = {}

    def take(self, sub: Any) -> None:
        bucket = self._buckets.get(id(sub))
        if bucket is None:
            bucket = self._buckets[id(sub)] = TokenBucket(self._burst, self._rate, self._clock)
        if not bucket.take():
            raise Refusal(ErrorCode.RATE_LIMITED, f"you are talking too fast: wait {bucket.wait_time():.0f} s")

    def forget(self, sub: Any) -> None:
        self._buckets.pop(id(sub), None)


class LobbyRoom:
    """Who hears the lobby's chat: the connections that have looked at the lobby (listed its games or spoken there),
    while they follow no game, and those that watch it (`list_games` with `watch`) whatever they follow: a player
    whose games go on off screen is in the lobby while it is on their screen."""

    def __init__(self) -> None:
        self._present: set[Any] = set()

    def enter(self, sub: Any) -> None:
        self._present.add(sub)

    def leave(self, sub: Any) -> None:
        self._present.discard(sub)

    def say(self, speaker: Any, name: str, text: str, watching: Collection[Any] = ()) -> None:
        """Tell a word to the lobby; `watching`: the connections that watch it."""
        self.enter(speaker)
        self._tell(speaker, name, text, watching)

    def tell(self, name: str, text: str, watching: Collection[Any] = ()) -> None:
        """Tell a word said in another node's lobby of the same server to this one's."""
        self._tell(None, name, text, watching)

    def _tell(self, speaker: Any, name: str, text: str, watching: Collection[Any]) -> None:
        said = LobbyChat(player=name, text=text)
        frame = said.model_dump_json()
        for sub in list(self._present):
            if sub is speaker or not sub.games or sub in watching:
                sub.send(said, frame)
