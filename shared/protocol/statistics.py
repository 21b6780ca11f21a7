"""A finished game's statistics as the server sends them (`statistics`): worked out once, in Python, from the game's
stored log replayed (shared/game/statistics.py), whatever its rule set, and drawn by every client as it likes (the
web page's charts, the text client's table)."""

from __future__ import annotations

from pydantic import BaseModel, Field


class PlayerTurn(BaseModel):
    """One player's line for one turn."""

    territories: int = Field(description="held at the end of the turn")
    units: int = Field(description="on the board at the end of the turn")
    income: int | None = Field(
        description="units received this turn (reinforcements, not cards traded in); null on the turn the game ended "
        "in before anyone received any (a game won before its turn's income came)"
    )
    battles_won: int = Field(description="attacks that took a territory, and defences that held")
    battles_lost: int = Field(description="attacks that failed, and territories taken from the player")
    cards_played: int = 0


class TurnLine(BaseModel):
    """Every player still in at the start of the turn; a player's last line is the turn they went out."""

    turn: int
    players: dict[str, PlayerTurn]


class Elimination(BaseModel):
    player: str
    by: str | None = Field(description="who took their last territory; null when no one player did, or they resigned")
    turn: int
    resigned: bool = Field(default=False, description="they gave the game up: nobody put them out")


class PlayerTotals(BaseModel):
    """One player over the whole game."""

    territories: int = Field(description="held at the end")
    most_territories: int = Field(description="the most held, as set up or at the end of a turn")
    units: int = Field(description="on the board at the end")
    most_units: int
    income: int
    battles_won: int
    battles_lost: int
    cards_played: int
    eliminated_by: str | None = None
    eliminated_on: int | None = Field(default=None, description="the turn they went out, if they did")
    resigned: bool = Field(default=False, description="they went out by resigning")
    eliminated: list[str] = Field(default_factory=list, description="the players they put out")


class GameStatistics(BaseModel):
    players: list[str]
    turns: list[TurnLine]
    eliminations: list[Elimination]
    totals: dict[str, PlayerTotals]
    winner: str | None = None
