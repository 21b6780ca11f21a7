"""What a connection asks about its account (protocol 5's account messages), and the rules accounts put on the lobby's
requests: a signed-in player sits and speaks under the account's name, a guest never under an account's name (nor one
that looks like it), and a server that requires accounts seats nobody else.
"""

from __future__ import annotations

import contextlib
import logging
from typing import TYPE_CHECKING, Any, Literal, Protocol

from pydantic import ValidationError

from server.accounts.service import Accounts, SignedIn
from server.lobby.lobby import Lobby
from server.notify.desk import Notifier
from server.refusal import Redirect, Refusal
from server.storage.base import Storage, StorageError
from shared.protocol.accounts import (
    AccountDeleted,
    AccountExport,
    ChangePassword,
    DeleteAccount,
    EndSession,
    ExportAccount,
    Home,
    HomeGame,
    ListSessions,
    MyGames,
    PasswordChanged,
    SessionEnded,
    Sessions,
    SignedOut,
    SignIn,
    SignOut,
    SignUp,
)
from shared.protocol.accounts import (
    SignedIn as SignedInMessage,
)
from shared.protocol.codes import CloseCode, ErrorCode
from shared.protocol.lobby import GameSettings, GameStatus, GameSummary
from shared.protocol.names import skeleton
from shared.protocol.notifications import AskNotifications, AskVacation, SetNotifications

if TYPE_CHECKING:
    from server.matchmaking.desk import PeopleDesk

logger = logging.getLogger("risc.server")

HOME_GAMES = 200
"""The most games a home lists (the newest), and a home's finished games: the most recent of them."""
HOME_FINISHED = 20
EXPORTED_GAMES = 500

Stands = Literal["your-turn", "running", "waiting", "finished"]


class Member(Protocol):
    """A connection as the desk sees it: who it is signed in as, where it comes from, what it said it is."""

    signed: SignedIn | None
    client_name: str | None

    @property
    def address(self) -> str: ...

    def send(self, message: Any, text: str | None = None) -> None: ...

    def end(self, code: int, reason: str) -> None: ...


def signed_in(sub: object) -> SignedIn | None:
    """The account a connection is signed in to (the server's own players never are)."""
    signed = getattr(sub, "signed", None)
    return signed if isinstance(signed, SignedIn) else None


