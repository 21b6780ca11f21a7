"""`help`: a short index of topics, each topic's commands with an example in the words of the game on screen, and
one command in full.

Every command of every game in one list ran past sixty lines at 80 columns, so `help` alone is an index that fits a
screen, and `help orders`, `help chat`, `help lobby`... list one topic's commands each; `help all` lists them all and
`help COMMAND` explains one.
"""

from __future__ import annotations

import textwrap
from collections.abc import Sequence
from dataclasses import dataclass

from client.commands import (
    HELP_TOPICS,
    SPECS,
    AnyCommand,
    ParseError,
    Setting,
    Spec,
    client_commands,
    example,
    offered_commands,
    order_commands,
    resolve_command,
    show_commands,
)


@dataclass(frozen=True)
class Topic:
    name: str
    about: str
    """What the index says of it."""
    commands: tuple[str, ...]
    """The client's own commands it lists (a game's orders come with `orders`)."""
    intro: str = ""
    outro: str = ""


TOPICS = (
    Topic(
        "orders",
        "this game's orders",
        ("orders", "withdraw", "done"),
        outro="Every order is checked by the server at once: an accepted one is numbered, a refused one says why "
        "and changes nothing.",
    ),
    Topic(
        "game",
        "seeing the game",
        ("board", "map", "report", "summary", "history"),
        intro="As each turn resolves you are told what concerns you (your fights, your moves), the rest in a "
        "line of counts, and where you stand; the board is shown when you ask.",
    ),
    Topic(
        "chat",
        "talking",
        ("say", "tell"),
        intro="In the lobby say speaks to everyone in it; in a game, to everyone following it. Those who watch, "
        "and players who are out, talk among themselves while the game runs (the players read it once it "
        "is over). A game's words are kept with it. At most 300 characters, and no flood.",
    ),
    Topic(
        "lobby",
        "finding a game",
        ("games", "maps", "create", "join", "watch"),
        outro="One name may play several games at once: create, join or watch while playing keeps the game going "
        "off screen, and join GAME puts it back. help create lists each game's options.",
    ),
    Topic("seats", "your seat", ("resign", "leave", "handover", "nudge", "rematch", "quit")),
    Topic(
        "account",
        "your account",
        ("signup", "signin", "signout", "home", "password", "sessions", "vacation", "notify"),
        intro="An account keeps your name and your seats on this server: signed in, you take any of your games "
        "back from any computer, and the client opens on them. Passwords are never shown. In games of days, "
        "notify chooses how you are told that a game waits for you, and vacation makes those that honour it wait.",
    ),
    Topic(
        "ratings",
        "ratings and quick play",
        ("ratings", "profile", "quick", "challenge", "accept", "decline"),
        intro="A rated game (create ... rated, or quick play) changes its players' ratings, one a rule set: a "
        "rating marked ? is provisional, for a player's first games. Only accounts sit in rated games.",
    ),
    Topic(
        "typing",
        "how to type",
        (),
        intro="Commands and names ignore case, and a unique start is enough: att is attack, a 10 mid sca is "
        "attack 10 Midkemia Scadrial, join 3fa is game 3fa2c1. A name with spaces may be typed in double "
        "quotes. Short forms are in brackets after each command. Tab completes commands, your territories, "
        "the territories you may attack, game ids and maps. A typo gets the nearest command suggested. "
        "Up and down bring back what you typed.",
    ),
    Topic("all", "every command", tuple(spec.name for spec in SPECS)),
)
assert tuple(t.name for t in TOPICS) == HELP_TOPICS

WIDTH = 24
"""The column where a command's summary starts."""


def help_text(topic: str | None = None, setting: Setting | None = None, width: int | None = None) -> str:
    """`help`: the index; `help TOPIC`: its commands; `help COMMAND`: one command in full. `width`: the terminal's,
    so that a command's summary too long for its line goes on under its own start (the client's wrapping would
    indent it from the line's start)."""
    setting = setting or Setting()
    if topic is None:
        return index(setting)
    chosen = next((t for t in TOPICS if t.name == topic.casefold()), None)
    if chosen is not None:
        return topic_text(chosen, setting, width)
    found = resolve_command(topic, setting)
    if isinstance(found, ParseError):
        return str(found) + "\n"
    short = f" (short: {', '.join(found.aliases)})" if found.aliases else ""
    return f"{found.usage}{short}\n  {found.summary}\n  e.g. {example(found, setting)}\n"


