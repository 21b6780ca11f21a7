"""The updates of one change, made for every follower at once: what they share is encoded once.

An update tells every follower of a game the new log entries they may see, the game's summary and their view. The
summary is the same for all; the entries are the same for everyone who may see the same ones (private entries
differ); a view is made once per sight (each seat, each followed player, every spectator together).

A view is sent whole the first time a connection follows a game, then as a JSON merge patch of the view that
connection was last sent. Each connection keeps that last view; followers who were sent the same last view (nearly
always all of them) share one patch, worked out once. The summary goes the same way: whole to a new follower, else as
a patch of the summary that follower was sent last, one patch for all who were sent the same one.

The Update object given beside each frame's text is for followers inside the server (its computer players), who
read it rather than the text: it carries the whole summary and the rule set's own view object, never patches.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import orjson

from server.core.entries import Entry, worded
from shared.game.game import Game
from shared.game.ruleset import AnyRuleSet
from shared.protocol.built import built
from shared.protocol.lobby import GameSummary
from shared.protocol.messages import Update
from shared.protocol.patch import diff, seats_keyed

Sight = tuple[str, str | None]
"""Whose eyes a follower sees with: ("seat", name), ("follow", name) or ("spectator", None)."""


def sight_of(seat: str | None, follows: str | None) -> Sight:
    if seat is not None:
        return "seat", seat
    if follows is not None:
        return "follow", follows
    return "spectator", None


@dataclass
class Made:
    """One sight's view at one moment: its JSON values, (once asked) its text, and the rule set's object, made only
    for a follower inside the server (`make_view`: connections read the values)."""

    game: Game[Any, Any]
    make_view: Callable[[], Any]
    data: dict[str, Any]
    text: str | None = None
    _view: Any = field(default=None, init=False, repr=False)

    @property
    def view(self) -> Any:
        if self._view is None:
            self._view = self.make_view()
        return self._view


class KeptViews:
    """The view a match last made for each sight, kept from one change to the next.

    A view shows the board and the players, and of the orders only the viewer's own (R16: nobody else's, and not who
    has committed, which the game's summary says). So a change that leaves those as they were for a sight — a commit
    that does not resolve the turn, another player's order — shows it what it saw: its view is not made again, and
    its patch is null at once.
    """

    def __init__(self) -> None:
        self._made: dict[Sight, Made] = {}

    def get(self, sight: Sight, game: Game[Any, Any]) -> Made | None:
        made = self._made.get(sight)
        if made is None:
            return None
        kept = made.game
        if kept is game:
            return made
        if kept.board is not game.board or kept.step != game.step or kept.players != game.players:
            return None
        kind, who = sight
        if kind == "seat" and who is not None and kept.orders_of(who) is not game.orders_of(who):
            return None
        return made

    def keep(self, sight: Sight, made: Made) -> None:
        self._made[sight] = made


class UpdateFrames:
    """Every follower's Update for one moment of a game, with its frame text."""

    def __init__(
        self,
        game_id: str,
        seq: int,
        entries: Sequence[Entry],
        summary: GameSummary | Callable[[], GameSummary],
        ruleset: AnyRuleSet,
        game: Game[Any, Any] | None,
        finished: bool,
        deadline_in: float | None,
        snapshot: bool = False,
        kept: KeptViews | None = None,
        summary_data: dict[str, Any] | None = None,
    ) -> None:
        """`summary`: the game's summary, or what makes it when a follower inside the server needs the model;
        `summary_data`: its JSON values, when made already (core.summary_values), else dumped from the model."""
        self._game_id, self._seq, self._entries = game_id, seq, list(entries)
        self._summary_made, self._ruleset, self._game, self._finished = summary, ruleset, game, finished
        self._deadline_in, self._snapshot = deadline_in, snapshot
        self._kept = kept if kept is not None else KeptViews()
        self._summary_data = summary_data
        self._summary_kept: dict[str, Any] | None = None
        self._summary_text = ""
        self._game_patches: dict[Any, tuple[dict[str, Any], str]] = {}
        self._head: str | None = None
        self._tail = ""
        self._events: dict[tuple[bool, str | None, tuple[int, ...]], str] = {}
        self._views: dict[Sight, Made] = {}
        self._patches: dict[tuple[Sight, int], tuple[dict[str, Any], str]] = {}
        self._bare: Update | None = None

    def _visible(self, sight: Sight, words: bool) -> tuple[list[Entry], str]:
        kind, who = sight
        shown = [e for e in self._entries if e.visible_to(who, self._finished, following=kind == "follow")]
        reader = who if words and kind == "seat" else None  # a seat's player is told of themselves as "you"
        key = (words, reader, tuple(e.seq for e in shown))
        text = self._events.get(key)
        if text is None:
            if words:
                players = self._game.players if self._game is not None else ()
                texts = [worded(e, self._ruleset, players, reader) for e in shown]
            else:
                texts = [e.text for e in shown]
            text = self._events[key] = "[" + ",".join(texts) + "]"
        return shown, text

    def _view(self, sight: Sight) -> Made | None:
        game = self._game
        if game is None:
            return None
        made = self._views.get(sight)
        if made is None:
            made = self._kept.get(sight, game)
            if made is None:
                made = _made(self._ruleset, game, sight)
                self._kept.keep(sight, made)
            self._views[sight] = made
        return made

    def _patch(self, sight: Sight, base: dict[str, Any], new: dict[str, Any]) -> str:
        return _shared_patch(self._patches, (sight, id(base)), base, new)

    @property
    def _summary(self) -> GameSummary:
        made = self._summary_made
        if not isinstance(made, GameSummary):
            made = self._summary_made = made()
        return made

    @property
    def summary_data(self) -> dict[str, Any]:
        """The summary as JSON values, made once (as `game` sends it whole)."""
        if self._summary_data is None:
            self._summary_data = self._summary.model_dump(mode="json")
        return self._summary_data

    @property
    def summary_kept(self) -> dict[str, Any]:
        """The summary in the form `game_patch` patches (its seats keyed by position), made once: what every
        follower is left holding, the base of their next patch."""
        if self._summary_kept is None:
            self._summary_kept = seats_keyed(self.summary_data)
        return self._summary_kept

    def _game_patch(self, base: dict[str, Any]) -> str:
        return _shared_patch(self._game_patches, id(base), base, self.summary_kept)

    def for_follower(
        self,
        seat: str | None,
        follows: str | None,
        base: dict[str, Any] | None,
        summary_base: dict[str, Any] | None = None,
        reads_text: bool = False,
        words: bool = False,
    ) -> tuple[Update, str, dict[str, Any] | None]:
        """The update for one follower (seat None: a spectator, who may follow a player's sight), its frame text,
        and the view it leaves that follower with (the base of their next patch). `summary_base` is the summary
        the follower was sent last, as `summary_kept` gave it (None: send it whole); they are left holding
        `summary_kept`. A follower that `reads_text` only (a network connection) gets a bare Update, the same for
        all of them, beside its text: the object is made for the server's own players. A follower that asked for
        `words` gets each entry with its words."""
        sight = sight_of(seat, follows)
        shown, events_text = self._visible(sight, words)
        made = self._view(sight)
        if made is None:
            view_text, patch_text, new_base = "null", "null", None
        else:
            new_base = made.data
            if base is None:
                if made.text is None:
                    made.text = _json(made.data)
                view_text, patch_text = made.text, "null"
            else:
                view_text, patch_text = "null", self._patch(sight, base, made.data)
        if summary_base is None or self._snapshot:
            if not self._summary_text:
                self._summary_text = _json(self.summary_data)
            game_text, game_patch_text = self._summary_text, "null"
        else:
            game_text, game_patch_text = "null", self._game_patch(summary_base)
        if self._head is None:
            self._head = (
                '{"ref":null,"type":"update","game_id":'
                + json.dumps(self._game_id)
                + ',"seq":'
                + str(self._seq)
                + ',"events":'
            )
            self._tail = (
                ',"deadline_in":'
                + json.dumps(self._deadline_in)
                + ',"snapshot":'
                + ("true" if self._snapshot else "false")
                + "}"
            )
        text = (
            self._head
            + events_text
            + ',"game":'
            + game_text
            + ',"game_patch":'
            + game_patch_text
            + ',"view":'
            + view_text
            + ',"view_patch":'
            + patch_text
            + ',"you":'
            + ("null" if seat is None else _json(seat))
            + self._tail
        )
        if reads_text:
            if self._bare is None:
                self._bare = built(
                    Update,
                    game_id=self._game_id,
                    seq=self._seq,
                    events=[],
                    game=None,
                    view=None,
                    view_patch=None,
                    you=None,
                    ref=None,
                )
            return self._bare, text, new_base
        update = built(
            Update,
            game_id=self._game_id,
            seq=self._seq,
            events=shown,
            game=self._summary,
            view=None if made is None else made.view,
            view_patch=None,
            you=seat,
            deadline_in=self._deadline_in,
            snapshot=self._snapshot,
            ref=None,
        )
        return update, text, new_base


