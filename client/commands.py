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
from shared.protocol.messages import CHAT_CHARACTERS

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
    REGION = "region"
    """What `map NAME` draws alone: a continent, or the one a territory lies in."""
    WORD = "word"
    """One of the few words a command takes (`signout everywhere`, `sessions end`)."""


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


TURN_BY_TURN = (
    "{what}: in this game players take turns and each order is carried out as it is given (the hint "
    "says how to end a phase or your turn)"
)

SPECS: tuple[Spec, ...] = (
    Spec(
        "help",
        ("h", "?"),
        "help [TOPIC|COMMAND]",
        "help create",
        "the topics; help TOPIC lists one topic's "
        "commands (help orders, help chat, help all), help COMMAND explains one command",
        (Arg.COMMAND,),
    ),
    Spec("games", ("ls",), "games", "games", "list the server's games"),
    Spec("maps", (), "maps", "maps", "list the server's maps"),
    Spec(
        "create",
        (),
        "create [MAP] [PLAYERS] [rules=NAME] [time=SECONDS] [bots=N] [strategy=NAME] [OPTION=VALUE]...",
        "create seed 3 time=120",
        "create a game and take a seat in it (rules=NAME: which game, risc by default; bots=N: computer players, "
        "as many as the players to watch them play; strategy=NAME: how they play; help create lists each game's "
        "options and strategies, help create NAME one game's)",
        (Arg.MAP, Arg.NUMBER, Arg.OPTION, Arg.OPTION, Arg.OPTION, Arg.OPTION),
    ),
    Spec(
        "join",
        ("j",),
        "join GAME [GROUP]",
        "join 3fa2c1",
        "take a free seat in a game (GROUP: the starting group, when the game lets players choose)",
        (Arg.GAME, Arg.NUMBER),
    ),
    Spec(
        "watch",
        (),
        "watch GAME [PLAYER]",
        "watch 3fa2c1",
        "follow a game as a spectator (PLAYER: see with their eyes, where the game allows it)",
        (Arg.GAME, Arg.PLAYER),
    ),
    Spec(
        "orders",
        ("o", "list"),
        "orders",
        "orders",
        "list the orders you issued this turn",
        (),
        True,
        TURN_BY_TURN.format(what="there are no orders waiting to be listed"),
    ),
    Spec(
        "withdraw",
        ("w", "undo"),
        "withdraw K|all",
        "withdraw 2",
        "take back your order number K (see orders), or all of them",
        (Arg.NUMBER,),
        True,
        TURN_BY_TURN.format(what="an order cannot be taken back"),
    ),
    Spec(
        "reorder",
        (),
        "reorder K M",
        "reorder 3 1",
        "put your order number K at place M (see orders): your orders are carried out in the order given",
        (Arg.NUMBER, Arg.NUMBER),
        True,
        TURN_BY_TURN.format(what="no order waits to be reordered"),
    ),
    Spec(
        "done",
        ("d", "commit"),
        "done",
        "done",
        "commit: your orders are final for this turn",
        (),
        True,
        TURN_BY_TURN.format(what="there is nothing to commit"),
    ),
    Spec(
        "board",
        ("b",),
        "board [NAME]",
        "board Oz",
        "show the board, or one territory (with its neighbours), "
        "player or continent, or your front (board front: yours next to others')",
        (Arg.FOCUS,),
        True,
    ),
    Spec(
        "map",
        (),
        "map [NAME]",
        "map",
        "draw the map from its coordinates: who holds what, where, and which territories touch; a map too big for "
        "the screen is drawn by continent (map lists them, map NAME draws one, or the one territory NAME lies in)",
        (Arg.REGION,),
        True,
    ),
    Spec(
        "report",
        ("r",),
        "report [TURN]",
        "report",
        "the last turn's report again, in full (in a game played "
        "turn by turn: everything since your previous turn began); report TURN: that turn's, from the game's start "
        "for a watcher who came late",
        (Arg.NUMBER,),
        True,
    ),
    Spec("summary", ("s",), "summary", "summary", "what each player holds, the turn, who is awaited", (), True),
    Spec("history", (), "history", "history", "each player's territories and units, turn by turn", (), True),
    Spec(
        "handover",
        (),
        "handover PLAYER",
        "handover Bob",
        "vote to let the computer play for a player who has been gone a long time (games with no time limit)",
        (Arg.PLAYER,),
        True,
    ),
    Spec(
        "say",
        (),
        "say TEXT",
        "say good luck, all",
        "say something in the chat: in the lobby, or to everyone in the "
        "game on screen (those who watch or are out talk among themselves until the game ends)",
    ),
    Spec(
        "tell",
        (),
        "tell PLAYER TEXT",
        "tell Bob shall we?",
        "say something to one player of the game on screen alone",
        (Arg.PLAYER,),
        True,
    ),
    Spec(
        "resign",
        (),
        "resign",
        "resign",
        "give the game on screen up: you are out for good (it asks first), and may watch it to its end",
        (),
        True,
    ),
    Spec(
        "leave",
        (),
        "leave",
        "leave",
        "leave the game on screen (your seat is freed only before it starts; in a "
        "game under way you keep it: resign gives it up)",
        (),
        True,
    ),
    Spec("rematch", (), "rematch", "rematch", "after a game ends: ask for a new game with the same players", (), True),
    Spec(
        "home",
        (),
        "home [N]",
        "home",
        "your games (signed in), those waiting for your orders first; a number opens one (typed alone, or home N); "
        "games mine is the same",
        (Arg.NUMBER,),
    ),
    Spec(
        "signup",
        (),
        "signup NAME",
        "signup Alice",
        "make an account and sign in to it (the password is asked, never shown)",
    ),
    Spec(
        "signin",
        (),
        "signin NAME",
        "signin Alice",
        "sign in to your account; this computer stays signed in",
    ),
    Spec(
        "signout",
        (),
        "signout [everywhere]",
        "signout",
        "sign out here (everywhere: on every device); you play as a guest",
        (Arg.WORD,),
    ),
    Spec(
        "password",
        (),
        "password",
        "password",
        "change your password (your other sessions end)",
    ),
    Spec(
        "sessions",
        (),
        "sessions [end ID]",
        "sessions",
        "the devices signed in to your account; sessions end ID signs one out",
        (Arg.WORD, Arg.WORD),
    ),
    Spec(
        "nudge",
        (),
        "nudge PLAYER",
        "nudge Cy",
        "remind a player the game on screen waits for that it does (once a day per game)",
        (Arg.PLAYER,),
    ),
    Spec(
        "vacation",
        (),
        "vacation [DAYS | end]",
        "vacation 3",
        "your vacation: games that honour it wait for you instead of timing you out (up to 10 days)",
        (Arg.WORD,),
    ),
    Spec(
        "notify",
        (),
        "notify [mail ADDRESS | webhook URL | mail off | webhook off]",
        "notify mail ann@example.org",
        "how you are told that a game waits for you, away from it (by mail, by webhook)",
        (Arg.WORD, Arg.WORD),
    ),
    Spec(
        "ratings",
        ("ladder",),
        "ratings [RULES]",
        "ratings grid",
        "a rule set's ladder: its rated players, best first (? marks a provisional rating); the game's own by default",
    ),
    Spec(
        "profile",
        (),
        "profile [NAME]",
        "profile Alice",
        "a player's ratings by rule set, their history and last rated games (yours alone; bot:NAME a computer's)",
        (Arg.PLAYER,),
    ),
    Spec(
        "quick",
        (),
        "quick RULES [PLAYERS] [live|slow] [computers=SECONDS] | quick stop",
        "quick risc 3",
        "ask for a rated game: the server seats you with players of about your rating as soon as there are "
        "enough (computers=N: its computers fill the rest after N seconds, unrated); quick stop stops waiting",
    ),
    Spec(
        "challenge",
        (),
        "challenge NAME [MAP] [PLAYERS] [rules=NAME] [rated] [time=SECONDS] [OPTION=VALUE]...",
        "challenge Alice seed 2 rated",
        "invite an account to a new game you sit in; they accept or decline from their home",
        (Arg.PLAYER, Arg.MAP, Arg.NUMBER, Arg.OPTION),
    ),
    Spec("accept", (), "accept GAME", "accept 3fa2c1", "accept a challenge (home lists yours): you sit in its game"),
    Spec("decline", (), "decline GAME", "decline 3fa2c1", "decline a challenge"),
    Spec(
        "quit",
        ("q", "exit"),
        "quit",
        "quit",
        "close the client (your seat stays yours: run the same command again to come back)",
    ),
)


