"""How a rule set reads in the text client: its order commands (grammar, help, completion) and how its boards,
orders and events are shown. The client knows no game's orders; it asks the presentation of the game on screen.

Text is styled as (style, text) pairs — prompt_toolkit's own shape, built here without it — with style classes the
client defines: `class:player.N` (a seat's colour), `class:neutral`, `class:title`, `class:muted`, `class:error`,
`class:ok`, `class:hint`, `class:turn`, `class:win`.
"""

from __future__ import annotations

import dataclasses
import functools
import re
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, NamedTuple

from shared.game import tagged
from shared.game.grammar import ParseError
from shared.game.names import typable_names
from shared.game.told import told_to
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


def draw_line(reason: str) -> Fragments:
    """A game over without a winner (shared/game/events.py's GameDrawn), as every rule set tells it."""
    return line(("class:win", f"The game is a draw: {reason}."))


def joined(parts: Sequence[Fragments], sep: str = ", ") -> Fragments:
    """Pieces of styled text one after the other, `sep` between them."""
    out: Fragments = []
    for number, part in enumerate(parts):
        if number:
            out.append(("", sep))
        out += part
    return out


def runs(events: Sequence[Any], together: Callable[[Any, Any], bool]) -> list[list[Any]]:
    """Events in order, consecutive ones grouped while `together(the run's first, the next)` holds: so that, say, a
    player's placements read as one line."""
    grouped: list[list[Any]] = []
    for event in events:
        if grouped and together(grouped[-1][0], event):
            grouped[-1].append(event)
        else:
            grouped.append([event])
    return grouped


Holding = tuple[str | None, int]
"""Who holds a territory (None: nobody, neutral) and with how many units."""


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

    def legend(self, you: str | None = None) -> Fragments:
        """Which mark stands for whom ("A bot-1, B Alice (you)"), for boards that show owners by their mark."""
        out: Fragments = [("class:muted", "Players: ")]
        for number, player in enumerate(self.players):
            if number:
                out.append(("class:muted", ", "))
            out += [(self.style(player), f"{self.mark(player)} "), *self.name(player, you)]
        return [*out, ("", "\n")]

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


class Shown(NamedTuple):
    """What a board is drawn for (`Presentation.board`)."""

    view: Any
    game_map: GameMap
    palette: Palette
    you: str | None
    orders: Sequence[Any] = ()
    focus: str | None = None