class AccountDesk:
    def __init__(self, accounts: Accounts, lobby: Lobby, storage: Storage, notifier: Notifier | None = None) -> None:
        self.accounts = accounts
        self.lobby = lobby
        self.storage = storage
        self.notifier = notifier
        """The account's channels of notification and its vacation (server/notify/desk.py)."""
        self.people: PeopleDesk | None = None
        """Ratings, quick play and challenges (the server sets it)."""

    async def disconnect(self, sub: object) -> None:
        """A connection closed: it leaves the quick play queue."""
        if self.people is not None:
            await self.people.disconnect(sub)

    # ---- the account's own requests ------------------------------------------------------------------------------

    async def handle(self, member: Member, message: object) -> None:
        """Carry out one account message. Raises Refusal, having changed nothing, when it cannot."""
        self.accounts.check_on()
        match message:
            case SignUp() | SignIn():
                if member.signed is not None:
                    raise Refusal(
                        ErrorCode.SIGNED_IN_ALREADY, f"you are signed in as {member.signed.name}: sign out first"
                    )
                if isinstance(message, SignUp):
                    signed, token = await self.accounts.sign_up(message.name, message.password, member.client_name)
                else:
                    signed, token = await self.accounts.sign_in(
                        message.name, message.password, member.address, member.client_name
                    )
                member.signed = signed
                member.send(SignedInMessage(account=signed.info, session=token, ref=message.ref))
            case SignOut():
                signed = self._signed(member)
                await self.accounts.sign_out(signed, message.everywhere)
                member.send(SignedOut(everywhere=message.everywhere, ref=message.ref))
                member.end(CloseCode.SIGNED_OUT, "signed out")
            case ChangePassword():
                ended = await self.accounts.change_password(
                    self._signed(member), message.password, message.new_password
                )
                member.send(PasswordChanged(sessions_ended=ended, ref=message.ref))
            case ListSessions():
                member.send(Sessions(sessions=await self.accounts.sessions(self._signed(member)), ref=message.ref))
            case EndSession():
                signed = self._signed(member)
                await self.accounts.end_session(signed, message.session)
                member.send(SessionEnded(session=message.session, ref=message.ref))
            case MyGames():
                signed = self._signed(member)
                problems = await self.notifier.problems(signed.account_id) if self.notifier is not None else []
                challenges = await self.people.invitations(signed) if self.people is not None else []
                member.send(
                    Home(games=await self.home(signed), problems=problems, challenges=challenges, ref=message.ref)
                )
            case AskNotifications() | SetNotifications() | AskVacation():
                if self.notifier is None:
                    raise Refusal(ErrorCode.INVALID_MESSAGE, "this server tells nobody of their games")
                await self.notifier.handle(member, message, self._signed(member))
            case DeleteAccount():
                signed = self._signed(member)
                await self.accounts.check_password(signed, message.password)
                resigned = await self._give_up_seats(signed)
                await self.accounts.delete(signed)
                member.send(AccountDeleted(resigned=resigned, ref=message.ref))
                member.end(CloseCode.SIGNED_OUT, "account deleted")
            case ExportAccount():
                signed = self._signed(member)
                member.send(AccountExport(account=signed.info, games=await self._export(signed), ref=message.ref))

    @staticmethod
    def _signed(member: Member) -> SignedIn:
        if member.signed is None:
            raise Refusal(ErrorCode.ACCOUNT_NEEDED, "sign in first: this is an account's request")
        return member.signed

    # ---- the rules accounts put on the lobby's requests ---------------------------------------------------------

    async def seat_name(self, sub: object, name: str) -> tuple[str, str | None]:
        """The name a connection sits under, and its account: a signed-in player's account name (a join naming
        another is refused), a guest's own (refused where it is an account's, or the server requires accounts)."""
        signed = signed_in(sub)
        if signed is not None:
            if skeleton(name) != skeleton(signed.name):
                raise Refusal(
                    ErrorCode.NAME_TAKEN, f"you are signed in as {signed.name}: you sit under that name", field="name"
                )
            return signed.name, signed.account_id
        self.check_guest_may_play()
        await self.check_guest_name(name)
        return name, None

    def check_may_rate(self, sub: object, settings: GameSettings) -> None:
        """A rated game is created by an account, on a server that has accounts (a guest could not sit in it)."""
        if not settings.rated:
            return
        if not self.accounts.on:
            raise Refusal(
                ErrorCode.BAD_SETTINGS, "this server has no accounts, so no game is rated", field="settings.rated"
            )
        if signed_in(sub) is None:
            raise Refusal(
                ErrorCode.ACCOUNT_NEEDED,
                "a rated game is an account's: sign up or in to create one",
                field="settings.rated",
            )

    def check_guest_may_play(self) -> None:
        if self.accounts.mode == "required":
            raise Refusal(
                ErrorCode.ACCOUNT_NEEDED, "this server needs an account to create or join games: sign up or in"
            )

    async def check_guest_name(self, name: str) -> None:
        if await self.accounts.name_registered(name):
            raise Refusal(
                ErrorCode.NAME_REGISTERED,
                f'"{name}" is an account\'s name (or looks like one): sign in to it, or choose another',
                field="name",
            )

    async def speaker_name(self, sub: object, name: str | None) -> str | None:
        """The name a word in the lobby's or a game's chat is said under: a signed-in player's account name."""
        signed = signed_in(sub)
        if signed is not None:
            return signed.name
        if name is not None:
            await self.check_guest_name(name)
        return name

    # ---- the home ------------------------------------------------------------------------------------------------

    async def home(self, signed: SignedIn) -> list[HomeGame]:
        """Every game the account sits in, across the store: those waiting for its orders first, then running, then
        waiting for players, then the most recently finished; each as it is now where this server plays it, else as
        its node last saved it."""
        try:
            found = await self.accounts.store.games_of(signed.account_id, HOME_GAMES)
        except StorageError as exc:
            raise Refusal(ErrorCode.STORAGE_FAILED, f"your games cannot be read right now ({exc})") from None
        games: list[HomeGame] = []
        for game in found:
            match = self.lobby.matches.get(game.game_id)
            summary: GameSummary | None = match.summary() if match is not None else None
            if summary is None and game.summary is not None:
                with contextlib.suppress(ValidationError):
                    summary = GameSummary.model_validate_json(game.summary)
            if summary is None:
                continue
            seat = next((s for s in summary.seats if s.name == game.player), None)
            if seat is None:  # left before it started
                continue
            stands: Stands
            if summary.status == GameStatus.FINISHED:
                stands = "finished"
            elif summary.status == GameStatus.LOBBY:
                stands = "waiting"
            else:
                stands = "your-turn" if seat.awaited and not seat.eliminated else "running"
            games.append(HomeGame(game=summary, player=game.player, stands=stands))
        order = {"your-turn": 0, "running": 1, "waiting": 2, "finished": 3}
        games.sort(key=lambda g: order[g.stands])  # stable: newest first within each
        finished = [g for g in games if g.stands == "finished"][:HOME_FINISHED]
        return [g for g in games if g.stands != "finished"] + finished

    # ---- deleting and exporting -------------------------------------------------------------------------------------

    async def _give_up_seats(self, signed: SignedIn) -> list[str]:
        """The games an account being deleted resigns from (or leaves, not started): those this server plays or can
        take over; a game another node plays keeps the seat, as any player who never comes back."""
        resigned = []
        for game in await self.accounts.store.games_of(signed.account_id, EXPORTED_GAMES):
            try:
                match = await self.lobby.find(game.game_id)
                if await match.give_up(signed.account_id) is not None:
                    resigned.append(game.game_id)
            except (Refusal, Redirect, StorageError) as exc:
                logger.info("account %s: its seat in game %s stays (%s)", signed.name, game.game_id, exc)
        return resigned

    async def _export(self, signed: SignedIn) -> list[dict[str, Any]]:
        """Each game of the account: its settings, players, result, and its log as the account's seat was told it."""
        exported = []
        for game in await self.accounts.store.games_of(signed.account_id, EXPORTED_GAMES):
            stored = await self.storage.load(game.game_id)
            if stored is None:
                continue
            events = [
                {"seq": e["seq"], "event": e["event"]}
                for e in stored.events
                if "audience" not in e or game.player in (e.get("audience") or [])
            ]
            summary = (
                GameSummary.model_validate_json(game.summary).model_dump(mode="json")
                if game.summary is not None
                else None
            )
            exported.append(
                {
                    "game_id": game.game_id,
                    "created_at": stored.record.created_at,
                    "settings": stored.record.settings.model_dump(mode="json"),
                    "map": stored.record.game_map.get("name"),
                    "player": game.player,
                    "summary": summary,
                    "log": events,
                }
            )
        return exported
