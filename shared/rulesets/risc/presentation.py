"""How RISC Evolution 1 reads in the text client: `place`, `move` and `attack`, the board as the seed lists it, the
combats.

Each evolution's presentation (evo_presentation.py) is a subclass of this one, as each evolution's rule set is of
Evolution 1's: the same commands with levels, and `upgrade`, `research`, `spy` and `cloak`, which a game of an
earlier evolution refuses with a word on why.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

from shared.game import grammar, reports
from shared.game.grammar import ParseError
from shared.game.presentation import (
    FRONT,
    ArgKind,
    Context,
    Fragments,
    Holding,
    OrderCommand,
    Palette,
    Presentation,
    Shown,
    draw_line,
    front_of,
    joined,
    line,
    plural,
    runs,
    territory_board,
    units,
)
from shared.game.shares import even_shares
from shared.maps.model import GameMap
from shared.rulesets.risc.board import Phase
from shared.rulesets.risc.commands import (
    EVERY_COMMAND,
    EVOLUTION_COMMANDS,
    MOVE,
    PLACE,
    usage,
)
from shared.rulesets.risc.events import (
    Combat,
    GameDrawn,
    GameWon,
    PlayerEliminated,
    TurnStarted,
    UnitsMoved,
    UnitsPlaced,
    UnitsReceived,
)
from shared.rulesets.risc.evo_events import Battle, LevelMoved, UnitsUpgraded
from shared.rulesets.risc.evo_view import EvoView
from shared.rulesets.risc.orders import AttackOrder, MoveOrder, PlaceOrder
from shared.rulesets.risc.view import RiscView


def combat_line(combat: Combat, palette: Palette) -> Fragments:
    """One combat in one line (R24): where, who against whom, the forces, the losses and who holds it now."""
    if len(combat.sources) == 1:
        came = f"from {combat.sources[0][0]}"
    else:
        came = "from " + ", ".join(f"{name} {n}" for name, n in combat.sources)
    out: Fragments = [
        *palette.name(combat.attacker),
        ("", f" attacked {combat.territory} ("),
        *palette.name(combat.defender),
        ("", f") with {combat.attacking_units} {came} against {combat.defending_units}: "),
    ]
    out += [
        *palette.name(combat.attacker),
        ("", f" lost {combat.attacker_losses}, "),
        *palette.name(combat.defender),
        ("", f" lost {combat.defender_losses}. "),
    ]
    if combat.attacker_won:
        left = combat.attacking_units - combat.attacker_losses
        out += [*palette.name(combat.attacker), ("", f" takes {combat.territory}, {units(left)} left.")]
    else:
        left = combat.defending_units - combat.defender_losses
        out += [*palette.name(combat.defender), ("", f" holds {combat.territory}, {units(left)} left.")]
    return out


def pool_left(view: RiscView | EvoView, orders: Sequence[Any]) -> int:
    """What the viewer has still to place once `orders` (their orders as they stand now) are counted: the view's
    pool was counted against the orders it was made with."""
    pool = view.pool_left + sum(o.units for o in view.your_orders if isinstance(o, PlaceOrder))
    return pool - sum(o.units for o in orders if isinstance(o, PlaceOrder))


def report(happened: Sequence[Combat | UnitsMoved], palette: Palette, you: str) -> Fragments:
    """A turn's moves and combats as a player reads them: first what they won and lost, then their combats in full
    and their moves, then in a few words everything else that happened ("Elsewhere")."""
    combats = [e for e in happened if isinstance(e, Combat)]
    mine = [c for c in combats if you in (c.attacker, c.defender)]
    took = [c for c in mine if c.attacker == you and c.attacker_won]
    failed = [c for c in mine if c.attacker == you and not c.attacker_won]
    lost = [c for c in mine if c.defender == you and c.attacker_won]
    held = [c for c in mine if c.defender == you and not c.attacker_won]
    parts: list[Fragments] = []
    if took:
        parts.append(
            [
                ("", "you took "),
                *joined([[("", f"{c.territory} ("), *palette.name(c.defender), ("", ")")] for c in took]),
            ]
        )
    if lost:
        parts.append(
            [
                ("class:error", "you lost "),
                *joined([[("", f"{c.territory} to "), *palette.name(c.attacker)] for c in lost]),
            ]
        )
    if held:
        parts.append(
            [("", "you held "), *joined([[("", f"{c.territory} against "), *palette.name(c.attacker)] for c in held])]
        )
    if failed:
        parts.append(
            [
                ("", "your attack failed at " if len(failed) == 1 else "your attacks failed at "),
                *joined([[("", c.territory)] for c in failed]),
            ]
        )
    out: Fragments = []
    if parts:
        out += [("class:title", "This turn "), *joined(parts, "; "), ("", ".\n")]
    for combat in mine:
        out += [("", "  "), *combat_line(combat, palette), ("", "\n")]
    own_moves = [e for e in happened if isinstance(e, UnitsMoved) and e.player == you]
    if own_moves:
        out.append(
            ("", "You moved " + ", ".join(f"{m.units} from {m.source} to {m.target}" for m in own_moves) + ".\n")
        )
    others = [c for c in combats if c not in mine]
    if others:
        said = []
        for c in others:
            verb = f" took {c.territory} from " if c.attacker_won else f" failed to take {c.territory} from "
            said.append(
                [
                    *palette.name(c.attacker),
                    ("", verb),
                    *palette.name(c.defender),
                    ("", f" ({c.attacking_units} against {c.defending_units})"),
                ]
            )
        out += [("class:title", "Elsewhere: "), *joined(said, "; "), ("", ".\n")]
    moved = [e for e in happened if isinstance(e, UnitsMoved) and e.player != you]
    if moved:
        out += [
            ("class:title", "Others moved: "),
            *joined(
                [[*palette.name(m.player), ("", f" {m.units} from {m.source} to {m.target}")] for m in moved], "; "
            ),
            ("", ".\n"),
        ]
    return out


def fight_of(event: Combat | Battle) -> reports.Fight:
    """A combat (Evolution 1) or a battle (Evolutions 2 and 3) as the brief report tells it."""
    if isinstance(event, Combat):
        left = (
            event.attacking_units - event.attacker_losses
            if event.attacker_won
            else event.defending_units - event.defender_losses
        )
        return reports.Fight(
            event.territory,
            event.attacker,
            event.defender,
            event.attacking_units,
            event.defending_units,
            event.attacker_won,
            left,
            tuple(n for n, _ in event.sources),
        )
    left = sum(event.attackers_left) if event.attacker_won else sum(event.defenders_left)
    return reports.Fight(
        event.territory,
        event.attacker,
        event.defender,
        sum(event.attacking),
        sum(event.defending),
        event.attacker_won,
        left,
        tuple(n for n, _ in event.sources),
    )


def moves_of(events: Sequence[UnitsMoved | LevelMoved]) -> list[reports.Move]:
    """Moves as the brief report tells them: an evolution's move of several levels (one event a level) as one."""
    found: list[reports.Move] = []
    for event in events:
        last = found[-1] if found else None
        if (
            isinstance(event, LevelMoved)
            and last is not None
            and (last.player, last.source, last.target) == (event.player, event.source, event.target)
        ):
            found[-1] = reports.Move(last.player, last.units + event.units, last.source, last.target)
        else:
            found.append(reports.Move(event.player, event.units, event.source, event.target))
    return found


