"""Who follows a game, and how an update reaches them: the seat each connection holds (None for a spectator), the
player a spectator sees with the eyes of, and what each was sent last.

Apart from the match's decisions because it is the one place that sends: everything told about a game passes
through here, each sight's view made once and what followers share encoded once (server/match/updates.py).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

from pydantic import BaseModel

from server.match.updates import KeptViews, UpdateFrames
from server.storage.codec import map_to_dict
from shared.maps.model import GameMap
from shared.protocol.lobby import MapPicture
from shared.protocol.messages import GameMap as GameMapMessage

ALL_GAMES = "*"
"""A connection that never said what it looks at (an older client, a bot) looks at every game it follows."""


class Subscriber(Protocol):
    """A connection as a match sees it: somewhere to send messages, the games it follows, and the view of each that
    it was last sent (what the next update's patch is taken against)."""

    games: set[str]
    views: dict[str, dict[str, Any]]
    reads_text: bool
    """Whether it reads only the frames' text (a network connection): it is then given no message objects of its
    own beside the text (the server's own players read the objects)."""
    words: bool
    """Whether it asked for the words of each log entry (hello's `words`: the web page)."""

    @property
    def label(self) -> str: ...

    def send(self, message: BaseModel, text: str | None = None) -> None:
        """Queue a message; `text`, when given, is its frame text made already. Never blocks, never raises."""
        ...


@dataclass(frozen=True)
class Followed:
    """How a connection followed a game: its seat (None: a spectator), whose eyes it saw with, and the number of the
    last change it was sent. What it needs to follow the game again on another match of it (taken back, or on
    another node) without asking."""

    seat: str | None
    sight: str | None
    seq: int


class Followers:
    """The connections that follow one game, each with the seat it holds (None: a spectator)."""

    def __init__(self, game_id: str, public_map: Callable[[], GameMap]) -> None:
        self.game_id = game_id
        self._public_map = public_map
        self.seats: dict[Subscriber, str | None] = {}
        self.sights: dict[Subscriber, str] = {}
        """Spectators who see with one player's sight (where the rule set allows it)."""
        self.late: set[Subscriber] = set()
        """Spectators who began to follow the game once it was over: they read its log, but say nothing in it."""
        self.kept_views = KeptViews()
        self._sent_summaries: dict[Subscriber, dict[str, Any]] = {}
        """The summary each follower was sent last, in the form a `game_patch` patches: what its next one is taken
        against. Kept here rather than on the connection, beside whom the match follows; followers sent the same
        summary hold the same object, so they share one patch."""
        self._map_text: str | None = None
        self.picture: MapPicture | None = None
        """The picture the game's map is drawn over, as the lobby's catalogue offers it (None: none)."""

    def held(self) -> set[str]:
        """The seats a live connection holds."""
        return {seat for seat in self.seats.values() if seat is not None}

    def looking(self) -> set[str]:
        """The seats whose player is looking at the game now: a live connection holds them and has not said it looks
        elsewhere (`looking`: a page hidden, another game on a text client's screen). Nobody is told away from a
        game of what they are looking at."""
        found = set()
        for sub, seat in self.seats.items():
            if seat is None:
                continue
            looks = getattr(sub, "looking", ALL_GAMES)
            if looks == ALL_GAMES or looks == self.game_id:
                found.add(seat)
        return found

    def anyone_seated(self) -> bool:
        return any(seat is not None for seat in self.seats.values())

    def spectators(self) -> int:
        return sum(1 for seat in self.seats.values() if seat is None)

    def seat(self, sub: Subscriber, seat: str | None, sight: str | None = None, late: bool = False) -> None:
        """`sub` follows the game from `seat`, or as a spectator seeing with `sight`'s eyes (or nobody's); `late`:
        a spectator who began to follow it once it was over."""
        self.seats[sub] = seat
        if late and seat is None:
            self.late.add(sub)
        else:
            self.late.discard(sub)
        if sight is None:
            self.sights.pop(sub, None)
        else:
            self.sights[sub] = sight

    def deliver(self, frames: UpdateFrames, sub: Subscriber) -> None:
        """Send one follower its update of `frames`, patched against what it was sent last."""
        game_id = self.game_id
        update, text, new_base = frames.for_follower(
            self.seats.get(sub),
            self.sights.get(sub),
            sub.views.get(game_id),
            self._sent_summaries.get(sub),
            sub.reads_text,
            sub.words,
        )
        if new_base is not None:
            sub.views[game_id] = new_base
        self._sent_summaries[sub] = frames.summary_kept
        sub.send(update, text)

    def broadcast(self, frames: Callable[[], UpdateFrames], skip: Subscriber | None = None) -> None:
        """Tell every follower (but `skip`) what `frames` makes: shared parts encoded once, each sight's view once;
        nothing is made when nobody is told."""
        targets = [sub for sub in self.seats if sub is not skip]
        if not targets:
            return
        made = frames()
        for sub in targets:
            self.deliver(made, sub)

    def start(self, sub: Subscriber, frames: UpdateFrames) -> None:
        """Start sending a connection this game (its seat set already): the map, then `frames` with the view
        whole."""
        sub.games.add(self.game_id)
        sub.views.pop(self.game_id, None)
        self._sent_summaries.pop(sub, None)
        self._send_map(sub)
        self.deliver(frames, sub)

    def stop(self, sub: Subscriber) -> None:
        """`sub` follows the game no more."""
        self.seats.pop(sub, None)
        self.sights.pop(sub, None)
        self.late.discard(sub)
        sub.games.discard(self.game_id)
        sub.views.pop(self.game_id, None)
        self._sent_summaries.pop(sub, None)

    def _send_map(self, sub: Subscriber) -> None:
        if self._map_text is None:
            message = GameMapMessage(game_id=self.game_id, map=map_to_dict(self._public_map()), picture=self.picture)
            self._map_text = message.model_dump_json()
        sub.send(GameMapMessage.model_construct(game_id=self.game_id, map={}, ref=None), self._map_text)
