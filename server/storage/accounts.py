"""Accounts and their sessions, kept in the same database as the games (every store has its accounts: `accounts()`).

An account is a name (registered once: its look-alike key is unique, and stays taken after the account is deleted,
so nobody else plays under it in the games it played) and a password's Argon2id hash; a session is a random token of
the account's, kept only as its SHA-256 with when it was made, last used, and until when it lasts; a session ended
(signed out, a password changed, an account disabled) keeps its row for a while with when it ended, so that every
node hears of it and cuts the connections it opened. Failed sign-ins are counted per name, whether an account has
that name or not, so that neither the answers nor the waits tell which names are accounts'. The games an account
sits in are kept beside the games (`account_games`), written with the game's own save.

The rules (what a name may be, how long a password, how long a session lasts) are the accounts service's
(server/accounts/); a store keeps rows.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from server.storage.base import SeatRecord, StorageError


@dataclass(frozen=True)
class AccountRecord:
    account_id: str
    name: str
    name_key: str
    """The name's look-alike key (shared/protocol/names.py `skeleton`): unique among every account ever made."""
    password_hash: str
    created_at: float
    disabled: bool = False
    deleted: bool = False
    """Deleted: no credentials, no sessions, no games listed; the row keeps its name taken."""


@dataclass(frozen=True)
class SessionRecord:
    token_hash: str
    account_id: str
    created_at: float
    last_used_at: float
    expires_at: float
    client: str | None = None
    """What the session was opened from, as the client named itself (`risc client`, the web page)."""
    ended_at: float | None = None


@dataclass(frozen=True)
class Failures:
    """Failed sign-ins under one name since its last success, and until when it may not try again."""

    count: int
    locked_until: float


@dataclass(frozen=True)
class AccountGame:
    """A game an account sits in: its seat's name, and the game's summary as last saved (None: none saved)."""

    game_id: str
    player: str
    summary: str | None
    created_at: float


ACCOUNT_COLUMNS = "account_id, name, name_key, password_hash, created_at, disabled, deleted"
SESSION_COLUMNS = "token_hash, account_id, created_at, last_used_at, expires_at, client, ended_at"
"""The columns of an account's and a session's row, in the order the records below are read from."""


def account_of_row(row: Sequence[Any]) -> AccountRecord:
    return AccountRecord(row[0], row[1], row[2], row[3], float(row[4]), bool(row[5]), bool(row[6]))


def session_of_row(row: Sequence[Any]) -> SessionRecord:
    ended = row[6]
    return SessionRecord(
        row[0], row[1], float(row[2]), float(row[3]), float(row[4]), row[5], None if ended is None else float(ended)
    )


class NameTaken(StorageError):
    """An account has that name, or a name that looks like it (one that was deleted too)."""


class AccountStore(ABC):
    """Where a server's accounts, sessions and failed sign-ins are kept."""

    @abstractmethod
    async def create_account(self, account: AccountRecord) -> None:
        """Keep a new account; raises NameTaken if its name key is taken."""

    @abstractmethod
    async def account_named(self, name_key: str) -> AccountRecord | None:
        """The account (deleted ones too) whose name has this look-alike key."""

    @abstractmethod
    async def account(self, account_id: str) -> AccountRecord | None: ...

    @abstractmethod
    async def accounts(self) -> list[AccountRecord]:
        """Every account that is not deleted, oldest first."""

    @abstractmethod
    async def set_password(
        self, account_id: str, password_hash: str, at: float, keep: str | None, end_sessions: bool = True
    ) -> int:
        """A new password hash; every session of the account but `keep` (a token hash) ends `at`, unless the hash
        is only made again (`end_sessions` False: the same password). Returns how many sessions ended."""

    @abstractmethod
    async def set_disabled(self, account_id: str, disabled: bool, at: float) -> None:
        """Disable (every session ends `at`) or enable an account."""

    @abstractmethod
    async def delete_account(self, account_id: str, at: float) -> None:
        """Forget an account's credentials, sessions and games; its name stays taken."""

    @abstractmethod
    async def failures(self, name_key: str) -> Failures | None: ...

    @abstractmethod
    async def note_failure(self, name_key: str, locked_until: float) -> Failures:
        """One more failed sign-in under a name, locked until `locked_until`; returns the count with it."""

    @abstractmethod
    async def clear_failures(self, name_key: str) -> None: ...

    @abstractmethod
    async def add_session(self, session: SessionRecord) -> None: ...

    @abstractmethod
    async def session(self, token_hash: str) -> tuple[SessionRecord, AccountRecord] | None:
        """A session (ended ones too) and its account."""

    @abstractmethod
    async def touch_session(self, token_hash: str, at: float, expires_at: float) -> None:
        """The session was used `at`; it lasts until `expires_at` now (a sliding expiry)."""

    @abstractmethod
    async def end_sessions(self, account_id: str, at: float, only: str | None = None) -> int:
        """End the account's live sessions (`only`: that one alone, by token hash), `at`; returns how many ended."""

    @abstractmethod
    async def sessions_of(self, account_id: str, now: float) -> list[SessionRecord]:
        """The account's live sessions (not ended, not expired by `now`), oldest first."""

    @abstractmethod
    async def ended_since(self, at: float) -> list[SessionRecord]:
        """Sessions ended at `at` or later: a node cuts the connections they opened."""

    @abstractmethod
    async def forget_sessions(self, before: float) -> int:
        """Drop the rows of sessions ended or expired before `before`; returns how many."""

    @abstractmethod
    async def games_of(self, account_id: str, limit: int) -> list[AccountGame]:
        """The games the account sits in, newest first (at most `limit`), each with its summary as last saved."""


