"""What a player types, read into commands: names, short forms, arguments, help, typo hints.

The client's own commands (the lobby, orders, done, board...) are here; the commands that give orders belong to the
game's rule set (its presentation), so they change with the game on screen. Parsing is pure and knows nothing of the
connection: given a line and what the game on screen offers, it gives a command value or a ParseError whose message
says what is wrong and how to say it right.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from shared.game import grammar
from shared.game.grammar import ParseError, tokens
from shared.game.presentation import ArgKind, Context, OrderCommand, Presentation, ShowCommand

__all__ = ["ParseError", "tokens"]


class Arg(StrEnum):
    """What one of the client's own commands' arguments names: the completer offers candidates by kind."""

    GAME = "game"
    MAP = "map"
    NUMBER = "number"
    COMMAND = "command"
    OPTION = "option"
    PLAYER = "player"
    FOCUS = "focus"
    """What `board NAME` shows alone: a territory, a player, a continent."""


@dataclass(frozen=True)
class Spec:
    name: str
    aliases: tuple[str, ...]
    usage: str
    example: str
    summary: str
    args: tuple[Arg | ArgKind, ...] = ()
    in_game: bool = False
    together: str = ""
    """Set for a command of games whose players give their orders together and commit them (RISC, Warzone): why a
    turn-by-turn game, where each order is carried out as it is given, does not offer it."""


TURN_BY_TURN = ("{what}: in this game players take turns and each order is carried out as it is given (the hint "
                "says how to end a phase or your turn)")

SPECS: tuple[Spec, ...] = (
    Spec("help", ("h", "?"), "help [COMMAND]", "help move", "list the commands, or explain one", (Arg.COMMAND,)),
    Spec("games", ("ls",), "games", "games", "list the server's games"),
    Spec("maps", (), "maps", "maps", "list the server's maps"),
    Spec("create", (), "create [MAP] [PLAYERS] [rules=NAME] [time=SECONDS] [bots=N] [OPTION=VALUE]...",
         "create seed 3 time=120",
         "create a game and take a seat in it (rules: the game, e.g. risc; options: help create)",
         (Arg.MAP, Arg.NUMBER, Arg.OPTION, Arg.OPTION, Arg.OPTION, Arg.OPTION)),
    Spec("join", ("j",), "join GAME [GROUP]", "join 3fa2c1", "take a free seat in a game (GROUP: the starting group, "
         "when the game lets players choose)", (Arg.GAME, Arg.NUMBER)),
    Spec("watch", (), "watch GAME [PLAYER]", "watch 3fa2c1", "follow a game as a spectator (PLAYER: see with their "
         "eyes, where the game allows it)", (Arg.GAME, Arg.PLAYER)),
    Spec("orders", ("o", "list"), "orders", "orders", "list the orders you issued this turn", (), True,
         TURN_BY_TURN.format(what="there are no orders waiting to be listed")),
    Spec("withdraw", ("w", "undo"), "withdraw K|all", "withdraw 2", "take back your order number K (see orders), "
         "or all of them", (Arg.NUMBER,), True, TURN_BY_TURN.format(what="an order cannot be taken back")),
    Spec("done", ("d", "commit"), "done", "done", "commit: your orders are final for this turn", (), True,
         TURN_BY_TURN.format(what="there is nothing to commit")),
    Spec("board", ("b",), "board [NAME]", "board Oz", "show the board, or one territory (with its neighbours), "
         "player or continent", (Arg.FOCUS,), True),
    Spec("map", (), "map", "map", "draw the map from its coordinates: who holds what, where", (), True),
    Spec("report", ("r",), "report", "report", "the last turn's report again (in a game played turn by turn: "
         "everything since your previous turn began)", (), True),
    Spec("summary", ("s",), "summary", "summary", "what each player holds, the turn, who is awaited", (), True),
    Spec("history", (), "history", "history", "each player's territories and units, turn by turn", (), True),
    Spec("handover", (), "handover PLAYER", "handover Bob", "vote to let the computer play for a player who has "
         "been gone a long time (games with no time limit)", (Arg.PLAYER,), True),
    Spec("leave", (), "leave", "leave", "leave the game on screen (your seat is freed only before it starts)",
         (), True),
    Spec("rematch", (), "rematch", "rematch", "after a game ends: ask for a new game with the same players",
         (), True),
    Spec("quit", ("q", "exit"), "quit", "quit", "close the client (your seat stays yours: run the same command "
         "again to come back)"),
)


@dataclass(frozen=True)
class Help:
    topic: str | None = None


@dataclass(frozen=True)
class Games:
    pass


@dataclass(frozen=True)
class Maps:
    pass


@dataclass(frozen=True)
class Create:
    map: str | None
    ruleset: str | None = None
    players: int | None = None
    turn_seconds: float | None = None
    bots: int | None = None
    options: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Join:
    game_id: str
    group: int | None = None
    """The starting group's number as the game lists them (from 0, as the server counts)."""


