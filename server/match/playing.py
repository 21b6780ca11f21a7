"""Playing a game: orders issued one by one or in a batch, withdrawn and listed, the legal orders offered, commits,
resigning, and a computer's whole decision for its seat (turns.play_seat).

Apart from seating because these are the game's own changes: the rules decide them (server/core/playing.py), each
is saved before it is answered, and an order alone is news to nobody else (R16), while a change that resolves
something is told to every follower and moves the turn's timer on.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any

from pydantic import BaseModel

from server import core
from server.core import pace
from server.core.entries import Entry
from server.core.notices import nudge_notice
from server.match.answers import Reply
from server.match.followers import Subscriber
from server.match.runner import Runner
from server.refusal import Refusal
from shared.game import turns
from shared.protocol.built import built
from shared.protocol.messages import (
    AcceptedOrder,
    CommitAccepted,
    CommitRefused,
    Legal,
    LegalOrder,
    OrderAccepted,
    OrderMoved,
    OrderRefused,
    Orders,
    OrdersAccepted,
    OrderWithdrawn,
    Resigned,
)
from shared.protocol.notifications import Nudged

logger = logging.getLogger("risc.server")


class Playing(Runner):
    def _acting(
        self, sub: Subscriber, request_id: str | None, answered_by: type[BaseModel], ref: str | None
    ) -> str | None:
        """The player a request that changes the game comes from, once the game takes requests; None when that
        player's request of this id was carried out already and has been answered again (server/match/answers.py)."""
        self._check_open()
        player = self._player(sub)
        return None if self._answers.answered_before(sub, player, request_id, answered_by, ref) else player

    async def issue(
        self, sub: Subscriber, turn: int, order: dict[str, Any], ref: str | None, request_id: str | None = None
    ) -> None:
        async with self.lock:
            player = self._acting(sub, request_id, OrderAccepted, ref)
            if player is None:
                return
            before = self.table.status
            decision = core.issue(self.table, player, turn, order)
            index = decision.order_change.index if decision.order_change is not None else 0
            accepted = decision.accepted_data
            assert accepted is not None and decision.table.game is not None, "an issued order comes back as JSON"
            reply = Reply.of(
                built(  # every value is typed already (shared/protocol/built.py)
                    OrderAccepted,
                    game_id=self.game_id,
                    turn=turn,
                    index=index,
                    order=accepted,
                    left=turns.left(self.ruleset, decision.table.game, player),
                    text=self.ruleset.presentation.words(decision.accepted),
                )
            )
            entries = await self._save(decision, self._request(player, request_id, reply.frame))
            reply.send(sub, ref)
            if entries:  # an order alone is news to nobody else, not even that it was issued (R16)
                self._after_change(entries, decision, before)

    async def issue_batch(
        self,
        sub: Subscriber,
        turn: int,
        orders: list[dict[str, Any]],
        ref: str | None,
        request_id: str | None = None,
        commit: bool = False,
    ) -> None:
        """Several orders in one request (`issue_orders`), and the commit after them if asked: one save and one
        answer for them all."""
        async with self.lock:
            player = self._acting(sub, request_id, OrdersAccepted, ref)
            if player is None:
                return
            before = self.table.status
            batch = core.issue_batch(self.table, player, turn, orders, commit_after=commit)
            refusal = batch.commit_refused
            describe = self.ruleset.presentation.words
            game = batch.decision.table.game
            assert game is not None, "orders are issued in a running game"
            reply = Reply.of(
                built(
                    OrdersAccepted,
                    game_id=self.game_id,
                    turn=turn,
                    ref=None,
                    left=turns.left(self.ruleset, game, player),
                    accepted=[
                        built(
                            AcceptedOrder,
                            position=taken.position,
                            index=taken.index,
                            order=taken.data,
                            text=describe(taken.order),
                        )
                        for taken in batch.accepted
                    ],
                    refused=[
                        built(OrderRefused, position=r.position, code=r.code, message=r.message) for r in batch.refused
                    ],
                    committed=batch.committed,
                    commit_refused=None
                    if refusal is None
                    else built(CommitRefused, code=refusal.code, message=refusal.message),
                )
            )
            request = self._request(player, request_id, reply.frame) if batch.accepted else None
            entries: list[Entry] = []
            if batch.decision.entries:  # orders that took effect at once (turn-by-turn): the whole progress
                entries = await self._save(batch.decision, request)
            elif batch.changes:
                await self._keeper.orders(batch.changes, request)
                self.table = batch.decision.table
                if request is not None:
                    self._answers.remember(request, core.step(self.table))
            reply.send(sub, ref)
            if entries:
                self._after_change(entries, batch.decision, before)

    async def withdraw(
        self, sub: Subscriber, turn: int, index: int, ref: str | None, request_id: str | None = None
    ) -> None:
        async with self.lock:
            player = self._acting(sub, request_id, OrderWithdrawn, ref)
            if player is None:
                return
            decision = core.withdraw(self.table, player, turn, index)
            assert decision.table.game is not None
            reply = Reply.of(
                OrderWithdrawn(
                    game_id=self.game_id,
                    turn=turn,
                    index=index,
                    left=turns.left(self.ruleset, decision.table.game, player),
                )
            )
            await self._save(decision, self._request(player, request_id, reply.frame))
            reply.send(sub, ref)

    async def move(
        self, sub: Subscriber, turn: int, index: int, to: int, ref: str | None, request_id: str | None = None
    ) -> None:
        """One of the player's orders put at another place in their list (core.move)."""
        async with self.lock:
            player = self._acting(sub, request_id, OrderMoved, ref)
            if player is None:
                return
            decision = core.move(self.table, player, turn, index, to)
            assert decision.table.game is not None
            reply = Reply.of(
                OrderMoved(
                    game_id=self.game_id,
                    turn=turn,
                    index=index,
                    to=to,
                    left=turns.left(self.ruleset, decision.table.game, player),
                )
            )
            await self._save(decision, self._request(player, request_id, reply.frame))
            reply.send(sub, ref)

    async def list_orders(self, sub: Subscriber, ref: str | None) -> None:
        async with self.lock:
            player = self._player(sub)
            game, status = core.running(self.table, None)
            describe = self.ruleset.presentation.words
            issued = game.orders_of(player)
            sub.send(
                Orders(
                    game_id=self.game_id,
                    turn=status.turn,
                    orders=[self.ruleset.dump_order(o) for o in issued],
                    committed=player in game.committed,
                    texts=[describe(o) for o in issued],
                    ref=ref,
                )
            )

    async def legal_orders(self, sub: Subscriber, ref: str | None) -> None:
        async with self.lock:
            player = self._player(sub)
            game, status = core.running(self.table, None)
            offer = self.ruleset.presentation.describe_offer
            options = turns.legal_orders(self.ruleset, game, player)
            costs = turns.costs(self.ruleset, game, player, [option.order for option in options])
            legal = [
                LegalOrder(
                    order=self.ruleset.dump_order(option.order),
                    count_field=option.count_field,
                    least=option.least,
                    text=offer(option.order, option.count_field),
                    cost=cost,
                )
                for option, cost in zip(options, costs, strict=True)
            ]
            sub.send(Legal(game_id=self.game_id, turn=status.turn, orders=legal, ref=ref))

    async def commit(self, sub: Subscriber, turn: int, ref: str | None, request_id: str | None = None) -> None:
        async with self.lock:
            player = self._acting(sub, request_id, CommitAccepted, ref)
            if player is None:
                return
            before = self.table.status
            decision = core.commit(self.table, player, turn)
            reply = Reply.of(CommitAccepted(game_id=self.game_id, turn=turn))
            entries = await self._save(decision, self._request(player, request_id, reply.frame))
            reply.send(sub, ref)
            self._after_change(entries, decision, before)

    async def resign(self, sub: Subscriber, ref: str | None) -> None:
        """The connection's player gives up: out of the game from now on, they watch it as one who lost does."""
        async with self.lock:
            self._check_open()
            player = self._player(sub)
            before = self.table.status
            decision = core.resign(self.table, player)
            entries = await self._save(decision)
            logger.info("game %s: %s resigned", self.game_id, player)
            sub.send(Resigned(game_id=self.game_id, ref=ref))
            self._after_change(entries, decision, before)
        if self.finished:
            await self._start_rematch_if_ready()

    async def give_up(self, account: str) -> str | None:
        """An account that is deleted gives up its seat here: it resigns a running game it is still in, and leaves one
        that has not started. Returns the seat's name, or None where it had nothing to give up."""
        async with self.lock:
            self._check_open()
            seat = next((s for s in self.table.seats if s.account == account), None)
            status = self.table.status
            if seat is None or (status is not None and (status.finished or seat.name in status.eliminated)):
                return None
            before = status
            decision = (
                core.resign(self.table, seat.name) if self.table.game is not None else core.leave(self.table, seat.name)
            )
            if decision is None:
                return None
            entries = await self._save(decision)
            logger.info("game %s: %s gave the seat up (the account was deleted)", self.game_id, seat.name)
            self._after_change(entries, decision, before)
        if self.finished:
            await self._start_rematch_if_ready()
        return seat.name

    async def play_seat(self, sub: Subscriber, turn: int, orders: Sequence[Any]) -> list[Refusal]:
        """A computer player's decision for the seat it holds, carried out, saved and told as one change
        (core.play_seat). Returns what the rules refused of it (played as when time runs out)."""
        async with self.lock:
            self._check_open()
            player = self._player(sub)
            before = self.table.status
            decision, refusals = core.play_seat(self.table, player, turn, orders)
            entries = await self._save(decision)
            self._after_change(entries, decision, before)
            return [Refusal.of(problem) for problem in refusals]

    async def nudge(self, sub: Subscriber, player: str, ref: str | None) -> None:
        """Remind a player the game waits for that it does (their account is told on its channels): once a day per
        game. Kept with the game (when each player last nudged) and its notice in the outbox, in one save."""
        async with self.lock:
            self._check_open()
            account = getattr(getattr(sub, "signed", None), "account_id", None)  # from the home: no need to follow
            seated = next((s.name for s in self.table.seats if account is not None and s.account == account), None)
            by = seated if sub not in self.followers.seats and seated is not None else self._player(sub)
            now = self._clock.wall()
            table = pace.nudge(self.table, by, player, now)
            named = next(s.name for s in table.seats if s.name.casefold() == player.casefold())
            notice = nudge_notice(table, by, named, now)
            await self._save(core.Decision(table, notices=() if notice is None else (notice,)))
            sub.send(Nudged(game_id=self.game_id, player=named, ref=ref))
