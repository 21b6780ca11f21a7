"""What the lobby says about games: their settings, seats and progress."""

from __future__ import annotations

from enum import StrEnum
from typing import Annotated

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, model_validator

from shared.protocol.names import normalised_name

GameId = Annotated[str, Field(pattern=r"^[A-Za-z0-9_-]{1,32}$")]
PlayerName = Annotated[str, Field(pattern=r"^\w[\w .'-]{0,18}[\w.'-]$|^\w$",
                                  description="1-20 letters, digits, spaces, . ' - or _, "
                                              "not starting or ending with a space"),
                       BeforeValidator(normalised_name)]  # kept as it shows; one no player could see is refused

MIN_PLAYERS = 2
MAX_PLAYERS = 5


class GameSettings(BaseModel):
    """What a game's creator chooses (R1, R7-R9, D3). A rematch reuses them as they are."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    map: Annotated[str, Field(min_length=1, max_length=512,
                              description="a bundled map's name (e.g. \"seed\") or a map file's path on the server")]
    players: Annotated[int, Field(ge=MIN_PLAYERS, le=MAX_PLAYERS)] = 3
    initial_units: Annotated[int | None, Field(ge=1, le=100_000,
                                               description="units each player places (R9); "
                                                           "null: 10 per starting territory")] = None
    neutral_units: Annotated[int, Field(ge=0, le=100_000)] = 3
    turn_seconds: Annotated[float | None, Field(gt=0, le=86_400,
                                                description="turn time limit (D3); null: wait for everyone")] = None
    choose_groups: Annotated[bool, Field(description="players pick their starting group when joining (R8); "
                                                     "otherwise groups are drawn at random")] = False
    ruleset: Annotated[str, Field(min_length=1, max_length=32)] = "risc"
    bots: Annotated[int, Field(ge=0, le=MAX_PLAYERS,
                               description="seats the server fills at once with its own computer players "
                                           "(named bot-STRATEGY-1, ...); at most `players`")] = 0
    bot_strategy: Annotated[str, Field(min_length=1, max_length=32,
                                       description="how the server's computer players play: random, aggressive, "
                                                   "defensive or strategist")] = "strategist"

    @model_validator(mode="after")
    def _bots_fit(self) -> GameSettings:
        if self.bots > self.players:
            raise ValueError(f"bots ({self.bots}) cannot exceed players ({self.players})")
        return self


class GamePhase(StrEnum):
    LOBBY = "lobby"
    """Seats are still free; the game starts when the last one is taken."""
    PLACEMENT = "placement"
    ORDERS = "orders"
    FINISHED = "finished"


class SeatInfo(BaseModel):
    name: str
    connected: bool
    group: int | None = None
    eliminated: bool = False


class GameSummary(BaseModel):
    """One game as the lobby lists it, and as every update describes it."""

    game_id: str
    settings: GameSettings
    map_name: str
    territories: int
    seats: list[SeatInfo]
    free: int
    phase: GamePhase
    turn: int = 0
    winner: str | None = None
    groups: list[list[str]] | None = Field(
        default=None, description="the starting groups by index, when players choose them")
    spectators: int = 0
    rematch: list[str] = Field(default_factory=list,
                               description="players who asked for a rematch of this finished game")
    rematch_game: str | None = Field(default=None, description="the game the rematch created")
