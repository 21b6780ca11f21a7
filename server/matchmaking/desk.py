"""What a connection asks about ratings, quick play and challenges (protocol 5): the ladders, the queue and its wait,
invitations to a game. Each node runs its own desk: it forms games from the queue the directory keeps (one node at
a time), makes them here, and tells its own connections when they are seated (docs/ratings.md)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Any

from server.accounts.service import Accounts, SignedIn
from server.clock import Clock, Timer
from server.frontier.guesses import address_of
from server.lobby.lobby import Lobby
from server.matchmaking.forming import Ask, Formed, Queued, form
from server.matchmaking.queue import QueueStore
from server.notify.desk import Notifier
from server.pace import Paces
from server.ratings.ladder import Ladders
from server.ratings.model import NEW
from server.refusal import Redirect, Refusal
from server.storage.base import SeatRecord, StorageError
from server.storage.invitations import Invitation, InvitationStore
from server.storage.ratings import RatingStore
from server.tasks import BackgroundTasks
from shared.protocol import wording
from shared.protocol.accounts import Invitation as InvitationInfo
from shared.protocol.codes import ErrorCode
from shared.protocol.lobby import GameSettings
from shared.protocol.names import skeleton
from shared.protocol.ratings import (
    AnswerChallenge,
    AskGameRatings,
    AskLeaderboard,
    AskProfile,
    Challenge,
    ChallengeAnswered,
    ChallengeSent,
    LeaveQuickPlay,
    QueuedFor,
    QuickPlay,
    QuickPlayFound,
    QuickPlayLeft,
    QuickPlayWaiting,
)
from shared.rulesets import RULESETS

logger = logging.getLogger("risc.server")

TURN_SECONDS = {"live": 120.0, "slow": 12 * 3600.0}
"""A quick play game's time limit a turn: two minutes live, twelve hours slow."""
SHOWN_NAMES = 20
"""The most names the wait shows for one kind of game (and how many more)."""
SWEEP_EVERY = 5.0
CHALLENGES_TO_ONE = (3, 1 / 600)
"""Challenges from one account to another: 3 at once, then one every ten minutes. Each tells the account challenged
(a webhook's POST each, at once): a challenge sent, its game left and sent again, sixty times in 0.2 s, told it sixty
times."""
CHALLENGES_FROM_ONE = (10, 1 / 60)
"""Challenges from one account to anyone: 10 at once, then one a minute."""
LEADERBOARDS = (8, 1.0)
"""Leaderboards read by one address, whatever its connections: 8 at once, then one a second. Each sorts every rated
player of its rule set while the store's one connection waits (30 ms at offset 0, 170 to 300 ms at offset 99,000,
with 100,000 players): a guest asking a hundred a second held up every game's saves. A profile and a game's ratings
are read by their index, and are not paced."""


def signed(sub: object) -> SignedIn:
    found = getattr(sub, "signed", None)
    if not isinstance(found, SignedIn):
        raise Refusal(ErrorCode.ACCOUNT_NEEDED, "sign in first: quick play and challenges are an account's")
    return found


