"""What a player types, read into commands: names, short forms, arguments, territory matching, help, typo hints.

Parsing is pure and knows nothing of the connection: given a line and the territory names of the game on screen, it
gives a command value or a ParseError whose message says what is wrong and how to say it right. Territory names match
without regard to case and a unique prefix is enough (D4, the engine's own match_name); a name with spaces may be
quoted, or typed as it is when only one way of splitting the words names two territories.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import StrEnum

from shared.rules.errors import RuleError
from shared.rules.names import match_name


class Arg(StrEnum):
    """What an argument names: the completer offers candidates by kind."""

    UNITS = "units"
    OWN = "own territory"
    TARGET = "target territory"
    ENEMY = "enemy territory"
    GAME = "game"
    MAP = "map"
    NUMBER = "number"
    COMMAND = "command"
    OPTION = "option"


@dataclass(frozen=True)
class Spec:
    name: str
    aliases: tuple[str, ...]
    usage: str
    example: str
    summary: str
    args: tuple[Arg, ...] = ()
    in_game: bool = False


SPECS: tuple[Spec, ...] = (
    Spec("help", ("h", "?"), "help [COMMAND]", "help move", "list the commands, or explain one", (Arg.COMMAND,)),
    Spec("games", ("ls",), "games", "games", "list the server's games"),
    Spec("create", (), "create MAP [PLAYERS] [units=N] [neutral=N] [time=SECONDS] [choose]", "create seed 3 time=120",
         "create a game and take a seat in it (choose: players pick their starting group)",
         (Arg.MAP, Arg.NUMBER, Arg.OPTION, Arg.OPTION, Arg.OPTION, Arg.OPTION)),
    Spec("join", ("j",), "join GAME [GROUP]", "join 3fa2c1", "take a free seat in a game (GROUP: the starting group, "
         "when the game lets players choose)", (Arg.GAME, Arg.NUMBER)),
    Spec("watch", (), "watch GAME", "watch 3fa2c1", "follow a game as a spectator", (Arg.GAME,)),
    Spec("place", ("p",), "place N TERRITORY", "place 5 Narnia", "put N units of your pool on one of your "
         "territories (placement)", (Arg.UNITS, Arg.OWN), True),
    Spec("move", ("m",), "move N FROM TO", "move 5 Narnia Oz", "move N units between your territories, through "
         "your own territories", (Arg.UNITS, Arg.OWN, Arg.TARGET), True),
    Spec("attack", ("a",), "attack N FROM TO", "attack 10 Midkemia Scadrial", "attack an adjacent territory "
         "someone else holds", (Arg.UNITS, Arg.OWN, Arg.ENEMY), True),
    Spec("orders", ("o", "list"), "orders", "orders", "list the orders you issued this turn", (), True),
    Spec("withdraw", ("w", "undo"), "withdraw K", "withdraw 2", "take back your order number K (see orders)",
         (Arg.NUMBER,), True),
    Spec("done", ("d", "commit"), "done", "done", "commit: your orders (or placement) are final for this turn",
         (), True),
    Spec("board", ("b",), "board", "board", "show every territory: owner, units, neighbours", (), True),
    Spec("summary", ("s",), "summary", "summary", "territories and units per player, turn, who has committed",
         (), True),
    Spec("history", (), "history", "history", "territories and units per player, turn by turn", (), True),
    Spec("leave", (), "leave", "leave", "leave the game on screen (your seat is freed only before it starts)",
         (), True),
    Spec("rematch", (), "rematch", "rematch", "after a game ends: ask for a new game with the same players",
         (), True),
    Spec("quit", ("q", "exit"), "quit", "quit", "close the client (your seat stays yours: run the same command "
         "again to come back)"),
)
SPEC_BY_WORD: dict[str, Spec] = {word: spec for spec in SPECS for word in (spec.name, *spec.aliases)}
COMMAND_WORDS: tuple[str, ...] = tuple(SPEC_BY_WORD)


@dataclass(frozen=True)
class ParseError:
    message: str

    def __str__(self) -> str:
        return self.message


# ---- commands ---------------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Help:
    topic: str | None = None


@dataclass(frozen=True)
class Games:
    pass


@dataclass(frozen=True)
class Create:
    map: str
    players: int | None = None
    initial_units: int | None = None
    neutral_units: int | None = None
    turn_seconds: float | None = None
    choose_groups: bool = False


@dataclass(frozen=True)
class Join:
    game_id: str
    group: int | None = None
    """The starting group's number as the game lists them (from 0, as the server counts)."""


@dataclass(frozen=True)
class Watch:
    game_id: str


@dataclass(frozen=True)
class Place:
    units: int
    territory: str


