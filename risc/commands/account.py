"""`risc account ...`: a player's account on a server, from the command line: sign up, in and out, change the
password, list and end sessions, list one's games, export them, delete the account.

The session a sign-in gives is kept in the user's config directory (client/sessions.py), as the text client keeps
it: `risc client` then opens signed in. A password is asked for without echo, or read from standard input with
--password-stdin (one line each, for scripts); it is never taken on the command line, where other users of the
computer and the shell's history would see it.
"""

from __future__ import annotations

import argparse
import asyncio
import getpass
import json
import os
import sys
import time
from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import Any

DEFAULT_SERVER = "ws://localhost:8765"
"""The same as `risc client`'s (client/main.py), so that a sign-in here is the client's there."""


class Stop(Exception):
    """The command cannot go on: its message is for the player."""


def _passwords(args: argparse.Namespace) -> Callable[[str], str]:
    """What asks for a password: the terminal without echo, or the next line of standard input."""
    if args.password_stdin:

        def from_stdin(prompt: str) -> str:
            line = sys.stdin.readline()
            if not line:
                raise Stop(f"standard input ended before the {prompt.rstrip(': ').lower()}")
            return line.rstrip("\r\n")

        return from_stdin
    return getpass.getpass


async def _session(args: argparse.Namespace) -> Any:
    """A connection to the server, signed in with the kept session when there is one."""
    from client.connection import Connection, ConnectionFailed
    from client.sessions import SessionStore

    kept = SessionStore().get(args.server)
    link = Connection(
        args.server,
        password=os.environ.get("RISC_PASSWORD") or None,
        session=None if kept is None else kept.token,
        reconnect=False,
    )
    try:
        welcome = await link.open()
    except ConnectionFailed as exc:
        raise Stop(str(exc)) from None
    if welcome.accounts == "off":
        await link.close()
        raise Stop(f"{args.server} has no accounts: everyone plays there as a guest")
    return link


async def _ask(link: Any, message: Any) -> Any:
    from shared.protocol.messages import Error

    reply = await link.request(message)
    if isinstance(reply, Error):
        raise Stop(reply.message)
    return reply


def _when(seconds: float) -> str:
    return time.strftime("%Y-%m-%d %H:%M", time.localtime(seconds))


async def _run(args: argparse.Namespace) -> str:
    from client.sessions import SessionStore
    from client.tokens import server_address
    from shared.protocol import accounts as messages

    args.server = server_address(args.server)
    store = SessionStore()
    ask = _passwords(args)
    link = await _session(args)
    try:
        signed = link.welcome.account
        command = args.account_command
        if command in ("signup", "signin"):
            if signed is not None:
                return f"signed in already as {signed.name} on {args.server} (risc account signout first)"
            password = ask("Password: ")
            if command == "signup":
                if ask("The same password again: ") != password:
                    raise Stop("the two passwords differ: nothing was made")
                reply = await _ask(link, messages.SignUp(name=args.name, password=password))
            else:
                reply = await _ask(link, messages.SignIn(name=args.name, password=password))
            store.keep(args.server, reply.account.name, reply.session)
            made = "signed up and in" if command == "signup" else "signed in"
            return f"{made} as {reply.account.name} on {args.server}: `risc client {args.server}` opens on your games"
        if signed is None:
            problem = link.welcome.session_problem
            store.forget(args.server)
            raise Stop(
                f"not signed in on {args.server}" + (f" ({problem})" if problem else "") + ": risc account signin"
            )
        if command == "signout":
            await _ask(link, messages.SignOut(everywhere=args.everywhere))
            store.forget(args.server)
            return f"signed out of {signed.name}" + (" everywhere" if args.everywhere else "")
        if command == "passwd":
            old = ask("Current password: ")
            new = ask("New password: ")
            if ask("The new password again: ") != new:
                raise Stop("the two new passwords differ: nothing was changed")
            reply = await _ask(link, messages.ChangePassword(password=old, new_password=new))
            ended = reply.sessions_ended
            return f"password changed; {ended} other session{'s' * (ended != 1)} ended"
        if command == "sessions":
            reply = await _ask(link, messages.ListSessions())
            lines = [f"{'id':16}  {'opened from':18}  {'since':16}  {'last used':16}"]
            for s in reply.sessions:
                mark = "  (this one)" if s.current else ""
                lines.append(
                    f"{s.id}  {(s.client or '?')[:18]:18}  {_when(s.created_at)}  {_when(s.last_used_at)}{mark}"
                )
            return "\n".join(lines)
        if command == "end":
            await _ask(link, messages.EndSession(session=args.session))
            return f"session {args.session} ended"
        if command == "home":
            reply = await _ask(link, messages.MyGames())
            if not reply.games:
                return f"{signed.name} sits in no game on {args.server} yet"
            words = {"your-turn": "your turn", "running": "running", "waiting": "waiting", "finished": "finished"}
            return "\n".join(
                f"{g.game.game_id}  {words[g.stands]:10}  {g.game.ruleset_title} on {g.game.map_name}, turn "
                f"{g.game.turn}" + (f", won by {g.game.winner}" if g.game.winner else "")
                for g in reply.games
            )
        if command == "export":
            reply = await _ask(link, messages.ExportAccount())
            text = json.dumps({"account": reply.account.model_dump(), "games": reply.games}, indent=1)
            if args.file is None:
                return text
            Path(args.file).write_text(text + "\n", encoding="utf-8")
            return f"{len(reply.games)} game{'s' * (len(reply.games) != 1)} written to {args.file}"
        if command == "delete":
            password = ask("Password: ")
            if not args.yes and ask(f"Type {signed.name} to delete the account for good: ") != signed.name:
                raise Stop("not confirmed: nothing was deleted")
            reply = await _ask(link, messages.DeleteAccount(password=password))
            store.forget(args.server)
            left = len(reply.resigned)
            return f"account {signed.name} deleted; it resigned from {left} game{'s' * (left != 1)}"
        raise Stop(f"no such command: {command}")
    finally:
        await link.close()