@dataclass(frozen=True)
class Watch:
    game_id: str
    follow: str | None = None


@dataclass(frozen=True)
class Issue:
    """Orders a rule set's command stands for, in the order to issue them."""

    command: str
    orders: tuple[Any, ...]


@dataclass(frozen=True)
class Show:
    """One of the rule set's commands that only shows something (Warzone's `cards`)."""

    command: ShowCommand


@dataclass(frozen=True)
class ListOrders:
    pass


@dataclass(frozen=True)
class Withdraw:
    number: int | None
    """1-based, as `orders` shows it; None: every order."""


@dataclass(frozen=True)
class Done:
    pass


@dataclass(frozen=True)
class Board:
    focus: str | None = None


@dataclass(frozen=True)
class Summary:
    pass


@dataclass(frozen=True)
class MapPicture:
    pass


@dataclass(frozen=True)
class Report:
    pass


@dataclass(frozen=True)
class History:
    pass


@dataclass(frozen=True)
class HandOverCommand:
    player: str


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


Command = (Help | Games | Maps | Create | Join | Watch | Issue | Show | ListOrders | Withdraw | Done | Board | Summary
           | MapPicture | Report | History | HandOverCommand | Leave | RematchCommand | Quit | Empty)


@dataclass(frozen=True)
class Setting:
    """What the parser needs from the screen: the game on it (its presentation and what it shows), and the games
    the lobby last listed (for a unique prefix of a game id)."""

    presentation: Presentation | None = None
    context: Context = field(default_factory=Context)
    games: Sequence[str] = ()
    players: Sequence[str] = ()
    simultaneous: bool = True
    """Whether the game on screen is one whose players give their orders together (RISC, Warzone) rather than turn by
    turn (classic Risk, the grid game): only those have orders to list, withdraw and commit."""


def focus_names(setting: Setting) -> list[str]:
    """What `board NAME` may name in the game on screen (none without one)."""
    context = setting.context
    if setting.presentation is None or context.game_map is None or context.view is None:
        return []
    return list(dict.fromkeys(setting.presentation.focus_names(context.view, context.game_map)))


def order_commands(setting: Setting) -> tuple[OrderCommand, ...]:
    return setting.presentation.commands if setting.presentation is not None else ()


def show_commands(setting: Setting) -> tuple[ShowCommand, ...]:
    return setting.presentation.shows if setting.presentation is not None else ()


AnyCommand = Spec | OrderCommand | ShowCommand


def client_commands(setting: Setting) -> tuple[Spec, ...]:
    """The client's own commands that the game on screen offers (all of them in the lobby)."""
    return tuple(spec for spec in SPECS if setting.simultaneous or not spec.together)


def offered_commands(setting: Setting) -> tuple[AnyCommand, ...]:
    """Every command a player may type here, the game's own first: what help lists and what is read. No two share
    a name or a short form (tests/test_client_commands.py checks every rule set)."""
    return (*order_commands(setting), *show_commands(setting), *client_commands(setting))


def _words(setting: Setting) -> dict[str, AnyCommand]:
    found: dict[str, AnyCommand] = {}
    for command in offered_commands(setting):
        for word in (command.name, *command.aliases):
            found.setdefault(word.casefold(), command)
    return found


def _not_offered(word: str, setting: Setting) -> ParseError | None:
    """A client command this game does not offer, named in full or by its short form: why not."""
    for spec in SPECS:
        if spec not in client_commands(setting) and word in (spec.name, *spec.aliases):
            return ParseError(spec.together)
    return None