HELP_TOPICS = ("orders", "game", "chat", "lobby", "seats", "account", "ratings", "typing", "all")
"""What `help TOPIC` takes (client/help.py says each one); a topic named as a command (`orders`) is the topic."""


@dataclass(frozen=True)
class Help:
    topic: str | None = None
    detail: str | None = None
    """What `help create` narrows to: one rule set's options (`help create warzone`)."""


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
    bot_strategy: str | None = None
    options: dict[str, Any] = field(default_factory=dict)
    rated: bool = False


@dataclass(frozen=True)
class Ladder:
    ruleset: str | None = None


@dataclass(frozen=True)
class ProfileOf:
    name: str | None = None


@dataclass(frozen=True)
class Quick:
    ruleset: str = ""
    players: int = 3
    pace: str = "live"
    computers_after: float | None = None
    stop: bool = False


@dataclass(frozen=True)
class ChallengeTo:
    name: str
    game: Create


@dataclass(frozen=True)
class AnswerInvitation:
    game_id: str
    accept: bool


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
class Reorder:
    number: int
    """1-based, as `orders` shows it: the order to move."""
    place: int
    """1-based: where it goes."""


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
    region: str | None = None
    """A continent, or a territory whose continent to draw; None: the whole map (or its continents, listed)."""


@dataclass(frozen=True)
class Report:
    turn: int | None = None
    """A turn to tell again; None: the last."""


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
class Resign:
    pass


