"""Chat: the lobby's, and the pacing every connection's words keep to.

A game's chat is the game's own (its log keeps it, so a player who comes back is shown it: server/core/seating.py
decides who hears a word); the lobby's is told at once to every connection that follows no game, and kept nowhere
(on a server of several nodes, every node's lobby hears it: server/cluster/node.py). Words are limited in length and
in what they show by the message's schema, and in rate here, on top of the limits every message keeps to: a
connection's words whatever they are said to, and the lobby's by address and as a whole (each of its lines is sent
to everyone in it). A flood of words is refused (`rate-limited`) and never reaches anyone.
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from typing import Any

from server.frontier.guesses import address_of
from server.pace import Paces
from server.refusal import Refusal
from shared.protocol.codes import ErrorCode
from shared.protocol.messages import LobbyChat
from shared.protocol.pacing import TokenBucket

WORDS_BURST = 5
WORDS_PER_SECOND = 0.5
"""A connection may say 5 things at once, then one every 2 seconds: a conversation, never a flood."""

LOBBY_WORDS_BURST = 5
LOBBY_WORDS_PER_SECOND = 0.5
"""The same in the lobby for all the connections of one address together (IPv6: its /64): 100 connections of one
address put 500 lines before every lobby reader at once."""

LOBBY_BURST = 20
LOBBY_PER_SECOND = 2.0
"""The lobby as a whole takes 20 lines at once, then 2 a second, whoever says them: each line goes to every
connection in the lobby, so this bounds what the lobby's chat sends (2 frames a second to each reader). 1,200 lines
from 60 addresses became 289,200 frames, and a bystander's request waited 2.1 s behind them."""


class ChatPace:
    """How fast each connection may speak, whatever it speaks to; and in the lobby, each address and everyone."""

    def __init__(self, clock: Callable[[], float]) -> None:
        self._connections = Paces(clock, WORDS_BURST, WORDS_PER_SECOND)
        self._addresses = Paces(clock, LOBBY_WORDS_BURST, LOBBY_WORDS_PER_SECOND)
        self._lobby = TokenBucket(LOBBY_BURST, LOBBY_PER_SECOND, clock)

    def take(self, sub: Any) -> None:
        """A word from `sub`, to a game or the lobby. Refusal when it talks too fast."""
        wait = self._connections.take(id(sub))
        if wait is not None:
            raise Refusal(ErrorCode.RATE_LIMITED, f"you are talking too fast: wait {wait:.0f} s")

    def take_lobby(self, sub: Any) -> None:
        """A word to the lobby from `sub` (its own pace taken already): its address's pace, then the lobby's."""
        busy = self._lobby.wait_time()
        if busy > 0:
            raise Refusal(ErrorCode.RATE_LIMITED, f"the lobby's chat is busy: wait {max(busy, 1):.0f} s")
        wait = self._addresses.take(address_of(str(getattr(sub, "address", "?"))))
        if wait is not None:
            raise Refusal(ErrorCode.RATE_LIMITED, f"your computer is talking too fast in the lobby: wait {wait:.0f} s")
        self._lobby.take()

    def forget(self, sub: Any) -> None:
        self._connections.forget(id(sub))


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