@dataclass(frozen=True)
class Move:
    units: int
    source: str
    target: str


@dataclass(frozen=True)
class Attack:
    units: int
    source: str
    target: str


@dataclass(frozen=True)
class ListOrders:
    pass


@dataclass(frozen=True)
class Withdraw:
    number: int
    """1-based, as `orders` shows it."""


@dataclass(frozen=True)
class Done:
    pass


@dataclass(frozen=True)
class Board:
    pass


@dataclass(frozen=True)
class Summary:
    pass


@dataclass(frozen=True)
class History:
    pass


@dataclass(frozen=True)
class Leave:
    pass


@dataclass(frozen=True)
class RematchCommand:
    pass


@dataclass(frozen=True)
class Quit:
    pass


@dataclass(frozen=True)
class Empty:
    """A blank line: nothing to do."""


Command = (Help | Games | Create | Join | Watch | Place | Move | Attack | ListOrders | Withdraw | Done | Board
           | Summary | History | Leave | RematchCommand | Quit | Empty)


@dataclass(frozen=True)
class Context:
    """What the parser needs from the game on screen: its territory names (none outside a game)."""

    territories: Sequence[str] = field(default_factory=tuple)


# ---- words ------------------------------------------------------------------------------------------------------

_TOKEN = re.compile(r'"([^"]*)"?|(\S+)')


def tokens(text: str) -> list[str]:
    """Words, with "double quotes" around a name that holds spaces; an unclosed quote runs to the end."""
    return [m.group(1) if m.group(1) is not None else m.group(2) for m in _TOKEN.finditer(text)]


def resolve_command(word: str) -> Spec | ParseError:
    """A command by name, short form, or unique prefix of its name; otherwise the nearest names by spelling."""
    wanted = word.casefold()
    if wanted in SPEC_BY_WORD:
        return SPEC_BY_WORD[wanted]
    prefixed = [spec for spec in SPECS if spec.name.startswith(wanted)]
    if len(prefixed) == 1:
        return prefixed[0]
    if len(prefixed) > 1:
        return ParseError(f'"{word}" could be any of: {", ".join(s.name for s in prefixed)}')
    return ParseError(f'unknown command "{word}"{suggestion(wanted)}; type help to list the commands')


def suggestion(word: str) -> str:
    close = difflib.get_close_matches(word, [spec.name for spec in SPECS], n=2, cutoff=0.6)
    if not close:
        close = difflib.get_close_matches(word, [w for w in COMMAND_WORDS if len(w) > 1], n=2, cutoff=0.6)
        close = [SPEC_BY_WORD[w].name for w in close]
    if not close:
        return ""
    return f" (did you mean {' or '.join(dict.fromkeys(close))}?)"


def _usage(spec: Spec) -> str:
    return f"usage: {spec.usage}, e.g. {spec.example}"


def _count(text: str, what: str, spec: Spec) -> int | ParseError:
    if not re.fullmatch(r"[+-]?\d{1,9}", text):
        return ParseError(f'{what} must be a whole number, not "{text}"; {_usage(spec)}')
    return int(text)


def _territory(typed: str, names: Sequence[str]) -> str | ParseError:
    found = match_name(typed, names)
    return ParseError(found.message) if isinstance(found, RuleError) else found


def _two_territories(words: list[str], names: Sequence[str], spec: Spec) -> tuple[str, str] | ParseError:
    """FROM and TO, each possibly several words: the one way to split the words that names two territories."""
    if len(words) < 2:
        return ParseError(f"{spec.name} needs a number of units, where from and where to; {_usage(spec)}")
    if len(words) == 2:
        source, target = _territory(words[0], names), _territory(words[1], names)
        if isinstance(source, ParseError):
            return ParseError(f"from: {source}")
        if isinstance(target, ParseError):
            return ParseError(f"to: {target}")
        return source, target
    splits = []
    for cut in range(1, len(words)):
        source, target = _territory(" ".join(words[:cut]), names), _territory(" ".join(words[cut:]), names)
        if isinstance(source, str) and isinstance(target, str):
            splits.append((source, target))
    if len(splits) == 1:
        return splits[0]
    if splits:
        return ParseError(f'"{" ".join(words)}" can be read more than one way: put "double quotes" around each name')
    return ParseError(f'"{" ".join(words)}" does not name two territories; {_usage(spec)}')


def _game_id(text: str) -> str | ParseError:
    if not re.fullmatch(r"[A-Za-z0-9_-]{1,32}", text):
        return ParseError(f'"{text}" is not a game id (letters, digits, - and _); type games to list them')
    return text