@dataclass(frozen=True)
class Say:
    text: str
    to: str | None = None


@dataclass(frozen=True)
class RematchCommand:
    pass


@dataclass(frozen=True)
class Home:
    number: int | None = None
    """The game to open, as the home last listed it (from 1); None: list the home."""


@dataclass(frozen=True)
class SignUp:
    name: str | None = None


@dataclass(frozen=True)
class SignIn:
    name: str | None = None


@dataclass(frozen=True)
class SignOut:
    everywhere: bool = False


@dataclass(frozen=True)
class Password:
    pass


@dataclass(frozen=True)
class NudgeCommand:
    player: str


@dataclass(frozen=True)
class VacationCommand:
    days: float | None = None
    """Days from now (0: end the one under way); None: say how it stands."""


@dataclass(frozen=True)
class NotifyCommand:
    channel: str | None = None
    """mail or webhook; None: show the settings."""
    value: str | None = None
    """The address or URL; None: off."""


@dataclass(frozen=True)
class Sessions:
    end: str | None = None
    """A session to end, by its id as `sessions` lists it (or a unique start of it); None: list them."""


@dataclass(frozen=True)
class Quit:
    pass


@dataclass(frozen=True)
class Empty:
    """A blank line: nothing to do."""


Command = (
    Help
    | Games
    | Maps
    | Create
    | Join
    | Watch
    | Issue
    | Show
    | ListOrders
    | Withdraw
    | Reorder
    | Done
    | Board
    | Summary
    | MapPicture
    | Report
    | History
    | HandOverCommand
    | Leave
    | Resign
    | Say
    | RematchCommand
    | Home
    | SignUp
    | SignIn
    | SignOut
    | Password
    | Sessions
    | NudgeCommand
    | VacationCommand
    | NotifyCommand
    | Ladder
    | ProfileOf
    | Quick
    | ChallengeTo
    | AnswerInvitation
    | Quit
    | Empty
)


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


