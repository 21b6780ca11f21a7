"""The player's account on the server (protocol 5): signing up, in and out, a new password, the sessions (a device
signed in each); and what the client says when the session ends elsewhere, or the one kept on this computer no
longer signs in.

A password is asked without echo (`Ask(secret=True)`: the terminal shows nothing as it is typed, and keeps it in no
transcript and no history), sent once in its request, and never kept: the client keeps the session the server
gives instead (client/sessions.py), so that the next start is signed in.
"""

from __future__ import annotations

import time
from collections.abc import Iterator

from client.core import effects as fx
from client.core.effects import Ask, Effect, Plan, Show
from client.core.home import NOT_SIGNED_IN, show_home
from client.core.names import name_problem
from client.core.state import State, answer, error
from client.tracker import Tracker
from shared.protocol import accounts as messages
from shared.protocol.codes import ErrorCode

NO_ACCOUNTS = "This server has no accounts: everyone plays there as a guest."
HOW_TO_SIGN_IN = "signup NAME makes an account, signin NAME signs in to yours"
ACCOUNT_NEEDED = f"This server needs an account to create or join a game: {HOW_TO_SIGN_IN} (watching needs none)."
GAMES_STAY = "Your games stay your account's: signin NAME, then home, to play them again."


def _accounts_on(state: State) -> Plan[bool]:
    if state.known.accounts == "off":
        yield error(NO_ACCOUNTS)
        return False
    return True


def _signed(state: State) -> Plan[str | None]:
    """The account signed in to; None, said, for a guest (or a server without accounts)."""
    if not (yield from _accounts_on(state)):
        return None
    if state.signed_in is None:
        yield error(NOT_SIGNED_IN)
    return state.signed_in


def _account_name(typed: str | None) -> Plan[str | None]:
    """The account's name as typed after the command, or asked for; None, said, when it will not do."""
    name = typed
    if name is None:
        name = yield Ask("Account name: ")
        if not name:
            return None
    problem = name_problem(name)
    if problem is not None:
        yield error(problem)
        return None
    return name


def _new_password(question: str, unchanged: str) -> Plan[str | None]:
    """A new password, typed twice alike; None, said, otherwise (`unchanged`: what then stays as it was)."""
    new = yield Ask(question, secret=True)
    if not new:
        yield Show(f"{unchanged}.", "class:hint")
        return None
    if (yield Ask("The same password again: ", secret=True)) != new:
        yield error(f"The two passwords differ: {unchanged[0].lower()}{unchanged[1:]}.")
        return None
    return str(new)


def sign_up(state: State, typed: str | None) -> Plan[None]:
    yield from _sign(state, typed, made=True)


def sign_in(state: State, typed: str | None) -> Plan[None]:
    yield from _sign(state, typed, made=False)


def _sign(state: State, typed: str | None, made: bool) -> Plan[None]:
    if not (yield from _accounts_on(state)):
        return
    if state.signed_in is not None:
        yield error(f"You are signed in as {state.signed_in} already: signout first.")
        return
    name = yield from _account_name(typed)
    if name is None:
        return
    if made:
        chosen = yield from _new_password(
            "Choose a password (8 characters or more; it is not shown): ", "No account was made"
        )
        if chosen is None:
            return
        request: fx.Request = fx.SignUp(name, chosen)
    else:
        password = yield Ask("Password (it is not shown): ", secret=True)
        if not password:
            yield Show("Not signed in.", "class:hint")
            return
        request = fx.SignIn(name, password)
    reply = yield from answer(request, messages.SignedIn)
    if reply is None:
        return
    state.name = reply.account.name
    done = "Signed up and in" if made else "Signed in"
    yield Show(
        f"{done} as {reply.account.name}: the games you join are the account's, from any computer, and this "
        "computer stays signed in (signout ends it).",
        "class:ok",
    )
    if state.tracker is None:
        yield from show_home(state)
    else:
        yield Show("home lists your games.", "class:hint")


def sign_out(state: State, everywhere: bool) -> Plan[None]:
    name = yield from _signed(state)
    if name is None:
        return
    if (yield from answer(fx.SignOut(everywhere), messages.SignedOut)) is None:
        return
    state.relinking_as_guest = True
    where = " on every device" if everywhere else ""
    yield Show(f"Signed out of {name}{where}: you play as a guest now.", "class:ok")
    yield from _guest_again(state)


