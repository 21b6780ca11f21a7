"""How the grid game reads in the text client: the board drawn as the seed draws it (rows 0-4, columns 0-4, the
owner's letter and troops in each cell), and commands in the seed's own words.

Commands: `deploy ROW,COL` (the deployment stage's one troop, and a turn's new troops), `attack FROM TO M`,
`movein P` after taking a territory, `move FROM TO P` (the turn's one move, which ends it) and `end`. A cell may be
typed "2,3", "(2, 3)" or "2 3": the numbers are read in order, as the seed's scanf("%u %u") reads them.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from shared.game.grammar import ParseError
from shared.game.presentation import (
    ArgKind,
    Context,
    Fragments,
    OrderCommand,
    Palette,
    Shown,
    draw_line,
    line,
    plural,
)
from shared.maps.model import GameMap
from shared.rulesets.grid.board import Phase
from shared.rulesets.grid.cells import cell
from shared.rulesets.grid.events import (
    Battle,
    CellTaken,
    GameDrawn,
    GameWon,
    NewTroopsDeployed,
    PlayerEliminated,
    TroopDeployed,
    TroopsMoved,
    TroopsMovedIn,
    TurnEnded,
    TurnStarted,
)
from shared.rulesets.grid.options import SIZE
from shared.rulesets.grid.orders import Attack, Deploy, End, Move, MoveIn
from shared.rulesets.grid.view import GridView
from shared.rulesets.turn_by_turn.presentation import TurnByTurnPresentation

DEPLOY = OrderCommand(
    "deploy",
    ("dep",),
    "deploy ROW,COL",
    "deploy 2,3",
    "deploy a troop (deployment stage) or all your new troops on one of your territories",
    (ArgKind.OWN,),
    ("deployment", "new troops"),
)
ATTACK = OrderCommand(
    "attack",
    ("a",),
    "attack FROM TO M",
    "attack 2,3 2,4 3",
    "attack a neighbouring territory with M troops (1 to 3, fewer than FROM holds)",
    (ArgKind.OWN, ArgKind.ENEMY, ArgKind.NUMBER),
    ("attack",),
)
MOVEIN = OrderCommand(
    "movein",
    (),
    "movein P",
    "movein 3",
    "move P troops into the territory you have just taken (M <= P < troops in FROM)",
    (ArgKind.UNITS,),
    ("move-in",),
)
MOVE = OrderCommand(
    "move",
    ("m",),
    "move FROM TO P",
    "move 1,1 2,3 4",
    "your one move of the turn, along your own territories, leaving one behind: ends the turn",
    (ArgKind.OWN, ArgKind.TARGET, ArgKind.UNITS),
    ("attack",),
)
END = OrderCommand("end", (), "end", "end", "end your turn without a move", (), ("attack",))

COMMANDS = (DEPLOY, ATTACK, MOVEIN, MOVE, END)
_NUMBER = re.compile(r"-?\d+")


def _usage(command: OrderCommand) -> ParseError:
    return ParseError(f"usage: {command.usage}, e.g. {command.example}")


def _numbers(
    args: list[str], cells: int, counts: int, command: OrderCommand
) -> tuple[list[str], list[int]] | ParseError:
    """`cells` cells then `counts` numbers, read from the numbers typed in order."""
    found = [int(n) for n in _NUMBER.findall(" ".join(args))]
    if len(found) != 2 * cells + counts:
        return _usage(command)
    names = []
    for i in range(cells):
        row, col = found[2 * i], found[2 * i + 1]
        if not (0 <= row < SIZE and 0 <= col < SIZE):
            return ParseError(f"there is no cell ({row}, {col}): rows and columns go from 0 to {SIZE - 1}")
        names.append(cell(row, col))
    return names, found[2 * cells :]


def _troops(n: int) -> str:
    return plural(n, "troop")


def _territories(n: int) -> str:
    return plural(n, "territory", "territories")


class GridPresentation(TurnByTurnPresentation):
    resignation = "their cells stay theirs with their troops, for the others to take"
    commands = COMMANDS
    naming = "cells as ROW,COL: 2,3 or 2 3, rows and columns 0 to 4; Tab completes"

    def parse(self, command: OrderCommand, args: list[str], context: Context) -> list[Any] | ParseError:
        if command is END:
            return [End()] if not args else _usage(command)
        shape = {DEPLOY: (1, 0), ATTACK: (2, 1), MOVEIN: (0, 1), MOVE: (2, 1)}[command]
        read = _numbers(args, *shape, command)
        if isinstance(read, ParseError):
            return read
        names, counts = read
        if command is DEPLOY:
            return [Deploy(names[0])]
        if command is MOVEIN:
            return [MoveIn(counts[0])]
        if command is ATTACK:
            return [Attack(names[0], names[1], counts[0])]
        return [Move(names[0], names[1], counts[0])]

    def event_line(self, event: Any, palette: Palette, you: str | None) -> Fragments:
        who = self.who(getattr(event, "player", None), palette, you)
        if isinstance(event, TroopDeployed):
            return line(*who, ("", f" deploys a troop on ({event.cell}) ({event.deployed} deployed)."))
        if isinstance(event, TurnStarted):
            return [
                ("class:turn", f" Turn {event.turn} "),
                ("", " "),
                *who,
                ("", f": {plural(event.new_troops, 'new troop')} for {_territories(event.territories)}.\n"),
            ]
        if isinstance(event, NewTroopsDeployed):
            return line(*who, ("", f" deploys {_troops(event.troops)} on ({event.cell})."))
        if isinstance(event, Battle):
            return self.battle_line(event, palette, you)
        if isinstance(event, CellTaken):
            choice: Fragments = (
                []
                if event.least == event.most
                else [("", f" Move {event.least} to {event.most} troops in."), ("class:command", " (movein P)")]
            )
            return line(
                *who,
                ("class:ok", f" takes ({event.cell})"),
                ("", " from "),
                *self.who(event.defender, palette, you),
                ("", "."),
                *choice,
            )
        if isinstance(event, TroopsMovedIn):
            how = " (the only choice)" if event.automatic else ""
            return line(*who, ("", f" moves {_troops(event.troops)} from ({event.source}) into ({event.target}){how}."))
        if isinstance(event, TroopsMoved):
            return line(
                *who,
                ("", f" moves {_troops(event.troops)} from ({event.source}) to ({event.target}) and ends the turn."),
            )
        if isinstance(event, TurnEnded):
            why = ": nothing left to do" if event.automatic else ""
            return line(*who, ("class:muted", f" ends the turn{why}."))
        if isinstance(event, PlayerEliminated):
            if event.player == you:
                return line(("class:error", "You are out: you hold no territory any more."))
            return line(*who, ("class:error", " is out; the others play on in the same order."))
        if isinstance(event, GameWon):
            if event.player == you:
                return line(("class:win", "You are the last player in: you win!"))
            return line(*who, ("class:win", " is the last player in and wins!"))
        if isinstance(event, GameDrawn):
            return draw_line(event.reason)
        return []

    def who(self, player: str | None, palette: Palette, you: str | None) -> Fragments:
        """A player as "A (ann)": the grid's letter first, as the seed names players."""
        if player is None:
            return [("class:neutral", "nobody")]
        shown = "you" if player == you else player
        return [(palette.style(player), f"{self.letter(palette, player)} ({shown})")]

    @staticmethod
    def letter(palette: Palette, player: str | None) -> str:
        return palette.mark(player)

    def battle_line(self, event: Battle, palette: Palette, you: str | None) -> Fragments:
        attack = " ".join(str(d) for d in event.attack)
        defence = " ".join(str(d) for d in event.defence)
        losses = [
            f"{side} loses {n}"
            for side, n in (("attacker", event.attacker_losses), ("defender", event.defender_losses))
            if n
        ]
        return [
            *self.who(event.player, palette, you),
            ("", f" ({event.source}) attacks ({event.target}) of "),
            *self.who(event.defender, palette, you),
            ("", ": rolls "),
            ("class:title", attack),
            ("", " against "),
            ("class:title", defence),
            (
                "",
                f": {', '.join(losses)}; ({event.source}) {event.source_troops}, "
                f"({event.target}) {event.target_troops}\n",
            ),
        ]

    def draw(self, asked: Shown) -> Fragments:
        """The seed's table: a row per board row, the owner's letter and troops in each cell."""
        view: GridView = asked.view
        palette, you, focus = asked.palette, asked.you, asked.focus
        rule = "-" * (8 + 7 * SIZE) + "\n"
        out: Fragments = self.heading(view, palette, you)
        out.append(("", rule))
        out.append(("class:title", "| RISK |" + "".join(f"  {c}   |" for c in range(SIZE)) + "\n"))
        for row in range(SIZE):
            out.append(("class:title", f"|  {row}   |"))
            for col in range(SIZE):
                state = view.territories[cell(row, col)]
                text = f" {self.letter(palette, state.owner)} {state.troops:<3}"
                shown = focus is None or focus in (cell(row, col), state.owner)
                out += [(palette.style(state.owner) if shown else "class:muted", text), ("", "|")]
            out.append(("", "\n"))
        out.append(("", rule))
        legend: Fragments = []
        for player in view.seats:
            seat = view.players[player]
            name = f"{player} (you)" if player == you else player
            mark = " out" if seat.eliminated else ""
            legend += [
                ("", "  "),
                (palette.style(player), f"{seat.letter} {name}"),
                ("", f": {_territories(seat.territories)}, {_troops(seat.troops)}{mark}\n"),
            ]
        return [*out, *legend]

    def heading(self, view: GridView, palette: Palette, you: str | None) -> Fragments:
        if view.phase is Phase.FINISHED:
            return [("class:win", "Game over: "), *self.who(view.winner, palette, you), ("", " won.\n")]
        stage = "Deployment" if view.turn == 0 else f"Turn {view.turn}"
        out: Fragments = [("class:turn", f" {stage} "), ("", " "), *self.who(view.active, palette, you)]
        if view.phase is Phase.DEPLOYMENT and view.active in view.players:
            out.append(("", f": {_troops(view.players[view.active].to_deploy)} still to deploy"))
        elif view.phase is Phase.NEW_TROOPS:
            out.append(("", f": {_troops(view.new_troops)} new to deploy on one territory"))
        elif view.phase is Phase.MOVE_IN and view.conquest is not None:
            c = view.conquest
            out.append(("", f": move {c.least} to {c.most} troops from ({c.source}) into ({c.target})"))
        elif view.phase is Phase.ATTACK:
            out.append(("", ": attacking, then one move or end"))
        return [*out, ("", ".\n")]

    def summary(self, view: GridView, game_map: GameMap, palette: Palette, you: str | None) -> Fragments:
        out = self.heading(view, palette, you)
        for player in view.seats:
            state = view.players[player]
            name = f"{player} (you)" if player == you else player
            status = " out" if state.eliminated else " winner" if player == view.winner else ""
            out += [
                ("", "  "),
                (palette.style(player), f"{state.letter} {name}"),
                ("", f": {_territories(state.territories)}, {_troops(state.troops)}{status}\n"),
            ]
        return out

    def hint(self, view: GridView, game_map: GameMap, you: str | None, awaited: bool) -> Fragments:
        if not awaited or you is None:
            return []
        text = {
            Phase.DEPLOYMENT: "Deploy one troop: deploy ROW,COL (one of yours).",
            Phase.NEW_TROOPS: f"Deploy your {_troops(view.new_troops)}: deploy ROW,COL.",
            Phase.ATTACK: "attack FROM TO M (M troops, 1 to 3), move FROM TO P (ends the turn), or end.",
            Phase.MOVE_IN: "Move troops into the territory you took: movein P"
            + (f" ({view.conquest.least} to {view.conquest.most})." if view.conquest else "."),
        }.get(view.phase, "")
        return [("class:hint", text + "\n")] if text else []

    def status(self, view: GridView, you: str | None, orders: Sequence[Any], game_map: GameMap | None = None) -> str:
        if view.phase is Phase.DEPLOYMENT and you in view.players:
            return f"{_troops(view.players[you].to_deploy)} to deploy"
        if view.phase is Phase.NEW_TROOPS:
            return f"{_troops(view.new_troops)} new"
        if view.phase is Phase.MOVE_IN and view.conquest is not None:
            return f"move {view.conquest.least}-{view.conquest.most} into ({view.conquest.target})"
        return ""  # the status bar names the phase already

    def standings(self, view: GridView) -> dict[str, tuple[int, int]]:
        return {p: (s.territories, s.troops) for p, s in view.players.items()}

    def candidates(self, kind: ArgKind, words: Sequence[str], context: Context) -> Sequence[str]:
        view: GridView | None = context.view
        names = context.territories
        if view is None or context.game_map is None:
            return names
        own = [n for n in names if view.territories[n].owner == context.you]
        if kind in (ArgKind.OWN, ArgKind.TARGET):
            return own or names
        if kind is ArgKind.ENEMY and len(words) > 1 and words[1] in names:
            return [
                n for n in context.game_map.neighbours_in_order(words[1]) if view.territories[n].owner != context.you
            ]
        return names

    def focus_names(self, view: GridView, game_map: GameMap) -> Sequence[str]:
        return [*game_map.names, *view.seats]

    def owners(self, view: GridView) -> dict[str, str | None]:
        return {name: cell_state.owner for name, cell_state in view.territories.items()}

    def picture(
        self,
        view: GridView,
        game_map: GameMap,
        palette: Palette,
        you: str | None,
        width: int,
        height: int,
        focus: str | None = None,
    ) -> list[Fragments]:
        """The grid itself: its board is already the map as it lies, cell by cell (a picture drawn from the cells'
        coordinates would only draw the same grid with less in it)."""
        return [self.board(view, game_map, palette, you)]

    def picture_names(self, view: GridView, game_map: GameMap) -> Sequence[str]:
        return []