def region_names(setting: Setting) -> list[str]:
    """What `map NAME` may name in the game on screen (none without one)."""
    context = setting.context
    if setting.presentation is None or context.game_map is None or context.view is None:
        return []
    return list(dict.fromkeys(setting.presentation.picture_names(context.view, context.game_map)))


def order_commands(setting: Setting) -> tuple[OrderCommand, ...]:
    """The game on screen's order commands: those of its variant (a RISC game's evolution), none in the lobby."""
    presentation = setting.presentation
    return presentation.game_commands(setting.context.view) if presentation is not None else ()


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
    """A command this game does not offer (one of the client's, or an order of another variant of the rule set),
    named in full or by its short form: why not."""
    for spec in SPECS:
        if spec not in client_commands(setting) and word in (spec.name, *spec.aliases):
            return ParseError(spec.together)
    presentation = setting.presentation
    if presentation is not None:
        offered = order_commands(setting)
        for command in presentation.commands:
            if command not in offered and word in (command.name, *command.aliases):
                return ParseError(presentation.unavailable(command, setting.context.view))
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


def _usage(spec: Spec | OrderCommand, setting: Setting | None = None) -> str:
    return f"usage: {spec.usage}, e.g. {example(spec, setting or Setting())}"


TERRITORY_KINDS = (ArgKind.OWN, ArgKind.TARGET, ArgKind.ENEMY, ArgKind.TERRITORY)


def example(command: AnyCommand, setting: Setting) -> str:
    """A command's example in the words of the game on screen: its territories (one of the player's own where the
    command wants one, a neighbour of it held by someone else where it attacks...) and its players, rather than
    the names of the map and players the rule set's help was written with. As written without a game."""
    if isinstance(command, ShowCommand):
        return command.usage
    if isinstance(command, Spec):
        return _spec_example(command, setting)
    context, presentation = setting.context, setting.presentation
    game_map = context.game_map
    if game_map is None or presentation is None:
        return command.example
    owners = presentation.owners(context.view) if context.view is not None else None
    you = context.you
    mine = [n for n in game_map.names if owners is not None and you is not None and owners.get(n) == you]

    def others(name: str) -> list[str]:
        """The neighbours of `name` that are not the player's (all of them when who holds what is unknown)."""
        return [n for n in game_map.neighbours_in_order(name) if n not in mine or not mine]

    def friends(name: str) -> list[str]:
        return [n for n in game_map.neighbours_in_order(name) if n in mine]

    words = command.example.split()
    kinds = [k for k in command.args[: len(words) - 1]]
    places = [i for i, k in enumerate(kinds) if k in TERRITORY_KINDS]
    used: list[str] = []
    out = [words[0]]
    for index, word in enumerate(words[1:]):
        kind = kinds[index] if index < len(kinds) else None
        if kind is ArgKind.PLAYER:
            rivals = [p for p in setting.players if p != you]
            out.append(rivals[0] if rivals else word)
            continue
        if kind not in TERRITORY_KINDS:
            out.append(word)
            continue
        after = next((kinds[i] for i in places if i > index), None)
        source = used[-1] if used else None
        if source is None:
            pool = (
                list(mine or game_map.names)
                if kind is not ArgKind.ENEMY
                else [n for n in game_map.names if n not in mine and (not mine or any(n in others(m) for m in mine))]
            )
            wanted = {ArgKind.ENEMY: others, ArgKind.TARGET: friends}.get(after) if after is not None else None
            fitting = [n for n in pool if wanted is None or wanted(n)]
            choice = (fitting or pool or list(game_map.names))[0]
        else:
            near = {
                ArgKind.ENEMY: others(source),
                ArgKind.TARGET: friends(source) or list(game_map.neighbours_in_order(source)),
                ArgKind.OWN: [n for n in mine if n != source],
                ArgKind.TERRITORY: list(game_map.neighbours_in_order(source)),
            }[kind]
            choice = next((n for n in near if n not in used), None) or next(n for n in game_map.names if n not in used)
        used.append(choice)
        out.append(f'"{choice}"' if " " in choice else choice)
    return " ".join(out)