def seats_of_accounts(seats: Sequence[SeatRecord]) -> list[tuple[str, str]]:
    """(account id, seat name) of each seat an account holds in a game."""
    return [(seat.account, seat.name) for seat in seats if seat.account is not None]


class MemoryAccounts(AccountStore):
    """The accounts of a store in memory: they end with the process, as its games do."""

    def __init__(self, summaries: Mapping[str, str | None], created: Mapping[str, float]) -> None:
        self._accounts: dict[str, AccountRecord] = {}
        self._by_key: dict[str, str] = {}
        self._sessions: dict[str, SessionRecord] = {}
        self._failures: dict[str, Failures] = {}
        self.seats: dict[str, dict[str, str]] = {}
        """Account id -> {game id: seat name}: written by the store's saves."""
        self._summaries = summaries
        self._created = created

    async def create_account(self, account: AccountRecord) -> None:
        if account.name_key in self._by_key:
            raise NameTaken(f"the name {account.name} is taken")
        self._accounts[account.account_id] = account
        self._by_key[account.name_key] = account.account_id

    async def account_named(self, name_key: str) -> AccountRecord | None:
        account_id = self._by_key.get(name_key)
        return None if account_id is None else self._accounts[account_id]

    async def account(self, account_id: str) -> AccountRecord | None:
        return self._accounts.get(account_id)

    async def accounts(self) -> list[AccountRecord]:
        return [a for a in self._accounts.values() if not a.deleted]

    def names(self) -> dict[str, tuple[str, bool]]:
        """Each account's name and whether it was deleted, by id (what the memory store's ratings list)."""
        return {a.account_id: (a.name, a.deleted) for a in self._accounts.values()}

    async def set_password(
        self, account_id: str, password_hash: str, at: float, keep: str | None, end_sessions: bool = True
    ) -> int:
        self._accounts[account_id] = replace(self._accounts[account_id], password_hash=password_hash)
        ended = [s for s in self._live(account_id) if s.token_hash != keep and end_sessions]
        for session in ended:
            self._sessions[session.token_hash] = replace(session, ended_at=at)
        return len(ended)

    async def set_disabled(self, account_id: str, disabled: bool, at: float) -> None:
        self._accounts[account_id] = replace(self._accounts[account_id], disabled=disabled)
        if disabled:
            await self.end_sessions(account_id, at)

    async def delete_account(self, account_id: str, at: float) -> None:
        await self.end_sessions(account_id, at)
        self._accounts[account_id] = replace(self._accounts[account_id], password_hash="", deleted=True, disabled=True)
        self.seats.pop(account_id, None)

    async def failures(self, name_key: str) -> Failures | None:
        return self._failures.get(name_key)

    async def note_failure(self, name_key: str, locked_until: float) -> Failures:
        before = self._failures.get(name_key)
        failures = Failures((before.count if before else 0) + 1, locked_until)
        self._failures[name_key] = failures
        return failures

    async def clear_failures(self, name_key: str) -> None:
        self._failures.pop(name_key, None)

    async def add_session(self, session: SessionRecord) -> None:
        self._sessions[session.token_hash] = session

    async def session(self, token_hash: str) -> tuple[SessionRecord, AccountRecord] | None:
        session = self._sessions.get(token_hash)
        if session is None:
            return None
        return session, self._accounts[session.account_id]

    async def touch_session(self, token_hash: str, at: float, expires_at: float) -> None:
        session = self._sessions.get(token_hash)
        if session is not None and session.ended_at is None:
            self._sessions[token_hash] = replace(session, last_used_at=at, expires_at=expires_at)

    async def end_sessions(self, account_id: str, at: float, only: str | None = None) -> int:
        ended = [s for s in self._live(account_id) if only is None or s.token_hash == only]
        for session in ended:
            self._sessions[session.token_hash] = replace(session, ended_at=at)
        return len(ended)

    def _live(self, account_id: str) -> list[SessionRecord]:
        return [s for s in self._sessions.values() if s.account_id == account_id and s.ended_at is None]

    async def sessions_of(self, account_id: str, now: float) -> list[SessionRecord]:
        live = [s for s in self._live(account_id) if s.expires_at > now]
        return sorted(live, key=lambda s: s.created_at)

    async def ended_since(self, at: float) -> list[SessionRecord]:
        return [s for s in self._sessions.values() if s.ended_at is not None and s.ended_at >= at]

    async def forget_sessions(self, before: float) -> int:
        old = [
            t
            for t, s in self._sessions.items()
            if (s.ended_at is not None and s.ended_at < before) or s.expires_at < before
        ]
        for token_hash in old:
            del self._sessions[token_hash]
        return len(old)

    async def games_of(self, account_id: str, limit: int) -> list[AccountGame]:
        games = [
            AccountGame(game_id, player, self._summaries.get(game_id), self._created.get(game_id, 0.0))
            for game_id, player in self.seats.get(account_id, {}).items()
        ]
        return sorted(games, key=lambda g: (-g.created_at, g.game_id))[:limit]