def _names(topic: Topic, setting: Setting) -> list[str]:
    if topic.name == "orders":
        found: list[AnyCommand] = [*order_commands(setting), *show_commands(setting), *_specs(topic, setting)]
        return [c.name for c in found]
    if topic.name == "all":
        return []
    return [spec.name for spec in _specs(topic, setting)]


def index(setting: Setting) -> str:
    """The topics, a line each with the commands they hold: a screen's worth at most."""
    lines = ["Help on (help TOPIC):"]
    for topic in TOPICS:
        names = _names(topic, setting)
        if topic.name == "orders" and not order_commands(setting):
            listed = "each game's own (join or watch one first)"
        elif topic.name == "typing":
            listed = "short forms, names, Tab"
        else:
            listed = ", ".join(names) if names else "the whole list"
        lines.append(f"  {topic.name:<7}  {topic.about}: {listed}")
    lines.append("help COMMAND explains one command (help " + _first_order(setting) + ").")
    return "\n".join(lines) + "\n"


def _first_order(setting: Setting) -> str:
    first = next(iter(order_commands(setting)), None)
    return first.name if first is not None else "create"


def _specs(topic: Topic, setting: Setting) -> list[Spec]:
    """The topic's client commands that the game on screen offers (all of them in the lobby)."""
    offered = {spec.name: spec for spec in client_commands(setting)}
    return [offered[name] for name in topic.commands if name in offered]


def topic_text(topic: Topic, setting: Setting, width: int | None = None) -> str:
    lines: list[str] = [topic.intro] if topic.intro else []
    if topic.name == "typing" and setting.presentation is not None:
        lines.append(f"In this game: {setting.presentation.naming}.")
    if topic.name == "orders":
        game_commands: list[AnyCommand] = [*order_commands(setting), *show_commands(setting)]
        if not game_commands:
            lines.append(
                "Each game has its own orders: join or watch one, then help orders lists them (help create "
                "lists the games this server plays)."
            )
            return "\n".join(lines) + "\n"
        naming = setting.presentation.naming if setting.presentation is not None else ""
        lines.append(f"Orders in this game ({naming}):")
        lines += command_lines(game_commands, setting, width)
        together = _specs(topic, setting)
        if together:
            lines.append("Then (short forms in brackets):")
            lines += command_lines(together, setting, width)
    elif topic.name == "all":
        game_commands = [*order_commands(setting), *show_commands(setting)]
        if game_commands:
            naming = setting.presentation.naming if setting.presentation is not None else ""
            lines.append(f"Orders in this game ({naming}):")
            lines += command_lines(game_commands, setting, width)
        lines.append("Commands (short forms in brackets):")
        lines += command_lines(list(client_commands(setting)), setting, width)
    elif topic.commands:
        lines.append("Commands (short forms in brackets):")
        lines += command_lines(_specs(topic, setting), setting, width)
    if topic.outro:
        lines.append(topic.outro)
    return "\n".join(lines) + "\n"


def command_lines(commands: Sequence[AnyCommand], setting: Setting, width: int | None = None) -> list[str]:
    """Each command with its short forms, what it does and an example in the words of the game on screen; with a
    `width`, each summary wrapped to it in its own column."""
    lines: list[str] = []
    column = " " * (WIDTH + 2)
    for spec in commands:
        short = f" [{', '.join(spec.aliases)}]" if spec.aliases else ""
        head = f"  {spec.usage}{short}"
        text = f"{spec.summary}; e.g. {example(spec, setting)}"
        parts = (
            textwrap.wrap(text, width - len(column), break_long_words=False, break_on_hyphens=False)
            if width is not None and width - len(column) >= 20
            else [text]
        )
        if len(head) > WIDTH:
            lines += [head, *(column + part for part in parts)]
        else:
            lines += [f"{head:<{WIDTH}}  {parts[0]}", *(column + part for part in parts[1:])]
    return lines


__all__ = ["TOPICS", "Topic", "command_lines", "help_text", "index", "offered_commands", "topic_text"]