def _spec_example(spec: Spec, setting: Setting) -> str:
    if spec.name == "help":
        first = next(iter(order_commands(setting)), None)
        return f"help {first.name if first is not None else 'create'}"
    game_map, you = setting.context.game_map, setting.context.you
    if spec.name == "board" and game_map is not None:
        owners = (
            setting.presentation.owners(setting.context.view)
            if setting.presentation is not None and setting.context.view is not None
            else None
        )
        mine = [n for n in game_map.names if owners is not None and owners.get(n) == you]
        name = (mine or list(game_map.names))[0]
        return f'board "{name}"' if " " in name else f"board {name}"
    if spec.name in ("handover", "tell"):
        rivals = [p for p in setting.players if p != you]
        rest = spec.example.split()[2:]
        return " ".join([spec.name, rivals[0], *rest]) if rivals else spec.example
    return spec.example


def _game_id(text: str, games: Sequence[str]) -> str | ParseError:
    if not re.fullmatch(r"[A-Za-z0-9_-]{1,32}", text):
        return ParseError(f'"{text}" is not a game id (letters, digits, - and _); type games to list them')
    if text in games:
        return text
    prefixed = sorted(g for g in games if g.casefold().startswith(text.casefold()))  # as the server lists them
    if len(prefixed) == 1:
        return prefixed[0]
    if len(prefixed) > 1:
        return ParseError(f'"{text}" could be any of the games {", ".join(prefixed[:6])}: type more of its id')
    return text


def _create(args: list[str], spec: Spec, setting: Setting) -> Create | ParseError:
    values: dict[str, Any] = {"map": None, "options": {}}
    options: dict[str, Any] = values["options"]
    for position, arg in enumerate(args):
        key, sep, value = arg.partition("=")
        key = key.casefold()
        if not sep:
            if key == "rated":
                values["rated"] = True
            elif position == 0 and not key.isdigit():
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
        elif key == "rated":
            values["rated"] = value.casefold() in ("yes", "true", "on", "1")
        elif key == "players":
            number = grammar.count(value, "players", _usage(spec, setting))
            if isinstance(number, ParseError):
                return number
            values["players"] = number
        elif key == "bots":
            number = grammar.count(value, "bots", _usage(spec, setting))
            if isinstance(number, ParseError):
                return number
            values["bots"] = number
        elif key in ("strategy", "bot_strategy"):
            values["bot_strategy"] = value
        elif key == "time":
            try:
                values["turn_seconds"] = float(value.rstrip("s"))
            except ValueError:
                return ParseError(f'time must be a number of seconds, not "{value}"; {_usage(spec, setting)}')
        elif not key or not value:
            return ParseError(f'"{arg}" is not a setting (settings look like time=120); {_usage(spec, setting)}')
        else:
            options[key] = grammar.option_value(value)
    return Create(**values)


def _people(args: list[str], spec: Spec, setting: Setting) -> Command | ParseError:
    """Ratings, quick play and challenges."""
    if spec.name == "ratings":
        return ParseError(_usage(spec, setting)) if len(args) > 1 else Ladder(args[0].casefold() if args else None)
    if spec.name == "profile":
        return ProfileOf(" ".join(args) or None)
    if spec.name in ("accept", "decline"):
        if len(args) != 1:
            return ParseError(f"{spec.name} needs the challenge's game; {_usage(spec, setting)} (home lists them)")
        game_id = _game_id(args[0], setting.games)
        return game_id if isinstance(game_id, ParseError) else AnswerInvitation(game_id, spec.name == "accept")
    if spec.name == "challenge":
        if not args:
            return ParseError(f"challenge whom? {_usage(spec, setting)}")
        game = _create(args[1:], spec, setting)
        return game if isinstance(game, ParseError) else ChallengeTo(args[0], game)
    if [a.casefold() for a in args] == ["stop"]:
        return Quick(stop=True)
    if not args:
        return ParseError(f"quick needs the rules; {_usage(spec, setting)}")
    values: dict[str, Any] = {"ruleset": args[0].casefold()}
    for arg in args[1:]:
        key, _, value = arg.casefold().partition("=")
        if key.isdigit():
            values["players"] = int(key)
        elif key in ("live", "slow"):
            values["pace"] = key
        elif key == "computers" and value.rstrip("s").isdigit():
            values["computers_after"] = float(value.rstrip("s"))
        else:
            return ParseError(f'"{arg}" is not a quick play setting; {_usage(spec, setting)}')
    return Quick(**values)