def _main(args: argparse.Namespace) -> int:
    return printed(_run, args, "risc account")


def printed(run: Callable[[argparse.Namespace], Coroutine[Any, Any, str]], args: argparse.Namespace, said: str) -> int:
    """Run a command's coroutine and print what it says; a Stop is said on standard error, as `said: ...`."""
    try:
        print(asyncio.run(run(args)))
    except Stop as exc:
        print(f"{said}: {exc}", file=sys.stderr)
        return 1
    except (EOFError, KeyboardInterrupt):
        print(file=sys.stderr)
        return 1
    return 0


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "account",
        help="your account on a server: sign up, in and out, sessions, your games",
        description="Your account on a RISC server. A sign-in is kept in your config directory, so that `risc "
        "client` opens signed in. Passwords are asked for without echo (or read from standard input, one line "
        "each, with --password-stdin); the server's own password, if it has one, comes from RISC_PASSWORD.",
    )
    parser.add_argument("--server", default=DEFAULT_SERVER, help=f"the server's address (default {DEFAULT_SERVER})")
    parser.add_argument("--password-stdin", action="store_true", help="read passwords from standard input")
    commands = parser.add_subparsers(dest="account_command", metavar="SUBCOMMAND", required=True)
    for name, what in (("signup", "make an account and sign in to it"), ("signin", "sign in to your account")):
        command = commands.add_parser(name, help=what, description=what[0].upper() + what[1:] + ".")
        command.add_argument("name", help="the account's name (as a seat's: 1-20 letters, digits, spaces, . ' - _)")
    signout = commands.add_parser("signout", help="sign out (of this computer, or --everywhere)")
    signout.add_argument("--everywhere", action="store_true", help="end every session of the account")
    commands.add_parser("passwd", help="change your password (every other session ends)")
    commands.add_parser("sessions", help="list your account's sessions")
    end = commands.add_parser("end", help="end one session (its id from `risc account sessions`)")
    end.add_argument("session", help="the session's id")
    commands.add_parser("home", help="your games: those waiting for you first")
    export = commands.add_parser("export", help="every game of your account, as JSON")
    export.add_argument("file", nargs="?", default=None, help="write it to FILE (default: standard output)")
    delete = commands.add_parser("delete", help="delete your account for good")
    delete.add_argument("--yes", action="store_true", help="do not ask to type the name again")
    parser.set_defaults(handler=_main)
