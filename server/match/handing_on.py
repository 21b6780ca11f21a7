"""Seats and games passed on: an absent player's seat handed to the server's computer by the others' vote, and a
finished game's table to its rematch (R27), where its players' connections sit down at once.

Apart from playing and seating because these outlast a game's ordinary course: what they decide is the core's
(core.hand_over_vote, core.rematch_outlook); here the votes and requests are answered, and a rematch is made
through the lobby (the factory a match is given) and its players seated in it.
"""

from __future__ import annotations

import logging
from typing import Self

from server import core
from server.match.followers import Subscriber
from server.match.runner import Runner
from server.refusal import Refusal
from shared.protocol.codes import ErrorCode
from shared.protocol.messages import HandOverPending, RematchPending

logger = logging.getLogger("risc.server")


class HandingOn(Runner):
    async def vote_hand_over(self, sub: Subscriber, player: str, least_away: float, ref: str | None) -> str | None:
        """A player's vote to hand `player`'s seat (named in any case) to the server's computer player; the seat's
        name once it is decided."""
        async with self.lock:
            self._check_open()
            voter = self._player(sub)
            player = core.seat_named(self.table, player) or player
            computers = self.table.server_seats
            vote = core.hand_over_vote(
                self.table, voter, player, self._clock.now(), least_away, self.followers.held() - computers, computers
            )
            sub.send(
                HandOverPending(game_id=self.game_id, player=player, votes=vote.votes, needed=vote.needed, ref=ref)
            )
            if vote.decision is None:
                self.table = vote.table
                return None
            entries = await self._save(vote.decision)
            logger.info("game %s: %s's seat is handed to the server's player", self.game_id, player)
            self._broadcast(entries)
            return player

    async def request_rematch(self, sub: Subscriber, ref: str | None) -> None:
        async with self.lock:
            self._check_open()
            player = self.watchers.get(sub)
            if player is None:
                raise Refusal(ErrorCode.NOT_SEATED, f"only the players of game {self.game_id} may ask for a rematch")
            decision, waiting = core.rematch_request(self.table, player)
            entries = await self._save(decision)
            sub.send(
                RematchPending(game_id=self.game_id, accepted=list(self.table.rematch), waiting_for=waiting, ref=ref)
            )
            self._broadcast(entries)
            await self._start_rematch_if_ready()

    async def _start_rematch_if_ready(self: Self) -> None:
        """Start the rematch when the table's requests call for it (core.rematch_outlook), or say why it cannot."""
        if self._rematch_factory is None:
            return
        outlook = core.rematch_outlook(self.table)
        if outlook.impossible is not None:
            self._broadcast(await self._save(outlook.impossible))
        if not outlook.seats:
            return
        new_match = await self._rematch_factory(self, list(outlook.seats))
        entries = await self._save(core.rematch_started(self.table, new_match.game_id))
        self._broadcast(entries)
        logger.info("game %s: rematch started as game %s", self.game_id, new_match.game_id)
        for other, seat in list(self.watchers.items()):
            if seat is not None and seat in self.table.rematch:
                await new_match.attach(other, seat)

    def rematch_problem(self) -> str | None:
        return core.rematch_problem(self.table)
