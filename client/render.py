"""What the client shows, as styled text: the board, the summary, the game's events, tables.

Every function here is pure: it takes the protocol's values and returns styled fragments, (style, text) pairs, so
the screen can be golden-tested as plain text (`plain`) without a terminal. Colours are style classes
(`class:player.N`), one per seat in the order the game lists its players, so a player has the same colour on every
screen: the terminal gives each class its colour (client/terminal.py).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from pydantic import BaseModel

from shared.game.log_words import framework_line, resigned_line
from shared.game.presentation import Fragments, Palette, Presentation, units
from shared.protocol.lobby import DEFAULT_RULESET, GameStatus, GameSummary, RuleSetInfo
from shared.protocol.log import (
    ChatSaid,
    PlayerResigned,
)
from shared.protocol.statistics import GameStatistics

__all__ = ["Fragments", "Palette", "units"]


def plain(text: Iterable[tuple[str, str]]) -> str:
    """The text without its styles: what golden tests compare and what the transcript records."""
    return "".join(fragment[1] for fragment in text)


def palette_of(game: GameSummary | None) -> Palette:
    return Palette(tuple(s.name for s in game.seats) if game is not None else ())


def _line(*parts: tuple[str, str]) -> Fragments:
    return [*parts, ("", "\n")]


def chat_line(said: ChatSaid, palette: Palette, you: str | None) -> Fragments:
    """A word of the game's chat: to everyone, among those who watch, or to one player."""
    who = [*palette.name(said.player, you)] if not said.watching else [("class:muted", f"{said.player} (watching)")]
    if said.to is not None:
        where = f"[to {'you' if said.to == you else said.to}] "
    else:
        where = "[watchers] " if said.watchers else "[chat] "
    return _line(("class:hint", where), *who, ("", f": {said.text}"))


def entries(
    found: Sequence[Any], presentation: Presentation | None, palette: Palette, you: str | None, brief: bool = False
) -> Fragments:
    """Log entries as lines: the framework's read here, runs of the rule set's events by its presentation (`brief`:
    in few lines, as they come; otherwise in full, as `report` tells them)."""
    out: Fragments = []
    run: list[Any] = []

    def flush() -> None:
        if run and presentation is not None:
            out.extend(presentation.brief(run, palette, you) if brief else presentation.events(run, palette, you))
        run.clear()

    for entry in found:
        if isinstance(entry, ChatSaid):
            flush()
            out.extend(chat_line(entry, palette, you))
        elif isinstance(entry, PlayerResigned):
            flush()
            out.extend(resigned_line(entry, presentation, palette, you))
        elif isinstance(entry, BaseModel | dict):
            flush()
            if isinstance(entry, BaseModel):
                out.extend(framework_line(entry, palette, you))
        else:
            run.append(entry)
    flush()
    return out


def order_list(orders: Sequence[Any], presentation: Presentation | None, committed: bool = False) -> Fragments:
    if not orders:
        text = "No orders yet." + (" (committed)" if committed else "")
        return [("class:muted", text + "\n")]
    out: Fragments = [("class:title", "Your orders" + (" (committed)" if committed else "") + ":"), ("", "\n")]
    for number, order in enumerate(orders, start=1):
        shown = presentation.describe(order) if presentation is not None else str(order)
        out.append(("", f"  {number}. {shown}\n"))
    return out


def progress_line(game: GameSummary | None) -> Fragments:
    """Who the game waits for, and who is done: the framework's part of the summary."""
    if game is None or game.status is not GameStatus.PLAYING:
        return []
    waiting = [s.name for s in game.seats if s.awaited]
    done = [s.name for s in game.seats if s.committed]
    parts = [f"waiting for {', '.join(waiting)}" if waiting else "waiting for nobody"]
    if game.simultaneous:
        parts.append(f"committed: {', '.join(done)}" if done else "nobody has committed yet")
    return [("class:muted", "  " + "; ".join(parts) + "\n")]


def games_table(games: Sequence[GameSummary]) -> Fragments:
    """The lobby: each game with its map, seats and phase, and what one can do with it."""
    if not games:
        return [("class:muted", "No games yet: create one, e.g. create seed 3\n")]
    out: Fragments = [("class:title", "Games:"), ("", "\n")]
    out += [("", f"  {game_line(game)}\n") for game in games]
    return out


