"""What the client shows, as styled text: the board, the summary, the game's events, tables.

Every function here is pure: it takes the protocol's values and returns prompt_toolkit FormattedText, so the screen
can be golden-tested as plain text (`plain`) without a terminal. Colours are style classes (`class:player.N`), one per
seat in the order the game lists its players, so a player has the same colour on every screen.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from prompt_toolkit.formatted_text import FormattedText, OneStyleAndTextTuple, StyleAndTextTuples, fragment_list_to_text
from prompt_toolkit.styles import Style

from shared.protocol.lobby import GamePhase, GameSummary
from shared.protocol.log import (
    GameCreated,
    GameStarted,
    LogEvent,
    PlayerCommitted,
    PlayerJoined,
    PlayerLeft,
    RematchRequested,
    RematchStarted,
    TimeRanOut,
)
from shared.rules.events import (
    Combat,
    GameWon,
    PlayerEliminated,
    TurnStarted,
    UnitsMoved,
    UnitsPlaced,
    UnitsReceived,
)
from shared.rules.orders import Order, PlaceOrder, describe
from shared.rules.state import Owner, Phase
from shared.rules.view import GameView, TerritoryView

Fragments = StyleAndTextTuples

PLAYER_COLOURS = ("ansigreen", "ansibrightblue", "ansired", "ansiyellow", "ansimagenta", "ansicyan",
                  "ansibrightred", "ansibrightgreen")
STYLE = Style.from_dict({
    **{f"player.{i}": f"{colour} bold" for i, colour in enumerate(PLAYER_COLOURS)},
    "neutral": "ansigray",
    "title": "bold underline",
    "muted": "ansigray",
    "error": "ansired bold",
    "ok": "ansigreen",
    "hint": "ansicyan",
    "turn": "bold reverse",
    "win": "ansiyellow bold",
    "bottom-toolbar": "reverse",
})


def plain(text: FormattedText | Fragments) -> str:
    """The text without its styles: what golden tests compare and what the transcript records."""
    return fragment_list_to_text(text)


def units(n: int) -> str:
    return f"{n} unit" if n == 1 else f"{n} units"


def _count(n: int, word: str, many: str | None = None) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {many or word + 's'}"


@dataclass(frozen=True)
class Palette:
    """Who gets which colour: seat order, the same for every viewer."""

    players: tuple[str, ...]

    def style(self, owner: Owner) -> str:
        if owner is None or owner not in self.players:
            return "class:neutral"
        return f"class:player.{self.players.index(owner) % len(PLAYER_COLOURS)}"

    def name(self, owner: Owner, you: str | None = None) -> Fragments:
        if owner is None:
            return [(self.style(None), "neutral")]
        shown = f"{owner} (you)" if owner == you else owner
        return [(self.style(owner), shown)]


def palette_of(view: GameView | None, game: GameSummary | None = None) -> Palette:
    if view is not None:
        return Palette(tuple(p.name for p in view.players))
    if game is not None:
        return Palette(tuple(s.name for s in game.seats))
    return Palette(())


def _territory_line(territory: TerritoryView, placing: int = 0) -> str:
    pending = f" (+{placing} to place)" if placing else ""
    return f"  {units(territory.units)}{pending} in {territory.name} (next to: {', '.join(territory.neighbours)})\n"


def _placing(view: GameView, orders: Sequence[Order]) -> dict[str, int]:
    """The viewer's own placements not yet resolved, by territory: during placement the board shows the units there
    before it (R10: placement is secret until everyone has committed), and these show what the player has chosen."""
    placing: dict[str, int] = {}
    if view.phase is Phase.PLACEMENT:
        for order in orders:
            if isinstance(order, PlaceOrder):
                placing[order.territory] = placing.get(order.territory, 0) + order.units
    return placing


def board(view: GameView, orders: Sequence[Order] | None = None) -> FormattedText:
    """The seed's listing: per player, each territory with its units and neighbours; the viewer's own first.
    `orders`: the viewer's orders as they stand now (by default those the view was sent with)."""
    palette = palette_of(view)
    you = view.viewer
    owners: list[Owner] = [p.name for p in view.players]
    if you in owners:
        owners.remove(you)
        owners.insert(0, you)
    owners.append(None)
    placing = _placing(view, view.your_orders if orders is None else orders)
    out: Fragments = []
    for owner in owners:
        held = [t for t in view.territories if t.owner == owner]
        if not held:
            continue
        if out:
            out.append(("", "\n"))
        out += [*palette.name(owner, you), (palette.style(owner), ":\n")]
        out += [("", _territory_line(t, placing.get(t.name, 0))) for t in held]
    return FormattedText(out)


def _phase_words(view: GameView) -> str:
    if view.phase is Phase.PLACEMENT:
        return "placement"
    if view.phase is Phase.FINISHED:
        return f"finished after turn {view.turn}"
    return f"turn {view.turn}"