def parse(line: str, setting: Setting | None = None) -> Command | ParseError:
    setting = setting or Setting()
    words = tokens(line)
    if not words:
        return Empty()
    if len(words) == 1 and words[0].isdigit():  # a game of the home, opened by its number
        return _home_number(words[0])
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
            ours = example(found, setting)  # the rule set's words say its help's example: say the game's
            return ParseError(orders.message.replace(f"e.g. {found.example}", f"e.g. {ours}"))
        return Issue(found.name, tuple(orders))
    spec = found
    if spec.name == "help":
        if not args:
            return Help()
        if len(args) == 1 and args[0].casefold() in HELP_TOPICS:
            return Help(args[0].casefold())
        topic = resolve_command(args[0], setting)
        if isinstance(topic, ParseError):
            return topic
        if len(args) > 1 and topic.name != "create":
            return ParseError(f"help explains one command at a time; {_usage(spec, setting)}")
        return Help(topic.name, " ".join(args[1:]) or None)
    if spec.name in ("join", "watch"):
        if not args:
            return ParseError(f"{spec.name} needs a game; {_usage(spec, setting)} (games lists them)")
        game_id = _game_id(args[0], setting.games)
        if isinstance(game_id, ParseError):
            return game_id
        if spec.name == "watch":
            if len(args) > 2:
                return ParseError(_usage(spec, setting))
            return Watch(game_id, args[1] if len(args) == 2 else None)
        if len(args) > 2:
            return ParseError(_usage(spec, setting))
        if len(args) == 2:
            group = grammar.count(args[1], "the group", _usage(spec, setting))
            if isinstance(group, ParseError):
                return group
            if group < 0:
                return ParseError("groups are numbered from 0, as the game lists them")
            return Join(game_id, group)
        return Join(game_id)
    if spec.name == "create":
        return _create(args, spec, setting)
    if spec.name in ("ratings", "profile", "quick", "challenge", "accept", "decline"):
        return _people(args, spec, setting)
    if spec.name == "withdraw":
        if len(args) != 1:
            return ParseError(f"withdraw needs the number of one order (see orders), or all; {_usage(spec, setting)}")
        if args[0].casefold() in ("all", "*"):
            return Withdraw(None)
        number = grammar.count(args[0], "the order number", _usage(spec, setting))
        if isinstance(number, ParseError):
            return number
        return Withdraw(number)
    if spec.name == "reorder":
        if len(args) != 2:
            return ParseError(f"reorder needs two numbers, the order to move and its place; {_usage(spec, setting)}")
        number = grammar.count(args[0], "the order number", _usage(spec, setting))
        if isinstance(number, ParseError):
            return number
        place = grammar.count(args[1], "its new place", _usage(spec, setting))
        return place if isinstance(place, ParseError) else Reorder(number, place)
    if spec.name == "board":
        if not args:
            return Board()
        names = focus_names(setting)
        if not names:
            return Board(" ".join(args))
        focus = grammar.name(" ".join(args), names, "territory, player or continent")
        return focus if isinstance(focus, ParseError) else Board(focus)
    if spec.name == "map" and args:
        names = region_names(setting)
        if not names:
            return ParseError("map takes no name in this game: map draws its board")
        region = grammar.name(" ".join(args), names, "continent or territory")
        return region if isinstance(region, ParseError) else MapPicture(region)
    if spec.name in ("say", "tell"):
        rest = line.strip().split(None, 2 if spec.name == "tell" else 1)[1:]
        if len(rest) < (2 if spec.name == "tell" else 1):
            return ParseError(f"{spec.name} needs something to say; {_usage(spec, setting)}")
        said = rest[-1].strip()
        if len(said) > CHAT_CHARACTERS:  # the server would refuse it: said here, before it is sent
            return ParseError(f"a word in the chat has at most {CHAT_CHARACTERS} characters, this one has {len(said)}")
        if spec.name == "say":
            return Say(rest[0])
        player = grammar.name(rest[0], setting.players, "player")
        return player if isinstance(player, ParseError) else Say(rest[1], player)
    if spec.name == "report" and args:
        if len(args) > 1:
            return ParseError(_usage(spec, setting))
        turn = grammar.count(args[0], "the turn", _usage(spec, setting))
        return turn if isinstance(turn, ParseError) else Report(turn)
    if spec.name == "handover":
        if len(args) != 1:
            return ParseError(f"handover needs the player to hand over; {_usage(spec, setting)}")
        player = grammar.name(args[0], setting.players, "player")
        return player if isinstance(player, ParseError) else HandOverCommand(player)
    account = _account(spec, args, setting)
    if account is not None:
        return account
    if args:
        return ParseError(f"{spec.name} takes no arguments; {_usage(spec, setting)}")
    simple: dict[str, Command] = {
        "games": Games(),
        "maps": Maps(),
        "orders": ListOrders(),
        "done": Done(),
        "summary": Summary(),
        "map": MapPicture(),
        "report": Report(),
        "history": History(),
        "leave": Leave(),
        "resign": Resign(),
        "rematch": RematchCommand(),
        "password": Password(),
        "quit": Quit(),
    }
    return simple[spec.name]


