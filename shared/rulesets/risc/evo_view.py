"""What one viewer may see of a game of RISC Evolutions 2 and 3 (E11, E12, E15).

Evolution 2 (E11, as D2): the whole board with the level of every unit, every territory's size and production, every
player's maximum technology level; the viewer's own stocks and orders; nothing of other players' stocks or orders.

Evolution 3 (E12): a player sees live only the territories in their sight (shared.rulesets.risc.fog); a territory
seen before shows what was last seen of it, marked with that turn (`seen`, `fog="memory"`); one never seen shows only
its name, its borders (the map) and its size (`fog="unknown"`, no owner, no units). Of other players a viewer learns
only who is out and their maximum technology level (E11): how many territories or units they hold would count what
the fog hides. A spectator sees public information only, until the game is over; an eliminated player may follow a
surviving player's sight (`follow_view`: without that player's orders, stocks, spies or cloaks). Once the game is
over, everybody sees everything.

Evolution 1 games keep their own view (shared.rulesets.risc.view.RiscView); the two are told apart by `kind`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from shared.game.game import Game
from shared.maps.model import GameMap
from shared.rulesets.risc.board import Phase, RiscBoard
from shared.rulesets.risc.evo_board import EvoState
from shared.rulesets.risc.evo_checker import EvoTally, account, start_tally
from shared.rulesets.risc.evo_orders import AllOrders
from shared.rulesets.risc.fog import sight
from shared.rulesets.risc.levels import FIRST_TECH_LEVEL, NO_UNITS, Levels
from shared.rulesets.risc.options import RiscOptions
from shared.rulesets.risc.orders import PlaceOrder
from shared.rulesets.risc.resources import Land, Stock

Fog = Literal["clear", "memory", "unknown"]


@dataclass(frozen=True)
class EvoTerritory:
    owner: str | None = None
    units: int = 0
    levels: Levels = NO_UNITS
    size: int = 1
    food: int | None = None
    """Production per turn (E1), once the territory has been seen."""
    technology: int | None = None
    fog: Fog = "clear"
    """E12: "clear" (seen now), "memory" (as last seen, on turn `seen`) or "unknown" (never seen)."""
    seen: int | None = None
    spies: int = 0
    """The viewer's own spies here (E13)."""
    cloaked_until: int | None = None
    """The last turn the viewer's own territory stays cloaked (E14)."""


@dataclass(frozen=True)
class EvoPlayer:
    eliminated: bool = False
    tech_level: int = FIRST_TECH_LEVEL
    territories: int | None = None
    """Unknown (None) for other players under fog."""
    units: int | None = None
    food: int | None = None
    """Stocks: the viewer's own only (E11), everyone's once the game is over."""
    technology: int | None = None
    cloaking: bool | None = None
    """Has researched cloaking (E14): the viewer's own only."""


@dataclass(frozen=True)
class EvoView:
    phase: Phase
    turn: int
    territories: dict[str, EvoTerritory]
    players: dict[str, EvoPlayer]
    evolution: int
    your_orders: list[AllOrders] = field(default_factory=list)
    pool_left: int = 0
    food_left: int | None = None
    """The viewer's food once their orders this turn are paid (E7)."""
    technology_left: int | None = None
    following: str | None = None
    """Whose sight this view shows, when a watcher follows a player (E12)."""
    winner: str | None = None
    kind: Literal["risc-evolution"] = "risc-evolution"

    def fogged(self) -> bool:
        return self.evolution >= 3 and self.phase is not Phase.FINISHED


def _tally(game: Game[RiscBoard, Any], player: str) -> EvoTally:
    kept = game.tallies.get(player)
    if isinstance(kept, EvoTally):
        return kept
    counted = start_tally(game, player)
    for order in game.orders_of(player):
        counted = account(game, player, counted, order)
    return counted


