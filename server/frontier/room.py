"""How many connections a server holds at once: as many as its open-files limit leaves room for, past a reserve.

Every connection is an open file (its socket), and so is what the server's store opens while it works (SQLite's
database, its write-ahead log and the temporary files a statement may need; PostgreSQL's pooled connections), its
log files and the handshakes under way. A server that let connections take every file it may open would fail its
store's next write ("unable to open database file": the change refused) and stop accepting anyone, the probes
included. So the server counts its connections, handshakes included, and past its room refuses a new one at once
with HTTP 503 that says why, keeping the reserve for its store and its probes (/healthz, /readyz, /metrics).

At start the server raises its own soft open-files limit to the hard one (a process may, without privileges): the
soft limit is often 1,024, a few hundred players.

One address may hold only so many of them (`PerAddress`): else one program could open the whole room, and every
player after it would be refused.
"""

from __future__ import annotations

import asyncio
import collections
import resource

from server.frontier.guesses import address_of

UNLIMITED = 1 << 20
"""What an unlimited open-files limit is taken for (the kernel's own default ceiling, fs.nr_open)."""

RESERVE = 256
"""Files kept for the store, logs, probes and handshakes refused (an eighth of a small limit, at least
RESERVE_LEAST)."""

RESERVE_LEAST = 32
"""What a process opens before its first connection: the interpreter's, the event loop's, the store's, the logs'."""


def raise_open_files() -> int:
    """Raise this process's soft open-files limit to its hard limit where it may; the soft limit it then has."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    unlimited = resource.RLIM_INFINITY
    target = UNLIMITED if hard == unlimited else hard
    if soft == unlimited or soft >= target:
        return UNLIMITED if soft == unlimited else soft
    try:
        resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
    except (ValueError, OSError):  # a hard limit of "unlimited" past what the kernel allows a process
        return soft
    return target


def room_for(open_files: int) -> int:
    """The connections a process allowed `open_files` open files holds: all of them but the reserve."""
    return max(1, open_files - min(RESERVE, max(RESERVE_LEAST, open_files // 8)))


def full_explanation(held: int, room: int, configured: bool) -> str:
    """Why a connection was refused, for the client and the operator's log."""
    how = (
        "its --max-connections"
        if configured
        else "its open-files limit allows (raise it with `ulimit -n` or LimitNOFILE, or add a node)"
    )
    return f"the server is full: it holds {connections(held)}, as many as {how} ({room:,}); try again later"


def connections(count: int) -> str:
    """A number of connections in words: 1 connection, 19,744 connections."""
    return f"{count:,} connection{'s' * (count != 1)}"


class PerAddress:
    """The connections each address holds now (an IPv6 address by its /64, as a machine may hold many of its network),
    each counted from its handshake until its task ends, however it ends (refused, closed, dropped)."""

    def __init__(self, most: int | None) -> None:
        """`most`: the connections one address may hold (None: as many as the room)."""
        self.most = most
        self._held: collections.Counter[str] = collections.Counter()

    def hold(self, host: str) -> bool:
        """Count a connection from `host`, made in the current task (the connection's own), until the task ends:
        whether its address may hold it."""
        address = address_of(host)
        self._held[address] += 1
        task = asyncio.current_task()
        if task is not None:
            task.add_done_callback(lambda _: self._let_go(address))
        return self.most is None or self._held[address] <= self.most

    def too_many(self) -> str:
        """Why a connection was refused, for its client."""
        return (
            f"your address holds {connections(self.most or 0)} to this server, as many as one address may (its "
            "--connections-per-address): close some, then try again"
        )

    def held(self, host: str) -> int:
        """The connections `host`'s address holds now."""
        return self._held.get(address_of(host), 0)

    def __len__(self) -> int:
        """The addresses holding a connection now."""
        return len(self._held)

    def _let_go(self, address: str) -> None:
        left = self._held[address] - 1
        if left > 0:
            self._held[address] = left
        else:
            del self._held[address]
