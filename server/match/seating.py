"""Who sits at a game and who watches it: joining, leaving, watching (with a player's eyes where the rules allow),
coming back with a seat's token, a rematch's players seated, connections that drop; and the game's chat among them.

Apart from playing because these change who follows the game rather than the game: most of them are told to the
others only as a seat's connection coming or going (at a measured pace), never as news of the game.
"""

from __future__ import annotations

import logging

from server import core
from server.core.entries import Entry
from server.match.followers import Subscriber
from server.match.runner import Runner
from server.match.seats import find_seat, new_token, token_hash
from server.refusal import Refusal
from shared.protocol.codes import ErrorCode
from shared.protocol.messages import ChatSent, Error, Joined, Left, Resumed, Watching

logger = logging.getLogger("risc.server")


class Seating(Runner):
    async def join(
        self,
        sub: Subscriber,
        name: str,
        group: int | None,
        ref: str | None,
        request_id: str | None = None,
        account: str | None = None,
    ) -> None:
        """Take a seat: a guest's, with a new token sent to its owner only; or `account`'s, which its sessions open
        (no token: `joined.token` is empty)."""
        async with self.lock:
            self._check_open()
            if self._answers.reply_of(name, request_id, Joined) is not None:
                await self._join_again(sub, name, request_id, ref)
                return
            if self.watchers.get(sub) is not None:
                raise Refusal(
                    ErrorCode.ALREADY_SEATED, f"you already sit in game {self.game_id} as {self.watchers[sub]}"
                )
            token = "" if account is not None else new_token()
            decision = core.join(self.table, name, group, token_hash(token), account)
            request = self._request(name, request_id, Joined(game_id=self.game_id, player=name, token=""))
            entries = await self._save(decision, request)
            self.followers.seat(sub, name)
            self.table = core.seat_taken(self.table, name)
            logger.info(
                "game %s: %s joined (%d/%d seats)", self.game_id, name, len(self.table.seats), self.settings.players
            )
            sub.send(Joined(game_id=self.game_id, player=name, token=token, ref=ref))
            if self.table.game is not None:
                logger.info("game %s: started with %s", self.game_id, ", ".join(s.name for s in self.table.seats))
                self._schedule_deadline()
            self._note_presence()
            self._broadcast(entries, skip=sub)
            self._follow(sub, self.seq - 1)  # the change that seated them is news to them too

    async def _join_again(self, sub: Subscriber, name: str, request_id: str | None, ref: str | None) -> None:
        """A join sent again after its reply was lost: the seat it took gets a new token (core.token_renewed)."""
        if all(seat.name != name for seat in self.table.seats):
            raise Refusal(
                ErrorCode.INVALID_MESSAGE,
                f"request id {request_id} seated {name}, who has left game {self.game_id} since: "
                "a new join takes a new id",
                field="request_id",
            )
        token = new_token()
        await self._save(core.token_renewed(self.table, name, token_hash(token)))
        self._take_seat(sub, name)
        sub.send(Joined(game_id=self.game_id, player=name, token=token, ref=ref))
        self._follow(sub, None)

    async def leave(self, sub: Subscriber, ref: str | None) -> None:
        async with self.lock:
            if sub not in self.watchers:
                raise Refusal(ErrorCode.NOT_SEATED, f"you are not in game {self.game_id}")
            seat = self.watchers[sub]
            entries: list[Entry] = []
            if seat is not None:
                decision = core.leave(self.table, seat)
                if decision is not None:
                    self._check_open()
                    entries = await self._save(decision)
                    logger.info("game %s: %s left", self.game_id, seat)
            self.followers.stop(sub)
            self._note_presence()
            sub.send(Left(game_id=self.game_id, ref=ref))
            if entries:
                self._broadcast(entries)
            elif seat is not None:
                self._presence_changed()
            if seat is not None and self.finished:
                await self._start_rematch_if_ready()

    async def watch(self, sub: Subscriber, last_seq: int | None, follow: str | None, ref: str | None) -> None:
        await self._read_back(last_seq)
        async with self.lock:
            sight = core.sight(self.table, self.watchers.get(sub), follow)
            late = self.finished and (sub not in self.watchers or sub in self.followers.late)
            self.followers.seat(sub, None, sight, late=late)
            sub.send(Watching(game_id=self.game_id, follow=sight, ref=ref))
            self._follow(sub, last_seq)
            # Nobody else is told: with every newcomer told to every watcher, a thousand spectators joining made a
            # million updates. The others' spectator count catches up with the game's next update.

    async def resume(
        self, sub: Subscriber, token: str | None, last_seq: int | None, ref: str | None, account: str | None = None
    ) -> None:
        """Back to a seat: the one `token` opens, or without a token the seat of the connection's `account`."""
        await self._read_back(last_seq)
        async with self.lock:
            if token is not None:
                seat = find_seat(token, self.seats)
                if seat is None:
                    raise Refusal(
                        ErrorCode.BAD_TOKEN, f"that token opens no seat in game {self.game_id}", field="token"
                    )
            else:
                seat = next((s for s in self.seats if account is not None and s.account == account), None)
                if seat is None:
                    raise Refusal(
                        ErrorCode.NOT_SEATED,
                        f"your account has no seat in game {self.game_id}"
                        if account is not None
                        else "give your seat's token, or sign in to the account whose seat it is",
                        field="token",
                    )
            taken_back = core.take_back(self.table, seat.name)  # the player takes their seat back from the computer
            entries = [] if taken_back is None else await self._save(taken_back)
            back = self._take_seat(sub, seat.name)
            self._schedule_deadline()  # a game whose seats were all empty starts its clock again
            logger.info("game %s: %s reconnected", self.game_id, seat.name)
            sub.send(Resumed(game_id=self.game_id, player=seat.name, ref=ref))
            self._follow(sub, last_seq)
            if entries:
                self._broadcast(entries, skip=sub)
            elif back:
                self._presence_changed(skip=sub)

    async def attach(self, sub: Subscriber, player: str) -> None:
        """Seat a connection whose player was seated here by a rematch: it holds the same token as before."""
        async with self.lock:
            self._take_seat(sub, player)
            self._schedule_deadline()
            sub.send(Resumed(game_id=self.game_id, player=player))
            self._follow(sub, 0)
            self._presence_changed(skip=sub)

    def _take_seat(self, sub: Subscriber, player: str) -> bool:
        """Hold `player`'s seat from `sub`; returns whether the seat was empty before (news for the others)."""
        held_before = False
        for other, held in list(self.watchers.items()):
            if held == player and other is not sub:
                held_before = True
                self.followers.stop(other)
                other.send(
                    Error(
                        code=ErrorCode.NOT_SEATED,
                        game_id=self.game_id,
                        message=f"your seat in game {self.game_id} was taken back with its token "
                        "from another connection",
                    )
                )
        if self.watchers.get(sub) == player:
            held_before = True
        self.followers.seat(sub, player)
        self.taken_over = False
        self.table = core.seat_taken(self.table, player)
        self._note_presence()
        return not held_before

    async def disconnect(self, sub: Subscriber) -> None:
        async with self.lock:
            if sub not in self.watchers:
                return
            seat = self.watchers[sub]
            self.followers.stop(sub)
            self._note_presence()
            if seat is not None and seat not in self.watchers.values():
                # A spectator going is not news of its own, as its coming was not (see watch).
                logger.info("game %s: %s disconnected", self.game_id, seat)
                self.table = core.seat_left(self.table, seat, self._clock.now())
                self._presence_changed()

    async def chat(self, sub: Subscriber, text: str, to: str | None, name: str | None, ref: str | None) -> None:
        """A word in the game's chat from one who follows it (a player, or a spectator under a name)."""
        async with self.lock:
            self._check_open()
            if sub not in self.watchers:
                raise Refusal(ErrorCode.NOT_SEATED, f"follow game {self.game_id} (join or watch it) to chat in it")
            decision = core.chat(self.table, self.watchers[sub], name, text, to, sub in self.followers.late)
            entries = await self._save(decision)
            sub.send(ChatSent(game_id=self.game_id, ref=ref))
            self._broadcast(entries)
