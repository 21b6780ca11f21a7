"""Finished games told again: their statistics, and replays stepped through turn by turn, for any client.

A finished game is read from the store and played again from its seed and its logged orders (server/replays/replay.py,
as `risc replay` does), once, in a worker thread, one game at a time; the few most recently asked are kept. From that
one replay come the game's statistics (shared/game/statistics.py) and every turn of it as a replay shows it: the board
after the turn through the rule set's `replay_view`, from one player's sight or everyone's, and the turn's events as
that sight was told them (everything, for everyone's).
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from typing import Any

from server.pace import Paces
from server.refusal import Refusal
from server.replays.replay import Replay, ReplayedStep, replay
from server.storage.base import Storage, StoredGame
from server.storage.codec import map_from_dict
from shared.game.game import Game
from shared.game.ruleset import AnyRuleSet
from shared.game.statistics import PlayedTurn, game_statistics
from shared.maps.model import GameMap
from shared.protocol.codes import ErrorCode
from shared.protocol.lobby import MapPicture
from shared.protocol.messages import ReplayedTurn, ReplayOpened, ReplayTurnInfo
from shared.protocol.statistics import GameStatistics
from shared.rulesets import game_ruleset

KEPT = 8
"""Finished games whose replay is kept in memory: enough for a few people looking back at once."""

MADE_BURST = 4
MADE_PER_SECOND = 1 / 15
"""Replays an address (all its connections together) has made: 4 at once, then one every 15 seconds. A replay kept
in memory costs nothing to ask again; making one costs the whole game played again (seconds, for a long game on a
large map), so cycling `open_replay` over more finished games than are kept held a core at 100 %."""


@dataclass(frozen=True)
class Frame:
    """What one point of a replay's timeline shows: the game after a turn (the first: as set up), and the steps
    that turn took."""

    turn: int
    phase: str
    game: Game[Any, Any]
    steps: Sequence[ReplayedStep]


@dataclass(frozen=True)
class Told:
    """A finished game played again, ready to be told: its frames and its statistics."""

    stored: StoredGame
    ruleset: AnyRuleSet
    frames: list[Frame]
    statistics: GameStatistics
    difference: str | None

    @property
    def players(self) -> list[str]:
        return [seat.name for seat in self.stored.progress.seats]


def frames_of(ruleset: AnyRuleSet, replayed: Replay) -> list[Frame]:
    """The timeline: the game as set up, then the game after each turn with the steps the turn took."""
    assert replayed.start is not None
    first = ruleset.status(replayed.start)
    frames = [Frame(first.turn, first.phase, replayed.start, ())]
    before = replayed.start
    turn: list[ReplayedStep] = []
    for i, step in enumerate(replayed.steps):
        turn.append(step)
        following = replayed.steps[i + 1] if i + 1 < len(replayed.steps) else None
        if following is None or following.turn != step.turn:
            frames.append(Frame(step.turn, ruleset.status(before).phase, step.game, tuple(turn)))
            before, turn = step.game, []
    return frames


def tell(stored: StoredGame) -> Told:
    """Play a stored game again and make what its replay and its statistics need (CPU work: run it in a thread)."""
    ruleset, _ = game_ruleset(stored.record.settings.ruleset, stored.record.settings.options)  # its variant
    replayed = replay(stored)
    if replayed.start is None:
        raise Refusal(ErrorCode.NOT_FINISHED, f"game {stored.record.game_id} never started: there is nothing to tell")
    frames = frames_of(ruleset, replayed)
    played = [
        PlayedTurn(
            frame.turn,
            [e for step in frame.steps for e in step.events],
            frame.game,
            [step.resigned for step in frame.steps if step.resigned is not None],
        )
        for frame in frames[1:]
    ]
    winner = ruleset.status(frames[-1].game).winner
    return Told(stored, ruleset, frames, game_statistics(ruleset, replayed.start, played, winner), replayed.difference)


class Replays:
    def __init__(
        self,
        storage: Storage,
        clock: Callable[[], float],
        kept: int = KEPT,
        pictures: Callable[[str | None, GameMap], MapPicture | None] = lambda map_id, game_map: None,
    ) -> None:
        """`clock`: what replays' pace per address is measured on; `pictures`: the picture a game's map (by its
        catalogue id and as the game holds it) is drawn over."""
        self.storage = storage
        self.kept = kept
        self.pictures = pictures
        self._told: OrderedDict[str, Told] = OrderedDict()
        self._working = asyncio.Lock()
        self._made = Paces(clock, MADE_BURST, MADE_PER_SECOND)
        self.made = 0
        """Replays made so far (for tests and benchmarks)."""

    async def told(self, game_id: str, asker: Hashable = None) -> Told:
        """The finished game played again: from memory, or from the store (one game at a time), at the pace of the
        address `asker` (MADE_BURST, MADE_PER_SECOND)."""
        found = self._told.get(game_id)
        if found is None:
            async with self._working:
                found = self._told.get(game_id)
                if found is None:
                    wait = self._made.take(asker)
                    if wait is not None:
                        raise Refusal(
                            ErrorCode.RATE_LIMITED,
                            f"your computer has had {MADE_BURST} finished games played again lately: wait "
                            f"{wait:.0f} s, or look again at one of those",
                        )
                    stored = await self.storage.load(game_id)
                    if stored is None:
                        raise Refusal(ErrorCode.NO_SUCH_GAME, f'there is no game "{game_id}"')
                    if not stored.progress.finished:
                        raise Refusal(
                            ErrorCode.NOT_FINISHED,
                            f"game {game_id} is not over: its statistics and its replay are told once it has ended",
                        )
                    found = await asyncio.to_thread(tell, stored)
                    self.made += 1
                    self._told[game_id] = found
                    while len(self._told) > self.kept:
                        self._told.popitem(last=False)
        self._told.move_to_end(game_id)
        return found

    async def statistics(self, game_id: str, asker: Hashable = None) -> GameStatistics:
        return (await self.told(game_id, asker)).statistics

    async def open(
        self, game_id: str, sight: str | None, ref: str | None = None, asker: Hashable = None
    ) -> ReplayOpened:
        told = await self.told(game_id, asker)
        self._check_sight(told, sight)
        record = told.stored.record
        return ReplayOpened(
            ref=ref,
            game_id=game_id,
            sight=sight,
            ruleset=told.ruleset.name,
            ruleset_title=told.ruleset.title,
            simultaneous=told.ruleset.simultaneous,
            map_name=str(record.game_map.get("name", "")),
            map=record.game_map,
            picture=self.pictures(record.settings.map, map_from_dict(record.game_map)),
            players=told.players,
            winner=told.statistics.winner,
            fog=not told.ruleset.reveals_orders(told.ruleset.options(record.settings.options)),
            turns=[
                ReplayTurnInfo(
                    index=i,
                    turn=frame.turn,
                    phase=frame.phase,
                    steps=len(frame.steps),
                    events=sum(len(step.events) for step in frame.steps),
                )
                for i, frame in enumerate(told.frames)
            ],
            difference=told.difference,
        )

    async def turn(
        self,
        game_id: str,
        sight: str | None,
        index: int,
        ref: str | None = None,
        words: bool = False,
        asker: Hashable = None,
    ) -> ReplayedTurn:
        """One point of the timeline as `sight` saw it; with `words`, each event in the rule set's words too."""
        told = await self.told(game_id, asker)
        self._check_sight(told, sight)
        if not 0 <= index < len(told.frames):
            raise Refusal(
                ErrorCode.INVALID_MESSAGE, f"game {game_id}'s replay has turns 0 to {len(told.frames) - 1}, not {index}"
            )
        frame, ruleset = told.frames[index], told.ruleset
        shown = [
            event
            for step in frame.steps
            for event, audience in zip(step.events, step.audiences or [None] * len(step.events), strict=True)
            if sight is None or audience is None or sight in audience
        ]
        # as the sight read them: "you" where a line speaks of that player; everyone's eyes read every name
        texts = [ruleset.presentation.event_text(event, told.players, sight) for event in shown] if words else None
        return ReplayedTurn(
            ref=ref,
            game_id=game_id,
            sight=sight,
            index=index,
            turn=frame.turn,
            phase=frame.phase,
            view=ruleset.dump_view(ruleset.replay_view(frame.game, sight)),
            events=[ruleset.dump_event(event) for event in shown],
            texts=texts,
        )

    @staticmethod
    def _check_sight(told: Told, sight: str | None) -> None:
        if sight is not None and sight not in told.players:
            raise Refusal(
                ErrorCode.NO_SUCH_PLAYER,
                f'"{sight}" did not play game {told.stored.record.game_id}: its players were {", ".join(told.players)}',
            )