def _guest_again(state: State) -> Iterator[Effect]:
    """Signed out: the account's games, which only its sessions open, leave the screen; the next join asks a name
    (the account's is not a guest's)."""
    state.name = None
    state.home = []
    left = off_screen_unfollowed(state)
    if left:
        yield Show(GAMES_STAY, "class:hint")


def off_screen_unfollowed(state: State) -> list[str]:
    """The games the session no longer follows taken off screen and out of those parked; the ids of those that
    were being played (on screen, or parked while another was)."""
    followed = state.known.followed
    t: Tracker | None = state.tracker
    played: list[str] = []
    if t is not None and followed.get(t.game_id) is not t.followed:
        played.append(t.game_id)
        state.tracker = None
    for game_id, kept in list(state.trackers.items()):
        if followed.get(game_id) is not kept.followed:
            del state.trackers[game_id]
            if kept.player is not None and kept.active and game_id not in played:
                played.append(game_id)
    return played


def change_password(state: State) -> Plan[None]:
    if (yield from _signed(state)) is None:
        return
    old = yield Ask("Current password (it is not shown): ", secret=True)
    if not old:
        yield Show("The password stays as it was.", "class:hint")
        return
    new = yield from _new_password("New password (8 characters or more): ", "The password stays as it was")
    if new is None:
        return
    reply = yield from answer(fx.ChangePassword(old, new), messages.PasswordChanged)
    if reply is None:
        return
    ended = reply.sessions_ended
    others = (
        "no other device was signed in"
        if not ended
        else f"{ended} other session{'s' * (ended != 1)} ended: those devices sign in again with the new one"
    )
    yield Show(f"Password changed; {others}.", "class:ok")


def _when(seconds: float) -> str:
    """A moment of the last 30 days, as the terminal's clock reads it: `28 Nov 12:07`."""
    return time.strftime("%d %b %H:%M", time.localtime(seconds))


def sessions(state: State, end: str | None) -> Plan[None]:
    """The account's sessions (a device signed in each), or one ended by its id (a unique start of it will do)."""
    name = yield from _signed(state)
    if name is None:
        return
    listed = yield from answer(fx.ListSessions(), messages.Sessions)
    if listed is None:
        return
    if end is None:
        lines = [f"  {'id':<16}  {'opened':<12}  {'last used':<12}  by"]
        lines += [
            f"  {s.id}  {_when(s.created_at)}  {_when(s.last_used_at)}  {s.client or '?'}"
            + (" (this one)" if s.current else "")
            for s in listed.sessions
        ]
        yield Show(f"{name}'s sessions, a device signed in each (sessions end ID signs one out):\n" + "\n".join(lines))
        return
    found = [s for s in listed.sessions if s.id.startswith(end.casefold())]
    if not found:
        yield error(f'No session of yours is "{end}": sessions lists them.')
        return
    if len(found) > 1:
        yield error(f'"{end}" could be any of {", ".join(s.id for s in found)}: type more of its id.')
        return
    chosen = found[0]
    if chosen.current:
        yield error("That is this session: signout ends it.")
        return
    if (yield from answer(fx.EndSession(chosen.id), messages.SessionEnded)) is not None:
        yield Show(f"Session {chosen.id} ended: that device is signed out.", "class:ok")


# ---- what the server says unasked --------------------------------------------------------------------------------


def on_signed_out(state: State) -> list[Effect]:
    """The session ended elsewhere (signed out everywhere, a new password, ended from another device, the account
    disabled): forgotten by the session already; the link comes back as a guest's."""
    state.relinking_as_guest = True
    shown: list[Effect] = [
        error(
            "Signed out: this computer's session was ended elsewhere (signed out everywhere, a new password, ended "
            "from another device, or the account disabled). You play as a guest now; signin NAME signs in again."
        )
    ]
    shown += list(_guest_again(state))
    return shown


def on_session_problem(problem: str) -> list[Effect]:
    """The session kept on this computer signs nothing in any more (said once: it is forgotten), in the server's
    words."""
    return [
        error(
            f"The session kept on this computer no longer signs you in: {problem.rstrip('.')} (signin NAME). You "
            "are a guest meanwhile."
        )
    ]


def account_needed(reply: object) -> Iterator[Effect]:
    """After a refusal: how to sign up, when the server refused because it needs an account."""
    if getattr(reply, "code", None) == ErrorCode.ACCOUNT_NEEDED:
        yield Show(ACCOUNT_NEEDED, "class:hint")
