"""The COMP 345 Warzone console's core: the start-up commands, hot-seat turns, computer players, tournaments and the
game log, decided without a terminal.

It reads the COMP 345 commands (`loadmap FILE`, `validatemap`, `addplayer NAME`, `gameplayer -add NAME -remove NAME`,
`gamestart`, then `replay` or `quit` once a game is won, and `tournament -M ... -P ... -G ... -D ...`). Each human
player issues their turn in turn (hot seat), with the order commands of the text client (`deploy 5 Quebec`,
`advance 3 Quebec Ontario`, `bomb`, `blockade`, `airlift`, `negotiate`, `reinforce`) and `cards`, `showmap`,
`orders`, `withdraw K`, `done`. Computer players (`addplayer NAME -strategy aggressive`) play their turns by
themselves, each as every computer seat is played (turns.play_seat). A command that is not valid in the state the
console is in is refused with the reason and changes nothing.

The game runs on the rule-set seam (shared/game/turns.py): every order is checked and every turn executed exactly as
a served game's, only without a server. What the console says is returned to its face (client/warzone_console.py),
which prints it and writes the COMP 345 game log: every command and its effect, every order issued (or refused) and
every order's effect as the turn executes, and every change of state. The log is the game's complete record, card
draws included; the screen, shared by everyone at the table, shows each player their hand only when it is their turn.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from shared.bots.tournament import play_game, player_names
from shared.game import grammar, turns
from shared.game.errors import RuleError
from shared.game.game import Game
from shared.game.presentation import Context, Fragments, Palette
from shared.game.random import SETUP_STEP, GameRandom, dice_of
from shared.game.ruleset import Private
from shared.game.strategy import Strategy
from shared.maps import GameMap, MapError, MapReport, Severity
from shared.rulesets.warzone.continents import continents
from shared.rulesets.warzone.rules import WarzoneRuleSet

RULES = WarzoneRuleSet()
PRESENTATION = RULES.presentation
SAY = "say"
"""What an output is when the screen shows it; any other kind goes to the game log ("command", "effect", ...)."""

Output = tuple[str, str]
"""(kind, text): SAY for the screen, else a line of the game log of that kind."""
MapReader = Callable[[str], MapReport]
"""Reads a map file (or a bundled map's name) into a report: the face gives shared.maps.check_map_file."""
HUMAN = "human"

DEFAULT_MAX_TURNS = 200
"""The console's own limit unless told otherwise (--max-turns): a game of computer players that never attack each
other (two benevolent ones) would otherwise play on to the rules' own limit. 0 plays the most turns a game may
(shared/game/ruleset.py MOST_TURNS)."""

TOURNAMENT_LIMITS = {"-M": (1, 5), "-P": (2, 4), "-G": (1, 5), "-D": (10, 50)}
"""W16: 1-5 maps, 2-4 computer strategies, 1-5 games per map, 10-50 turns."""


class State(StrEnum):
    """The COMP 345 game engine's states."""

    START = "start"
    MAP_LOADED = "maploaded"
    MAP_VALIDATED = "mapvalidated"
    PLAYERS_ADDED = "playersadded"
    ASSIGN_REINFORCEMENT = "assignreinforcement"
    ISSUE_ORDERS = "issueorders"
    EXECUTE_ORDERS = "executeorders"
    WIN = "win"
    END = "end"


PLAYING = (State.ISSUE_ORDERS,)
SETUP_COMMANDS: dict[str, tuple[State, ...]] = {
    "loadmap": (State.START, State.MAP_LOADED),
    "validatemap": (State.MAP_LOADED,),
    "addplayer": (State.MAP_VALIDATED, State.PLAYERS_ADDED),
    "gameplayer": (State.MAP_VALIDATED, State.PLAYERS_ADDED),
    "gamestart": (State.PLAYERS_ADDED,),
    "tournament": (State.START,),
    "replay": (State.WIN,),
}
"""Where each start-up and end command is valid; the order commands and `cards`, `orders`, `withdraw`, `done` are
valid while a human player issues orders; `showmap`, `help` and `quit` everywhere."""

TURN_COMMANDS = ("cards", "orders", "withdraw", "done")
ANYWHERE = ("showmap", "help", "quit")


def plain(fragments: Fragments) -> str:
    return "".join(text for _, text in fragments)


@dataclass
class Seat:
    name: str
    strategy: str = HUMAN

    @property
    def human(self) -> bool:
        return self.strategy == HUMAN


class Console:
    """The console's state machine: feed it one command line at a time with `handle`, which returns what to show
    and what to log. It reads map files only through `read_map` (the face's: shared/ opens no file), and its chance
    comes from `seed`, so a session replays exactly."""

    def __init__(self, read_map: MapReader, seed: str, max_turns: int = DEFAULT_MAX_TURNS) -> None:
        self.read_map = read_map
        self.seed = seed
        self.max_turns = max_turns
        self.state = State.START
        self.games_played = 0
        self._out: list[Output] = []
        self._reset()

    def _reset(self) -> None:
        self.report: MapReport | None = None
        self.seats: list[Seat] = []
        self.game: Game[Any, Any] | None = None
        self.bots: dict[str, Strategy] = {}
        self.bot_rngs: dict[str, random.Random] = {}
        self.acting: str | None = None
        """The human player whose orders the console reads now."""
        self.dice = dice_of(self.seed)

    # ---- plumbing --------------------------------------------------------------------------------------------------

    @property
    def finished(self) -> bool:
        return self.state is State.END

    def say(self, text: str) -> None:
        self._out.append((SAY, text))

    def _log(self, kind: str, text: str) -> None:
        self._out.append((kind, text))

    def _effect(self, text: str) -> None:
        self.say(text)
        self._log("effect", text)

    def _error(self, text: str) -> None:
        self.say(f"error: {text}")
        self._log("refused", text)

    def _enter(self, state: State) -> None:
        if state is not self.state:
            self._log("state", f"{self.state.value} -> {state.value}")
            self.say(f"[{state.value}]")
            self.state = state

    def valid_commands(self) -> list[str]:
        names = [name for name, states in SETUP_COMMANDS.items() if self.state in states]
        if self.state in PLAYING and self.acting is not None:
            names += [c.name for c in PRESENTATION.commands] + list(TURN_COMMANDS)
        return names + list(ANYWHERE)

    def handle(self, line: str) -> list[Output]:
        """One command line: carried out, or refused with the reason. Returns what to show and to log, in order."""
        self._out = []
        self._command(line)
        done, self._out = self._out, []
        return done

    def _command(self, line: str) -> None:
        words = grammar.tokens(line.strip())
        if not words or words[0].startswith("#"):
            return
        self._log("command", line.strip())
        name, args = words[0].lower(), words[1:]
        order_command = next((c for c in PRESENTATION.commands if name in (c.name, *c.aliases)), None)
        if name in ("quit", "exit"):
            self.say("Bye.")
            self._enter(State.END)
            return
        if name == "help":
            self._help()
            return
        if name == "showmap":
            self._showmap(args)
            return
        if order_command is not None or name in TURN_COMMANDS:
            if self.state not in PLAYING or self.acting is None:
                self._error(
                    f'"{name}" is an order of a game under way, not valid in state {self.state.value}; '
                    f"valid now: {', '.join(self.valid_commands())}"
                )
                return
            if order_command is not None:
                self._order(order_command, args)
            else:
                getattr(self, f"_{name}")(args)
            return
        if name not in SETUP_COMMANDS:
            self._error(f'unknown command "{name}"; valid now: {", ".join(self.valid_commands())}')
            return
        if self.state not in SETUP_COMMANDS[name]:
            self._error(
                f'"{name}" is not valid in state {self.state.value}; valid now: {", ".join(self.valid_commands())}'
            )
            return
        getattr(self, f"_{name}")(args)

    # ---- start-up --------------------------------------------------------------------------------------------------

    def _loadmap(self, args: list[str]) -> None:
        if len(args) != 1:
            self._error("usage: loadmap FILE (a map file, or a bundled map's name)")
            return
        try:
            report = self.read_map(args[0])
        except MapError as exc:
            self._error("; ".join(f.message for f in exc.findings))
            return
        except OSError as exc:
            self._error(f"cannot read {args[0]}: {exc.strerror or exc}")
            return
        if report.game_map is None:
            self._error(
                f"{args[0]} is not a map that can be read: " + "; ".join(f.message for f in report.findings[:3])
            )
            return
        self.report = report
        game_map = report.game_map
        self._effect(
            f"map {game_map.name} read from {args[0]}: {len(game_map.territories)} territories, "
            f"{len(game_map.continents)} continents; validatemap checks it"
        )
        self._enter(State.MAP_LOADED)

    def _validatemap(self, args: list[str]) -> None:
        assert self.report is not None
        errors = [f for f in self.report.findings if f.severity is Severity.ERROR]
        warnings = [f for f in self.report.findings if f.severity is not Severity.ERROR]
        if errors:
            for finding in errors[:10]:
                self.say(f"  {finding.message}")
            self._effect(f"the map is invalid ({len(errors)} errors): load another with loadmap")
            return
        note = f" ({len(warnings)} warnings: it plays)" if warnings else ""
        self._effect(f"the map is valid: a connected graph, each territory in one continent{note}")
        self._enter(State.MAP_VALIDATED)

    def _addplayer(self, args: list[str]) -> None:
        if not args:
            self._error("usage: addplayer NAME [-strategy " + "|".join(self._strategies()) + "]")
            return
        strategy = HUMAN
        if len(args) == 3 and args[1] == "-strategy":
            strategy = args[2]
        elif len(args) != 1:
            self._error("usage: addplayer NAME [-strategy STRATEGY]")
            return
        self._add(args[0], strategy)

    def _gameplayer(self, args: list[str]) -> None:
        if not args:
            self._error("usage: gameplayer -add NAME [-strategy STRATEGY] -remove NAME ...")
            return
        index = 0
        while index < len(args):
            flag = args[index]
            if flag not in ("-add", "-remove") or index + 1 >= len(args):
                self._error(f'"{flag}": usage: gameplayer -add NAME [-strategy STRATEGY] -remove NAME ...')
                return
            name = args[index + 1]
            index += 2
            if flag == "-remove":
                self._remove(name)
                continue
            strategy = HUMAN
            if index + 1 < len(args) and args[index] == "-strategy":
                strategy = args[index + 1]
                index += 2
            self._add(name, strategy)

    def _strategies(self) -> list[str]:
        return [HUMAN, *sorted(RULES.strategies)]

    def _add(self, name: str, strategy: str) -> None:
        low, high = RULES.player_counts(RULES.options({}))
        if strategy not in self._strategies():
            self._error(f'unknown strategy "{strategy}" (known: {", ".join(self._strategies())})')
        elif any(s.name.casefold() == name.casefold() for s in self.seats):
            self._error(f"there is already a player called {name}")
        elif len(self.seats) >= high:
            self._error(f"a game has at most {high} players")
        elif not name.replace("-", "").replace("_", "").isalnum():
            self._error(f'"{name}" cannot name a player: letters, digits, - and _ only')
        else:
            self.seats.append(Seat(name, strategy))
            self._effect(
                f"player {name} added ({'a human at this console' if strategy == HUMAN else strategy}); "
                f"{len(self.seats)} of {low}-{high}"
            )
            self._enter(State.PLAYERS_ADDED)

    def _remove(self, name: str) -> None:
        found = [s for s in self.seats if s.name.casefold() == name.casefold()]
        if not found:
            self._error(f"there is no player called {name}")
            return
        self.seats.remove(found[0])
        self._effect(f"player {found[0].name} removed; {len(self.seats)} left")
        if not self.seats:
            self._enter(State.MAP_VALIDATED)

    def _gamestart(self, args: list[str]) -> None:
        """`gamestart [OPTION=VALUE ...]`: any of the rule set's options (initial_units=30, neutral_remainder=true)."""
        assert self.report is not None and self.report.game_map is not None
        low, high = RULES.player_counts(RULES.options({}))
        if not low <= len(self.seats) <= high:
            self._error(f"a game needs {low} to {high} players, there are {len(self.seats)}")
            return
        chosen: dict[str, Any] = {"max_turns": self.max_turns}
        if any(s.strategy == "cheater" for s in self.seats):
            chosen["allow_cheaters"] = True
        for arg in args:
            key, sep, value = arg.partition("=")
            if not sep:
                self._error(f'"{arg}": options are given as NAME=VALUE, e.g. initial_units=30')
                return
            chosen[key] = grammar.option_value(value)
        try:
            options = RULES.options(chosen)
        except ValidationError as exc:
            problems = "; ".join(f"{'.'.join(str(p) for p in e['loc'])}: {e['msg']}" for e in exc.errors())
            self._error(f"bad option: {problems}")
            return
        game_map = self.report.game_map
        problem = RULES.map_problem(game_map, options, len(self.seats))
        if problem is not None:
            self._error(problem)
            return
        seed = f"{self.seed}/game{self.games_played + 1}"
        players = tuple(s.name for s in self.seats)
        self.game = RULES.new_game(game_map, players, options, GameRandom(seed, SETUP_STEP))
        self.bots = {s.name: RULES.strategies[s.strategy](RULES) for s in self.seats if not s.human}
        self.bot_rngs = {s.name: random.Random(f"bot:{seed}:{s.name}") for s in self.seats if not s.human}
        self.dice = dice_of(seed)
        self.games_played += 1
        allowed = " (cheaters allowed: a cheater plays)" if options.allow_cheaters else ""
        limit = f", a draw after turn {options.max_turns}" if options.max_turns else ""
        self._effect(
            f"game {self.games_played} starts on {game_map.name} (seed {seed}): "
            f"{', '.join(f'{s.name} ({s.strategy})' for s in self.seats)}{allowed}{limit}"
        )
        board = self.game.board
        for player in players:
            held = board.territories_of(player)
            self._log(
                "effect",
                f"{player} is dealt {len(held)} territories: {', '.join(held)}; "
                f"cards: {', '.join(c.value for c in board.hands[player]) or 'none'}",
            )
        self._enter(State.ASSIGN_REINFORCEMENT)
        self._effect(f"turn 1: every pool holds {options.initial_units} units")
        self._play_on()

    # ---- playing ---------------------------------------------------------------------------------------------------

    def _play_on(self) -> None:
        """Computer players play; the console stops where a human is to issue orders, or the game is over."""
        assert self.game is not None
        while True:
            status = RULES.status(self.game)
            if status.finished:
                self._enter(State.WIN)
                self._effect("the game is over: replay for another game, quit to stop")
                return
            self._enter(State.ISSUE_ORDERS)
            waiting = [p for p in self.game.players if p in turns.awaiting(RULES, self.game)]
            for player in waiting:
                if player in self.bots:
                    self._bot_turn(player)
                else:
                    self.acting = player
                    self._prompt(player)
                    return
            self.acting = None
            self._execute()

    def _bot_turn(self, player: str) -> None:
        """A computer player's turn, played as every computer seat is (turns.play_seat): a commit the rules refuse
        is completed as when time runs out."""
        assert self.game is not None
        view = RULES.view(self.game, player)
        orders = self.bots[player].decide(view, self.game.game_map, player, self.bot_rngs[player])
        played = turns.play_seat(RULES, self.game, player, orders, self.dice)
        for order in played.issued:
            self._log("order", f"{player} issued: {PRESENTATION.describe(order)}")
        for order, problem in played.refused:
            what = "commit" if order is None else PRESENTATION.describe(order)
            self._log("refused", f"{player}: {what}: {problem.message}")
        if any(order is None for order, _ in played.refused):  # the commit was refused: completed by the rules
            for order in played.game.orders_of(player):
                self._log("order", f"{player}'s orders, as when time runs out: {PRESENTATION.describe(order)}")
        self.game = played.game
        self._log("order", f"{player} has issued all their orders")

    def _prompt(self, player: str) -> None:
        assert self.game is not None
        view = RULES.view(self.game, player)
        self.say(f"--- {player}'s turn {view.turn}: the others look away ---")
        self.say(
            f"{player}: {view.pool_left} units to deploy; your cards: "
            + plain(PRESENTATION.board(view, self.game.game_map, self._palette(), player, focus="cards"))
            .split(": ", 1)[1]
            .strip()
        )
        self.say(
            "Orders: deploy, advance, bomb, blockade, airlift, negotiate, reinforce; cards, showmap, orders, "
            "withdraw K, done."
        )

    def _palette(self) -> Palette:
        assert self.game is not None
        return Palette(self.game.players)

    def _issue(self, player: str, order: Any, quiet: bool = False) -> bool:
        assert self.game is not None
        issued = turns.issue(RULES, self.game, player, order)
        described = PRESENTATION.describe(order)
        if isinstance(issued, RuleError):
            self._log("refused", f"{player}: {described}: {issued.message}")
            if not quiet:
                self.say(f"refused: {issued.message}")
            return False
        self.game = issued
        self._log("order", f"{player} issued: {described}")
        if not quiet:
            self.say(f"{player}: {described} (order {len(self.game.orders_of(player))})")
        return True

    def _order(self, command: Any, args: list[str]) -> None:
        assert self.game is not None and self.acting is not None
        context = Context(
            self.game.game_map, RULES.view(self.game, self.acting), self.acting, self.game.orders_of(self.acting)
        )
        parsed = PRESENTATION.parse(command, args, context)
        if isinstance(parsed, grammar.ParseError):
            self.say(f"error: {parsed.message}")
            self._log("refused", f"{self.acting}: {' '.join([command.name, *args])}: {parsed.message}")
            return
        for order in parsed:
            self._issue(self.acting, order)

    def _cards(self, args: list[str]) -> None:
        assert self.game is not None and self.acting is not None
        view = RULES.view(self.game, self.acting)
        (show,) = [c for c in PRESENTATION.shows if c.name == "cards"]
        self.say(plain(PRESENTATION.show(show, view, self.game.game_map, self._palette(), self.acting)).rstrip())
        self._log("effect", f"{self.acting}'s hand shown")

    def _orders(self, args: list[str]) -> None:
        assert self.game is not None and self.acting is not None
        orders = self.game.orders_of(self.acting)
        self._log("effect", f"{self.acting}'s orders listed")
        if not orders:
            self.say("no orders issued yet this turn")
        for number, order in enumerate(orders, start=1):
            self.say(f"  {number}. {PRESENTATION.describe(order)}")

    def _withdraw(self, args: list[str]) -> None:
        assert self.game is not None and self.acting is not None
        number = grammar.count(args[0], "the order's number") if len(args) == 1 else None
        if not isinstance(number, int):
            self._error("usage: withdraw K, K the order's number (see orders)")
            return
        done = turns.withdraw(RULES, self.game, self.acting, number - 1)
        if isinstance(done, RuleError):
            self._error(done.message)
            return
        order = self.game.orders_of(self.acting)[number - 1]
        self.game = done
        self._log("order", f"{self.acting} withdrew: {PRESENTATION.describe(order)}")
        self.say(f"withdrawn: {PRESENTATION.describe(order)}")

    def _done(self, args: list[str]) -> None:
        assert self.game is not None and self.acting is not None
        committed = turns.commit(RULES, self.game, self.acting)
        if isinstance(committed, RuleError):
            self._error(committed.message)
            return
        self.game = committed
        self._log("order", f"{self.acting} has issued all their orders")
        self.say(f"{self.acting} is done.")
        self.acting = None
        self._play_on()

    def _execute(self) -> None:
        assert self.game is not None
        self._enter(State.EXECUTE_ORDERS)
        self.game, resolved = turns.advance(RULES, self.game, self.dice)
        palette = self._palette()
        for event in resolved.events:
            if isinstance(event, Private):
                who = ", ".join(sorted(event.audience))
                self._log(
                    "executed",
                    plain(PRESENTATION.events([event.event], palette, None)).rstrip() + f" (told to {who} alone)",
                )
                continue
            lines = plain(PRESENTATION.events([event], palette, None)).rstrip()
            self.say(lines)
            self._log("executed", lines)
        if not RULES.status(self.game).finished:
            self._enter(State.ASSIGN_REINFORCEMENT)

    # ---- tournaments (W16) and another game ----------------------------------------------------------------------

    def _tournament(self, args: list[str]) -> None:
        """W16: every game of the tournament, then a row per map and a column per game: the winner or Draw."""
        parsed = parse_tournament(args)
        if isinstance(parsed, str):
            self._error(parsed)
            return
        map_refs, strategies, games, max_turns = parsed
        maps: list[GameMap] = []
        for ref in map_refs:
            try:
                report = self.read_map(ref)
            except (MapError, OSError) as exc:
                self._error(f"-M: cannot read {ref}: {exc}")
                return
            if not report.playable or report.game_map is None:
                self._error(f"-M: {ref} is not a valid map")
                return
            if len(report.game_map.territories) < len(strategies):
                self._error(f"-M: {ref} has too few territories for {len(strategies)} players")
                return
            maps.append(report.game_map)
        options = {"allow_cheaters": "cheater" in strategies}
        self._effect(
            f"Tournament mode: M: {', '.join(map_refs)}; P: {', '.join(strategies)}; G: {games}; D: {max_turns}"
        )
        rows = [["", *(f"Game {g}" for g in range(1, games + 1))]]
        for m, (ref, game_map) in enumerate(zip(map_refs, maps, strict=True), start=1):
            row = [Path(ref).name]
            for g in range(1, games + 1):
                result = play_game(
                    game_map,
                    strategies,
                    f"{self.seed}/tournament/map{m}/game{g}",
                    max_turns,
                    options=options,
                    ruleset_name=RULES.name,
                )
                cell = result.winner_strategy or "Draw"
                self._log(
                    "effect",
                    f"map {Path(ref).name} game {g} ({', '.join(player_names(strategies))}): "
                    f"{'a draw' if cell == 'Draw' else cell + ' wins'} after {result.turns} turns",
                )
                row.append(cell)
            rows.append(row)
        widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
        table = "\n".join("  ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)).rstrip() for r in rows)
        self._effect(table)

    def _replay(self, args: list[str]) -> None:
        self._reset()
        self._effect("a new game: loadmap FILE to begin")
        self._enter(State.START)

    # ---- anywhere --------------------------------------------------------------------------------------------------

    def _showmap(self, args: list[str]) -> None:
        if self.game is not None and self.state not in (State.START,):
            viewer = self.acting
            view = RULES.view(self.game, viewer)
            focus = None
            if args:
                found = grammar.name(
                    " ".join(args),
                    list(PRESENTATION.focus_names(view, self.game.game_map)),
                    "territory, player or continent",
                )
                if isinstance(found, grammar.ParseError):
                    self._error(found.message)
                    return
                focus = found
            self.say(
                plain(
                    PRESENTATION.board(
                        view,
                        self.game.game_map,
                        self._palette(),
                        viewer,
                        self.game.orders_of(viewer) if viewer else (),
                        focus,
                    )
                ).rstrip()
            )
            self._log("effect", f"the board shown{' to ' + viewer if viewer else ''}")
            return
        if self.report is None or self.report.game_map is None:
            self._error("no map is loaded: loadmap FILE first")
            return
        self.say(describe_map(self.report.game_map))
        self._log("effect", "the map shown")

    def _help(self) -> None:
        self.say(f"state {self.state.value}; valid commands: {', '.join(self.valid_commands())}")
        if self.state in PLAYING and self.acting is not None:
            for command in PRESENTATION.commands:
                self.say(f"  {command.usage:<22} {command.summary}")


def describe_map(game_map: GameMap) -> str:
    """The map before a game: continents with their bonus and territories, each with its neighbours."""
    lines = [f"{game_map.name}: {len(game_map.territories)} territories"]
    for continent in continents(game_map):
        lines.append(f"{continent.name} (bonus {continent.bonus}):")
        for name in continent.members:
            lines.append(f"  {name}: next to {', '.join(game_map.neighbours_in_order(name))}")
    return "\n".join(lines)


def parse_tournament(args: Sequence[str]) -> tuple[list[str], list[str], int, int] | str:
    """`-M maps... -P strategies... -G games -D turns`, each within the COMP 345 bounds; or why not."""
    found: dict[str, list[str]] = {}
    flag: str | None = None
    for word in args:
        if word in TOURNAMENT_LIMITS:
            flag = word
            if flag in found:
                return f"{flag} is given twice"
            found[flag] = []
        elif flag is None:
            return f'"{word}": usage: tournament -M MAP... -P STRATEGY... -G GAMES -D MAX_TURNS'
        else:
            found[flag].append(word)
    missing = [f for f in TOURNAMENT_LIMITS if not found.get(f)]
    if missing:
        return f"{', '.join(missing)} missing: tournament -M MAP... -P STRATEGY... -G GAMES -D MAX_TURNS"
    numbers: dict[str, int] = {}
    for flag in ("-G", "-D"):
        if len(found[flag]) != 1 or not found[flag][0].isdigit():
            return f"{flag} takes one whole number"
        numbers[flag] = int(found[flag][0])
    counts = {"-M": len(found["-M"]), "-P": len(found["-P"]), **numbers}
    what = {"-M": "maps", "-P": "player strategies", "-G": "games per map", "-D": "turns per game"}
    for flag, (low, high) in TOURNAMENT_LIMITS.items():
        if not low <= counts[flag] <= high:
            return f"{flag}: {low} to {high} {what[flag]}, not {counts[flag]}"
    unknown = [s for s in found["-P"] if s not in RULES.strategies]
    if unknown:
        return f'-P: unknown strategy "{unknown[0]}" (known: {", ".join(sorted(RULES.strategies))})'
    return found["-M"], found["-P"], numbers["-G"], numbers["-D"]
