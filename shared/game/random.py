"""The game's only source of chance (D1): seeded per game, derived afresh for every resolution.

A game's generator for a resolution comes from (game seed, step), where the step counts the resolutions so far.
No generator state has to be stored: a server that restarts, or a replay, gets the same dice from the seed alone,
and a game that resolves each action at once (classic Risk) draws fresh dice for every action. Setting a game up
draws from step -1, apart from every resolution.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, MutableSequence, Sequence
from typing import TypeVar

T = TypeVar("T")

SETUP_STEP = -1
"""The generator that sets a game up (deals territories, draws groups) is derived for this step."""


class GameRandom:
    def __init__(self, seed: int | str, step: int = 0) -> None:
        self._random = random.Random(f"risc:{seed}:{step}")
        self._bits = self._random.getrandbits

    def d20(self) -> int:
        """randrange(20) + 1, drawn as randrange draws it (5 random bits until they make less than 20), without its
        checks of the arguments: the same rolls from the same seed, in about half the time (combat rolls thousands
        of them a turn)."""
        bits = self._bits
        roll = bits(5)
        while roll >= 20:
            roll = bits(5)
        return roll + 1

    def d6(self) -> int:
        return self._random.randrange(6) + 1

    def shuffle(self, items: MutableSequence[T]) -> None:
        self._random.shuffle(items)

    def choice(self, items: Sequence[T]) -> T:
        return items[self._random.randrange(len(items))]

    def below(self, n: int) -> int:
        return self._random.randrange(n)

    def uniform(self) -> float:
        return self._random.random()

    def binomial(self, n: int, p: float) -> int:
        """Exact Binomial(n, p) in O(1) expected time for large n.

        Python 3.11 lacks random.binomialvariate (3.12); this is the same algorithm (BG for small n*p, Hörmann's
        BTRS otherwise), ported from CPython's Lib/random.py under the PSF licence.
        """
        if n < 0:
            raise ValueError("n must be non-negative")
        if p <= 0.0 or p >= 1.0:
            if p == 0.0:
                return 0
            if p == 1.0:
                return n
            raise ValueError("p must be in the range 0.0 <= p <= 1.0")
        rand = self._random.random
        if n == 1:
            return int(rand() < p)
        if p > 0.5:
            return n - self.binomial(n, 1.0 - p)
        if n * p < 10.0:
            x = y = 0
            c = math.log2(1.0 - p)
            if not c:
                return x
            while True:
                y += math.floor(math.log2(rand()) / c) + 1
                if y > n:
                    return x
                x += 1
        spq = math.sqrt(n * p * (1.0 - p))
        b = 1.15 + 2.53 * spq
        a = -0.0873 + 0.0248 * b + 0.01 * p
        c = n * p + 0.5
        vr = 0.92 - 4.2 / b
        setup_complete = False
        alpha = lpq = h = 0.0
        m = 0
        while True:
            u = rand() - 0.5
            us = 0.5 - abs(u)
            k = math.floor((2.0 * a / us + b) * u + c)
            if k < 0 or k > n:
                continue
            v = rand()
            if us >= 0.07 and v <= vr:
                return k
            if not setup_complete:
                alpha = (2.83 + 5.1 / b) * spq
                lpq = math.log(p / (1.0 - p))
                m = math.floor((n + 1) * p)
                h = math.lgamma(m + 1) + math.lgamma(n - m + 1)
                setup_complete = True
            v *= alpha / (a / (us * us) + b)
            if math.log(v) <= h - math.lgamma(k + 1) - math.lgamma(n - k + 1) + (k - m) * lpq:
                return k


Dice = Callable[[int], GameRandom]
"""The generator of each step: what every function that resolves is given, so a test can load the dice."""


def dice_of(seed: int | str) -> Dice:
    """A game's dice: GameRandom(seed, step) for each step."""
    return lambda step: GameRandom(seed, step)
