"""Notifications under load: 10,000 of them through a local SMTP server and HTTPS webhooks while 100 games play.

Run by hand: `python bench/notifications.py [--notifications 10000] [--accounts 1000] [--games 100] [--repeat 2]`.
One server in this process (the SQLite store in a fresh temporary directory), its computers playing GAMES games of
3 on the seed map (loosened limits: `computer_games`, no pause between turns); a real SMTP server (aiosmtpd) and a
real HTTPS receiver in another process (tests/notify_support.py), whose work is theirs, not the server's. ACCOUNTS
accounts each have a mail address and a webhook; NOTIFICATIONS notices are written to the outbox over them, as
changes of games write theirs, and the server's own sender sends them: each webhook on its own, the mail gathered
into one message per account.

Figures: notifications sent per second (from the first kept to the last settled), mails and webhook deliveries
received; and a bystander's request time (a `list_games` of one game, every 20 ms, on a connection of its own):
p50 and p99 during the run, against the same run without notifications (the games alone).
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing as mp
import statistics
import sys
import tempfile
import time
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from server.app import RiscServer
from server.config import ServerConfig
from server.storage import SqliteStorage
from server.storage.notices import Channels, Notice
from tests.notify_support import Mailbox, Receiver, https_receiver, smtp_server
from tests.server_support import Client


async def bystander(server: RiscServer, stop: asyncio.Event) -> list[float]:
    client = await Client.connect(server)
    times = []
    while not stop.is_set():
        start = time.perf_counter()
        await client.request(type="list_games", limit=1)
        times.append(time.perf_counter() - start)
        await asyncio.sleep(0.02)
    await client.close()
    return times


def _receivers(folder: str, ports: Connection, counts: Any) -> None:
    """The SMTP server and the HTTPS receiver, in a process of their own (their TLS and parsing are the receivers'
    work, not the server's): their ports and certificate sent back, what arrived counted in `counts`."""

    async def serve() -> None:
        mailbox, receiver = Mailbox(), Receiver()
        _, mail_port = await smtp_server(mailbox)
        _, hook_port, cert = await https_receiver(receiver, Path(folder))
        ports.send((mail_port, hook_port, str(cert)))
        while True:
            counts[0], counts[1] = len(mailbox.messages), len(receiver.got)
            mailbox.messages.clear()
            receiver.got.clear()
            counts[2] += counts[0]
            counts[3] += counts[1]
            await asyncio.sleep(0.2)

    asyncio.run(serve())


async def run(notifications: int, accounts: int, games: int, folder: Path) -> dict[str, float]:
    here, there = mp.Pipe()
    counts = mp.Array("l", 4)
    receivers = mp.Process(target=_receivers, args=(str(folder), there, counts), daemon=True)
    receivers.start()
    mail_port, hook_port, cert = here.recv()
    config = ServerConfig(
        host="127.0.0.1",
        port=0,
        messages_per_second=100_000.0,
        burst=100_000,
        computer_games=games,
        open_games_per_connection=games,
        open_games_per_address=games,
        bot_turn_pause=0.0,
        smtp=f"smtp://127.0.0.1:{mail_port}",
        webhook_allow=("127.0.0.1",),
        webhook_cafile=str(cert),
        notify_every=0.5,
    )
    data = Path(tempfile.mkdtemp(dir=folder))
    async with RiscServer(config, SqliteStorage(data / "games.sqlite3")) as server:
        creator = await Client.connect(server)
        for _ in range(games):
            reply = await creator.request(
                type="create_game", settings={"map": "seed", "players": 3, "bots": 3, "options": {"max_turns": 1000}}
            )
            assert reply["type"] == "game_created", reply
        store = server.notifier.store
        if notifications:
            for n in range(accounts):
                await store.set_channels(
                    f"bench-{n}",
                    Channels(mail=f"p{n}@mail.test", webhook=f"https://127.0.0.1:{hook_port}/h", webhook_secret="k"),
                )
        stop = asyncio.Event()
        watching = asyncio.get_running_loop().create_task(bystander(server, stop))
        await asyncio.sleep(2.0)  # the games under way
        start = time.perf_counter()
        if notifications:
            now = server.clock.wall()
            batch = [
                Notice(f"bench-{n % accounts}", "your_turn", f"g{n}", {"turn": 1, "title": "RISC", "map": "Seed"}, now)
                for n in range(notifications)
            ]
            for at in range(0, notifications, 500):
                await store.enqueue(batch[at : at + 500])
            server.notifier.sender.poke()
            while await store.pending():
                await asyncio.sleep(0.2)
        else:
            await asyncio.sleep(10.0)
        took = time.perf_counter() - start
        stop.set()
        times = sorted(await watching)
    await asyncio.sleep(0.5)  # the last counts
    receivers.terminate()
    return {
        "seconds": took,
        "per_second": notifications / took if notifications else 0.0,
        "mails": counts[2],
        "webhooks": counts[3],
        "p50_ms": statistics.median(times) * 1000,
        "p99_ms": times[min(len(times) - 1, int(len(times) * 0.99))] * 1000,
        "requests": len(times),
    }


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--notifications", type=int, default=10_000)
    parser.add_argument("--accounts", type=int, default=1000)
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--repeat", type=int, default=1)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        for _ in range(args.repeat):
            alone = await run(0, args.accounts, args.games, Path(folder))
            print(f"games alone:          bystander p50 {alone['p50_ms']:.1f} ms, p99 {alone['p99_ms']:.1f} ms")
            told = await run(args.notifications, args.accounts, args.games, Path(folder))
            print(
                f"with notifications:   {args.notifications} in {told['seconds']:.1f} s, {told['per_second']:.0f}/s "
                f"({told['mails']:.0f} mails, {told['webhooks']:.0f} webhooks); bystander p50 {told['p50_ms']:.1f} ms, "
                f"p99 {told['p99_ms']:.1f} ms"
            )


if __name__ == "__main__":
    asyncio.run(main())