def resolve_command(word: str, setting: Setting | None = None) -> AnyCommand | ParseError:
    """A command by name, short form, or unique prefix of its name; otherwise the nearest names by spelling."""
    setting = setting or Setting()
    wanted = word.casefold()
    words = _words(setting)
    if wanted in words:
        return words[wanted]
    hidden = _not_offered(wanted, setting)
    if hidden is not None:
        return hidden
    names = sorted({c.name for c in words.values()})
    prefixed = [name for name in names if name.startswith(wanted)]
    if len(prefixed) == 1:
        return words[prefixed[0]]
    if len(prefixed) > 1:
        return ParseError(f'"{word}" could be any of: {", ".join(prefixed)}')
    return ParseError(f'unknown command "{word}"{suggestion(wanted, names)}; type help to list the commands')


def typo_distance(a: str, b: str) -> int:
    """How many slips of the fingers turn one word into the other: a letter left out, added, changed, or two
    neighbours swapped (the optimal string alignment distance)."""
    rows = [list(range(len(b) + 1))]
    for i in range(1, len(a) + 1):
        row = [i] + [0] * len(b)
        for j in range(1, len(b) + 1):
            cost = 0 if a[i - 1] == b[j - 1] else 1
            row[j] = min(rows[i - 1][j] + 1, row[j - 1] + 1, rows[i - 1][j - 1] + cost)
            if i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1]:
                row[j] = min(row[j], rows[i - 2][j - 2] + 1)
        rows.append(row)
    return rows[-1][-1]


def suggestion(word: str, names: Sequence[str]) -> str:
    """The command a typo most likely meant: one slip away (two for longer words). Words that only share letters
    are not typos of each other (`clear` is not `leave`), so nothing is suggested for them."""
    allowed = 1 if len(word) <= 5 else 2
    distances = {name: typo_distance(word, name) for name in names}
    best = min(distances.values(), default=allowed + 1)
    if best > allowed:
        return ""
    close = [name for name, d in distances.items() if d == best][:2]
    return f" (did you mean {' or '.join(close)}?)"


def _usage(spec: Spec | OrderCommand) -> str:
    return f"usage: {spec.usage}, e.g. {spec.example}"


def _example(command: AnyCommand) -> str:
    return command.usage if isinstance(command, ShowCommand) else command.example


def _game_id(text: str, games: Sequence[str]) -> str | ParseError:
    if not re.fullmatch(r"[A-Za-z0-9_-]{1,32}", text):
        return ParseError(f'"{text}" is not a game id (letters, digits, - and _); type games to list them')
    if text in games:
        return text
    prefixed = [g for g in games if g.casefold().startswith(text.casefold())]
    if len(prefixed) == 1:
        return prefixed[0]
    if len(prefixed) > 1:
        return ParseError(f'"{text}" could be any of the games {", ".join(prefixed[:6])}: type more of its id')
    return text


def _value(text: str) -> Any:
    """An option's value as typed: a whole number, a number, yes/no, or the word itself."""
    lowered = text.casefold()
    if lowered in ("true", "yes", "on"):
        return True
    if lowered in ("false", "no", "off"):
        return False
    if re.fullmatch(r"[+-]?\d{1,9}", text):
        return int(text)
    try:
        return float(text.rstrip("s")) if re.fullmatch(r"[+-]?\d*\.?\d+s?", text) else text
    except ValueError:
        return text


def _create(args: list[str], spec: Spec, setting: Setting) -> Create | ParseError:
    values: dict[str, Any] = {"map": None, "options": {}}
    options: dict[str, Any] = values["options"]
    for position, arg in enumerate(args):
        key, sep, value = arg.partition("=")
        key = key.casefold()
        if not sep:
            if position == 0 and not key.isdigit():
                values["map"] = arg
            elif key.isdigit():
                values["players"] = int(key)
            else:
                options[key] = True
            continue
        if key in ("rules", "ruleset", "game"):
            values["ruleset"] = value
        elif key == "map":
            values["map"] = value
        elif key == "players":
            number = grammar.count(value, "players", _usage(spec))
            if isinstance(number, ParseError):
                return number
            values["players"] = number
        elif key == "bots":
            number = grammar.count(value, "bots", _usage(spec))
            if isinstance(number, ParseError):
                return number
            values["bots"] = number
        elif key == "time":
            try:
                values["turn_seconds"] = float(value.rstrip("s"))
            except ValueError:
                return ParseError(f'time must be a number of seconds, not "{value}"; {_usage(spec)}')
        elif not key or not value:
            return ParseError(f'"{arg}" is not a setting (settings look like time=120); {_usage(spec)}')
        else:
            options[key] = _value(value)
    return Create(**values)


