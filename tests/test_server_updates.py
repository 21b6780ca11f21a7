"""The updates of one change are put together from parts encoded once; each frame must still say exactly what that
viewer's whole Update says: the entries it may see, the summary, its view (whole the first time, then a patch of the
one it was sent last)."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from server.core.entries import Logged, from_stored, logged, number
from server.match import Match
from server.match.updates import KeptViews, UpdateFrames
from server.storage import MemoryStorage, SeatRecord
from shared.game import turns
from shared.game.game import Game
from shared.game.random import SETUP_STEP, GameRandom, dice_of
from shared.game.ruleset import Private
from shared.maps import load_map
from shared.protocol import log as game_log
from shared.protocol.lobby import GameSettings, GameStatus, GameSummary, SeatInfo
from shared.protocol.messages import SERVER_ADAPTER, OrderAccepted, Update, encode
from shared.protocol.patch import apply, diff
from shared.rulesets import game_ruleset
from shared.rulesets.risc.orders import AttackOrder, MoveOrder
from tests.engine_support import RISC, SEED_OWNERS, SEED_UNITS, RiscGame, make_state, play_turn, seed_map

NAMES = {"green": "Zoë", "blue": 'blue "b"', "red": "red"}
"""Names with a non-ASCII letter and quotes, so the text's escaping is checked too."""


def resolved_turn() -> tuple[RiscGame, RiscGame, list[Logged]]:
    owners = {t: NAMES[o] for t, o in SEED_OWNERS.items()}
    before = make_state(seed_map(), owners, SEED_UNITS, players=list(NAMES.values()))
    orders = {
        NAMES["green"]: [AttackOrder(source="Midkemia", target="Elantris", units=10)],
        NAMES["red"]: [MoveOrder(source="Mordor", target="Gondor", units=4)],
    }
    after, events = play_turn(before, orders)
    revealed = game_log.OrdersRevealed(turn=1, orders={p: [RISC.dump_order(o) for o in b] for p, b in orders.items()})
    secret = Private(game_log.PlayerLeft(player="nobody"), frozenset({NAMES["green"]}))
    bodies = [
        Logged(game_log.PlayerCommitted(player=NAMES["red"], turn=1)),
        Logged(revealed),
        *(logged(e) for e in events),
        logged(secret),
    ]
    return before, after, bodies


def summary(status: GameStatus) -> GameSummary:
    return GameSummary(
        game_id="g1",
        settings=GameSettings(map="seed"),
        map_name="seed",
        territories=9,
        seats=[SeatInfo(name=n, connected=n != "red", group=None) for n in NAMES.values()],
        free=0,
        status=status,
        phase="orders",
        turn=2,
        spectators=2,
    )


def parse(text: str) -> Update:
    message = SERVER_ADAPTER.validate_json(text)
    assert isinstance(message, Update)
    return message


@pytest.mark.parametrize("deadline_in", [None, 41.5, 0.0])
@pytest.mark.parametrize("snapshot", [False, True])
@pytest.mark.parametrize("in_lobby", [False, True])
def test_each_followers_frame_says_what_its_update_says(
    deadline_in: float | None, snapshot: bool, in_lobby: bool
) -> None:
    before, after, bodies = resolved_turn()
    entries = number(bodies, 40, RISC, change=12)
    game = None if in_lobby else after
    status = GameStatus.LOBBY if in_lobby else GameStatus.PLAYING
    frames = UpdateFrames("g1", 12, entries, summary(status), RISC, game, False, deadline_in, snapshot)
    for seat in [*NAMES.values(), None, None]:
        base = None if seat is None else RISC.dump_view(RISC.view(before, seat))
        update, text, new_base = frames.for_follower(seat, None, base)
        sent = parse(text)
        assert (sent.game_id, sent.seq, sent.you, sent.deadline_in, sent.snapshot) == (
            "g1",
            12,
            seat,
            deadline_in,
            snapshot,
        )
        assert sent.game == summary(status)
        seen = [e for e in entries if e.audience is None or seat == NAMES["green"]]
        assert [e.seq for e in sent.events] == [12] * len(seen), "every entry of one change has its number"
        assert [e.event for e in sent.events] == [json.loads(e.text)["event"] for e in seen], (
            "a private entry goes to its audience alone"
        )
        if game is None:
            assert sent.view is None and sent.view_patch is None and new_base is None
            continue
        expected = RISC.dump_view(RISC.view(after, seat))
        assert new_base == expected and update.view == RISC.view(after, seat)
        if base is None:
            assert sent.view == expected and sent.view_patch is None
        else:
            assert sent.view is None and sent.view_patch is not None
            assert apply(base, sent.view_patch) == expected
            assert len(json.dumps(sent.view_patch)) < len(json.dumps(expected)), "only what changed is sent"


