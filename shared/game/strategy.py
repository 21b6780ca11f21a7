"""What every computer player is: a small object that reads what one player sees and answers with orders.

A strategy sees only its seat's view and the public map, exactly what a person at the same seat would have, so the
same class plays in-process (tournaments), as a seat the server plays, or over the network as a client. Its chance
comes in as an argument: whoever runs the game seeds it, and a game replays exactly.

It is asked each time the game waits for its seat: a simultaneous game's whole turn at once, a turn-by-turn game's
next action (it is asked again after each one resolves).
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from typing import Any, ClassVar

from shared.maps.model import GameMap


class Strategy(ABC):
    name: ClassVar[str]
    description: ClassVar[str]
    cheats: ClassVar[bool] = False
    """Breaks the rules by design (the COMP 345 cheater): only where a game's creator allows it."""

    @abstractmethod
    def decide(self, view: Any, game_map: GameMap, me: str, rng: random.Random) -> list[Any]:
        """The orders to issue now, in order (for a simultaneous game, then commit)."""
