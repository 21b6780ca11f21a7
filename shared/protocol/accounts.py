"""The protocol's messages about accounts (protocol 5): signing up, in and out, a password changed, sessions listed and
ended, an account's home ("my games"), its games exported and the account deleted.

A session's token travels once, from the server to the client that signed in (`signed_in.session`), which sends it in
its `hello` from then on; the web page never sees it (the server sets it in an HttpOnly cookie: docs/web.md). A
password travels only in these messages, never in a URL, and is never written to a log.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field

from shared.protocol.envelope import ClientMessageBase, ServerMessageBase
from shared.protocol.lobby import GameSummary, PlayerName
from shared.protocol.notifications import ChannelProblem

Password = Annotated[
    str,
    Field(
        min_length=1,
        max_length=1024,
        description="as typed: the server counts its characters after Unicode's NFKC normalisation (8 to 256)",
    ),
]
SessionId = Annotated[
    str,
    Field(min_length=16, max_length=16, pattern=r"^[0-9a-f]{16}$", description="a session as `sessions` lists it"),
]


class SignUp(ClientMessageBase):
    """Make an account, and sign this connection in to it. Its name follows the rules of a seat's name, and no other
    account's name may look like it."""

    type: Literal["sign_up"] = "sign_up"
    name: PlayerName
    password: Password


class SignIn(ClientMessageBase):
    """Sign this connection in. An unknown name and a wrong password get the same answer, after the same work."""

    type: Literal["sign_in"] = "sign_in"
    name: PlayerName
    password: Password


class SignOut(ClientMessageBase):
    """End this connection's session (`everywhere`: every session of the account). The connection is closed after the
    answer: the client connects again as a guest."""

    type: Literal["sign_out"] = "sign_out"
    everywhere: bool = False


class ChangePassword(ClientMessageBase):
    """A new password for the signed-in account: every other session of it ends."""

    type: Literal["change_password"] = "change_password"
    password: Password
    new_password: Password


class ListSessions(ClientMessageBase):
    type: Literal["list_sessions"] = "list_sessions"


class EndSession(ClientMessageBase):
    """End one session of the signed-in account (its connections are closed)."""

    type: Literal["end_session"] = "end_session"
    session: SessionId


class MyGames(ClientMessageBase):
    """The signed-in account's home: every game it sits in, on whichever node plays it."""

    type: Literal["my_games"] = "my_games"


class DeleteAccount(ClientMessageBase):
    """Delete the signed-in account: it resigns from the games it plays, its sessions end, its name stays taken."""

    type: Literal["delete_account"] = "delete_account"
    password: Password


class ExportAccount(ClientMessageBase):
    """Every game of the signed-in account, as JSON: each game's settings and result, and its log as the account's
    seat was told it."""

    type: Literal["export_account"] = "export_account"


ACCOUNT_REQUESTS = (
    SignUp,
    SignIn,
    SignOut,
    ChangePassword,
    ListSessions,
    EndSession,
    MyGames,
    DeleteAccount,
    ExportAccount,
)


class AccountInfo(BaseModel):
    name: str
    created_at: float = Field(description="when the account was made (seconds since 1970)")


class SignedIn(ServerMessageBase):
    """This connection is signed in. `session`: the token that signs its client in from now on, to keep as a secret
    (sent only to the client that signed in; null where the server keeps it in a cookie instead)."""

    type: Literal["signed_in"] = "signed_in"
    account: AccountInfo
    session: str | None = None


class SignedOut(ServerMessageBase):
    type: Literal["signed_out"] = "signed_out"
    everywhere: bool = False


class PasswordChanged(ServerMessageBase):
    type: Literal["password_changed"] = "password_changed"
    sessions_ended: int = Field(description="the account's other sessions, ended")


class SessionInfo(BaseModel):
    id: str = Field(description="what `end_session` names it by (not its token)")
    created_at: float
    last_used_at: float
    expires_at: float
    client: str | None = None
    current: bool = Field(description="the session this connection is signed in with")


class Sessions(ServerMessageBase):
    type: Literal["sessions"] = "sessions"
    sessions: list[SessionInfo]


class SessionEnded(ServerMessageBase):
    type: Literal["session_ended"] = "session_ended"
    session: str


class HomeGame(BaseModel):
    """A game of the account's home: its summary (as the node playing it last saved it), the account's seat in it,
    and where it stands for the account."""

    game: GameSummary
    player: str
    stands: Literal["your-turn", "running", "waiting", "finished"] = Field(
        description="your-turn: the game waits for this player's orders; running: it plays on without them for "
        "now (or they are out of it); waiting: it waits for players to start; finished"
    )


class Invitation(BaseModel):
    """A game another account invited this one to (`challenge`): accepted (`answer_challenge`), the account sits in
    it."""

    game_id: str
    by: str = Field(description="the challenger's name")
    game: GameSummary | None = Field(
        default=None, description="the game as it is now (null when another node of the server plays it)"
    )


class Home(ServerMessageBase):
    """The answer to `my_games`: games waiting for the player's orders first, then those running, those waiting for
    players, then the most recently finished; and the challenges waiting for an answer."""

    type: Literal["my_games"] = "my_games"
    games: list[HomeGame]
    problems: list[ChannelProblem] = Field(
        default_factory=list, description="the account's channels of notification that are paused, and why"
    )
    challenges: list[Invitation] = Field(default_factory=list)


class AccountDeleted(ServerMessageBase):
    type: Literal["account_deleted"] = "account_deleted"
    resigned: list[str] = Field(default_factory=list, description="the games the account resigned from")


class AccountExport(ServerMessageBase):
    type: Literal["account_export"] = "account_export"
    account: AccountInfo
    games: list[dict[str, Any]]


ACCOUNT_ANSWERS = (
    SignedIn,
    SignedOut,
    PasswordChanged,
    Sessions,
    SessionEnded,
    Home,
    AccountDeleted,
    AccountExport,
)
