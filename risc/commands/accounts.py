"""`risc accounts ...`: an operator's look at a server's accounts, in its store, beside the running server: list them,
disable or enable one, reset a password. A disabled account's sessions end at once: every node closes the connections
they opened within a second or two (they hear of it from the store)."""

from __future__ import annotations

import argparse
import asyncio
import secrets
import sys
import time
from typing import Any

from risc.commands.stores import add_store_options, store_of


class Stop(Exception):
    """The command cannot go on: its message is for the operator."""


async def _run(args: argparse.Namespace) -> str:
    from server.accounts.passwords import Passwords, WeakPassword, normalised
    from server.storage import DATABASE_NAME, StorageError, default_data_dir
    from server.storage.base import Storage
    from server.storage.sqlite import SqliteStorage
    from shared.protocol.names import skeleton

    store = store_of(args)
    storage: Storage
    if store is not None:
        from server.storage.postgres import PostgresStorage

        storage = PostgresStorage(store)
    else:
        path = (args.data_dir or default_data_dir()) / DATABASE_NAME
        if not path.is_file():
            raise Stop(f"no game database at {path}")
        storage = SqliteStorage(path, beside_server=True)
    try:
        await storage.open()
        accounts = storage.accounts()
        if args.accounts_command == "list":
            found = await accounts.accounts()
            if not found:
                return "no accounts"
            now = time.time()
            lines = []
            for account in found:
                live = len(await accounts.sessions_of(account.account_id, now))
                state = "disabled" if account.disabled else f"{live} session{'s' * (live != 1)}"
                made = time.strftime("%Y-%m-%d", time.localtime(account.created_at))
                lines.append(f"{account.name:20}  since {made}  {state}")
            return "\n".join(lines)
        named = await accounts.account_named(skeleton(args.name))
        if named is None or named.deleted:
            raise Stop(f"no account is named {args.name}")
        account = named
        now = time.time()
        if args.accounts_command == "disable":
            await accounts.set_disabled(account.account_id, True, now)
            return f"{account.name} disabled: its sessions have ended, and it cannot sign in"
        if args.accounts_command == "enable":
            await accounts.set_disabled(account.account_id, False, now)
            return f"{account.name} enabled: it may sign in again"
        if args.accounts_command == "reset-password":
            given = sys.stdin.readline().rstrip("\r\n") if args.password_stdin else secrets.token_urlsafe(12)
            try:
                text = normalised(given)
            except WeakPassword as exc:
                raise Stop(str(exc)) from None
            passwords = Passwords(workers=1)
            try:
                hashed = await passwords.hash(text)
            finally:
                passwords.close()
            ended = await accounts.set_password(account.account_id, hashed, now, keep=None)
            told = "" if args.password_stdin else f": its new password is {given} (tell the player, once)"
            return f"{account.name}'s password reset, {ended} session{'s' * (ended != 1)} ended{told}"
        raise Stop(f"no such command: {args.accounts_command}")
    except StorageError as exc:
        raise Stop(str(exc)) from None
    finally:
        await storage.close()


def _main(args: argparse.Namespace) -> int:
    try:
        print(asyncio.run(_run(args)))
    except Stop as exc:
        print(f"risc accounts: {exc}", file=sys.stderr)
        return 1
    return 0


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "accounts",
        help="an operator's look at a server's accounts: list, disable, enable, reset a password",
        description="The accounts a server keeps, read and changed in its store, beside the running server.",
    )
    add_store_options(
        parser,
        "the accounts of this PostgreSQL store (default: the RISC_STORE environment variable when --data-dir "
        "is not given)",
    )
    commands = parser.add_subparsers(dest="accounts_command", metavar="SUBCOMMAND", required=True)
    commands.add_parser("list", help="every account: its name, since when, its sessions or that it is disabled")
    for name, what in (
        ("disable", "disable an account: its sessions end, and it cannot sign in"),
        ("enable", "let a disabled account sign in again"),
        ("reset-password", "give an account a new password (printed once), ending its sessions"),
    ):
        command = commands.add_parser(name, help=what, description=what[0].upper() + what[1:] + ".")
        command.add_argument("name", help="the account's name (any case)")
        if name == "reset-password":
            command.add_argument(
                "--password-stdin", action="store_true", help="read the new password from standard input"
            )
    parser.set_defaults(handler=_main)