class Presentation(ABC):
    commands: tuple[OrderCommand, ...] = ()
    naming = "territory names: any case, a unique prefix is enough, Tab completes"
    """How the game's places are typed, for `help` (the grid game's are cells, ROW,COL)."""
    resignation = ""
    """What becomes of what a player who resigns held, in a few words after their name ("their territories are
    neutral now"), as the rule set decides it; empty: nothing to say. Said of them: `resignation_for` turns it to
    the player who resigned ("your territories")."""
    option_words: dict[str, str] = {}  # noqa: RUF012 (read only)
    """Short words a player may type for the rule set's options when creating a game (units= for initial_units=)."""

    def resignation_for(self, player: str, you: str | None) -> str:
        """`resignation` as `you` read it: of them to the others, of themselves to the player who resigned."""
        if player != you:
            return self.resignation
        return re.sub(r"\btheir(s?)\b", lambda found: "your" + found.group(1), self.resignation)

    shows: tuple[ShowCommand, ...] = ()
    """Show-only commands of this rule set (none by default)."""

    @abstractmethod
    def parse(self, command: OrderCommand, args: list[str], context: Context) -> list[Any] | ParseError:
        """The orders a typed command stands for (usually one; a quick command may give several)."""

    def describe(self, order: Any) -> str:
        """One order in a few words, as a player types it: "move 5 from Narnia to Oz" (the order's own `said`,
        shared/game/tagged.py)."""
        return tagged.said_of(order)

    @abstractmethod
    def events(self, events: Sequence[Any], palette: Palette, you: str | None) -> Fragments:
        """A run of this rule set's events as lines, grouping what comes many at a time."""

    def board(
        self,
        view: Any,
        game_map: GameMap,
        palette: Palette,
        you: str | None,
        orders: Sequence[Any] = (),
        focus: str | None = None,
    ) -> Fragments:
        """The board: `view` on `game_map` for `you` (a seat, or None for a spectator), `orders` the viewer's as they
        stand now, `focus` a territory or a player to show alone (`board NAME`). The rule set draws it (`draw`)."""
        return self.draw(Shown(view, game_map, palette, you, orders, focus))

    @abstractmethod
    def draw(self, asked: Shown) -> Fragments:
        """The board `asked` for (`board`): the six together."""

    @abstractmethod
    def summary(self, view: Any, game_map: GameMap, palette: Palette, you: str | None) -> Fragments:
        """The standing at a glance: per player, what they hold."""

    def game_commands(self, view: Any) -> tuple[OrderCommand, ...]:
        """The order commands of the game on screen (`view`; None before it starts): what help lists, completion
        offers and the client reads. Every one of `commands` by default; a rule set whose variants have orders of
        their own (RISC's evolutions) gives the variant's."""
        return self.commands

    def unavailable(self, command: OrderCommand, view: Any) -> str:
        """Why the game on screen does not offer one of `commands` (it is not in `game_commands(view)`)."""
        return f"{command.name} is not an order of this game; type help to list them"

    def owners(self, view: Any) -> Mapping[str, str | None] | None:
        """Who holds each territory as far as `view` tells (None: nobody, or unknown), for the client's examples
        in help; None when the game's board is not territories held. From `holdings` by default."""
        held = self.holdings(view)
        return None if held is None else {name: owner for name, (owner, _) in held.items()}

    def show(self, command: ShowCommand, view: Any, game_map: GameMap, palette: Palette, you: str | None) -> Fragments:
        """What one of `shows` prints for `you` (a seat, or None for a spectator)."""
        return []

    def stage_key(self, view: Any) -> Any:
        """The board is shown again when this changes (a new turn, a new phase)."""
        return None

    def actor(self, event: Any) -> str | None:
        """Who acted, for one of the rule set's events (None: nobody in particular). In a game played turn by turn,
        a player's turn begins anew when the game comes back to them after others acted, even when the client never
        saw the turn pass (the others played at once). The event's `player` by default."""
        player = getattr(event, "player", None)
        return player if isinstance(player, str) else None

    def hint(self, view: Any, game_map: GameMap, you: str | None, awaited: bool) -> Fragments:
        """What the player can do now, shown when a new stage begins and they are awaited."""
        return []

    def status(self, view: Any, you: str | None, orders: Sequence[Any], game_map: GameMap | None = None) -> str:
        """The rule set's part of the status bar ("12 units to place"), with `orders` (the player's orders as they
        stand now: the view says what was left when it was made, and orders issued since may have changed it) on
        `game_map` (the game's map, for what depends on it)."""
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

    brief_boards = False
    """Whether a map of more than SMALL_MAP territories shows, when the viewer first sees a stage of play, the
    summary and where the player stands rather than the board (which is shown on request): a rule set whose boards
    run to a line a territory."""

    def stage_board(
        self, view: Any, game_map: GameMap, palette: Palette, you: str | None, orders: Sequence[Any] = ()
    ) -> Fragments:
        """What is printed when the viewer first sees a stage of play (the game starts, they come back, a turn-by-turn
        game comes to them): the whole board; with `brief_boards`, on a large map, the summary and where the player
        stands (`board` shows the rest when asked)."""
        if not self.brief_boards or len(game_map.territories) <= SMALL_MAP:
            return self.board(view, game_map, palette, you, orders)
        return [
            *self.summary(view, game_map, palette, you),
            *(self._standing_line(view, game_map, you) or line(("class:muted", ON_REQUEST))),
        ]

    territory_words = ("territory", "territories")
    """What the game calls a territory, and several, where the framework's lines speak of them (classic Risk:
    countries), so that one screen never says both."""

    unit_words = ("unit", "units")
    """What the game calls a unit, and several (classic Risk: armies)."""

    cards = False
    """Whether the game has cards its players play (Warzone, classic Risk): the end's figures count them."""

    def gathers(self, event: Any, you: str | None) -> bool:
        """Whether an event is one of a run told together once the run ends (classic Risk's armies placed one at a
        time by the others at the start, told a player a line), rather than a line as it comes. None by default."""
        return False

    def brief(self, events: Sequence[Any], palette: Palette, you: str | None) -> Fragments:
        """A run of events as they come, in few lines: what concerns `you` first, the rest counted (`events` tells
        them in full, for `report`). The same as `events` by default."""
        return self.events(events, palette, you)

    def standing(self, view: Any, game_map: GameMap, palette: Palette, you: str | None) -> Fragments:
        """What a new turn of a game whose players give their orders together shows instead of the board: where
        the player stands, in a line (the board is shown on request); a spectator, or a player who holds nothing any
        more, reads the summary. The stage board for a game whose board is not territories held."""
        if self.owners(view) is None:
            return self.board(view, game_map, palette, you)
        return self._standing_line(view, game_map, you) or [
            *self.summary(view, game_map, palette, you),
            *line(("class:muted", ON_REQUEST)),
        ]

    def _standing_line(self, view: Any, game_map: GameMap, you: str | None) -> Fragments | None:
        """How many territories and units the player holds and how many face someone else's; None for a spectator,
        a player who holds nothing, or a game whose board is not territories held."""
        owners = self.owners(view)
        mine = [n for n in game_map.names if owners is not None and owners.get(n) == you]
        if owners is None or you is None or not mine:
            return None
        held = self.holdings(view)
        count = sum(held[n][1] for n in mine) if held is not None else self.standings(view).get(you, (0, 0))[1]
        front = front_of(game_map, owners, you)
        return line(
            ("class:title", "You hold "),
            (
                "",
                f"{plural(count, *self.unit_words)} on {plural(len(mine), *self.territory_words)}, "
                f"{len(front)} of them next to others'",
            ),
            ("class:muted", " (board front: those; board: everything; map: the picture)."),
        )

    def holdings(self, view: Any) -> Mapping[str, Holding] | None:
        """Who holds each territory and with how many units, as `view` shows them; None for a game whose board is
        not territories held with units. The map picture (`map`) is drawn from it."""
        return None

    def picture(
        self,
        view: Any,
        game_map: GameMap,
        palette: Palette,
        you: str | None,
        width: int,
        height: int,
        focus: str | None = None,
    ) -> list[Fragments] | None:
        """What `map` shows, as screens of `width` columns by at most `height` lines each: the map drawn from its
        coordinates, whole or by region (`focus`: the continent or territory `map NAME` names; see
        shared/game/pictures.py). None when the map has no coordinates or the game no holdings."""
        from shared.game.pictures import map_pictures  # it draws with the helpers below: imported when first drawn

        held = self.holdings(view)
        return None if held is None else map_pictures(game_map, held, palette, you, width, height, focus)

    def picture_names(self, view: Any, game_map: GameMap) -> Sequence[str]:
        """What `map NAME` may name: the map's continents and its territories (none for a game that draws its own
        picture)."""
        return [*(c.name for c in game_map.continents), *game_map.names]

    def no_picture(self, view: Any, game_map: GameMap) -> str:
        """Why `picture` gives nothing, in a sentence for the player: the game has no picture of its map, or the
        map has no coordinates to draw it from."""
        if self.holdings(view) is None:
            return "This game has no map picture: board shows the board."
        return f"{game_map.name} has no coordinates to draw it from: board lists its territories."

    def spectator_note(self, view: Any) -> str:
        """What a spectator is told when they start watching, where they see less than the players (fog of war):
        why, and who may see more. Empty where a spectator sees all there is to see."""
        return ""

    def unknown_order(self, order: Any) -> str:
        return str(order)

    # ---- words for a client without this presentation (the web page) ----------------------------------------------

    def words(self, order: Any) -> str:
        """An order in a person's words, as a page offers it or says it was done: the order's own `worded`, else as
        the text client writes it (`said`), which reads as a sentence where the commands do ("place 5 on Narnia"). A
        rule set whose commands are a console's (classic Risk's `attack -noattack`) words its orders apart ("end
        the attack phase")."""
        return tagged.words_of(order) if isinstance(order, tagged.Order) else self.describe(order)

    def describe_offer(self, order: Any, count_field: str | None) -> str:
        """A legal order in words (`words`), its count (where the player chooses it) said as N: "move N from Narnia
        to Oz". The order is told with the word N in its count's place; words that reckon with the count (rather
        than saying it) get the order as offered."""
        if count_field is None:
            return self.words(order)
        try:
            return self.words(dataclasses.replace(order, **{count_field: COUNT_WORD}))
        except (TypeError, ValueError):
            return self.words(order)

    def event_text(self, event: Any, players: Sequence[str], reader: str | None = None) -> str:
        """One event in plain words, as a spectator reads it, or as the player `reader` does ("You place ...",
        told.py): what a client that does not know the rule set shows (the web page, a replay). What only a console
        needs is left out: a command to type (a fragment styled `class:command`, "(attackmove NUM)") and a table of
        figures (`class:table`), which a page draws its own way."""
        fragments = self.events([event], Palette(tuple(players)), None)
        text = "".join(text for style, text in fragments if style not in CONSOLE_ONLY).strip()
        return told_to(text, reader)