def test_a_follower_sees_the_private_entries_of_the_player_it_follows() -> None:
    _, after, bodies = resolved_turn()
    entries = number(bodies, 0, RISC, change=1)
    frames = UpdateFrames("g1", 1, entries, summary(GameStatus.PLAYING), RISC, after, False, None)
    _, following, _ = frames.for_follower(None, NAMES["green"], None)
    _, plain, _ = frames.for_follower(None, None, None)
    assert len(parse(following).events) == len(entries)
    assert len(parse(plain).events) == len(entries) - 1
    over = UpdateFrames("g1", 1, entries, summary(GameStatus.FINISHED), RISC, after, True, None)
    assert len(parse(over.for_follower(None, None, None)[1]).events) == len(entries), "once over, all is told"


def test_followers_sent_the_same_view_share_one_patch_worked_out_once() -> None:
    before, after, bodies = resolved_turn()
    entries = number(bodies, 0, RISC, change=1)
    frames = UpdateFrames("g1", 1, entries, summary(GameStatus.PLAYING), RISC, after, False, None)
    base = RISC.dump_view(RISC.view(before, None))
    texts = {frames.for_follower(None, None, base)[1] for _ in range(5)}
    assert len(texts) == 1 and len(frames._patches) == 1


@pytest.mark.parametrize(
    ("name", "options"), [("risc", {}), ("risc", {"evolution": 2}), ("risc", {"evolution": 3}), ("warzone", {})]
)
def test_a_commit_changes_no_ones_view_so_a_match_keeps_the_views_it_made(name: str, options: dict[str, Any]) -> None:
    """A view never says who has committed (the summary does), nor shows any orders but the viewer's own (R16): the
    views made before another player's order, or a commit that does not resolve the turn, serve after it, for every
    sight, in every rule set, and they are not made again."""
    ruleset, chosen = game_ruleset(name, options)
    game_map = ruleset.make_map(chosen) if ruleset.own_map else load_map(ruleset.default_map)
    players = ("ann", "bob", "cyd")
    game: Game[Any, Any] = ruleset.new_game(game_map, players, chosen, GameRandom(5, SETUP_STEP))
    strategy = ruleset.strategies[ruleset.default_strategy](ruleset)
    sights: list[tuple[str | None, str | None]] = [(p, None) for p in players] + [(None, None)]
    sights += [(None, p) for p in players]  # a watcher who follows a player's sight (where the rules let them)
    checked = 0

    def seen(game: Game[Any, Any], sight: tuple[str | None, str | None]) -> dict[str, Any]:
        seat, follows = sight
        return ruleset.dump_view(ruleset.view(game, seat) if follows is None else ruleset.follow_view(game, follows))

    for _ in range(4):
        for player in sorted(turns.awaiting(ruleset, game)):
            for order in strategy.decide(ruleset.view(game, player), game_map, player, random.Random(player)):
                issued = turns.issue(ruleset, game, player, order)
                if isinstance(issued, Game):
                    others = [sight for sight in sights if sight[0] != player]
                    assert [seen(issued, sight) for sight in others] == [seen(game, sight) for sight in others]
                    game = issued
        kept = KeptViews()
        for player in sorted(turns.awaiting(ruleset, game))[:-1]:
            before = UpdateFrames("g", 1, [], summary(GameStatus.PLAYING), ruleset, game, False, None, kept=kept)
            made = {sight: before.for_follower(*sight, None)[2] for sight in sights}
            committed = turns.commit(ruleset, game, player)
            assert isinstance(committed, Game), committed
            game = committed
            for sight in sights:
                assert seen(game, sight) == made[sight], f"{sight}: committing changed the view"
            after = UpdateFrames("g", 2, [], summary(GameStatus.PLAYING), ruleset, game, False, None, kept=kept)
            for sight in sights:
                _, text, base = after.for_follower(*sight, made[sight])
                assert base is made[sight] and parse(text).view_patch is None, "kept, and nothing to patch"
                checked += 1
        last = sorted(turns.awaiting(ruleset, game))[-1]
        committed = turns.commit(ruleset, game, last)
        assert isinstance(committed, Game), committed
        game, _ = turns.advance(ruleset, committed, dice_of(5))
    assert checked >= 4 * 2 * len(sights)


