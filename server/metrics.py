"""What a server does, in figures: GET /metrics in Prometheus' text format (prometheus_client), one registry a server.

The figures that move with play are counted where they happen, at a cost of a microsecond or so each (a counter's
increment, a histogram's bucket found): an order's and a commit's answer, a store's write transaction, a turn
resolved, a take-over, a redirect, a refusal. Those that are states (games held, connections, whether the node holds
its session) are read only when Prometheus asks. docs/scaling.md lists every name; docs/performance.md what they cost.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from prometheus_client import CONTENT_TYPE_LATEST, CollectorRegistry, Counter, Gauge, Histogram, generate_latest

from server.clock import stopwatch

LATENCY_BUCKETS = (0.0005, 0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1.0, 2.0, 5.0)
"""Seconds: a change's answer is a few milliseconds when all is well, its store's commit less."""

LAG_EVERY = 0.5
"""Seconds between two looks at the event loop's lag."""

ORDER_REQUESTS = frozenset({"issue_order", "issue_orders", "withdraw_order", "move_order"})
COMMIT_REQUESTS = frozenset({"commit"})

CONTENT_TYPE = CONTENT_TYPE_LATEST


class Metrics:
    """One server's figures (a test runs several servers in one process: each has a registry of its own)."""

    def __init__(self) -> None:
        self.registry = CollectorRegistry()
        r = self.registry
        self.games = Gauge("risc_games_held", "Games this server (node) plays now, by status", ["status"], registry=r)
        self.connections = Gauge("risc_connections", "Client connections open on this server (node)", registry=r)
        self.alive = Gauge(
            "risc_node_session", "1 while this node holds its database session (a server alone: always 1)", registry=r
        )
        self.turns = Counter("risc_turns_resolved", "Turns (resolutions of a game's step) resolved here", registry=r)
        latencies = {
            "risc_order_seconds": "From an order (issue, issue_orders, withdraw, move) read to its answer queued",
            "risc_commit_seconds": "From a commit read to its answer queued (a whole turn counts as an order)",
            "risc_store_commit_seconds": "A write transaction of the store (its changes sent and committed: durable)",
        }
        self.orders, self.commits, self.store_commits = (
            Histogram(name, f"{what}, in seconds", buckets=LATENCY_BUCKETS, registry=r)
            for name, what in latencies.items()
        )
        self.take_overs = Counter(
            "risc_take_overs",
            "Games this node took over from the store (a client asked, the sweeper, a hand-off)",
            registry=r,
        )
        self.handed_off = Counter("risc_games_handed_off", "Games this node gave to another as it stopped", registry=r)
        self.redirects = Counter("risc_redirects", "Clients sent to another node (answers and moved games)", registry=r)
        self.refusals = Counter("risc_refusals", "Requests refused, by the error's code", ["code"], registry=r)
        self.full = Counter(
            "risc_connections_refused_full",
            "Connections refused because the server held as many as it has room for (HTTP 503)",
            registry=r,
        )
        self.crowded = Counter(
            "risc_connections_refused_per_address",
            "Connections refused because their address held as many as one address may (HTTP 429)",
            registry=r,
        )
        self.loop_lag = Histogram(
            "risc_event_loop_lag_seconds",
            f"How late the event loop ran a callback due every {LAG_EVERY:g} s, in seconds",
            buckets=(0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5),
            registry=r,
        )
        self.notices_kept = Counter(
            "risc_notifications_kept",
            "Notifications this node's changes wrote to the outbox, by kind",
            ["kind"],
            registry=r,
        )
        self.notices_sent = Counter(
            "risc_notifications_sent",
            "Notifications this node's sender handled, by channel (mail, webhook) and outcome (sent, retry, paused)",
            ["channel", "outcome"],
            registry=r,
        )
        self.notices_late = Gauge(
            "risc_notifications_late_seconds",
            "How long the oldest notification this node's sender last claimed had been due: grows when sending lags",
            registry=r,
        )
        self._lag_task: asyncio.Task[None] | None = None

    def read_states(
        self, games: Callable[[], dict[str, int]], connections: Callable[[], int], alive: Callable[[], bool]
    ) -> None:
        """Where the states are read from when Prometheus asks: games by status, connections, the node's session."""
        for status in ("lobby", "playing", "finished"):

            def held(status: str = status) -> float:
                return float(games().get(status, 0))

            self.games.labels(status).set_function(held)
        self.connections.set_function(connections)
        self.alive.set_function(lambda: 1.0 if alive() else 0.0)

    def observe_request(self, request: str | None, seconds: float) -> None:
        if request in ORDER_REQUESTS:
            self.orders.observe(seconds)
        elif request in COMMIT_REQUESTS:
            self.commits.observe(seconds)

    def refused(self, code: str) -> None:
        self.refusals.labels(code).inc()

    def notice_kept(self, kind: str) -> None:
        self.notices_kept.labels(kind).inc()

    def notices_counted(self, channel: str, outcome: str, count: int) -> None:
        self.notices_sent.labels(channel, outcome).inc(count)

    def text(self) -> bytes:
        """The figures as Prometheus reads them."""
        return generate_latest(self.registry)

    # ---- the event loop's lag -------------------------------------------------------------------------------------

    def start(self) -> None:
        self._lag_task = asyncio.get_running_loop().create_task(self._watch_lag())

    async def _watch_lag(self) -> None:
        while True:
            due = stopwatch() + LAG_EVERY
            await asyncio.sleep(LAG_EVERY)
            self.loop_lag.observe(max(0.0, stopwatch() - due))

    async def stop(self) -> None:
        if self._lag_task is not None:
            self._lag_task.cancel()
            await asyncio.gather(self._lag_task, return_exceptions=True)
            self._lag_task = None