def game_line(game: GameSummary) -> str:
    """One game of the lobby: its id, rule set and map, what changes it, where it stands and who plays."""
    seated = ", ".join(s.name for s in game.seats) or "nobody yet"
    if game.status is GameStatus.LOBBY:
        state = f"{game.free} of {game.settings.players} seats free"
    elif game.status is GameStatus.FINISHED:
        state = f"finished, {game.winner} won" if game.winner else "finished, a draw" if game.draw else "finished"
    else:
        state = f"{game.phase}, turn {game.turn}"
    extras = settings_notes(game)
    extra = f" [{'; '.join(extras)}]" if extras else ""
    return (
        f"{game.game_id:<12} {game.ruleset_title or game.settings.ruleset} on {game.map_name} "
        f"({game.territories} territories){extra}: {state}; players: {seated}"
    )


def settings_notes(game: GameSummary) -> list[str]:
    """What makes a game unlike another of its rule set: its options as the server words them, its time limit, its
    computer players."""
    settings = game.settings
    found = list(game.notes)
    if settings.turn_seconds:
        found.append(f"{settings.turn_seconds:g} s a turn")
    if settings.bots:
        found.append(f"{settings.bots} computer player{'s' if settings.bots != 1 else ''} ({settings.bot_strategy})")
    return found


def groups_list(game: GameSummary) -> Fragments:
    """The starting groups of a game whose players choose them (R8), with who has taken which."""
    taken = {seat.group: seat.name for seat in game.seats if seat.group is not None}
    out: Fragments = [("class:hint", f"Starting groups of game {game.game_id} (join {game.game_id} N):\n")]
    for number, group in enumerate(game.groups or ()):
        holder = f" (taken by {taken[number]})" if number in taken else ""
        out.append(("", f"  {number}: {', '.join(group)}{holder}\n"))
    return out


TurnRecord = Mapping[str, tuple[int, int]]
"""One turn's standing: player -> (territories, units)."""


def history_table(history: Mapping[str, TurnRecord], players: Sequence[str], palette: Palette) -> Fragments:
    """Territories and units per player over the turns the client saw: the story of the game in one table."""
    if not history:
        return [("class:muted", "Nothing recorded yet.\n")]
    width = max([len(p) for p in players] + [9])
    out: Fragments = [("class:title", "Territories/units per turn:"), ("", "\n"), ("", "  turn  ")]
    for number, player in enumerate(players):
        out.append((palette.style(player), player.rjust(width)))
        out.append(("", "  " if number < len(players) - 1 else "\n"))
    for label, record in history.items():
        cells = "".join((f"{record[p][0]}/{record[p][1]}" if p in record else "-").rjust(width) + "  " for p in players)
        out.append(("", f"  {label:>4}  {cells.rstrip()}\n"))
    return out


STATISTICS_COLUMNS = ("territories", "units", "income", "battles", "cards", "out")


def statistics_table(
    statistics: GameStatistics, palette: Palette, cards: bool = True, width: int | None = None
) -> Fragments:
    """A finished game in one table, as the server worked it out: each player's territories and units at the end
    (the most they held in brackets), income received, battles won-lost, cards played (`cards`: in a game that has
    them), and when and by whom they were put out (or that they resigned). Wider than `width` with the players'
    names in it (computer players' are long), the rows name each player by their mark, under a line that says
    whose each is."""
    players = statistics.players
    columns = [c for c in STATISTICS_COLUMNS if cards or c != "cards"]
    turns = statistics.turns[-1].turn if statistics.turns else 0  # the turn it ended on: a setup (turn 0) is none
    title: Fragments = [
        (
            "class:title",
            f"The game in figures ({turns} turn{'s' if turns != 1 else ''}; at the end, the most in brackets):",
        ),
        ("", "\n"),
    ]
    for by_mark in (False, True):
        rows = [(player, _figures(statistics, player, palette, by_mark, cards)) for player in players]
        widths = [max(len(column), *(len(cells[i]) for _, cells in rows)) for i, column in enumerate(columns)]
        name_width = 8 if by_mark else max([len(p) for p in players] + [6]) + 2
        table = 2 + name_width + sum(widths) + 2 * (len(widths) - 1)
        if width is None or table <= width or by_mark:
            break
    out = list(title)
    if by_mark:
        out += [
            *palette.legend(),
        ]
    out.append(("class:muted", f"  {'player'.ljust(name_width)}{_row(columns, widths)}\n"))
    for player, cells in rows:
        shown = palette.mark(player) if by_mark else f"{palette.mark(player)} {player}"
        out += [("", "  "), (palette.style(player), shown.ljust(name_width)), ("", f"{_row(cells, widths)}\n")]
    return out