def test_numbered_entries_are_the_events_as_their_rule_set_encodes_them() -> None:
    _, _, bodies = resolved_turn()
    numbered = number(bodies, 7, RISC, change=3)
    assert [e.seq for e in numbered] == list(range(8, 8 + len(bodies))), "each in its place in the log"
    for entry, body in zip(numbered, bodies, strict=True):
        data = json.loads(entry.text)
        assert data["seq"] == entry.number == 3 and data["event"]["kind"] == entry.kind, "told as its change"
        assert entry.audience == body.audience
        stored = json.loads(entry.stored)
        assert (stored["seq"], stored["change"], stored["event"]) == (entry.seq, 3, data["event"])
        assert stored.get("audience") == (None if body.audience is None else sorted(body.audience))
        back = from_stored(stored)
        assert (back.seq, back.number, back.text, back.audience) == (entry.seq, 3, entry.text, entry.audience)


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=3),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=2), inner, max_size=3),
    max_leaves=12,
)
documents = st.dictionaries(st.text(max_size=3), json_values.filter(lambda v: v is not None), max_size=5)


def _without_nulls(value: Any) -> Any:
    """A merge patch cannot set a key to null (null removes it): views keep no null values in their objects."""
    if isinstance(value, dict):
        return {k: _without_nulls(v) for k, v in value.items() if v is not None}
    return value


@given(documents, documents)
def test_a_patch_turns_the_old_view_into_the_new(old: dict[str, Any], new: dict[str, Any]) -> None:
    old, new = _without_nulls(old), _without_nulls(new)
    patch = diff(old, new)
    assert apply(old, patch) == new
    assert (patch == {}) == (old == new)


class Kept:
    """A connection as a match sees it, keeping each message with the frame text it would be sent as."""

    def __init__(self) -> None:
        self.games: set[str] = set()
        self.reads_text = False
        self.words = False
        self.views: dict[str, dict[str, Any]] = {}
        self.sent: list[tuple[Any, str]] = []

    @property
    def label(self) -> str:
        return "kept"

    def send(self, message: Any, text: str | None = None) -> None:
        self.sent.append((message, encode(message) if text is None else text))


async def test_an_order_accepted_frame_names_the_new_order_and_its_index_only() -> None:
    """The reply to an order is encoded once from its model (kept with the request, and sent with the request's ref):
    the frame sent says what the OrderAccepted sent beside it says, and that is the new order and where it stands in
    the player's list, never the orders before it (protocol 3), after a withdrawal too; with what the player's orders
    leave of the pool, and the order's words (protocol 4)."""
    players = ["ann", "bob"]
    seats = [SeatRecord(name=p, token_hash="0" * 64) for p in players]
    match = await Match.create(
        "g1", GameSettings(map="seed", players=2), load_map("seed"), MemoryStorage(), seed=3, seats=seats
    )
    ann = Kept()
    await match.attach(ann, "ann")
    game = match.game
    assert game is not None
    mine = [t for t in game.game_map.names if game.board.owner[t] == "ann"]
    pool = game.board.pools["ann"]
    indexes = []
    placed = []
    for step, units in enumerate([1, 2, 3, 1]):
        if step == 3:
            await match.withdraw(ann, 0, 1, "w")
            _, text = ann.sent[-1]
            placed.pop(1)
            assert json.loads(text) == {
                "ref": "w",
                "type": "order_withdrawn",
                "game_id": "g1",
                "turn": 0,
                "index": 1,
                "left": {"pool_left": pool - sum(placed)},
            }
        order = {"kind": "place", "territory": mine[step % len(mine)], "units": units}
        placed.append(units)
        await match.issue(ann, 0, order, f"r{step}")
        message, text = ann.sent[-1]
        assert message.type == "order_accepted"
        assert (
            json.loads(text)
            == json.loads(encode(message))
            == json.loads(encode(OrderAccepted.model_validate(json.loads(text))))
        )
        assert SERVER_ADAPTER.validate_json(text) == message
        assert set(json.loads(text)) == {"ref", "type", "game_id", "turn", "index", "order", "left", "text"}
        assert message.order == order
        assert message.left == {"pool_left": pool - sum(placed)}
        assert message.text == f"place {units} on {order['territory']}"
        indexes.append(message.index)
    assert indexes == [0, 1, 2, 2] and pool >= 6