PLACES_NAMED = 4
"""A player's placement names each territory up to this many; past it, the brief report counts them."""


def placements(placed: Sequence[UnitsPlaced], palette: Palette, you: str | None) -> Fragments:
    """Each player's placement in one line: where, or on a big map how many units on how many territories (`report`
    says where)."""
    out: Fragments = []
    for player in dict.fromkeys(p.player for p in placed):
        theirs = [p for p in placed if p.player == player]
        if len({p.territory for p in theirs}) <= PLACES_NAMED:
            where = ", ".join(f"{p.units} on {p.territory}" for p in theirs)
            out += line(*palette.name(player), ("", f" placed {where}."))
        else:
            count = plural(len({p.territory for p in theirs}), "territory", "territories")
            out += line(
                *palette.name(player),
                ("", f" placed {units(sum(p.units for p in theirs))} on {count}"),
                ("class:muted", " (report: where)"),
                ("", "."),
            )
    return out


def upgrades(upgraded: Sequence[UnitsUpgraded], palette: Palette, you: str | None) -> Fragments:
    """The viewer's upgrades one by one, everyone else's counted."""
    out: Fragments = []
    own = [u for u in upgraded if u.player == you]
    if own:
        out += line(
            (
                "",
                "You upgraded "
                + ", ".join(f"{u.units} on {u.territory} from level {u.level} to {u.to_level}" for u in own)
                + ".",
            )
        )
    others = [u for u in upgraded if u.player != you]
    if others:
        parts: Fragments = [("", "Upgrades: ")]
        for number, player in enumerate(dict.fromkeys(u.player for u in others)):
            parts += [
                ("", ", " if number else ""),
                *palette.name(player),
                ("", f" {units(sum(u.units for u in others if u.player == player))}"),
            ]
        out += line(*parts, ("", "."))
    return out