def _made(ruleset: AnyRuleSet, game: Game[Any, Any], sight: Sight) -> Made:
    """A sight's view of `game`: its values made now, the rule set's object once a follower inside the server asks."""
    kind, who = sight
    if kind == "follow" and who is not None:
        view = ruleset.follow_view(game, who)
        return Made(game, lambda: view, ruleset.dump_view(view))
    return Made(game, lambda: ruleset.view(game, who), ruleset.view_values(game, who))


def _shared_patch(
    made: dict[Any, tuple[dict[str, Any], str]], key: Any, base: dict[str, Any], new: dict[str, Any]
) -> str:
    """The merge patch from `base` to `new` as text, worked out once for every follower who was sent the same base
    (the same object): "null" when nothing changed, at once when the base is `new` itself. The base is held beside
    its patch, so that its id cannot be another's while these frames live."""
    if base is new:
        return "null"
    found = made.get(key)
    if found is None:
        patch = diff(base, new)
        found = made[key] = (base, "null" if not patch else _json(patch))
    return found[1]


def _json(value: Any) -> str:
    """JSON values (views, patches, names) as compact text. orjson writes the same JSON as json.dumps with compact
    separators and without ASCII escapes, over ten times as fast (a bigeurope view: 9 µs against 129 µs)."""
    return orjson.dumps(value).decode()