def _home_number(text: str) -> Home | ParseError:
    number = grammar.count(text, "the game's number", "type home to list your games, then a number opens one")
    if isinstance(number, ParseError):
        return number
    if number < 1:
        return ParseError("your games are numbered from 1, as home lists them")
    return Home(number)


def _account(spec: Spec, args: list[str], setting: Setting) -> Command | ParseError | None:
    """The account's commands, and `games mine` (the home); None for any other command."""
    words = [a.casefold() for a in args]
    if spec.name == "games" and words == ["mine"]:
        return Home()
    if spec.name == "home":
        if len(args) > 1:
            return ParseError(_usage(spec, setting))
        return _home_number(args[0]) if args else Home()
    if spec.name in ("signup", "signin"):
        name = " ".join(args) or None
        return SignUp(name) if spec.name == "signup" else SignIn(name)
    if spec.name == "signout":
        if words not in ([], ["everywhere"]):
            return ParseError(f"signout takes nothing, or everywhere; {_usage(spec, setting)}")
        return SignOut(bool(words))
    if spec.name == "sessions":
        if not words:
            return Sessions()
        if len(words) == 2 and words[0] == "end":
            return Sessions(args[1])
        return ParseError(f"sessions lists them, sessions end ID ends one; {_usage(spec, setting)}")
    if spec.name == "nudge":
        return NudgeCommand(" ".join(args)) if args else ParseError(_usage(spec, setting))
    if spec.name == "vacation":
        if not words:
            return VacationCommand()
        if words == ["end"]:
            return VacationCommand(0.0)
        try:
            return VacationCommand(float(words[0]))
        except ValueError:
            return ParseError(f"vacation DAYS (up to 10), or vacation end; {_usage(spec, setting)}")
    if spec.name == "notify":
        if not words:
            return NotifyCommand()
        if len(args) == 2 and words[0] in ("mail", "webhook"):
            return NotifyCommand(words[0], None if words[1] == "off" else args[1])
        return ParseError(_usage(spec, setting))
    return None