def summary(view: GameView) -> FormattedText:
    """Territories and units per player, the turn and phase, and who has committed: the board at a glance."""
    palette = palette_of(view)
    you = view.viewer
    neutral = [t for t in view.territories if t.owner is None]
    rows: list[tuple[Owner, str, str, str, str]] = []
    for player in view.players:
        if player.eliminated:
            state = "eliminated"
        elif view.phase is Phase.FINISHED:
            state = "winner" if player.name == view.winner else ""
        else:
            state = "committed" if player.committed else "deciding"
        shown = f"{player.name} (you)" if player.name == you else player.name
        rows.append((player.name, shown, _count(player.territories, "territory", "territories"),
                     units(player.units), state))
    if neutral:
        rows.append((None, "neutral", _count(len(neutral), "territory", "territories"),
                     units(sum(t.units for t in neutral)), ""))
    widths = [max(len(row[1]) for row in rows), max(len(row[2]) for row in rows), max(len(row[3]) for row in rows)]
    out: Fragments = [("class:title", f"{view.map_name}, {_phase_words(view)}"), ("", "\n")]
    for owner, shown, held, count, state in rows:
        line = f"  {held:<{widths[1]}}  {count:>{widths[2]}}  {state}".rstrip()
        out += [("", "  "), (palette.style(owner), shown.ljust(widths[0])), ("", line + "\n")]
    return FormattedText(out)


def placement_hint(view: GameView, pool_left: int) -> FormattedText:
    own = [t.name for t in view.territories if t.owner == view.viewer]
    example = own[0] if own else "TERRITORY"
    return FormattedText([("class:hint", f"Place your {units(pool_left)} on your territories "
                                         f"({', '.join(own)}): e.g. place {min(pool_left, 5) or 1} {example}; "
                                         f"then done.\n")])


def orders_hint(view: GameView) -> FormattedText:
    return FormattedText([("class:hint", f"Turn {view.turn}: move N FROM TO, attack N FROM TO, orders, withdraw K, "
                                         "done (help for more).\n")])


def _sources(combat: Combat) -> str:
    if len(combat.sources) == 1:
        return f"from {combat.sources[0][0]}"
    return "from " + ", ".join(f"{name} {n}" for name, n in combat.sources)


def combat_line(combat: Combat, palette: Palette) -> FormattedText:
    """One combat in one line (R24): where, who against whom, the forces, the losses and who holds it now."""
    out: Fragments = [*palette.name(combat.attacker),
                      ("", f" attacked {combat.territory} ("), *palette.name(combat.defender),
                      ("", f") with {combat.attacking_units} {_sources(combat)} "
                           f"against {combat.defending_units}: ")]
    out += [*palette.name(combat.attacker), ("", f" lost {combat.attacker_losses}, "),
            *palette.name(combat.defender), ("", f" lost {combat.defender_losses}. ")]
    if combat.attacker_won:
        left = combat.attacking_units - combat.attacker_losses
        out += [*palette.name(combat.attacker), ("", f" takes {combat.territory}, {units(left)} left.")]
    else:
        left = combat.defending_units - combat.defender_losses
        out += [*palette.name(combat.defender), ("", f" holds {combat.territory}, {units(left)} left.")]
    return FormattedText(out)


def _line(*parts: OneStyleAndTextTuple) -> Fragments:
    return [*parts, ("", "\n")]


def events(entries: Sequence[LogEvent], palette: Palette, you: str | None = None) -> FormattedText:
    """The game's log entries as lines to print above the prompt.

    Placements and new units come many at a time, so a run of them reads as one line per player (placements) or one
    line for everybody (new units) rather than a screenful.
    """
    out: Fragments = []
    index = 0
    while index < len(entries):
        entry = entries[index]
        if isinstance(entry, UnitsPlaced):
            run = [entry]
            while index + 1 < len(entries) and isinstance(entries[index + 1], UnitsPlaced) \
                    and entries[index + 1].player == entry.player:  # type: ignore[union-attr]
                index += 1
                run.append(entries[index])  # type: ignore[arg-type]
            where = ", ".join(f"{p.units} on {p.territory}" for p in run)
            out += _line(*palette.name(entry.player), ("", f" placed {where}."))
        elif isinstance(entry, UnitsReceived):
            run_received = [entry]
            while index + 1 < len(entries) and isinstance(entries[index + 1], UnitsReceived):
                index += 1
                run_received.append(entries[index])  # type: ignore[arg-type]
            parts: Fragments = [("", "New units: ")]
            for number, received in enumerate(run_received):
                if number:
                    parts.append(("", ", "))
                parts += [*palette.name(received.player), ("", f" +{received.units}")]
            out += _line(*parts, ("", "."))
        else:
            out += event_line(entry, palette, you)
        index += 1
    return FormattedText(out)