class PeopleDesk:
    def __init__(
        self,
        lobby: Lobby,
        accounts: Accounts,
        ratings: RatingStore,
        queue: QueueStore,
        invitations: InvitationStore,
        node: str,
        clock: Clock,
        every: float = 0.5,
    ) -> None:
        self.lobby = lobby
        self.accounts = accounts
        self.ladders = Ladders(ratings, accounts.store, clock)
        self.ratings = ratings
        self.queue = queue
        self.invited = invitations
        self.node = node
        self.clock = clock
        self.every = every
        self.local: dict[str, Any] = {}
        """Each account queued through this node, and its connection."""
        self._asks: dict[str, Queued] = {}
        self._last_view: dict[str, str] = {}
        self._tasks = BackgroundTasks()
        self._timer: Timer | None = None
        self._closed = False
        self._swept = 0.0
        self._challenges_to = Paces(clock.now, *CHALLENGES_TO_ONE)
        self._challenges_from = Paces(clock.now, *CHALLENGES_FROM_ONE)
        self._leaderboards = Paces(clock.now, *LEADERBOARDS)
        self.notifier: Notifier | None = None
        """Who tells an account, away from the game, of a challenge (server/notify/desk.py); the server sets it."""

    # ---- requests --------------------------------------------------------------------------------------------------

    async def handle(self, sub: Any, message: object) -> None:
        if isinstance(message, AskLeaderboard):
            wait = self._leaderboards.take(address_of(str(getattr(sub, "address", "?"))))
            if wait is not None:
                why = f"your computer reads leaderboards too fast: wait {max(wait, 1):.0f} s"
                raise Refusal(ErrorCode.RATE_LIMITED, why)
        match message:
            case AskLeaderboard():
                sub.send(
                    (await self.ladders.leaderboard(message.ruleset, message.offset, message.limit)).model_copy(
                        update={"ref": message.ref}
                    )
                )
            case AskProfile():
                sub.send((await self.ladders.profile(message.name)).model_copy(update={"ref": message.ref}))
            case AskGameRatings():
                sub.send((await self.ladders.game(message.game_id)).model_copy(update={"ref": message.ref}))
            case QuickPlay():
                await self.ask(sub, message)
            case LeaveQuickPlay():
                account = signed(sub)
                await self._stored(self.queue.leave(account.account_id))
                self._forget(account.account_id)
                sub.send(QuickPlayLeft(ref=message.ref))
            case Challenge():
                await self.challenge(sub, message)
            case AnswerChallenge():
                await self.answer(sub, message)

    async def ask(self, sub: Any, message: QuickPlay) -> None:
        account = signed(sub)
        ruleset = RULESETS.get(message.ruleset)
        if ruleset is None:
            known = ", ".join(sorted(RULESETS))
            raise Refusal(ErrorCode.BAD_SETTINGS, f'there is no rule set "{message.ruleset}" (known: {known})')
        fewest, most = ruleset.player_counts(ruleset.options({}))
        if not fewest <= message.players <= most:
            raise Refusal(
                ErrorCode.BAD_SETTINGS,
                wording.player_count(ruleset.title, fewest, most, message.players),
                field="players",
            )
        self.lobby.quick_map(ruleset, message.players)  # refused now if no map fits
        if message.computers_after is not None:  # the computers play on alone once the people resign: counted so
            await self.lobby.check_creator(sub, None)
        standings = await self._stored(self.ratings.standings_of(account.account_id))
        skill = next((s.skill for s in standings if s.ruleset == ruleset.name), NEW)
        ask = Ask(ruleset.name, message.players, message.pace, message.computers_after)
        queued = await self._stored(
            self.queue.enqueue(Queued(account.account_id, account.name, ask, skill.shown, self.clock.wall()), self.node)
        )
        self.local[account.account_id] = sub
        self._asks[account.account_id] = queued
        self._last_view.pop(account.account_id, None)
        self.start()
        sub.send(self._wait(queued, await self._stored(self.queue.waiting())).model_copy(update={"ref": message.ref}))
        await self._tick()

    async def disconnect(self, sub: Any) -> None:
        """A connection that closed takes its player out of the queue (seated already: they stay seated)."""
        for account, queued_sub in list(self.local.items()):
            if queued_sub is sub:
                self._forget(account)
                with contextlib.suppress(StorageError):
                    await self.queue.leave(account)

    def _forget(self, account: str) -> None:
        self.local.pop(account, None)
        self._asks.pop(account, None)
        self._last_view.pop(account, None)

    # ---- forming -----------------------------------------------------------------------------------------------

    def start(self) -> None:
        """Look at the queue every `every` seconds of the server's clock while players wait through this node (the
        first to queue here starts it). A node none wait through does not look: every waiting player's own node
        forms their games, with whoever waits elsewhere, and sweeps the queue first; an idle node of several would
        otherwise ask PostgreSQL twice a second for nothing."""
        if self._timer is None and not self._closed:
            self._timer = self.clock.call_later(self.every, self._due)

    def _due(self) -> None:
        self._timer = None
        if not self._closed:
            self._tasks.spawn(self._look(), "quick play: looking at the queue failed")

    async def _look(self) -> None:
        try:
            await self._tick()
        except (StorageError, OSError) as exc:
            logger.warning("quick play: the queue could not be read: %s", exc)
        finally:
            if self.local:
                self.start()

    async def _tick(self) -> None:
        now = self.clock.wall()
        if now - self._swept >= SWEEP_EVERY:
            self._swept = now
            await self.queue.sweep()
        claimed = await self.queue.claim(lambda rows: form(rows, now), self.lobby.new_id)
        for game_id, formed in claimed:
            await self._make(game_id, formed)
        if not self.local:
            return
        for seat in await self.queue.seated(list(self.local)):
            sub = self.local.get(seat.account)
            self._forget(seat.account)
            if sub is not None:
                if not seat.rated:  # the server's computers filled it: it counts as a game the player created
                    await self.lobby.credit(seat.game_id, sub)
                sub.send(QuickPlayFound(game_id=seat.game_id, player=seat.player, rated=seat.rated))
        waiting = await self.queue.waiting()
        for account, sub in list(self.local.items()):
            queued = next((q for q in waiting if q.account == account), None)
            if queued is None:
                continue
            view = self._wait(queued, waiting)
            said = view.model_dump_json(exclude={"waited", "computers_in"})
            if said != self._last_view.get(account) or round(view.waited) % 5 == 0:
                self._last_view[account] = said
                sub.send(view)

    async def _make(self, game_id: str, formed: Formed) -> None:
        ask = formed.ask
        ruleset = RULESETS[ask.ruleset]
        settings = GameSettings(
            ruleset=ask.ruleset,
            map=self.lobby.quick_map(ruleset, ask.players),
            players=ask.players,
            turn_seconds=max(TURN_SECONDS[ask.pace], self.lobby.min_turn_seconds),
            bots=formed.computers,
            rated=formed.rated,
        )
        seats = [SeatRecord(name=q.name, token_hash="", account=q.account) for q in formed.players]
        try:
            await self.lobby.create_formed(game_id, settings, seats)
        except Exception as exc:
            logger.error("quick play: game %s could not be made, its players wait again: %s", game_id, exc)
            await self.queue.unclaim(game_id)
            return
        await self.queue.made(game_id)

    def _wait(self, queued: Queued, waiting: list[Queued]) -> QuickPlayWaiting:
        now = self.clock.wall()
        kinds: dict[tuple[str, int, str], list[str]] = {}
        for other in waiting:
            kinds.setdefault((other.ask.ruleset, other.ask.players, other.ask.pace), []).append(other.name)
        after = queued.ask.computers_after
        return QuickPlayWaiting(
            ruleset=queued.ask.ruleset,
            players=queued.ask.players,
            pace=queued.ask.pace,  # type: ignore[arg-type]
            rating=queued.rating,
            waited=max(0.0, now - queued.since),
            window=round(queued.window(now)),
            computers_in=None if after is None else max(0.0, after - (now - queued.since)),
            queued=[
                QueuedFor(ruleset=r, players=n, pace=p, names=names[:SHOWN_NAMES])  # type: ignore[arg-type]
                for (r, n, p), names in sorted(kinds.items())
            ],
        )

    # ---- challenges ----------------------------------------------------------------------------------------------

    async def challenge(self, sub: Any, message: Challenge) -> None:
        account = signed(sub)
        invited = await self._stored(self.accounts.store.account_named(skeleton(message.name)))
        if invited is None or invited.deleted or invited.disabled:
            raise Refusal(ErrorCode.NO_SUCH_PLAYER, f'no account is named "{message.name}"', field="name")
        if invited.account_id == account.account_id:
            raise Refusal(ErrorCode.NO_SUCH_PLAYER, "you cannot challenge yourself", field="name")
        if message.settings.players < 2:
            raise Refusal(ErrorCode.BAD_SETTINGS, "a challenge is a game of two or more", field="settings.players")
        if message.settings.bots >= message.settings.players - 1:
            raise Refusal(
                ErrorCode.BAD_SETTINGS,
                f"the server's computers would take every seat but yours: keep one for {invited.name}",
                field="settings.bots",
            )
        self._pace_challenge(account, invited.account_id, invited.name)
        match = await self.lobby.create(message.settings, None, sub)
        await match.join(sub, account.name, None, None, None, account.account_id)
        await self._stored(self.invited.invite(Invitation(match.game_id, invited.account_id, account.name)))
        logger.info("game %s: %s challenged %s", match.game_id, account.name, invited.name)
        if self.notifier is not None:  # after the invitation: a crash between them loses the notice, not the challenge
            what = f"a game of {RULESETS[message.settings.ruleset].title}, game {match.game_id}: see your home"
            await self.notifier.challenge(invited.account_id, account.name, what, self.clock.wall())
        sub.send(ChallengeSent(game_id=match.game_id, to=invited.name, ref=message.ref))

    def _pace_challenge(self, account: SignedIn, invited: str, name: str) -> None:
        wait = self._challenges_to.take((account.account_id, invited))
        if wait is not None:
            raise Refusal(ErrorCode.RATE_LIMITED, f"you challenged {name} a lot lately: try again in {wait:.0f} s")
        wait = self._challenges_from.take(account.account_id)
        if wait is not None:
            raise Refusal(ErrorCode.RATE_LIMITED, f"you sent a lot of challenges lately: try again in {wait:.0f} s")

    async def answer(self, sub: Any, message: AnswerChallenge) -> None:
        account = signed(sub)
        invitation = await self._stored(self.invited.answer(message.game_id, account.account_id))
        if invitation is None:
            raise Refusal(ErrorCode.NO_SUCH_GAME, f"nobody challenged you to game {message.game_id}")
        if message.accept:
            try:
                match = await self.lobby.find(message.game_id)
                await match.join(sub, account.name, None, None, None, account.account_id)
            except Redirect:
                await self._stored(self.invited.invite(invitation))  # answered on the node that plays it
                raise
            except Refusal as refusal:
                if refusal.code == ErrorCode.STORAGE_FAILED:
                    await self._stored(self.invited.invite(invitation))  # still there to answer (or to decline)
                raise  # a game gone, started or full without them: the invitation is no more
        sub.send(
            ChallengeAnswered(game_id=message.game_id, name=account.name, accepted=message.accept, ref=message.ref)
        )

    async def invitations(self, account: SignedIn) -> list[InvitationInfo]:
        """The challenges waiting for the account's answer, each with its game as it is now where this node plays
        it."""
        found = []
        for invitation in await self._stored(self.invited.invitations(account.account_id)):
            match = self.lobby.matches.get(invitation.game_id)
            if match is None and await self._gone(invitation.game_id):
                await self._stored(self.invited.answer(invitation.game_id, account.account_id))
                continue
            found.append(
                InvitationInfo(
                    game_id=invitation.game_id, by=invitation.by, game=None if match is None else match.summary()
                )
            )
        return found

    async def _gone(self, game_id: str) -> bool:
        """Whether an invitation's game is no more (closed by its last player): its invitation is dropped."""
        try:
            await self.lobby.find(game_id)
        except Redirect:
            return False
        except Refusal as refusal:
            return refusal.code == ErrorCode.NO_SUCH_GAME
        return False

    @staticmethod
    async def _stored(work: Any) -> Any:
        try:
            return await work
        except StorageError as exc:
            raise Refusal(ErrorCode.STORAGE_FAILED, f"the server cannot reach its store right now ({exc})") from None

    async def close(self) -> None:
        self._closed = True
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        await asyncio.gather(*self._tasks.cancel(), return_exceptions=True)
