"""The seam holds: a rule set written in the tests, registered at test time, plays to its end on a real server,
through the text client's session and a network bot, with nothing in server/, client/ or the protocol knowing it."""

from __future__ import annotations

import ast
import asyncio
import functools
from pathlib import Path
from typing import Any

from client.bot import NetworkBot
from client.followed import Followed
from client.link import LinkState
from client.session import Session
from client.tokens import SeatStore
from shared.game import events
from shared.game.grammar import ParseError
from shared.game.presentation import Context, Palette
from shared.game.ruleset import AnyRuleSet
from shared.protocol import messages as msg
from shared.protocol.lobby import GameSettings, GameSummary
from shared.rulesets import RULESETS
from tests.client_support import QUICK
from tests.server_support import FAST, running_server, url
from tests.toy_ruleset import GOAL, Add, Added, Pile, RaceToTwenty

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


async def test_a_rule_set_of_the_tests_plays_to_its_end_through_a_real_server(
    race: RaceToTwenty, tmp_path: Path
) -> None:
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
            await asyncio.wait(
                [asyncio.create_task(player.over.wait()), asyncio.create_task(player.turn.wait())],
                timeout=5,
                return_when=asyncio.FIRST_COMPLETED,
            )
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


FRAMEWORK = ("server", "client", "risc", "shared/game", "shared/protocol", "shared/bots", "shared/maps")
"""Where no rule set is named: the framework, the clients, the server and the commands."""
FACES = {"client/warzone_console.py": "shared.rulesets.warzone.console"}
"""A face on one rule set alone (the COMP 345 console on Warzone, as the map editor's shell is on its core) may
import that rule set's module made for it, and nothing else of it."""


def _python_files(*folders: str) -> list[Path]:
    return sorted(path for folder in folders for path in (ROOT / folder).rglob("*.py"))


@functools.cache
def _named(path: Path) -> tuple[set[str], set[str]]:
    """The modules a file imports and the identifiers its code uses (names, attributes, imported names): what it
    names, never what its comments or strings say, nor a class of its own that shares a rule set's class's name
    (the statistics' Battle is no rule set's event)."""
    modules: set[str] = set()
    identifiers: set[str] = set()
    own: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ClassDef):
            own.add(node.name)
        elif isinstance(node, ast.ImportFrom) and node.module is not None:
            modules.add(node.module)
            identifiers |= {alias.name for alias in node.names}
        elif isinstance(node, ast.Import):
            modules |= {alias.name for alias in node.names}
        elif isinstance(node, ast.Name):
            identifiers.add(node.id)
        elif isinstance(node, ast.Attribute):
            identifiers.add(node.attr)
    return modules, identifiers - own


def _types_of(ruleset: AnyRuleSet) -> set[str]:
    """The classes of a rule set's orders, events, views and boards, by name, as its schemas list them."""
    found: set[str] = set()
    for adapter in (ruleset.order_type, ruleset.event_type, ruleset.view_type, ruleset.board_type):
        found |= set(adapter.json_schema().get("$defs", {}))
    return found


def test_nothing_outside_its_package_names_a_rule_set_s_orders_events_views_or_boards() -> None:
    """Every rule set's order, event, view and board classes appear only in its own package (and the tests): the
    framework's files neither import a rule set's modules nor name its classes, and no rule set imports another's.
    The events the framework owns (shared/game/events.py) are everyone's."""
    framework_events = {cls.__name__ for cls in (events.PlayerEliminated, events.GameWon, events.TurnStarted)}
    framework_files = _python_files(*FRAMEWORK)
    rule_set_files = _python_files("shared/rulesets")
    leaks: list[str] = []
    for name, ruleset in RULESETS.items():
        package = type(ruleset).__module__.rsplit(".", 1)[0]
        folder = ROOT / package.replace(".", "/")
        names = _types_of(ruleset) - framework_events
        assert len(names) > 5, f"{name}: its schemas name its classes"
        for path in framework_files + rule_set_files:
            if folder in path.parents or path == ROOT / "shared/rulesets/__init__.py":
                continue
            modules, identifiers = _named(path)
            shown = path.relative_to(ROOT)
            allowed = FACES.get(str(shown))
            leaks += [
                f"{shown} imports {m}"
                for m in sorted(modules)
                if (m == package or m.startswith(package + ".")) and m != allowed
            ]
            if path in framework_files:
                leaks += [f"{shown} names {name}'s {n}" for n in sorted(identifiers & names)]
    assert leaks == [], "rule sets leak out of their packages:\n" + "\n".join(leaks)


def test_a_rule_set_without_a_presentation_reads_as_its_orders_and_events_say(race: RaceToTwenty) -> None:
    """The framework's default presentation (shared/game/plain.py): a command for each kind of order, its fields as
    the command's words, and orders, events and views in their own fields' words."""
    words = race.presentation
    (command,) = words.commands
    assert (command.name, command.usage, command.example) == ("add", "add AMOUNT", "add 1")
    context = Context(race.make_map(race.options({})))
    assert words.parse(command, ["3"], context) == [Add(3)]
    assert words.parse(command, ["three"], context) == ParseError(
        'amount must be a whole number, not "three"; usage: add AMOUNT, e.g. add 1'
    )
    assert words.parse(command, [], context) == ParseError("usage: add AMOUNT, e.g. add 1")
    assert words.describe(Add(2)) == "add 2"
    assert words.describe_offer(Add(3), "amount") == "add N"
    assert words.event_text(Added("ann", 3, 12), ["ann", "bob"]) == "added: player ann, amount 3, total 12"
    pile = Pile(12, 1)
    shown = "".join(t for _, t in words.board(pile, context.game_map, Palette(("ann", "bob")), "ann"))
    assert shown == "total 12, next player 1\n"
