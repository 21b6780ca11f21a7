"""How a rule set reads in the text client: its order commands (grammar, help, completion) and how its boards,
orders and events are shown. The client knows no game's orders; it asks the presentation of the game on screen.

Text is styled as (style, text) pairs — prompt_toolkit's own shape, built here without it — with style classes the
client defines: `class:player.N` (a seat's colour), `class:neutral`, `class:title`, `class:muted`, `class:error`,
`class:ok`, `class:hint`, `class:turn`, `class:win`.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from shared.game.grammar import ParseError
from shared.maps.model import GameMap

Fragment = tuple[str, str]
Fragments = list[Fragment]

PLAYER_STYLES = 8
"""Seat colours the client defines (class:player.0 to class:player.7)."""

MARKS = "ABCDEFGH"
"""A second cue beside each seat's colour, for colour-blind players and terminals without colour."""


def plural(n: int, word: str, many: str | None = None) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {many or word + 's'}"


def units(n: int) -> str:
    return plural(n, "unit")


def line(*parts: Fragment) -> Fragments:
    return [*parts, ("", "\n")]


@dataclass(frozen=True)
class Palette:
    """Who gets which colour and mark: seat order, the same on every screen."""

    players: tuple[str, ...]

    def style(self, owner: str | None) -> str:
        if owner is None or owner not in self.players:
            return "class:neutral"
        return f"class:player.{self.players.index(owner) % PLAYER_STYLES}"

    def mark(self, owner: str | None) -> str:
        if owner is None or owner not in self.players:
            return "-"
        return MARKS[self.players.index(owner) % len(MARKS)]

    def name(self, owner: str | None, you: str | None = None) -> Fragments:
        if owner is None:
            return [(self.style(None), "neutral")]
        shown = f"{owner} (you)" if owner == you else owner
        return [(self.style(owner), shown)]


class ArgKind(StrEnum):
    """What an argument names: the completer offers candidates by kind."""

    UNITS = "units"
    NUMBER = "number"
    OWN = "own territory"
    TARGET = "target territory"
    ENEMY = "enemy territory"
    TERRITORY = "territory"
    PLAYER = "player"
    CHOICE = "choice"
    """One of the command's own words (`options`)."""


@dataclass(frozen=True)
class OrderCommand:
    """One command a player types to give an order in this rule set."""

    name: str
    aliases: tuple[str, ...]
    usage: str
    example: str
    summary: str
    args: tuple[ArgKind, ...] = ()
    phases: tuple[str, ...] = ()
    """The phases it is for (completion offers it only then); empty: any phase."""
    options: tuple[str, ...] = ()
    """The words an ArgKind.CHOICE argument takes (e.g. -allout, -none)."""
    repeat: bool = False
    """The last argument may be given several times (`place 30 Narnia Oz Gondor`): completion offers it again."""


@dataclass(frozen=True)
class ShowCommand:
    """A command that only shows part of what the player sees (Warzone's `cards`) and issues nothing. A client
    offers it beside the order commands, in any phase, and prints what `Presentation.show` returns."""

    name: str
    aliases: tuple[str, ...]
    usage: str
    summary: str


@dataclass(frozen=True)
class Context:
    """What parsing and completion know of the game on screen."""

    game_map: GameMap | None = None
    view: Any = None
    you: str | None = None
    orders: Sequence[Any] = field(default_factory=tuple)
    """The player's orders issued this turn, as the client last heard them."""

    @property
    def territories(self) -> tuple[str, ...]:
        return () if self.game_map is None else self.game_map.names


class Presentation(ABC):
    commands: tuple[OrderCommand, ...] = ()
    option_words: dict[str, str] = {}  # noqa: RUF012 (read only)
    """Short words a player may type for the rule set's options when creating a game (units= for initial_units=)."""
    shows: tuple[ShowCommand, ...] = ()
    """Show-only commands of this rule set (none by default)."""

    @abstractmethod
    def parse(self, command: OrderCommand, args: list[str], context: Context) -> list[Any] | ParseError:
        """The orders a typed command stands for (usually one; a quick command may give several)."""

    @abstractmethod
    def describe(self, order: Any) -> str:
        """One order in a few words: "move 5 from Narnia to Oz"."""

    @abstractmethod
    def events(self, events: Sequence[Any], palette: Palette, you: str | None) -> Fragments:
        """A run of this rule set's events as lines, grouping what comes many at a time."""

    @abstractmethod
    def board(self, view: Any, game_map: GameMap, palette: Palette, you: str | None,
              orders: Sequence[Any] = (), focus: str | None = None) -> Fragments:
        """The board. `focus`: a territory or a player to show alone (`board NAME`)."""

    @abstractmethod
    def summary(self, view: Any, game_map: GameMap, palette: Palette, you: str | None) -> Fragments:
        """The standing at a glance: per player, what they hold."""

    def show(self, command: ShowCommand, view: Any, game_map: GameMap, palette: Palette,
             you: str | None) -> Fragments:
        """What one of `shows` prints for `you` (a seat, or None for a spectator)."""
        return []

    def stage_key(self, view: Any) -> Any:
        """The board is shown again when this changes (a new turn, a new phase)."""
        return None

    def hint(self, view: Any, game_map: GameMap, you: str | None, awaited: bool) -> Fragments:
        """What the player can do now, shown when a new stage begins and they are awaited."""
        return []

    def status(self, view: Any, you: str | None, orders: Sequence[Any]) -> str:
        """The rule set's part of the status bar ("12 units to place")."""
        return ""

    def standings(self, view: Any) -> dict[str, tuple[int, int]]:
        """Each player's (territories, units) as the view shows them: the history table's cells."""
        return {}

    def candidates(self, kind: ArgKind, words: Sequence[str], context: Context) -> Sequence[str]:
        """Names to complete an argument of `kind` with; `words` are the command's words so far."""
        if kind in (ArgKind.OWN, ArgKind.TARGET, ArgKind.ENEMY, ArgKind.TERRITORY):
            return context.territories
        return ()

    def focus_names(self, view: Any, game_map: GameMap) -> Sequence[str]:
        """What `board NAME` accepts: territories and players by default."""
        return game_map.names

    def unknown_order(self, order: Any) -> str:
        return str(order)


def no_parse(command: OrderCommand) -> ParseError:
    return ParseError(f"usage: {command.usage}, e.g. {command.example}")