def evo_view(
    game: Game[RiscBoard, Any],
    viewer: str | None,
    fog_of_war: bool,
    following: str | None = None,
    unveiled: bool = False,
) -> EvoView:
    """The view of `viewer` (a seat or None), or with `following`, the sight of that player for a watcher. With
    `fog_of_war` (Evolution 3), E12's sight and memory and E14's cloaking; with `unveiled`, everything there is to
    see, as after the game (a replay of a finished game shows its turns so)."""
    board = game.board
    evo = board.evo
    assert evo is not None
    evolution: int = game.options.evolution
    finished = board.phase is Phase.FINISHED or unveiled
    fogged = fog_of_war and not finished
    eye = following if following is not None else viewer
    seat = eye if eye in game.players else None
    sees = sight(game.game_map, board, seat) if fogged and seat is not None else frozenset()
    memory = evo.memory.get(seat, {}) if fogged and seat is not None else {}
    own_secrets = following is None and seat is not None
    spies = evo.spies_of(seat) if seat is not None and (own_secrets or not fogged) else {}

    territories: dict[str, EvoTerritory] = {}
    held: dict[str | None, list[int]] = {}
    for name in game.game_map.names:
        land = evo.land[name]
        owner, levels = board.owner[name], evo.levels.get(name, NO_UNITS)
        tally = held.setdefault(owner, [0, 0])
        tally[0] += 1
        tally[1] += board.units[name]
        if not fogged or name in sees:
            until = evo.cloaked.get(name)
            show_cloak = until is not None and until >= board.turn and (not fogged or (own_secrets and owner == seat))
            territories[name] = EvoTerritory(
                owner,
                board.units[name],
                levels,
                land.size,
                land.food,
                land.technology,
                spies=spies.get(name, 0) if own_secrets or not fogged else 0,
                cloaked_until=until if show_cloak else None,
            )
        elif name in memory:
            seen = memory[name]
            territories[name] = EvoTerritory(
                seen.owner,
                sum(seen.levels),
                seen.levels,
                land.size,
                land.food,
                land.technology,
                "memory",
                seen.turn,
                spies.get(name, 0),
            )
        else:
            territories[name] = EvoTerritory(size=land.size, fog="unknown")

    players: dict[str, EvoPlayer] = {}
    for player in game.players:
        counts_known = not fogged or player == seat
        stock = evo.stocks.get(player)
        stocks_known = stock is not None and (finished or (own_secrets and player == seat))
        players[player] = EvoPlayer(
            player in board.eliminated,
            evo.tech_level.get(player, FIRST_TECH_LEVEL),
            held.get(player, [0, 0])[0] if counts_known else None,
            held.get(player, [0, 0])[1] if counts_known else None,
            stock.food if stocks_known and stock is not None else None,
            stock.technology if stocks_known and stock is not None else None,
            (player in evo.cloaking) if fog_of_war and (finished or (own_secrets and player == seat)) else None,
        )

    orders: list[Any] = []
    pool_left = 0
    food_left = technology_left = None
    if own_secrets and seat is not None and viewer == seat:
        orders = list(game.orders_of(seat))
        if board.phase is Phase.PLACEMENT:
            pool_left = board.pools.get(seat, 0) - sum(o.units for o in orders if isinstance(o, PlaceOrder))
        if not finished:
            counted = _tally(game, seat)
            food_left, technology_left = counted.food, counted.technology
    return EvoView(
        board.phase,
        board.turn,
        territories,
        players,
        evolution,
        orders,
        pool_left,
        food_left,
        technology_left,
        following,
        board.winner,
    )


def game_from_evo_view(
    view: EvoView, game_map: GameMap, me: str | None, orders: Sequence[Any] | None = None
) -> Game[RiscBoard, Any]:
    """The game as far as `view` tells it, with `orders` (else the view's own) issued by `me`: every rule about the
    viewer's own orders judges it as the server would, since those read only the viewer's own territories, stocks
    and spies, the map, and which territories are theirs. What the view hides (fogged territories are taken as last
    seen, or as nobody's) plays no part in them."""
    if list(view.territories) != list(game_map.names):
        raise ValueError(f'the view\'s territories differ from those of the map "{game_map.name}"')
    territories = view.territories
    stocks: dict[str, Stock] = {}
    spies: dict[str, dict[str, int]] = {}
    cloaking: tuple[str, ...] = ()
    cloaked: dict[str, int] = {}
    pools: dict[str, int] = {}
    issued = tuple(view.your_orders if orders is None else orders)
    if me is not None and me in view.players:
        mine = view.players[me]
        stocks[me] = Stock(mine.food or 0, mine.technology or 0)
        spies[me] = {name: t.spies for name, t in territories.items() if t.spies}
        cloaking = (me,) if mine.cloaking else ()
        cloaked = {
            name: t.cloaked_until for name, t in territories.items() if t.cloaked_until is not None and t.owner == me
        }
        if view.phase is Phase.PLACEMENT:
            pools[me] = view.pool_left + sum(o.units for o in view.your_orders if isinstance(o, PlaceOrder))
    evo = EvoState(
        land={name: Land(t.size, t.food or 0, t.technology or 0) for name, t in territories.items()},
        levels={name: t.levels for name, t in territories.items()},
        stocks=stocks,
        tech_level={p: s.tech_level for p, s in view.players.items()},
        cloaking=cloaking,
        cloaked=cloaked,
        spies=spies,
    )
    board = RiscBoard(
        phase=view.phase,
        turn=view.turn,
        owner={name: t.owner for name, t in territories.items()},
        units={name: t.units for name, t in territories.items()},
        pools=pools,
        eliminated=tuple(p for p, s in view.players.items() if s.eliminated),
        winner=view.winner,
        evo=evo,
    )
    options = RiscOptions(evolution=view.evolution, max_players=8)
    game_orders = {me: issued} if me is not None and issued else {}
    return Game("risc", game_map, tuple(view.players), options, board, orders=game_orders)