CONSOLE_ONLY = frozenset({"class:command", "class:table"})
"""The styles of what an event's words hold for a console only: a command to type, a table of figures."""

COUNT_WORD = "N"
"""What stands for a count the player chooses, in the words of a legal order."""


def no_parse(command: OrderCommand) -> ParseError:
    return ParseError(f"usage: {command.usage}, e.g. {command.example}")


# ---- boards that fit a terminal -------------------------------------------------------------------------------------
# Helpers any rule set may use: short names for territories, a territory per line with its neighbours in a compact
# form, grouping by continent, a legend of the players' marks, the map drawn from its coordinates, and wrapping at
# word boundaries (which the text client does to everything it prints).

SMALL_MAP = 20
"""Up to this many territories, a board is short enough to print whole when a game starts."""

FRONT = "front"
"""`board front`: the player's front, their territories next to someone else's."""

ON_REQUEST = "(board: every territory; board NAME: one territory, player or continent; map: the picture)"
"""Where a spectator's summary points to, for the board it no longer prints."""


def front_of(game_map: GameMap, owners: Mapping[str, str | None], you: str | None) -> list[str]:
    """The player's territories next to someone else's (or to one whose holder they do not know), in the map's
    order: where the fighting is."""
    return [
        n for n in game_map.names if owners.get(n) == you and any(owners.get(m) != you for m in game_map.neighbours(n))
    ]


