"""Log entries as the server holds them: numbered, encoded once, and private to some players where the rules say.

An entry is encoded to its frame text once, when it is made: every update, every catch-up and the store use that
text. A private entry (a card drawn, a combat in the fog) carries its audience; it is sent only to them (and to those
who follow one of them, unless it is their own affairs) until the game is over, and stored with its audience so a
restarted server knows.

An entry has two numbers. Its place in the log (`seq`: 1, 2, 3, ... one per entry) is the store's, and never leaves
the server. What its followers are told (`number`, sent as the entry's `seq`) is the number of the change that
logged it: every change to a game (a join, a commit, a resolved turn, ...) takes the next number, and all the entries
it logs share it. A change is public (everyone following the game is sent an update for it), so a follower's
numbers rise by one per update they are sent, however many entries of it they may not see: counted by entry, the gaps
between the entries a player was sent told how many moves were made out of their sight.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel

from shared.game.log_words import framework_text
from shared.game.ruleset import AnyRuleSet, Private
from shared.game.told import told_to
from shared.protocol.log import FRAMEWORK_ENTRY, FRAMEWORK_KINDS

WATCHERS = "*watchers"
"""In an audience: everyone who watches the game without playing it (spectators, and those who follow a player's
sight). No player name can be it: names start with a letter or a digit."""


@dataclass(frozen=True)
class Logged:
    """A log entry before it is numbered: the event, and who may know of it (None: everyone)."""

    event: Any
    audience: frozenset[str] | None = None
    own: bool = False
    """The audience's own affairs: not told to those who follow their sight."""
    lasting: bool = False
    """Private for good, even once the game is over (a word said to one player)."""


@dataclass(frozen=True)
class Entry:
    seq: int
    """Its place in the log: the store's key, never sent."""
    kind: str
    event: Any
    """The event as made (a framework model or a rule set's event), or its JSON values when read back."""
    audience: frozenset[str] | None
    text: str
    """{"seq": N, "event": {...}}: what a client is sent, N being `number`."""
    own: bool = False
    lasting: bool = False
    number: int = 0
    """The number of the change that logged it: what its followers are told as its `seq`."""

    @property
    def stored(self) -> str:
        """What the store keeps: its place, its change's number, the event, and the audience when there is one."""
        event = self.text[self.text.index(',"event":') + 1 : -1]
        tail = (
            ""
            if self.audience is None
            else (
                ',"audience":'
                + json.dumps(sorted(self.audience))
                + (',"own":true' if self.own else "")
                + (',"lasting":true' if self.lasting else "")
            )
        )
        return '{"seq":' + str(self.seq) + ',"change":' + str(self.number) + "," + event + tail + "}"

    def visible_to(self, sight: str | None, finished: bool, following: bool = False) -> bool:
        """Whether a viewer who sees as `sight` (a seat, or with `following` a followed player's sight, or None)
        may be told of this entry."""
        if self.audience is None or (finished and not self.lasting):
            return True
        if WATCHERS in self.audience and (sight is None or following):
            return True
        return sight is not None and sight in self.audience and not (following and (self.own or self.lasting))


def worded(entry: Entry, ruleset: AnyRuleSet, players: Sequence[str], reader: str | None = None) -> str:
    """The entry's text with its words (`text`) for a client that does not know the rule set: an event of the rule
    set as its presentation says it, a framework entry as every client says it (shared/game/log_words.py), an
    orders_revealed entry's orders as each reads; told to `reader` (a player's seat) as they read it, "you" where it
    speaks of them (shared/game/told.py). Made once per entry and reader; a reader it does not speak of shares the
    spectator's."""
    made: dict[str | None, str] | None = entry.__dict__.get("_worded")
    if made is None:
        made = {}
        object.__setattr__(entry, "_worded", made)
    found = made.get(reader)
    if found is None:
        if None not in made:
            words = _words(entry, ruleset, players)
            made[None] = entry.text if words is None else _with_words(entry, words)
            object.__setattr__(entry, "_words", words)
        words = entry.__dict__["_words"]
        told = told_to(words, reader) if words is not None and reader is not None else words
        found = made[None] if told == words else _with_words(entry, told or "")
        made[reader] = found
    return found


def _with_words(entry: Entry, words: str) -> str:
    return entry.text[:-1] + ',"text":' + json.dumps(words, ensure_ascii=False) + "}"


def _words(entry: Entry, ruleset: AnyRuleSet, players: Sequence[str]) -> str | None:
    event = entry.event
    presentation = ruleset.presentation
    if entry.kind == "orders_revealed":
        data = event if isinstance(event, dict) else event.model_dump(mode="json")
        return f"Orders of turn {data['turn']}: " + " | ".join(
            f"{player}: " + ("; ".join(presentation.words(ruleset.load_order(o)) for o in batch) or "nothing")
            for player, batch in data["orders"].items()
        )
    if entry.kind in ("chat", "standings"):  # said in their own fields; not told in words
        return None
    if entry.kind in FRAMEWORK_KINDS:
        model = FRAMEWORK_ENTRY.validate_python(event) if isinstance(event, dict) else event
        return framework_text(model, presentation, players)
    return presentation.event_text(ruleset.load_event(event) if isinstance(event, dict) else event, players)


def logged(told: Any) -> Logged:
    """A rule set's event, public or Private, as a log entry to be."""
    if isinstance(told, Private):
        return Logged(told.event, frozenset(told.audience), told.own)
    return Logged(told)


def number(bodies: Sequence[Logged], after: int, ruleset: AnyRuleSet, *, change: int) -> list[Entry]:
    """The entries of one change, placed in the log from after + 1 and all told as number `change`, each encoded
    once."""
    made = []
    told = '{"seq":' + str(change) + ',"event":'
    for seq, body in enumerate(bodies, start=after + 1):
        event = body.event
        encoded = event.model_dump_json() if isinstance(event, BaseModel) else ruleset.dump_event_json(event)
        entry = object.__new__(Entry)  # as Entry(...) makes it, without a frozen dataclass's setattr for each field
        entry.__dict__.update(
            seq=seq,
            kind=str(getattr(event, "kind", "")),
            event=event,
            audience=body.audience,
            text=told + encoded + "}",
            own=body.own,
            lasting=body.lasting,
            number=change,
        )
        made.append(entry)
    return made


def from_stored(data: dict[str, Any]) -> Entry:
    """An entry read back from the store (its JSON values). One stored before changes were numbered was told as its
    place in the log, a change of its own: so it still is, and its followers' numbers stay as they were."""
    seq, event = int(data["seq"]), data["event"]
    change = int(data.get("change", seq))
    audience = data.get("audience")
    return Entry(
        seq,
        str(event.get("kind", "")),
        event,
        None if audience is None else frozenset(audience),
        json.dumps({"seq": change, "event": event}, separators=(",", ":"), ensure_ascii=False),
        bool(data.get("own", False)),
        bool(data.get("lasting", False)),
        change,
    )