def parse(line: str, setting: Setting | None = None) -> Command | ParseError:
    setting = setting or Setting()
    words = tokens(line)
    if not words:
        return Empty()
    found = resolve_command(words[0], setting)
    if isinstance(found, ParseError):
        return found
    args = words[1:]
    if isinstance(found, ShowCommand):
        return Show(found) if not args else ParseError(f"{found.name} takes no arguments")
    if isinstance(found, OrderCommand):
        if setting.presentation is None or setting.context.game_map is None:
            return ParseError(f"{found.name} is for a game in progress: join or watch one first")
        orders = setting.presentation.parse(found, args, setting.context)
        if isinstance(orders, ParseError):
            return orders
        return Issue(found.name, tuple(orders))
    spec = found
    if spec.name == "help":
        if args:
            topic = resolve_command(args[0], setting)
            return topic if isinstance(topic, ParseError) else Help(topic.name)
        return Help()
    if spec.name in ("join", "watch"):
        if not args:
            return ParseError(f"{spec.name} needs a game; {_usage(spec)} (games lists them)")
        game_id = _game_id(args[0], setting.games)
        if isinstance(game_id, ParseError):
            return game_id
        if spec.name == "watch":
            if len(args) > 2:
                return ParseError(_usage(spec))
            return Watch(game_id, args[1] if len(args) == 2 else None)
        if len(args) > 2:
            return ParseError(_usage(spec))
        if len(args) == 2:
            group = grammar.count(args[1], "the group", _usage(spec))
            if isinstance(group, ParseError):
                return group
            if group < 0:
                return ParseError("groups are numbered from 0, as the game lists them")
            return Join(game_id, group)
        return Join(game_id)
    if spec.name == "create":
        return _create(args, spec, setting)
    if spec.name == "withdraw":
        if len(args) != 1:
            return ParseError(f"withdraw needs the number of one order (see orders), or all; {_usage(spec)}")
        if args[0].casefold() in ("all", "*"):
            return Withdraw(None)
        number = grammar.count(args[0], "the order number", _usage(spec))
        if isinstance(number, ParseError):
            return number
        return Withdraw(number)
    if spec.name == "board":
        if not args:
            return Board()
        names = focus_names(setting)
        if not names:
            return Board(" ".join(args))
        focus = grammar.name(" ".join(args), names, "territory, player or continent")
        return focus if isinstance(focus, ParseError) else Board(focus)
    if spec.name == "handover":
        if len(args) != 1:
            return ParseError(f"handover needs the player to hand over; {_usage(spec)}")
        player = grammar.name(args[0], setting.players, "player")
        return player if isinstance(player, ParseError) else HandOverCommand(player)
    if args:
        return ParseError(f"{spec.name} takes no arguments; {_usage(spec)}")
    simple: dict[str, Command] = {
        "games": Games(), "maps": Maps(), "orders": ListOrders(), "done": Done(), "summary": Summary(),
        "map": MapPicture(), "report": Report(),
        "history": History(), "leave": Leave(), "rematch": RematchCommand(), "quit": Quit(),
    }
    return simple[spec.name]


def help_text(topic: str | None = None, setting: Setting | None = None) -> str:
    """Every command with an example, or one command in full; the game's own order commands first."""
    setting = setting or Setting()
    if topic is not None:
        found = resolve_command(topic, setting)
        if isinstance(found, ParseError):
            return str(found) + "\n"
        short = f" (short: {', '.join(found.aliases)})" if found.aliases else ""
        return f"{found.usage}{short}\n  {found.summary}\n  e.g. {_example(found)}\n"
    width = 24
    lines: list[str] = []
    game_commands: list[AnyCommand] = [*order_commands(setting), *show_commands(setting)]
    commands: list[AnyCommand] = [*game_commands, *client_commands(setting)]
    if game_commands:
        lines.append("Orders in this game (territory names: any case, a unique prefix is enough, Tab completes):")
    for number, spec in enumerate(commands):
        if number == len(game_commands):
            lines.append("Commands (short forms in brackets):")
        short = f" [{', '.join(spec.aliases)}]" if spec.aliases else ""
        head = f"  {spec.usage}{short}"
        text = f"{spec.summary}; e.g. {_example(spec)}"
        if len(head) > width:
            lines += [head, " " * (width + 2) + text]
        else:
            lines.append(f"{head:<{width}}  {text}")
    return "\n".join(lines) + "\n"