WHOLE = "class:whole"
"""A style class that keeps a fragment on one line when text is wrapped ("Mid 12 A" is never cut at its spaces)."""


def whole(style: str) -> str:
    return f"{style} {WHOLE}".strip()


@functools.lru_cache(maxsize=64)
def short_names(names: tuple[str, ...]) -> dict[str, str]:
    """Each name's shortest label that a player may type for it (typable_names): the boards name neighbours by it
    and the map picture draws it, so that what is shown is what is typed. Kept per map: boards are shown often."""
    return typable_names(names)


def legend(palette: Palette, you: str | None, neutral: bool = True) -> Fragments:
    """Each player's mark, in their colour: the second cue for those who cannot tell the colours apart."""
    out: Fragments = []
    for player in palette.players:
        if out:
            out.append(("", "  "))
        out += [(palette.style(player), f"{palette.mark(player)} "), *palette.name(player, you)]
    if neutral:
        out += [("", "  "), (palette.style(None), f"{palette.mark(None)} neutral")]
    return out


def held_text(holding: Holding, palette: Palette, name: str = "", extra: str = "") -> Fragment:
    """A territory in a few characters, in its holder's colour: "Oz 8 A" (`extra` after the units)."""
    owner, count = holding
    head = f"{name} " if name else ""
    return whole(palette.style(owner)), f"{head}{count}{extra} {palette.mark(owner)}"


def territory_line(
    name: str,
    game_map: GameMap,
    holdings: Mapping[str, Holding],
    palette: Palette,
    short: Mapping[str, str],
    width: int = 0,
    extra: str = "",
    digits: int = 0,
) -> Fragments:
    """One territory on one line: itself, then each neighbour short with its holder and units,
    `Oz 8 A | Mid 12 A, Sca 5 B, Mor 14 C`. `width` and `digits`: the name's and the units' columns, so that they
    line up."""
    owner, count = holdings[name]
    out: Fragments = [
        ("", "  "),
        (palette.style(owner), name.ljust(width)),
        (palette.style(owner), f" {count:>{digits}}{extra} {palette.mark(owner)}"),
        ("", " |"),
    ]
    for number, neighbour in enumerate(game_map.neighbours_in_order(name)):
        out.append(("", ", " if number else " "))
        out.append(held_text(holdings[neighbour], palette, short.get(neighbour, neighbour)))
    out.append(("", "\n"))
    return out


