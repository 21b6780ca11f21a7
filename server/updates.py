"""The updates of one change, made for every follower at once: what they share is encoded once.

An update tells every follower of a game the new log entries they may see, the game's summary and their view. The
summary is the same for all; the entries are the same for everyone who may see the same ones (private entries
differ); a view is made once per sight (each seat, each followed player, every spectator together).

A view is sent whole the first time a connection follows a game, then as a JSON merge patch of the view that
connection was last sent. Each connection keeps that last view; followers who were sent the same last view (nearly
always all of them) share one patch, worked out once.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from server.entries import Entry
from shared.game.game import Game
from shared.game.ruleset import AnyRuleSet
from shared.protocol.lobby import GameSummary
from shared.protocol.messages import Update
from shared.protocol.patch import diff

Sight = tuple[str, str | None]
"""Whose eyes a follower sees with: ("seat", name), ("follow", name) or ("spectator", None)."""


def sight_of(seat: str | None, follows: str | None) -> Sight:
    if seat is not None:
        return "seat", seat
    if follows is not None:
        return "follow", follows
    return "spectator", None


class UpdateFrames:
    """Every follower's Update for one moment of a game, with its frame text."""

    def __init__(self, game_id: str, seq: int, entries: Sequence[Entry], summary: GameSummary,
                 ruleset: AnyRuleSet, game: Game[Any, Any] | None, finished: bool, deadline_in: float | None,
                 snapshot: bool = False) -> None:
        self._game_id, self._seq, self._entries = game_id, seq, list(entries)
        self._summary, self._ruleset, self._game, self._finished = summary, ruleset, game, finished
        self._deadline_in, self._snapshot = deadline_in, snapshot
        self._summary_text: str | None = None
        self._events: dict[tuple[int, ...], str] = {}
        self._views: dict[Sight, tuple[Any, dict[str, Any], str]] = {}
        self._patches: dict[tuple[Sight, int], str] = {}

    def _visible(self, sight: Sight) -> tuple[list[Entry], str]:
        kind, who = sight
        shown = [e for e in self._entries if e.visible_to(who, self._finished, following=kind == "follow")]
        key = tuple(e.seq for e in shown)
        text = self._events.get(key)
        if text is None:
            text = self._events[key] = "[" + ",".join(e.text for e in shown) + "]"
        return shown, text

    def _view(self, sight: Sight) -> tuple[Any, dict[str, Any], str] | None:
        if self._game is None:
            return None
        made = self._views.get(sight)
        if made is None:
            kind, who = sight
            if kind == "follow" and who is not None:
                view = self._ruleset.follow_view(self._game, who)
            else:
                view = self._ruleset.view(self._game, who)
            data = self._ruleset.dump_view(view)
            made = self._views[sight] = view, data, json.dumps(data, separators=(",", ":"), ensure_ascii=False)
        return made

    def _patch(self, sight: Sight, base: dict[str, Any], new: dict[str, Any]) -> str:
        key = (sight, id(base))
        text = self._patches.get(key)
        if text is None:
            patch = diff(base, new)
            text = self._patches[key] = "null" if not patch else json.dumps(patch, separators=(",", ":"),
                                                                            ensure_ascii=False)
        return text

    def for_follower(self, seat: str | None, follows: str | None,
                     base: dict[str, Any] | None) -> tuple[Update, str, dict[str, Any] | None]:
        """The update for one follower (seat None: a spectator, who may follow a player's sight), its frame text,
        and the view it leaves that follower with (the base of their next patch)."""
        sight = sight_of(seat, follows)
        shown, events_text = self._visible(sight)
        made = self._view(sight)
        if made is None:
            view_obj, view_text, patch_text, new_base = None, "null", "null", None
        else:
            view_obj, data, full = made
            new_base = data
            if base is None:
                view_text, patch_text = full, "null"
            else:
                view_text, patch_text = "null", self._patch(sight, base, data)
        if self._summary_text is None:
            self._summary_text = self._summary.model_dump_json()
        text = ('{"ref":null,"type":"update","game_id":' + json.dumps(self._game_id)
                + ',"seq":' + str(self._seq) + ',"events":' + events_text + ',"game":' + self._summary_text
                + ',"view":' + view_text + ',"view_patch":' + patch_text
                + ',"you":' + json.dumps(seat, ensure_ascii=False)
                + ',"deadline_in":' + json.dumps(self._deadline_in)
                + ',"snapshot":' + ("true" if self._snapshot else "false") + "}")
        update = Update.model_construct(game_id=self._game_id, seq=self._seq, events=shown, game=self._summary,
                                        view=view_obj, view_patch=None, you=seat, deadline_in=self._deadline_in,
                                        snapshot=self._snapshot, ref=None)
        return update, text, new_base
