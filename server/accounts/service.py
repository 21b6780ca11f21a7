"""Accounts as the server keeps them: signing up and in, sessions (made, used, ended, heard of by every node), passwords
changed, accounts disabled and deleted. docs/security.md states each rule with its test.

A session's token is 256 random bits, given to its client once and kept only as its SHA-256; it lasts 30 days from
its last use (a sliding expiry, renewed at most once an hour so that a connection is not a write). An unknown name
and a wrong password get the same answer after the same work (a dummy hash is checked for a name no account has),
and failed sign-ins are counted both per address (the guesses' growing wait, server/frontier/guesses.py) and per
name, whether an account has it or not, so that a name's lock tells nothing either.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import hmac
import logging
import secrets
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Literal, TypeVar

from server.accounts.passwords import Busy, Passwords, WeakPassword, normalised
from server.clock import Clock
from server.frontier.guesses import Guesses, Verdict
from server.refusal import Refusal
from server.storage.accounts import AccountRecord, AccountStore, Failures, NameTaken, SessionRecord
from server.storage.base import StorageError
from shared.protocol.accounts import AccountInfo, SessionInfo
from shared.protocol.codes import ErrorCode
from shared.protocol.names import skeleton

logger = logging.getLogger("risc.server")

_R = TypeVar("_R")

AccountsMode = Literal["off", "optional", "required"]
MODES: tuple[AccountsMode, ...] = ("off", "optional", "required")

SESSION_DAYS = 30.0
TOUCH_EVERY = 3600.0
"""A session's last use is written at most this often (seconds): its expiry slides by the hour."""
FREE_NAME_FAILURES = 5
"""Failed sign-ins under one name before each further one locks it for a while."""
NAME_LOCK_FIRST = 2.0
NAME_LOCK_MAX = 15 * 60.0
RESERVED_PREFIXES = ("bot-", "bot:")
"""Computer players' seats begin so: no account takes such a name."""
MAX_LOCKED_KEPT = 10_000
"""Locked names a node remembers at once (past it, it forgets them all and reads the store again)."""
ENDED_KEPT = 86_400.0
"""How long an ended or expired session's row is kept (every node hears of an ending within a second or two)."""


@dataclass(frozen=True)
class SignedIn:
    """What a connection signed in holds: its account and its session (by the token's hash, never the token)."""

    account_id: str
    name: str
    token_hash: str
    created_at: float

    @property
    def info(self) -> AccountInfo:
        return AccountInfo(name=self.name, created_at=self.created_at)


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def public_id(token_hash_hex: str) -> str:
    """What a session is listed and ended by: the start of a hash of its hash (neither gives the token back)."""
    return hashlib.sha256(token_hash_hex.encode()).hexdigest()[:16]


def name_lock(failures: int) -> float:
    """Seconds a name is locked after its `failures`-th failed sign-in: none for the first few, then doubling."""
    beyond = failures - FREE_NAME_FAILURES
    return 0.0 if beyond <= 0 else min(NAME_LOCK_FIRST * 2.0 ** min(beyond - 1, 30), NAME_LOCK_MAX)


def _seconds(seconds: float) -> str:
    whole = max(1, round(seconds))
    return f"{whole} s" if whole < 120 else f"{round(whole / 60)} minutes"