def by_continent(game_map: GameMap, names: Iterable[str]) -> list[tuple[str | None, list[str]]]:
    """`names` grouped by continent in the map's order (territories of no continent last, under None); one group
    of everything when the map has no continents."""
    wanted = set(names)
    if not game_map.continents:
        return [(None, [n for n in game_map.names if n in wanted])]
    groups: dict[str | None, list[str]] = {c.name: [] for c in game_map.continents}
    for territory in game_map.territories:
        if territory.name in wanted:
            groups.setdefault(territory.continent if territory.continent in groups else None, []).append(territory.name)
    return [(name, members) for name, members in groups.items() if members]


def continent_head(
    continent: str | None, members: Sequence[str], holdings: Mapping[str, Holding], palette: Palette
) -> Fragments:
    """A continent's heading: its name and how many of its territories each player holds ("Azio  A 4  B 2")."""
    out: Fragments = [("class:title", continent or "Elsewhere")]
    counts: dict[str | None, int] = {}
    for name in members:
        owner = holdings[name][0]
        counts[owner] = counts.get(owner, 0) + 1
    for owner in [*palette.players, None]:
        if counts.get(owner):
            out += [("", "  "), (palette.style(owner), f"{palette.mark(owner)} {counts[owner]}")]
    out.append(("", "\n"))
    return out


def territory_board(
    game_map: GameMap,
    holdings: Mapping[str, Holding],
    palette: Palette,
    you: str | None,
    names: Sequence[str] | None = None,
    extra: Mapping[str, str] | None = None,
) -> Fragments:
    """The territories `names` (all by default), a line each, grouped by continent under a legend of the marks."""
    shown = list(game_map.names) if names is None else list(names)
    short = short_names(tuple(game_map.names))
    width = min(max((len(n) for n in shown), default=0), 18)
    digits = max((len(str(holdings[n][1])) for n in shown), default=1)
    out: Fragments = [*legend(palette, you, any(h[0] is None for h in holdings.values())), ("", "\n")]
    extra = extra or {}
    for continent, members in by_continent(game_map, shown):
        if game_map.continents:
            out += continent_head(continent, members, holdings, palette)
        for name in members:
            out += territory_line(name, game_map, holdings, palette, short, width, extra.get(name, ""), digits)
    return out


def wrap(text: Iterable[Fragment], width: int) -> Fragments:
    """Styled text with every line longer than `width` broken at spaces; a broken line goes on indented four more
    than it began. A word longer than a whole line is cut."""
    if width < 20:
        return list(text)
    out: Fragments = []
    for fragments, ended in _lines(text):
        out += _wrap_line(fragments, width)
        if ended:
            out.append(("", "\n"))
    return out


def _lines(text: Iterable[Fragment]) -> list[tuple[Fragments, bool]]:
    lines: list[tuple[Fragments, bool]] = []
    current: Fragments = []
    for style, part in text:
        pieces = part.split("\n")
        for number, piece in enumerate(pieces):
            if piece:
                current.append((style, piece))
            if number < len(pieces) - 1:
                lines.append((current, True))
                current = []
    if current:
        lines.append((current, False))
    return lines


def _wrap_line(fragments: Fragments, width: int) -> Fragments:
    plain_text = "".join(part for _, part in fragments)
    if len(plain_text) <= width:
        return fragments
    lead = len(plain_text) - len(plain_text.lstrip(" "))
    indent = min(lead + 4, width // 2)
    words: list[tuple[bool, Fragments]] = []  # (spaces?, the fragments of one word or one run of spaces)
    for style, part in fragments:
        for piece in [part] if WHOLE in style.split() else re.findall(r" +|[^ ]+", part):
            spaces = piece.startswith(" ")
            if words and words[-1][0] == spaces:
                words[-1][1].append((style, piece))
            else:
                words.append((spaces, [(style, piece)]))
    out: Fragments = []
    column = 0
    pending: Fragments = []
    for spaces, word in words:
        if spaces and not any(WHOLE in style.split() for style, _ in word):
            pending = word
            continue
        size = sum(len(part) for _, part in word)
        gap = sum(len(part) for _, part in pending)
        if column and column + gap + size > width:
            out += [("", "\n"), ("", " " * indent)]
            column, pending, gap = indent, [], 0
        out += pending
        column += gap
        pending = []
        for style, part in word:
            while column + len(part) > width > column:
                room = width - column
                out += [(style, part[:room]), ("", "\n"), ("", " " * indent)]
                part, column = part[room:], indent
            out.append((style, part))
            column += len(part)
    return out
