"""The seam holds: a rule set written in the tests, registered at test time, plays to its end on a real server,
through the text client's session and a network bot, with nothing in server/, client/ or the protocol knowing it."""

from __future__ import annotations

import asyncio
import subprocess
from pathlib import Path
from typing import Any

from client.bot import NetworkBot
from client.connection import LinkState
from client.session import Followed, Session
from client.tokens import SeatStore
from shared.protocol import messages as msg
from shared.protocol.lobby import GameSettings, GameSummary
from tests.client_support import QUICK
from tests.server_support import FAST, running_server, url
from tests.toy_ruleset import GOAL, Add, Added, RaceToTwenty

ROOT = Path(__file__).resolve().parent.parent


class Player:
    """The text client's session with a face of a few lines: it adds 1 whenever the game waits for it."""

    def __init__(self) -> None:
        self.session: Session | None = None
        self.seen: list[Any] = []
        self.over = asyncio.Event()
        self.turn = asyncio.Event()

    def on_update(self, followed: Followed, entries: list[Any], update: msg.Update) -> None:
        self.seen += entries
        if followed.finished:
            self.over.set()
        elif followed.awaited:
            self.turn.set()

    def on_notice(self, error: msg.Error) -> None:
        raise AssertionError(error.message)

    def on_seated(self, followed: Followed, previous: Followed | None) -> None: ...

    def on_resumed(self, followed: Followed) -> None: ...

    def on_link(self, state: LinkState, detail: str) -> None: ...

    def on_listed(self, game: GameSummary) -> None: ...

    def on_shutdown(self, message: str) -> None: ...

    async def on_reconnected(self, resumed: bool) -> None: ...


async def test_a_rule_set_of_the_tests_plays_to_its_end_through_a_real_server(race: RaceToTwenty,
                                                                               tmp_path: Path) -> None:
    async with running_server(**FAST) as server:
        player = Player()
        session = Session(url(server), player, store=SeatStore(tmp_path / "seats.json"), backoff=QUICK)
        await session.open()
        rulesets = await session.request(msg.ListRuleSets())
        assert isinstance(rulesets, msg.RuleSets) and "race" in [r.name for r in rulesets.rulesets]
        created = await session.create(GameSettings(ruleset="race", players=2))
        assert isinstance(created, msg.GameCreated), created
        game_id = created.game.game_id
        assert (await session.join(game_id, "Ann")).type == "joined"
        bot = NetworkBot(url(server), game_id, name="Bot", backoff=QUICK)
        bot_task = asyncio.get_running_loop().create_task(bot.run())
        followed = session.followed[game_id]
        refused: list[msg.ServerMessage] = []
        while not player.over.is_set():
            await asyncio.wait([asyncio.create_task(player.over.wait()), asyncio.create_task(player.turn.wait())],
                               timeout=5, return_when=asyncio.FIRST_COMPLETED)
            if player.turn.is_set() and not player.over.is_set():
                player.turn.clear()
                if followed.awaited:
                    if not refused:  # a bad order is refused by the rule set's own check, and changes nothing
                        refused.append(await session.issue(followed, {"kind": "add", "amount": 7}))
                    reply = await session.issue(followed, Add(1))
                    assert isinstance(reply, msg.OrderAccepted), reply
        assert await asyncio.wait_for(bot_task, 5) == 0 and bot.errors == []
        await session.close()
    added = [e for e in player.seen if isinstance(e, Added)]
    assert added[-1].total == GOAL and followed.game is not None
    assert followed.game.winner == added[-1].player == "Bot", "the perfect player wins from the second seat"
    assert [e.total for e in added] == sorted(e.total for e in added)
    (bad,) = refused
    assert isinstance(bad, msg.Error) and bad.code == "bad-amount" and "not 7" in bad.message


def test_nothing_outside_its_package_names_a_rule_set_s_orders_or_events() -> None:
    """RISC's order and event classes appear only in its own package (and the tests)."""
    names = ["PlaceOrder", "MoveOrder", "AttackOrder", "UnitsPlaced", "UnitsMoved", "UnitsReceived",
             "PlayerEliminated", "TurnStarted", "RiscView", "RiscBoard"]
    found = subprocess.run(["git", "grep", "-l", "-w", "-E", "|".join(names), "--", "server", "client", "risc",
                            "shared/protocol", "shared/game", "shared/bots", "shared/maps"],
                           cwd=ROOT, capture_output=True, text=True)
    assert found.stdout.split() == [], f"rule set names leak into: {found.stdout.split()}"