class Accounts:
    """The accounts of one server (every node's the same rows)."""

    def __init__(
        self,
        store: AccountStore,
        clock: Clock,
        *,
        mode: AccountsMode = "optional",
        passwords: Passwords | None = None,
        guesses: Guesses | None = None,
        watch_every: float = 1.0,
    ) -> None:
        self.store = store
        self.clock = clock
        self.mode: AccountsMode = mode
        self.passwords = passwords or Passwords()
        self.guesses = guesses or Guesses(
            free=5, delay=1.0, delay_max=300.0, forget=3600.0, report_every=60.0, what="sign-in", hold=False
        )
        self.watch_every = watch_every
        self._watcher: asyncio.Task[None] | None = None
        self._locked: dict[str, float] = {}
        """Names known locked, until when: a flood of guesses under a locked name is refused without a read of the
        store each (on a cluster a node learns of another's lock at its first read)."""
        self._checking: dict[str, int] = {}
        """Sign-ins under each name being looked at now: no more at once than the name has failures left."""

    @property
    def on(self) -> bool:
        return self.mode != "off"

    async def start(self, ended: Callable[[set[str]], Awaitable[None]]) -> None:
        """Make the dummy hash now (not in the first unknown name's sign-in, which would then take twice the work),
        and hear of every session that ends from now on (`watch`)."""
        if self.on:
            await self.passwords.verify(None, "warming up")
            self.watch(ended)

    def check_on(self) -> None:
        if not self.on:
            raise Refusal(ErrorCode.ACCOUNTS_OFF, "this server has no accounts: everyone plays as a guest")

    # ---- signing up and in -----------------------------------------------------------------------------------

    async def sign_up(self, name: str, password: str, client: str | None) -> tuple[SignedIn, str]:
        """A new account, signed in: its session and the session's token. Refused: a name taken (or like one), a
        name of the computer players', a weak password."""
        self.check_on()
        if name.lower().startswith(RESERVED_PREFIXES):
            raise Refusal(
                ErrorCode.NAME_TAKEN, f'names beginning "{name[:4]}" are the computer players\'', field="name"
            )
        text = self._password(password, "password")
        key = skeleton(name)
        if await self._stored(self.store.account_named(key)) is not None:
            raise Refusal(ErrorCode.NAME_TAKEN, f'the name "{name}" (or one that looks like it) is taken', field="name")
        account = AccountRecord(
            secrets.token_hex(16), name, key, await self._hashed(text), self.clock.wall(), False, False
        )
        try:
            await self.store.create_account(account)
        except NameTaken:
            raise Refusal(
                ErrorCode.NAME_TAKEN, f'the name "{name}" (or one that looks like it) is taken', field="name"
            ) from None
        except StorageError as exc:
            raise self._failed(exc) from None
        logger.info("account %s made", account.name)
        return await self._new_session(account, client)

    async def sign_in(self, name: str, password: str, address: str, client: str | None) -> tuple[SignedIn, str]:
        """Sign in: the session and its token. An unknown name and a wrong password are refused alike."""
        self.check_on()
        key = skeleton(name)
        now = self.clock.wall()
        until = self._locked.get(key, 0.0)
        if until <= now:
            self._locked.pop(key, None)
            failures = await self._stored(self.store.failures(key))
            until = failures.locked_until if failures is not None else 0.0
            if until > now:
                if len(self._locked) >= MAX_LOCKED_KEPT:
                    self._locked.clear()
                self._locked[key] = until
        else:
            failures = None
        if until > now:
            raise Refusal(
                ErrorCode.SIGN_IN_WAIT,
                f"too many failed sign-ins under that name: try again in {_seconds(until - now)}",
            )
        checking = self._checking.get(key, 0)
        if checking >= max(1, FREE_NAME_FAILURES - (failures.count if failures is not None else 0)):
            raise Refusal(ErrorCode.SIGN_IN_WAIT, "too many sign-ins under that name at once: try again in a moment")
        self._checking[key] = checking + 1
        try:
            return await self._sign_in(key, failures, password, address, client)
        finally:
            left = self._checking[key] - 1
            if left:
                self._checking[key] = left
            else:
                del self._checking[key]

    async def _sign_in(
        self, key: str, failures: Failures | None, password: str, address: str, client: str | None
    ) -> tuple[SignedIn, str]:
        try:
            text = normalised(password)
        except WeakPassword:
            text = None  # no account has such a password: the same work and answer as a wrong one
        account = await self._stored(self.store.account_named(key))
        usable = account is not None and not account.deleted and not account.disabled
        stored = account.password_hash if account is not None and usable else None

        async def right() -> bool:
            matches = await self._checked(stored, text if text is not None else password)
            return matches and stored is not None and text is not None

        verdict = await self.guesses.attempt(address, right)
        if verdict is Verdict.BUSY:
            raise Refusal(
                ErrorCode.SIGN_IN_WAIT,
                f"too many failed sign-ins from your address: try again in {_seconds(self.guesses.retry_in(address))}",
            )
        if verdict is Verdict.WRONG:
            count = (failures.count if failures is not None else 0) + 1  # no more at once than failures left
            await self._stored(self.store.note_failure(key, self.clock.wall() + name_lock(count)))
            raise Refusal(ErrorCode.BAD_CREDENTIALS, "no account has that name and password")
        assert account is not None and text is not None
        if failures is not None:
            await self._stored(self.store.clear_failures(key))
        if self.passwords.needs_rehash(account.password_hash):
            rehashed = await self._hashed(text)
            await self._stored(
                self.store.set_password(account.account_id, rehashed, self.clock.wall(), keep=None, end_sessions=False)
            )
            logger.info("account %s: its password's hash was made again with today's parameters", account.name)
        return await self._new_session(account, client)

    async def _new_session(self, account: AccountRecord, client: str | None) -> tuple[SignedIn, str]:
        token = secrets.token_urlsafe(32)
        hashed = token_hash(token)
        now = self.clock.wall()
        await self._stored(
            self.store.add_session(
                SessionRecord(hashed, account.account_id, now, now, now + SESSION_DAYS * 86_400, client)
            )
        )
        return SignedIn(account.account_id, account.name, hashed, account.created_at), token

    async def session(self, token: str) -> SignedIn | str:
        """The account a session token signs in, or why it signs in none (a sentence for the player)."""
        hashed = token_hash(token)
        found = await self._stored(self.store.session(hashed))
        if found is None or not hmac.compare_digest(found[0].token_hash, hashed):
            return "that session is not one of this server's: sign in"
        session, account = found
        now = self.clock.wall()
        if account.deleted:
            return "that session's account was deleted"
        if account.disabled:
            return "that session's account is disabled: ask the server's operator"
        if session.ended_at is not None:
            return "that session has ended (signed out, or its password changed): sign in again"
        if session.expires_at <= now:
            return "that session has expired: sign in again"
        if now - session.last_used_at >= TOUCH_EVERY:
            await self._stored(self.store.touch_session(hashed, now, now + SESSION_DAYS * 86_400))
        return SignedIn(account.account_id, account.name, hashed, account.created_at)

    # ---- keeping an account -------------------------------------------------------------------------------------

    async def sign_out(self, signed: SignedIn, everywhere: bool) -> int:
        only = None if everywhere else signed.token_hash
        return await self._stored(self.store.end_sessions(signed.account_id, self.clock.wall(), only=only))

    async def change_password(self, signed: SignedIn, password: str, new_password: str) -> int:
        """A new password, the old one given again; every other session of the account ends."""
        new_text = self._password(new_password, "new_password")
        await self.check_password(signed, password)
        hashed = await self._hashed(new_text)
        ended = await self._stored(
            self.store.set_password(signed.account_id, hashed, self.clock.wall(), keep=signed.token_hash)
        )
        logger.info("account %s: password changed, %d other session%s ended", signed.name, ended, "s" * (ended != 1))
        return ended

    async def check_password(self, signed: SignedIn, password: str) -> None:
        """Refuse unless `password` is the account's (for a change that needs it given again)."""
        account = await self._stored(self.store.account(signed.account_id))
        try:
            text = normalised(password)
        except WeakPassword:
            text = password + "\x00"
        if account is None or not await self._checked(account.password_hash, text):
            raise Refusal(ErrorCode.BAD_CREDENTIALS, "that is not your password", field="password")

    async def sessions(self, signed: SignedIn) -> list[SessionInfo]:
        live = await self._stored(self.store.sessions_of(signed.account_id, self.clock.wall()))
        return [
            SessionInfo(
                id=public_id(s.token_hash),
                created_at=s.created_at,
                last_used_at=s.last_used_at,
                expires_at=s.expires_at,
                client=s.client,
                current=s.token_hash == signed.token_hash,
            )
            for s in live
        ]

    async def end_session(self, signed: SignedIn, session_id: str) -> None:
        live = await self._stored(self.store.sessions_of(signed.account_id, self.clock.wall()))
        found = next((s for s in live if hmac.compare_digest(public_id(s.token_hash), session_id)), None)
        if found is None:
            raise Refusal(ErrorCode.NO_SUCH_SESSION, f"you have no session {session_id}", field="session")
        await self._stored(self.store.end_sessions(signed.account_id, self.clock.wall(), only=found.token_hash))

    async def delete(self, signed: SignedIn) -> None:
        await self._stored(self.store.delete_account(signed.account_id, self.clock.wall()))
        logger.info("account %s deleted", signed.name)

    async def name_registered(self, name: str) -> bool:
        """Whether an account has this name or one that looks like it (a guest may not sit or speak under it)."""
        if not self.on:
            return False
        return await self._stored(self.store.account_named(skeleton(name))) is not None

    # ---- every node hears of sessions that end ------------------------------------------------------------------

    def watch(self, ended: Callable[[set[str]], Awaitable[None]]) -> None:
        """Call `ended` with the hashes of sessions that end from now on, wherever they were ended (this node, another
        node, `risc accounts disable` against the store), about every `watch_every` seconds."""
        if self.on and self._watcher is None:
            self._watcher = asyncio.get_running_loop().create_task(self._watch(ended))

    async def _watch(self, ended: Callable[[set[str]], Awaitable[None]]) -> None:
        since = self.clock.wall()
        heard: dict[str, float] = {}
        forgotten_at = since
        while True:
            await asyncio.sleep(self.watch_every)
            now = self.clock.wall()
            try:
                sessions = await self.store.ended_since(since - 5.0)  # a margin for clocks of other nodes
                if now - forgotten_at > 3600.0:
                    await self.store.forget_sessions(now - ENDED_KEPT)
                    forgotten_at = now
            except (StorageError, OSError) as exc:
                logger.warning("the sessions that ended could not be read: %s", exc)
                continue
            new = {s.token_hash for s in sessions if s.token_hash not in heard}
            for session in sessions:
                heard.setdefault(session.token_hash, now)
            for old in [h for h, at in heard.items() if at < now - 60.0]:
                del heard[old]
            since = now
            if new:
                with contextlib.suppress(Exception):
                    await ended(new)

    async def close(self) -> None:
        if self._watcher is not None:
            self._watcher.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._watcher
            self._watcher = None
        self.guesses.close()
        self.passwords.close()

    # ---- helpers -----------------------------------------------------------------------------------------------

    @staticmethod
    def _password(password: str, field: str) -> str:
        try:
            return normalised(password)
        except WeakPassword as exc:
            raise Refusal(ErrorCode.WEAK_PASSWORD, str(exc), field=field) from None

    async def _hashed(self, text: str) -> str:
        try:
            return await self.passwords.hash(text)
        except Busy as exc:
            raise Refusal(ErrorCode.BUSY, str(exc)) from None

    async def _checked(self, stored: str | None, text: str) -> bool:
        try:
            return await self.passwords.verify(stored, text)
        except Busy as exc:
            raise Refusal(ErrorCode.BUSY, str(exc)) from None

    async def _stored(self, work: Awaitable[_R]) -> _R:
        try:
            return await work
        except StorageError as exc:
            raise self._failed(exc) from None

    @staticmethod
    def _failed(exc: StorageError) -> Refusal:
        logger.error("accounts: the store failed: %s", exc)
        return Refusal(ErrorCode.STORAGE_FAILED, "the server could not reach its store: try again")
