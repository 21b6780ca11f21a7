"""How many connections a server holds at once: as many as its open-files limit leaves room for, past a reserve.

Every connection is an open file (its socket), and so is what the server's store opens while it works (SQLite's
database, its write-ahead log and the temporary files a statement may need; PostgreSQL's pooled connections), its
log files and the handshakes under way. A server that let connections take every file it may open would fail its
store's next write ("unable to open database file": the change refused) and stop accepting anyone, the probes
included. So the server counts the connections it admits, and past its room refuses a new one at once with HTTP 503
that says why, keeping the reserve for its store and its probes (/healthz, /readyz, /metrics); and it counts every
connection from the moment it is accepted, so that sockets that never finish their request cannot take the reserve
either (`Admission`).

At start the server raises its own soft open-files limit to the hard one (a process may, without privileges): the
soft limit is often 1,024, a few hundred players.

One address may hold only so many of them (`Admission`): else one program could open the whole room, and every
player after it would be refused.
"""

from __future__ import annotations

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


class Admission:
    """Who the server takes, counted from the moment each connection is accepted until it is lost.

    At the request (a handshake, a page), a connection is *admitted* while the server's admitted connections are
    fewer than its room (else HTTP 503) and its address's fewer than one address may hold (else HTTP 429): both
    answers say why. Counting the admitted only, a burst of handshakes larger than the room left takes what is left
    rather than being refused whole. A connection that never finishes its request (a program opening sockets and
    sending nothing, or a byte at a time, until the handshake's time runs out) is counted at once, though: past
    the room and a slack, or past its address's share and a slack, it is cut off as it is accepted, with no answer,
    so that one address cannot fill the room, nor sockets take the files the store and the probes need."""

    def __init__(self, room: int, per_address: int | None, slack: int) -> None:
        self.room = room
        self.per_address = per_address
        self.slack = slack
        """Connections past the room (and past an address's share) still accepted, to be answered why."""
        self.open = 0
        """Connections accepted and not yet lost."""
        self.admitted = 0
        """Connections let through (a client's, a page's request) and not yet lost."""
        self._open: collections.Counter[str] = collections.Counter()
        self._admitted: collections.Counter[str] = collections.Counter()

    def accepted(self, address: str) -> bool:
        """A connection from `address` (address_of's) was accepted: whether to keep it (else cut it off now). Every
        accepted connection is told lost, kept or not."""
        self.open += 1
        self._open[address] += 1
        if self.open > self.room + self.slack:
            return False
        return self.per_address is None or self._open[address] <= self.per_address + self.slack

    def admit(self, address: str) -> bool | None:
        """A request from `address`: True once it is admitted (counted until it is lost), None when the server holds
        its room, False when its address holds its share."""
        if self.admitted >= self.room:
            return None
        if self.per_address is not None and self._admitted[address] >= self.per_address:
            return False
        self.admitted += 1
        self._admitted[address] += 1
        return True

    def lost(self, address: str, admitted: bool) -> None:
        self.open -= 1
        _let_go(self._open, address)
        if admitted:
            self.admitted -= 1
            _let_go(self._admitted, address)

    def held(self, host: str) -> int:
        """The connections admitted from `host`'s address, held now."""
        return self._admitted.get(address_of(host), 0)

    @property
    def addresses(self) -> int:
        """The addresses with a connection open now."""
        return len(self._open)

    def too_many(self) -> str:
        """Why a connection was refused for its address, for its client."""
        return (
            f"your address holds {connections(self.per_address or 0)} to this server, as many as one address may "
            "(its --connections-per-address): close some, then try again"
        )


def _let_go(counts: collections.Counter[str], address: str) -> None:
    left = counts[address] - 1
    if left > 0:
        counts[address] = left
    else:
        del counts[address]


def slack_for(room: int, open_files: int | None) -> int:
    """Connections accepted past the room, to be told why they are refused: half the reserve of open files (the
    other half kept for the store and the probes), or a few when the room was set by hand."""
    if open_files is None:
        return max(16, room // 16)
    return max(1, (open_files - room) // 2)
