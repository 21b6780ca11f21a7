"""What one viewer may see of a classic Risk game.

Everything on the map is public, and so is whose turn it is, the phase, the armies left to place, the conquest
awaiting its move-in, capitals, and how many cards each player holds. A hand itself is seen by its holder alone, and so
is a mission (C4, C11); once the game is over every mission is shown. Collections are keyed by name, so an update
carries only what changed.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from pydantic import TypeAdapter

from shared.game.game import Game
from shared.rulesets.classic.board import ClassicBoard, Conquest, Phase
from shared.rulesets.classic.cards import Card, schedule_value
from shared.rulesets.classic.missions import Mission, effective
from shared.rulesets.classic.options import CardSchedule, ClassicOptions, FortifyRule, Mode


@dataclass(frozen=True)
class CountryState:
    owner: str | None = None
    armies: int = 0


@dataclass(frozen=True)
class PlayerState:
    seat: int = 0
    """Place in the seat order (0 plays first)."""
    countries: int = 0
    armies: int = 0
    cards: int = 0
    unplaced: int = 0
    """Startup: armies still to place."""
    capital: str | None = None
    mission: Mission | None = None
    """The viewer's own mission (every player's once the game is over), as it stands now."""
    eliminated: bool = False
    mission_text: str | None = None
    """That mission in words ("conquer Asia and Africa"), for a client that does not know the rule set."""


@dataclass(frozen=True)
class ClassicView:
    phase: Phase
    turn: int
    seats: list[str]
    territories: dict[str, CountryState]
    players: dict[str, PlayerState]
    active: str | None = None
    reinforcements: int = 0
    """The active player's armies still to place this turn."""
    conquest: Conquest | None = None
    your_hand: list[Card] = field(default_factory=list)
    trades: int = 0
    next_trade: int = 0
    """What the next set is worth (0 on the fixed schedule, where it depends on the set)."""
    deck: int = 0
    trading_closed: bool = False
    conquered: bool = False
    """The active player has conquered this turn: they draw a card at its end."""
    mode: Mode = Mode.DOMINATION
    card_schedule: CardSchedule = CardSchedule.SEED
    fortify: FortifyRule = FortifyRule.PATH
    cheaters: bool = False
    winner: str | None = None
    kind: Literal["classic"] = "classic"


VIEW: TypeAdapter[ClassicView] = TypeAdapter(ClassicView)


def view(game: Game[ClassicBoard, Any], viewer: str | None) -> ClassicView:
    board, options = game.board, game.options
    assert isinstance(options, ClassicOptions)
    finished = board.phase is Phase.FINISHED
    territories: dict[str, CountryState] = {}
    held: dict[str, list[int]] = {p: [0, 0] for p in board.seats}
    for name in game.game_map.names:
        owner, armies = board.owner[name], board.armies[name]
        territories[name] = CountryState(owner, armies)
        held[owner][0] += 1
        held[owner][1] += armies
    players: dict[str, PlayerState] = {}
    for seat, player in enumerate(board.seats):
        mission = board.missions.get(player)
        shown = effective(mission, player, board.eliminated_by) if mission and (finished or player == viewer) else None
        players[player] = PlayerState(
            seat,
            held[player][0],
            held[player][1],
            len(board.hand(player)),
            board.unplaced.get(player, 0),
            board.capitals.get(player),
            shown,
            player in board.eliminated,
            None if shown is None else str(shown),
        )
    hand = list(board.hand(viewer)) if viewer is not None else []
    next_trade = (
        0 if options.card_schedule is CardSchedule.FIXED else schedule_value(options.card_schedule, board.trades)
    )
    return ClassicView(
        board.phase,
        board.turn,
        list(board.seats),
        territories,
        players,
        None if finished else board.active,
        board.reinforcements,
        board.conquest,
        hand,
        board.trades,
        next_trade,
        len(board.deck),
        board.trading_closed,
        board.conquered,
        options.mode,
        options.card_schedule,
        options.fortify,
        options.cheaters,
        board.winner,
    )


def game_from_view(view: ClassicView, game_map: Any, me: str) -> Game[ClassicBoard, Any]:
    """The game as far as `view` tells it: enough for the rules to judge the viewer's own actions exactly as the
    server does (the computer players use it). What the view hides (others' hands, the deck's order, others'
    missions) plays no part in judging them."""
    options = ClassicOptions(
        card_schedule=view.card_schedule, fortify=view.fortify, mode=view.mode, cheaters=view.cheaters
    )
    missions = {p: s.mission for p, s in view.players.items() if s.mission is not None}
    board = ClassicBoard(
        phase=view.phase,
        turn=view.turn,
        seats=tuple(view.seats),
        active=view.active or view.seats[0],
        owner={n: t.owner or "" for n, t in view.territories.items()},
        armies={n: t.armies for n, t in view.territories.items()},
        unplaced={p: s.unplaced for p, s in view.players.items()},
        reinforcements=view.reinforcements,
        hands={me: tuple(view.your_hand)},
        trades=view.trades,
        trading_closed=view.trading_closed,
        conquered=view.conquered,
        conquest=view.conquest,
        capitals={p: s.capital for p, s in view.players.items() if s.capital is not None},
        missions=missions,
        eliminated=tuple(p for p, s in view.players.items() if s.eliminated),
        winner=view.winner,
    )
    return Game("classic", game_map, tuple(view.seats), options, board)