def _create(args: list[str], spec: Spec) -> Create | ParseError:
    if not args:
        return ParseError(f"create needs a map, e.g. seed; {_usage(spec)}")
    values: dict[str, object] = {"map": args[0]}
    for arg in args[1:]:
        key, _, value = arg.partition("=")
        key = key.casefold()
        if not value and key.isdigit():
            key, value = "players", arg
        if key == "choose" and not value:
            values["choose_groups"] = True
            continue
        if key in ("players", "units", "neutral"):
            number = _count(value, key, spec)
            if isinstance(number, ParseError):
                return number
            values[{"players": "players", "units": "initial_units", "neutral": "neutral_units"}[key]] = number
        elif key == "time":
            try:
                values["turn_seconds"] = float(value.rstrip("s"))
            except ValueError:
                return ParseError(f'time must be a number of seconds, not "{value}"; {_usage(spec)}')
        else:
            return ParseError(f'unknown setting "{arg}"; {_usage(spec)}')
    return Create(**values)  # type: ignore[arg-type]


def parse(line: str, context: Context | None = None) -> Command | ParseError:
    context = context or Context()
    words = tokens(line)
    if not words:
        return Empty()
    spec = resolve_command(words[0])
    if isinstance(spec, ParseError):
        return spec
    args = words[1:]
    names = context.territories
    if spec.in_game and spec.args and spec.args[0] is Arg.UNITS and not names:
        return ParseError(f"{spec.name} is for a game in progress: join or watch one first")

    if spec.name == "help":
        if args:
            topic = resolve_command(args[0])
            return topic if isinstance(topic, ParseError) else Help(topic.name)
        return Help()
    if spec.name in ("join", "watch"):
        if not args:
            return ParseError(f"{spec.name} needs a game; {_usage(spec)} (games lists them)")
        game_id = _game_id(args[0])
        if isinstance(game_id, ParseError):
            return game_id
        if spec.name == "watch":
            return Watch(game_id) if len(args) == 1 else ParseError(_usage(spec))
        if len(args) > 2:
            return ParseError(_usage(spec))
        if len(args) == 2:
            group = _count(args[1], "the group", spec)
            if isinstance(group, ParseError):
                return group
            if group < 0:
                return ParseError("groups are numbered from 0, as the game lists them")
            return Join(game_id, group)
        return Join(game_id)
    if spec.name == "create":
        return _create(args, spec)
    if spec.name == "place":
        if len(args) < 2:
            return ParseError(f"place needs a number of units and a territory; {_usage(spec)}")
        count = _count(args[0], "the number of units", spec)
        if isinstance(count, ParseError):
            return count
        territory = _territory(" ".join(args[1:]), names)
        return territory if isinstance(territory, ParseError) else Place(count, territory)
    if spec.name in ("move", "attack"):
        if not args:
            return ParseError(f"{spec.name} needs a number of units, where from and where to; {_usage(spec)}")
        count = _count(args[0], "the number of units", spec)
        if isinstance(count, ParseError):
            return count
        pair = _two_territories(args[1:], names, spec)
        if isinstance(pair, ParseError):
            return pair
        return Move(count, *pair) if spec.name == "move" else Attack(count, *pair)
    if spec.name == "withdraw":
        if len(args) != 1:
            return ParseError(f"withdraw needs the number of one order (see orders); {_usage(spec)}")
        number = _count(args[0], "the order number", spec)
        if isinstance(number, ParseError):
            return number
        return Withdraw(number)
    if args:
        return ParseError(f"{spec.name} takes no arguments; {_usage(spec)}")
    simple: dict[str, Command] = {
        "games": Games(), "orders": ListOrders(), "done": Done(), "board": Board(), "summary": Summary(),
        "history": History(), "leave": Leave(), "rematch": RematchCommand(), "quit": Quit(),
    }
    return simple[spec.name]


def help_text(topic: str | None = None) -> str:
    """Every command with an example, or one command in full."""
    if topic is not None:
        spec = SPEC_BY_WORD[topic]
        short = f" (short: {', '.join(spec.aliases)})" if spec.aliases else ""
        return f"{spec.usage}{short}\n  {spec.summary}\n  e.g. {spec.example}\n"
    width = 24
    lines = ["Commands (short forms in brackets; territory names: any case, a unique prefix is enough, Tab completes):"]
    for spec in SPECS:
        short = f" [{', '.join(spec.aliases)}]" if spec.aliases else ""
        head = f"  {spec.usage}{short}"
        text = f"{spec.summary}; e.g. {spec.example}"
        if len(head) > width:
            lines += [head, " " * (width + 2) + text]
        else:
            lines.append(f"{head:<{width}}  {text}")
    return "\n".join(lines) + "\n"