def stage_of(view: RiscView | EvoView) -> str:
    """Where a RISC game stands, as its summary's title says it: placement, a turn, or finished after one."""
    if view.phase is Phase.PLACEMENT:
        return "placement"
    return f"finished after turn {view.turn}" if view.phase is Phase.FINISHED else f"turn {view.turn}"


def pending_placements(view: RiscView | EvoView, orders: Sequence[Any]) -> dict[str, int]:
    """The viewer's own placements not yet resolved, by territory: during placement the board shows the units there
    before it (R10: placement is secret until everyone has committed), and these show what the player has chosen."""
    placing: dict[str, int] = {}
    if view.phase is Phase.PLACEMENT:
        for order in orders:
            if isinstance(order, PlaceOrder):
                placing[order.territory] = placing.get(order.territory, 0) + order.units
    return placing


def _held(view: RiscView | EvoView) -> dict[str, Holding]:
    return {name: (t.owner, t.units) for name, t in view.territories.items()}


def _one_line(first: Any, event: Any) -> bool:
    """A player's placements read as one line, and everyone's new units."""
    if isinstance(first, UnitsPlaced):
        return isinstance(event, UnitsPlaced) and event.player == first.player
    return isinstance(first, UnitsReceived) and isinstance(event, UnitsReceived)