def event_line(entry: LogEvent, palette: Palette, you: str | None = None) -> Fragments:
    """One log entry as one line (with its newline); an entry nobody needs to read gives nothing."""
    def who(name: Owner) -> Fragments:
        return palette.name(name)

    if isinstance(entry, GameCreated):
        return []
    if isinstance(entry, PlayerJoined):
        return _line(*who(entry.player), ("", " joined."))
    if isinstance(entry, PlayerLeft):
        return _line(*who(entry.player), ("", " left."))
    if isinstance(entry, GameStarted):
        return _line(("class:title", "The game starts: "), ("", ", ".join(entry.players) + "."))
    if isinstance(entry, PlayerCommitted):
        done = "is done placing" if entry.turn == 0 else "committed"
        return _line(*who(entry.player), ("", f" {done}."))
    if isinstance(entry, TimeRanOut):
        names = ", ".join(entry.players) or "nobody"
        return _line(("class:hint", f"Time ran out: {names} committed with the orders they had."))
    if isinstance(entry, RematchRequested):
        return _line(*who(entry.player), ("", " wants a rematch."))
    if isinstance(entry, RematchStarted):
        return _line(("class:hint", f"The rematch has started: game {entry.game_id}."))
    if isinstance(entry, UnitsPlaced):
        return _line(*who(entry.player), ("", f" placed {entry.units} on {entry.territory}."))
    if isinstance(entry, UnitsMoved):
        return _line(*who(entry.player), ("", f" moved {entry.units} from {entry.source} to {entry.target}."))
    if isinstance(entry, Combat):
        return [*combat_line(entry, palette), ("", "\n")]
    if isinstance(entry, UnitsReceived):
        return _line(*who(entry.player), ("", f" received {units(entry.units)}."))
    if isinstance(entry, PlayerEliminated):
        if entry.player == you:
            return _line(("class:error", "You have lost: you hold no territory any more."))
        return _line(*who(entry.player), ("class:error", " is eliminated."))
    if isinstance(entry, GameWon):
        if entry.player == you:
            return _line(("class:win", "You win: the whole map is yours!"))
        return _line(*who(entry.player), ("class:win", " wins the game!"))
    if isinstance(entry, TurnStarted):
        return _line(("class:turn", f" Turn {entry.turn} "))
    return []


def order_list(orders: Sequence[Order], committed: bool = False) -> FormattedText:
    if not orders:
        text = "No orders yet." + (" (committed)" if committed else "")
        return FormattedText([("class:muted", text + "\n")])
    out: Fragments = [("class:title", "Your orders" + (" (committed)" if committed else "") + ":"), ("", "\n")]
    out += [("", f"  {number}. {describe(order)}\n") for number, order in enumerate(orders, start=1)]
    return FormattedText(out)


def games_table(games: Sequence[GameSummary]) -> FormattedText:
    """The lobby: each game with its map, seats and phase, and what one can do with it."""
    if not games:
        return FormattedText([("class:muted", "No games yet: create one, e.g. create seed 3\n")])
    out: Fragments = [("class:title", "Games:"), ("", "\n")]
    for game in games:
        seated = ", ".join(s.name for s in game.seats) or "nobody yet"
        if game.phase is GamePhase.LOBBY:
            state = f"{game.free} of {game.settings.players} seats free"
        elif game.phase is GamePhase.FINISHED:
            state = f"finished, {game.winner} won" if game.winner else "finished"
        else:
            state = f"{game.phase.value}, turn {game.turn}" if game.phase is GamePhase.ORDERS else "placement"
        extras = []
        if game.settings.turn_seconds:
            extras.append(f"{game.settings.turn_seconds:g}s turns")
        if game.settings.choose_groups:
            extras.append("choose groups")
        extra = f" [{', '.join(extras)}]" if extras else ""
        out.append(("", f"  {game.game_id:<12} {game.map_name} ({game.territories} territories){extra}: {state}; "
                        f"players: {seated}\n"))
    return FormattedText(out)


def groups_list(game: GameSummary) -> FormattedText:
    """The starting groups of a game whose players choose them (R8), with who has taken which."""
    taken = {seat.group: seat.name for seat in game.seats if seat.group is not None}
    out: Fragments = [("class:hint", f"Starting groups of game {game.game_id} (join {game.game_id} N):\n")]
    for number, group in enumerate(game.groups or ()):
        holder = f" (taken by {taken[number]})" if number in taken else ""
        out.append(("", f"  {number}: {', '.join(group)}{holder}\n"))
    return FormattedText(out)


TurnRecord = Mapping[str, tuple[int, int]]
"""One turn's standing: player -> (territories, units)."""


def history_table(history: Mapping[str, TurnRecord], players: Sequence[str], palette: Palette) -> FormattedText:
    """Territories and units per player over the turns the client saw: the story of the game in one table."""
    if not history:
        return FormattedText([("class:muted", "Nothing recorded yet.\n")])
    width = max([len(p) for p in players] + [9])
    out: Fragments = [("class:title", "Territories/units per turn:"), ("", "\n"), ("", "  turn  ")]
    for number, player in enumerate(players):
        out.append((palette.style(player), player.rjust(width)))
        out.append(("", "  " if number < len(players) - 1 else "\n"))
    for label, record in history.items():
        cells = "".join(
            (f"{record[p][0]}/{record[p][1]}" if p in record else "-").rjust(width) + "  " for p in players)
        out.append(("", f"  {label:>4}  {cells.rstrip()}\n"))
    return FormattedText(out)


def join_lines(parts: Iterable[FormattedText | Fragments]) -> FormattedText:
    out: Fragments = []
    for part in parts:
        out += list(part)
    return FormattedText(out)