def _figures(statistics: GameStatistics, player: str, palette: Palette, by_mark: bool, cards: bool) -> list[str]:
    t = statistics.totals[player]
    by = palette.mark(t.eliminated_by) if by_mark and t.eliminated_by else t.eliminated_by
    how = ", resigned" if t.resigned else f", by {by}" if by else ""
    out = "-" if t.eliminated_on is None else f"turn {t.eliminated_on}{how}"
    return [
        f"{t.territories} ({t.most_territories})",
        f"{t.units} ({t.most_units})",
        str(t.income),
        f"{t.battles_won}-{t.battles_lost}",
        *([str(t.cards_played)] if cards else []),
        out,
    ]


def _row(cells: Sequence[str], widths: Sequence[int]) -> str:
    """Cells right-aligned in their columns, the last (words, not a figure) left-aligned."""
    return "  ".join(
        c.rjust(w) if i < len(widths) - 1 else c for i, (c, w) in enumerate(zip(cells, widths, strict=True))
    )


def join_lines(parts: Iterable[Fragments]) -> Fragments:
    out: Fragments = []
    for part in parts:
        out += part
    return out


def _option_shape(schema: Mapping[str, Any], defs: Mapping[str, Any]) -> tuple[str, list[str], Any, Any]:
    """An option's JSON Schema as (type, the words it takes, least, most)."""
    for one in schema.get("anyOf", []):
        if one.get("type") != "null":
            return _option_shape({**one, **{k: v for k, v in schema.items() if k != "anyOf"}}, defs)
    if "$ref" in schema:
        target = defs.get(str(schema["$ref"]).rsplit("/", 1)[-1], {})
        return _option_shape({**target, **{k: v for k, v in schema.items() if k != "$ref"}}, defs)
    return (
        str(schema.get("type", "")),
        [str(c) for c in schema.get("enum", [])],
        schema.get("minimum"),
        schema.get("maximum"),
    )


def option_lines(info: RuleSetInfo, words: Mapping[str, str]) -> list[str]:
    """A rule set's options as a player types them on `create` (`words`: the short word the client takes for an
    option), each with what it does, its values and its default."""
    properties: Mapping[str, Any] = info.options.get("properties", {})
    defs: Mapping[str, Any] = info.options.get("$defs", {})
    spoken = {field: word for word, field in words.items()}
    rows: list[tuple[str, str]] = []
    for field_name, schema in properties.items():
        word = spoken.get(field_name, field_name)
        kind, choices, least, most = _option_shape(schema, defs)
        description = str(schema.get("description", ""))
        default = schema.get("default")
        if default is None and "; null: " in description:
            description, default = description.split("; null: ", 1)
        if kind == "boolean":
            typed, default = word, "yes" if default else "no"
        elif choices:
            typed = f"{word}={'|'.join(choices)}"
        else:
            typed = f"{word}=N"
        span = f"{least} to {most}, " if least is not None and most is not None else ""
        rows.append((typed, f"{description} ({span}default {default})"))
    width = min(max((len(t) for t, _ in rows), default=0), 24)
    return [f"  {t:<{width}}  {d}" if len(t) <= width else f"  {t}\n  {'':<{width}}  {d}" for t, d in rows]


def create_help(
    rulesets: Sequence[RuleSetInfo], words: Mapping[str, Mapping[str, str]], only: str | None = None
) -> str:
    """What `help create` adds: the server's rule sets (rules=NAME) and each one's options, or one rule set's."""
    lines: list[str] = []
    if only is None:
        lines.append("Games this server plays (rules=NAME):")
        width = max((len(r.name) for r in rulesets), default=0)
        for info in rulesets:
            extra = " (the default)" if info.name == DEFAULT_RULESET else ""
            board = "; its own board, no MAP" if info.own_map else ""
            lines.append(
                f"  {info.name:<{width}}  {info.title}{extra}: {info.blurb}; {info.players[0]} to "
                f"{info.players[1]} players{board}"
            )
    for info in rulesets:
        if only is not None and info.name != only:
            continue
        lines.append(f"Options of {info.title} (rules={info.name}), as OPTION=VALUE:")
        lines += option_lines(info, words.get(info.name, {})) or ["  none"]
        lines.append(
            f"  strategy={'|'.join(info.strategies)}  how its computer players (bots=N) play (default "
            f"{info.default_strategy})"
        )
    return "\n".join(lines) + "\n"