class RiscPresentation(Presentation):
    """Evolution 1. An evolution's presentation overrides what its rules change: the commands it adds, how moves and
    attacks name levels, its events, its board and summary."""

    evolution: ClassVar[int] = 1
    brief_boards = True
    commands = EVERY_COMMAND
    resignation = "their territories are neutral now, with their units"
    option_words = {"units": "initial_units", "neutral": "neutral_units", "choose": "choose_groups"}  # noqa: RUF012
    turn_hint: ClassVar[str] = "move N FROM TO, attack N FROM TO"
    """The orders of a turn, as the hint at its start lists them."""
    choices: ClassVar[tuple[str, ...]] = ()
    """The words a command's CHOICE argument takes here (`research cloaking`, Evolution 3)."""

    def game_commands(self, view: RiscView | EvoView | None) -> tuple[OrderCommand, ...]:
        return EVOLUTION_COMMANDS[self.evolution]

    def unavailable(self, command: OrderCommand, view: RiscView | EvoView | None) -> str:
        first = next(e for e, commands in EVOLUTION_COMMANDS.items() if command in commands)
        which = "Evolution 3" if first == 3 else f"Evolutions {first} and 3"
        return f"{command.name} is an order of RISC {which}; this game plays Evolution {self.evolution}"

    def owners(self, view: RiscView | EvoView) -> dict[str, str | None]:
        """As the view shows them: under fog of war, what the player saw last, or nobody for what they never saw."""
        return {name: t.owner for name, t in view.territories.items()}

    def parse(self, command: OrderCommand, args: list[str], context: Context) -> list[Any] | ParseError:
        if command not in self.game_commands(context.view):
            return ParseError(self.unavailable(command, context.view))
        if command is PLACE:
            return self._place(args, context)
        return self.parse_turn(command, args, context)

    def parse_turn(self, command: OrderCommand, args: list[str], context: Context) -> list[Any] | ParseError:
        """A command of the orders phase (`move`, `attack` in Evolution 1)."""
        names = context.territories
        if not args:
            return ParseError(f"{command.name} needs a number of units, where from and where to; {usage(command)}")
        if "@" in args[0]:
            return ParseError("unit levels are part of RISC Evolutions 2 and 3; this game plays Evolution 1")
        count = grammar.count(args[0], "the number of units", usage(command))
        if isinstance(count, ParseError):
            return count
        if len(args) < 3:
            return ParseError(f"{command.name} needs a number of units, where from and where to; {usage(command)}")
        pair = grammar.source_and_target(args[1:], names, usage(command))
        if isinstance(pair, ParseError):
            return pair
        source, target = pair
        return [MoveOrder(count, source, target) if command is MOVE else AttackOrder(count, source, target)]

    def _place(self, args: list[str], context: Context) -> list[Any] | ParseError:
        """`place N TERRITORY`, or quicker: N spread evenly over several territories (`*`: all one's own; the
        first ones get what does not divide), and `rest` for what the pool still holds."""
        if len(args) < 2:
            return ParseError(f"place needs a number of units and a territory; {usage(PLACE)}")
        view: RiscView | None = context.view
        own = [n for n in context.territories if view is not None and view.territories[n].owner == context.you]
        if args[0].casefold() in grammar.REST:
            count = pool_left(view, context.orders) if view is not None else 0
            if count <= 0:
                return ParseError("you have no units left to place")
        else:
            number = grammar.count(args[0], "the number of units", usage(PLACE))
            if isinstance(number, ParseError):
                return number
            count = number
        targets = grammar.several(args[1:], context.territories, own)
        if isinstance(targets, ParseError):
            return targets
        orders = [PlaceOrder(name, units) for name, units in even_shares(count, targets)]
        return orders or [PlaceOrder(targets[0], count)]

    def events(self, events: Sequence[Any], palette: Palette, you: str | None) -> Fragments:
        """Placements and new units come many at a time, so a run of them reads as one line per player
        (placements) or one line for everybody (new units) rather than a screenful. A player's turn report leads
        with what concerns them (see `report`); a spectator reads one line per happening."""
        if you is not None and any(isinstance(e, Combat | UnitsMoved) for e in events):
            first = next(i for i, e in enumerate(events) if isinstance(e, Combat | UnitsMoved))
            rest = [e for e in events[first:] if not isinstance(e, Combat | UnitsMoved)]
            taken = [e for e in events[first:] if isinstance(e, Combat | UnitsMoved)]
            return [
                *self.events(events[:first], palette, you),
                *report(taken, palette, you),
                *self.events(rest, palette, you),
            ]
        out: Fragments = []
        for run in runs(events, _one_line):
            event = run[0]
            if isinstance(event, UnitsPlaced):
                where = ", ".join(f"{p.units} on {p.territory}" for p in run)
                out += line(*palette.name(event.player), ("", f" placed {where}."))
            elif isinstance(event, UnitsReceived):
                parts: Fragments = [("", "New units: ")]
                for number, one in enumerate(run):
                    if number:
                        parts.append(("", ", "))
                    parts += [*palette.name(one.player), ("", f" +{one.units}")]
                out += line(*parts, ("", "."))
            else:
                out += self.event_line(event, palette, you)
        return out

    def brief(self, events: Sequence[Any], palette: Palette, you: str | None) -> Fragments:
        """Placements in one line, the viewer's fights and moves a few words each and everyone else's counted
        (shared.game.reports), upgrades likewise; the rest as `events` says it."""
        fights = [fight_of(e) for e in events if isinstance(e, Combat | Battle)]
        moves = moves_of([e for e in events if isinstance(e, UnitsMoved | LevelMoved)])
        placed = [e for e in events if isinstance(e, UnitsPlaced)]
        upgraded = [e for e in events if isinstance(e, UnitsUpgraded)]
        rest = [
            e
            for e in events
            if not isinstance(e, Combat | Battle | UnitsMoved | LevelMoved | UnitsPlaced | UnitsUpgraded)
        ]
        out: Fragments = placements(placed, palette, you) if placed else []
        out += upgrades(upgraded, palette, you)
        out += reports.brief(fights, moves, palette, you)
        return [*out, *self.events(rest, palette, you)]

    def event_line(self, event: Any, palette: Palette, you: str | None) -> Fragments:
        if isinstance(event, UnitsPlaced):
            return line(*palette.name(event.player), ("", f" placed {event.units} on {event.territory}."))
        if isinstance(event, UnitsMoved):
            return line(
                *palette.name(event.player), ("", f" moved {event.units} from {event.source} to {event.target}.")
            )
        if isinstance(event, Combat):
            return [*combat_line(event, palette), ("", "\n")]
        if isinstance(event, UnitsReceived):
            return line(*palette.name(event.player), ("", f" received {units(event.units)}."))
        if isinstance(event, PlayerEliminated):
            if event.player == you:
                return line(("class:error", "You have lost: you hold no territory any more."))
            return line(*palette.name(event.player), ("class:error", " is eliminated."))
        if isinstance(event, GameWon):
            if event.player == you:
                return line(("class:win", "You win: the whole map is yours!"))
            return line(*palette.name(event.player), ("class:win", " wins the game!"))
        if isinstance(event, GameDrawn):
            return draw_line(event.reason)
        if isinstance(event, TurnStarted):
            return line(("class:turn", f" Turn {event.turn} "))
        return []

    def draw(self, asked: Shown) -> Fragments:
        """A territory a line, grouped by continent: its units and holder's mark, then each neighbour short with
        its units and mark (`Oz 8 A | Mid 12 A, Sca 5 B`), under a legend of the marks. `orders`: the viewer's
        orders as they stand now (during placement, what they have placed so far shows beside their territories).
        `focus`: a territory (with its neighbours), a player or a continent alone."""
        view: RiscView = asked.view
        game_map, palette, you, orders, focus = asked.game_map, asked.palette, asked.you, asked.orders, asked.focus
        names = list(game_map.names)
        if focus == FRONT:
            names = front_of(game_map, self.owners(view), you)
            if not names:
                return line(("", "You have no front: no territory of yours is next to someone else's."))
        elif focus is not None:
            if focus in game_map:
                names = [focus, *game_map.neighbours_in_order(focus)]
            elif focus in view.players:
                names = [n for n in names if view.territories[n].owner == focus]
                if not names:
                    return line(*palette.name(focus, you), ("", " holds no territory."))
            else:
                names = [n for n in names if game_map.territory(n).continent == focus]
        placing = pending_placements(view, orders)
        return territory_board(
            game_map, _held(view), palette, you, names, {n: f" (+{k} to place)" for n, k in placing.items() if k}
        )

    def holdings(self, view: RiscView | EvoView) -> dict[str, Holding] | None:
        return _held(view)

    def focus_names(self, view: Any, game_map: GameMap) -> Sequence[str]:
        players = list(view.players) if view is not None else []
        return [*game_map.names, *players, *(c.name for c in game_map.continents), FRONT]

    def summary(self, view: RiscView, game_map: GameMap, palette: Palette, you: str | None) -> Fragments:
        """Territories and units per player, the turn and phase: the board at a glance."""
        neutral = [t for t in view.territories.values() if t.owner is None]
        rows: list[tuple[str | None, str, str, str, str]] = []
        for name, player in view.players.items():
            if player.eliminated:
                state = "eliminated"
            elif view.phase is Phase.FINISHED:
                state = "winner" if name == view.winner else ""
            else:
                state = ""
            shown = f"{name} (you)" if name == you else name
            rows.append(
                (name, shown, plural(player.territories, "territory", "territories"), units(player.units), state)
            )
        if neutral:
            rows.append(
                (
                    None,
                    "neutral",
                    plural(len(neutral), "territory", "territories"),
                    units(sum(t.units for t in neutral)),
                    "",
                )
            )
        widths = [max(len(row[1]) for row in rows), max(len(row[2]) for row in rows), max(len(row[3]) for row in rows)]
        stage = stage_of(view)
        out: Fragments = [("class:title", f"{game_map.name}, {stage}"), ("", "\n")]
        for owner, shown, held, count, state in rows:
            text = f"  {held:<{widths[1]}}  {count:>{widths[2]}}  {state}".rstrip()
            out += [("", "  "), (palette.style(owner), shown.ljust(widths[0])), ("", text + "\n")]
        return out

    def stage_key(self, view: RiscView | EvoView) -> Any:
        return view.phase, view.turn

    def hint(self, view: RiscView | EvoView, game_map: GameMap, you: str | None, awaited: bool) -> Fragments:
        if not awaited or you is None:
            return []
        if view.phase is Phase.PLACEMENT:
            own = [name for name in game_map.names if view.territories[name].owner == you]
            example = own[0] if own else "TERRITORY"
            if len(own) > 6:
                return [
                    (
                        "class:hint",
                        f"Place your {units(view.pool_left)} on your {len(own)} territories: e.g. "
                        f"place {view.pool_left} * spreads them over all, place 10 {example} "
                        f"{own[1]} over those two, place rest {example} puts what is left; "
                        "then done.\n",
                    )
                ]
            return [
                (
                    "class:hint",
                    f"Place your {units(view.pool_left)} on your territories ({', '.join(own)}): "
                    f"e.g. place {min(view.pool_left, 5) or 1} {example}; then done.\n",
                )
            ]
        if view.phase is Phase.ORDERS:
            return [("class:hint", f"Turn {view.turn}: {self.turn_hint}, orders, withdraw K, done (help for more).\n")]
        return []

    def status(
        self, view: RiscView | EvoView, you: str | None, orders: Sequence[Any], game_map: GameMap | None = None
    ) -> str:
        if view.phase is Phase.PLACEMENT and you is not None:
            return f"{units(pool_left(view, orders))} left to place"
        return ""

    def standings(self, view: RiscView) -> dict[str, tuple[int, int]]:
        if view.phase is Phase.PLACEMENT:
            return {}
        return {name: (p.territories, p.units) for name, p in view.players.items()}

    def candidates(self, kind: ArgKind, words: Sequence[str], context: Context) -> Sequence[str]:
        view: RiscView | EvoView | None = context.view
        if kind is ArgKind.CHOICE:
            return self.choices
        names = context.territories
        if view is None or context.game_map is None:
            return names
        own = [n for n in names if view.territories[n].owner == context.you]
        if kind is ArgKind.OWN:
            return own or names
        if kind is ArgKind.ENEMY and len(words) > 2:
            source = grammar.name(words[2], names)
            if isinstance(source, str):
                return [
                    n
                    for n in context.game_map.neighbours_in_order(source)
                    if view.territories[n].owner != view.territories[source].owner
                ] or names
        return names
