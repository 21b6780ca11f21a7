"""The worked example of docs/protocol.md: a short RISC game played on a real server, every frame recorded.

`risc protocol example` starts a server in this process (a free port, games in memory, a fixed seed, a clock that
moves only when told), plays a two-player game on the seed map with scripted clients that speak the protocol through
the websockets library directly, and prints every frame each connection sent and received, as the page's ```jsonc
blocks with a line or two between them. Nothing in a frame is written by hand: only game ids and seat tokens, which
the server draws afresh on every run, are replaced with fixed stand-ins, so that the page comes out the same each
time and a change in the protocol shows as a change in the page.

Each step is one request (or one thing that happens, such as a connection dropping) and everything it brings: the
actor's frames first, then every other connection's, each in the order it received them. A step ends when every
connection has received all that the step sends it: each open connection then sends a request of its own (a one-game
`list_games`) and waits for the answer, which the server sends after everything queued before it; those requests and
their answers are left out of the page.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import hashlib
import itertools
import json
import re
import textwrap
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from pydantic import ValidationError
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from server.app import RiscServer
from server.clock import ManualClock
from server.config import ServerConfig
from shared.protocol.codes import PROTOCOL_VERSION
from shared.protocol.messages import SERVER_ADAPTER
from shared.protocol.patch import apply as apply_patch
from shared.protocol.patch import seats_keyed, seats_listed

SEED = 1
"""The seed of every game of the example: territories, the order of combats and the dice follow from it."""

WIDTH = 120
"""The widest line of the page (a frame's line may be wider where a string alone is)."""

TIMEOUT = 10.0
"""How long any one frame may take to arrive before the example gives up (a broken server, not a slow one)."""

Message = dict[str, Any]

BROKEN_MAP = """name = "Islands"

[territories.North]
borders = ["South"]

[territories.South]
borders = ["North"]

[territories.Atoll]
borders = ["Reef"]
"""
"""An upload the server refuses: a border to a territory that does not exist, and an island cut off."""


THE_END = "The end, a rematch request, and a reconnection"


class ExampleError(RuntimeError):
    """The game did not go as the script expects (the server answered something else)."""


# ---- printing ------------------------------------------------------------------------------------------------------


def pretty(value: Any, indent: int = 0, lead: int = 0) -> str:
    """A frame as the page shows it: on one line when it fits in WIDTH (from column `indent`, after `lead`
    characters of its line already written); otherwise as many members a line as fit, and a member too long for a
    line of its own broken the same way."""
    flat = json.dumps(value, ensure_ascii=False)
    if indent + lead + len(flat) <= WIDTH or not isinstance(value, dict | list) or not value:
        return flat
    lines = _filled(_members(value, indent + 2), indent + 2)
    close = "}" if isinstance(value, dict) else "]"
    return ("{" if isinstance(value, dict) else "[") + "\n" + ",\n".join(lines) + "\n" + " " * indent + close


def _members(value: dict[str, Any] | list[Any], indent: int) -> list[str]:
    """Each member's text, starting at column `indent` (a broken member holds line breaks)."""
    if isinstance(value, list):
        return [pretty(item, indent, 1) for item in value]
    out = []
    for key, item in value.items():
        name = json.dumps(key, ensure_ascii=False) + ": "
        out.append(name + pretty(item, indent, len(name) + 1))
    return out


def _filled(members: list[str], indent: int) -> list[str]:
    """Members packed into lines of at most WIDTH characters; a broken member keeps lines of its own."""
    pad = " " * indent
    lines: list[str] = []
    line = ""
    for member in members:
        if "\n" in member:
            if line:
                lines.append(pad + line)
                line = ""
            lines.append(pad + member)
        elif not line:
            line = member
        elif indent + len(line) + len(member) + 3 <= WIDTH:
            line += ", " + member
        else:
            lines.append(pad + line)
            line = member
    if line:
        lines.append(pad + line)
    return lines


@dataclass
class Shown:
    """One line of a block: a frame with its header, or a comment that is no frame (`text` None)."""

    header: str
    text: str | None = None
    raw: bool = False
    """The frame is shown as sent (it is not JSON)."""


@dataclass
class Page:
    """The example as it will be printed: headings, sentences, and blocks of frames."""

    parts: list[str | list[Shown] | None] = field(default_factory=list)

    def heading(self, title: str) -> None:
        self.parts.append(f"### {title}")

    def reserve(self) -> int:
        """A place for a heading or a paragraph decided later (left out if never written)."""
        self.parts.append(None)
        return len(self.parts) - 1

    def say(self, text: str) -> int:
        """A paragraph; returns its place, so that it can be written again once what it tells is known."""
        self.parts.append(" ".join(text.split()))
        return len(self.parts) - 1

    def say_at(self, place: int, text: str) -> None:
        self.parts[place] = " ".join(text.split())

    def heading_at(self, place: int, title: str) -> None:
        self.parts[place] = f"### {title}"

    def show(self, shown: Shown) -> None:
        if not self.parts or not isinstance(self.parts[-1], list):
            self.parts.append([])
        block = self.parts[-1]
        assert isinstance(block, list)
        block.append(shown)

    def markdown(self, stand_ins: dict[str, str]) -> str:
        out: list[str] = []
        for part in self.parts:
            if part is None:
                continue
            if isinstance(part, str):
                out.append(
                    part
                    if part.startswith("#")
                    else textwrap.fill(part, WIDTH, break_long_words=False, break_on_hyphens=False)
                )
                continue
            lines = ["```jsonc"]
            for shown in part:
                lines.append(f"// {shown.header}")
                if shown.text is None:
                    continue
                text = shown.text if shown.raw else pretty(json.loads(shown.text))
                lines.append(_replace(text, stand_ins))
            lines.append("```")
            out.append("\n".join(lines))
        return "\n\n".join(out) + "\n"


def _replace(text: str, stand_ins: dict[str, str]) -> str:
    for real in sorted(stand_ins, key=len, reverse=True):  # tokens before the game ids they might contain
        text = re.sub(rf"(?<![A-Za-z0-9_-]){re.escape(real)}(?![A-Za-z0-9_-])", stand_ins[real], text)
    return text


def _stand_in(kind: str, number: int) -> str:
    """A fixed value of the same shape as the server's: 6 hex digits for a game id, 32 URL-safe characters for a
    token (what secrets.token_hex(3) and secrets.token_urlsafe(24) give)."""
    digest = hashlib.sha256(f"risc protocol example:{kind}:{number}".encode()).digest()
    if kind == "game":
        return digest.hex()[:6]
    return base64.urlsafe_b64encode(digest[:24]).decode()


# ---- one connection ------------------------------------------------------------------------------------------------


class Link:
    """One WebSocket connection of a scripted client: what it received and has not yet shown, and what it knows
    of each game it follows (the map, the view with every patch applied, the summary, the last entry's number)."""

    def __init__(self, name: str, ws: ClientConnection) -> None:
        self.name = name
        self.ws = ws
        self.unshown: list[str] = []
        self.maps: dict[str, Message] = {}
        self.views: dict[str, Message] = {}
        self.games: dict[str, Message] = {}
        self.summaries: dict[str, Message] = {}
        """Each game's summary as the patches left it (seats keyed by position); `games` holds it whole."""
        self.seq: dict[str, int] = {}
        self.closed = asyncio.Event()
        self._arrived = asyncio.Event()
        self._reader = asyncio.get_running_loop().create_task(self._read())

    async def _read(self) -> None:
        try:
            async for frame in self.ws:
                text = frame if isinstance(frame, str) else frame.decode()
                self._take(json.loads(text))
                self.unshown.append(text)
                self._arrived.set()
        except ConnectionClosed:
            pass
        finally:
            self.closed.set()
            self._arrived.set()

    def _take(self, message: Message) -> None:
        kind, game_id = message.get("type"), message.get("game_id")
        if kind == "game_map" and isinstance(game_id, str):
            self.maps[game_id] = message["map"]
        elif kind == "update" and isinstance(game_id, str):
            if message["game"] is not None:
                self.summaries[game_id] = seats_keyed(message["game"])
            elif message["game_patch"] is not None:
                self.summaries[game_id] = apply_patch(self.summaries[game_id], message["game_patch"])
            self.games[game_id] = seats_listed(self.summaries[game_id])
            self.seq[game_id] = max(self.seq.get(game_id, 0), message["seq"])
            if message["view"] is not None:
                self.views[game_id] = message["view"]
            elif message["view_patch"] is not None:
                self.views[game_id] = apply_patch(self.views[game_id], message["view_patch"])

    async def until(self, wanted: Callable[[Message], bool]) -> Message:
        """The first frame not yet shown that is `wanted`, once it has arrived."""
        async with asyncio.timeout(TIMEOUT):
            while True:
                for text in self.unshown:
                    message = json.loads(text)
                    if wanted(message):
                        return dict(message)
                if self.closed.is_set():
                    raise ExampleError(f"{self.name}'s connection closed before the frame the example expects")
                self._arrived.clear()
                await self._arrived.wait()

    def take_unshown(self) -> list[str]:
        taken, self.unshown = self.unshown, []
        return taken

    # ---- what the script reads -----------------------------------------------------------------------------------

    def view(self, game_id: str) -> Message:
        return self.views[game_id]

    def neighbours(self, game_id: str, territory: str) -> list[str]:
        """In the map's own territory order."""
        game_map = self.maps[game_id]
        borders = set(game_map["borders"].get(territory, []))
        return [t["name"] for t in game_map["territories"] if t["name"] in borders]

    def territories(self, game_id: str) -> list[str]:
        return [t["name"] for t in self.maps[game_id]["territories"]]


# ---- the run -------------------------------------------------------------------------------------------------------


class Example:
    """The server, the connections, and the page being written as the game goes."""

    def __init__(self, server: RiscServer, clock: ManualClock) -> None:
        self.server = server
        self.clock = clock
        self.page = Page()
        self.links: list[Link] = []
        self._refs = itertools.count(1)
        self._syncs = itertools.count(1)
        self.stand_ins: dict[str, str] = {}
        self._games = itertools.count(1)
        self._tokens = itertools.count(1)

    # ---- connections ---------------------------------------------------------------------------------------------

    async def connect(self, name: str) -> Link:
        ws = await connect(f"ws://127.0.0.1:{self.server.port}", max_size=None, compression=None)
        link = Link(name, ws)
        self.links = [other for other in self.links if other.name != name] + [link]
        return link

    def _order(self, actor: Link | None) -> list[Link]:
        """Who is shown first: the actor, then the others in the order they connected."""
        rest = [link for link in self.links if link is not actor]
        return ([actor] if actor is not None else []) + rest

    async def _sync(self, link: Link) -> None:
        """Wait until `link` has received everything the server had queued for it (see the module's note)."""
        if link.closed.is_set():
            return
        ref = f"sync-{next(self._syncs)}"
        try:
            await link.ws.send(json.dumps({"ref": ref, "type": "list_games", "limit": 1}))
        except ConnectionClosed:
            return
        with contextlib.suppress(ExampleError):
            await link.until(lambda m: m.get("ref") == ref)
        link.unshown = [text for text in link.unshown if json.loads(text).get("ref") != ref]

    async def settle(self, actor: Link | None = None) -> list[tuple[Link, Message]]:
        """End a step: everything it brought, shown in the page and returned."""
        for link in self._order(actor):
            await self._sync(link)
        received = []
        for link in self._order(actor):
            for text in link.take_unshown():
                try:
                    SERVER_ADAPTER.validate_json(text)
                except ValidationError as exc:
                    raise ExampleError(f"a frame to {link.name} does not fit the protocol's schema: {text}") from exc
                message = json.loads(text)
                self._note_secrets(message)
                self.page.show(Shown(f"server → {link.name}", text))
                received.append((link, message))
        return received

    def _note_secrets(self, message: Message) -> None:
        """Game ids and tokens differ on every run: each gets a fixed stand-in, the same wherever it appears."""
        found: list[tuple[str, str]] = []
        if message.get("type") == "game_created":
            found.append(("game", message["game"]["game_id"]))
        if message.get("type") == "joined":
            found.append(("token", message["token"]))
        if message.get("type") == "update":
            for entry in message["events"]:
                if entry["event"].get("kind") == "rematch_started":
                    found.append(("game", entry["event"]["game_id"]))
        for kind, real in found:
            if real not in self.stand_ins:
                number = next(self._games) if kind == "game" else next(self._tokens)
                self.stand_ins[real] = _stand_in(kind, number)

    async def send(self, link: Link, message: Message) -> Message:
        """One request: shown with everything it brings. Returns the answer (the frame with its ref)."""
        ref = f"r{next(self._refs)}"
        text = json.dumps({"ref": ref, **message}, ensure_ascii=False)
        self.page.show(Shown(f"{link.name} → server", text))
        await link.ws.send(text)
        for other, reply in await self.settle(link):
            if other is link and reply.get("ref") == ref:
                return reply
        raise ExampleError(f"no answer to {link.name}'s {message.get('type')}")

    async def send_raw(self, link: Link, text: str, note: str) -> list[tuple[Link, Message]]:
        """A frame sent as it is (not JSON, or not a message), shown as sent."""
        self.page.show(Shown(f"{link.name} → server ({note})", text, raw=True))
        await link.ws.send(text)
        return await self.settle(link)

    async def expect(self, link: Link, message: Message, reply_type: str) -> Message:
        reply = await self.send(link, message)
        if reply.get("type") != reply_type:
            raise ExampleError(f"{link.name}'s {message.get('type')} was answered {reply}")
        return reply

    async def refused(self, link: Link, message: Message, code: str) -> Message:
        reply = await self.send(link, message)
        if reply.get("type") != "error" or reply.get("code") != code:
            raise ExampleError(f"{link.name}'s {message.get('type')} should be refused with {code}: {reply}")
        return reply

    def comment(self, text: str) -> None:
        self.page.show(Shown(text))


# ---- the game ------------------------------------------------------------------------------------------------------


def own(link: Link, game_id: str, player: str) -> list[str]:
    territories = link.view(game_id)["territories"]
    return [t for t in link.territories(game_id) if territories[t].get("owner") == player]


def foreign_neighbours(link: Link, game_id: str, player: str, territory: str) -> list[str]:
    territories = link.view(game_id)["territories"]
    return [n for n in link.neighbours(game_id, territory) if territories[n].get("owner") != player]


def frontier(link: Link, game_id: str, player: str) -> list[str]:
    """Own territories, the ones bordering the most foreign territories first (the map's order among equals)."""
    mine = own(link, game_id, player)
    return sorted(mine, key=lambda t: -len(foreign_neighbours(link, game_id, player, t)))


def attacker_orders(link: Link, game_id: str, player: str) -> list[Message]:
    """ann's turn: the weakest foreign territories first, each attacked by every unit left next to it when they are
    at least three more than its defenders (one unit is enough for an empty one); a territory with no foreign
    neighbour and units to spare sends them to the front."""
    territories = link.view(game_id)["territories"]
    mine = own(link, game_id, player)
    left = {t: territories[t].get("units", 0) for t in mine}
    targets = sorted(
        {n for t in mine for n in foreign_neighbours(link, game_id, player, t)},
        key=lambda t: (territories[t].get("units", 0), link.territories(game_id).index(t)),
    )
    orders: list[Message] = []
    for target in targets:
        defenders = territories[target].get("units", 0)
        sources = [t for t in mine if target in link.neighbours(game_id, t) and left[t] > 0]
        if not sources:
            continue
        if defenders == 0:
            source = max(sources, key=lambda t: left[t])
            orders.append({"kind": "attack", "units": 1, "source": source, "target": target})
            left[source] -= 1
        elif sum(left[t] for t in sources) >= defenders + 3:
            for source in sorted(sources, key=lambda t: -left[t]):
                orders.append({"kind": "attack", "units": left[source], "source": source, "target": target})
                left[source] = 0
    fronts = [t for t in mine if foreign_neighbours(link, game_id, player, t)]
    for source in mine:
        if left[source] > 1 and source not in fronts and fronts:
            orders.append({"kind": "move", "units": left[source], "source": source, "target": fronts[0]})
    return orders


def defender_orders(link: Link, game_id: str, player: str, turn: int) -> list[Message]:
    """bob's turn: in the first turn half the units of his strongest territory strike its weakest foreign
    neighbour; then he holds."""
    territories = link.view(game_id)["territories"]
    source = max(own(link, game_id, player), key=lambda t: territories[t].get("units", 0))
    units = territories[source].get("units", 0) // 2
    targets = foreign_neighbours(link, game_id, player, source)
    if turn != 1 or not targets or units < 1:
        return []
    target = min(targets, key=lambda t: territories[t].get("units", 0))
    return [{"kind": "attack", "units": units, "source": source, "target": target}]


async def _greeted(example: Example, name: str) -> Link:
    """A new connection that has said hello and been welcomed."""
    link = await example.connect(name)
    await example.expect(link, {"type": "hello", "protocol": PROTOCOL_VERSION, "client": "protocol example"}, "welcome")
    return link


async def _issue(example: Example, link: Link, game_id: str, turn: int, orders: list[Message]) -> None:
    for order in orders:
        await example.expect(
            link, {"type": "issue_order", "game_id": game_id, "turn": turn, "order": order}, "order_accepted"
        )


async def _refused(example: Example, link: Link, game_id: str, turn: int, order: Message, code: str) -> None:
    """An order the server refuses, with the error `code`."""
    await example.refused(link, {"type": "issue_order", "game_id": game_id, "turn": turn, "order": order}, code)


async def _commit(example: Example, link: Link, game_id: str, turn: int) -> None:
    await example.expect(link, {"type": "commit", "game_id": game_id, "turn": turn}, "commit_accepted")


def _finished(link: Link, game_id: str) -> bool:
    return bool(link.games[game_id]["status"] == "finished")


async def play(example: Example) -> None:
    page = example.page
    page.heading("Lobby and placement")
    page.say(
        "ann connects and says hello; the `welcome` gives the server's limits. She asks which rule sets the "
        "server plays (each with its options' schema, its player counts and its computer players) and which "
        "maps it offers."
    )
    ann = await _greeted(example, "ann")
    await example.expect(ann, {"type": "list_rulesets"}, "rulesets")
    await example.expect(ann, {"type": "list_maps"}, "maps")

    page.say(
        "She first uploads a map of her own, which the server reads and refuses with what is wrong with it. "
        "Then she creates a two-player RISC game on the catalogue's seed map, with 8 units for each player to "
        "place and 1 unit on the territory left neutral. The answer gives the settings as the rule set "
        "completed them (every option with its default)."
    )
    await example.refused(
        ann,
        {
            "type": "create_game",
            "settings": {"ruleset": "risc", "players": 2},
            "map_upload": {"name": "islands.toml", "text": BROKEN_MAP},
        },
        "bad-map",
    )
    created = await example.expect(
        ann,
        {
            "type": "create_game",
            "settings": {
                "ruleset": "risc",
                "map": "seed",
                "players": 2,
                "options": {"initial_units": 8, "neutral_units": 1},
            },
        },
        "game_created",
    )
    game_id = str(created["game"]["game_id"])

    page.say("bob connects and lists the games, one page of them (`total` counts them all).")
    bob = await _greeted(example, "bob")
    await example.expect(bob, {"type": "list_games", "offset": 0, "limit": 10}, "games")

    page.say(
        "ann takes a seat. Her seat token comes in `joined`, to her alone. Then comes the game's map, once, and "
        "the first update: the game is in its lobby, so there is no view yet. bob takes the other seat, which "
        "starts the game: each of them gets an update with their view whole (the first view sent to a "
        "connection is always whole)."
    )
    joined = await example.expect(ann, {"type": "join_game", "game_id": game_id, "name": "ann"}, "joined")
    ann_token = str(joined["token"])
    joined = await example.expect(bob, {"type": "join_game", "game_id": game_id, "name": "bob"}, "joined")
    bob_token = str(joined["token"])

    places = frontier(ann, game_id, "ann")
    theirs = own(ann, game_id, "bob")
    page.say(
        "Placement. ann's orders are checked as they arrive, each against those before it: one on a territory "
        "that is not hers is refused with the rule's code, and so are an order of a kind RISC does not have "
        "and an order with a field missing. She puts her second order first (`move_order`), takes it back, lists "
        "what she has, and commits "
        "too soon (units are left in her pool); then she places the rest and commits. bob is told only that "
        "she committed; each view comes as a patch of the one before."
    )
    await _issue(example, ann, game_id, 0, [{"kind": "place", "territory": places[0], "units": 5}])
    await _refused(
        example, ann, game_id, 0, {"kind": "place", "territory": theirs[0], "units": 3}, "not-your-territory"
    )
    await _refused(example, ann, game_id, 0, {"kind": "fortify", "territory": places[0], "units": 3}, "unknown-order")
    await _refused(example, ann, game_id, 0, {"kind": "place", "territory": places[0]}, "invalid-order")
    await _issue(example, ann, game_id, 0, [{"kind": "place", "territory": places[1], "units": 2}])
    await example.expect(ann, {"type": "move_order", "game_id": game_id, "turn": 0, "index": 1, "to": 0}, "order_moved")
    await example.expect(ann, {"type": "withdraw_order", "game_id": game_id, "turn": 0, "index": 0}, "order_withdrawn")
    await example.expect(ann, {"type": "list_orders", "game_id": game_id}, "orders")
    await example.expect(ann, {"type": "legal_orders", "game_id": game_id}, "legal")
    await example.refused(ann, {"type": "commit", "game_id": game_id, "turn": 0}, "units-not-placed")
    await _issue(example, ann, game_id, 0, [{"kind": "place", "territory": places[0], "units": 3}])
    await _commit(example, ann, game_id, 0)

    page.say(
        "bob sends his placement in one message (`issue_orders`): all his units on one territory, and a unit on "
        "one of ann's by mistake. The answer takes each order as `issue_order` would have, in turn: the first "
        "accepted, the second refused by its position. He commits. Placement resolves: the update logs "
        "everyone's orders (`orders_revealed`), what they did, and the start of turn 1. Each view comes as a "
        "patch."
    )
    batch = [
        {"kind": "place", "territory": frontier(bob, game_id, "bob")[-1], "units": 8},
        {"kind": "place", "territory": places[0], "units": 1},
    ]
    reply = await example.expect(
        bob, {"type": "issue_orders", "game_id": game_id, "turn": 0, "orders": batch}, "orders_accepted"
    )
    if [r["position"] for r in reply["refused"]] != [1]:
        raise ExampleError(f"bob's second order should be refused alone: {reply}")
    await _commit(example, bob, game_id, 0)

    page.heading("The turns")
    page.say(
        "cy comes to watch. Seeing the game with a player's eyes (`follow`) is for rule sets that hide things "
        "from spectators, so RISC refuses it; plain watching is answered with `watching`, the map, and an "
        "update with the view whole. cy gave no `last_seq`, so that update is a snapshot: no entries, just "
        "where the game stands."
    )
    cy = await _greeted(example, "cy")
    await example.refused(cy, {"type": "watch_game", "game_id": game_id, "follow": "ann"}, "cannot-follow")
    await example.expect(cy, {"type": "watch_game", "game_id": game_id}, "watching")

    turn = 1
    last_seen = 0
    while not _finished(ann, game_id):
        if turn > 12:
            raise ExampleError("the game did not end within 12 turns: choose another seed")
        last_seen = ann.seq[game_id]
        ann_orders = attacker_orders(ann, game_id, "ann")
        bob_orders = defender_orders(bob, game_id, "bob", turn)
        heading = page.reserve()
        if turn == 2:
            bob = await _dropped_and_handed_over(example, game_id, ann, bob, bob_orders, bob_token)
            place = page.reserve()
            await _issue(example, ann, game_id, turn, ann_orders)
            await _commit(example, ann, game_id, turn)
            page.say_at(
                place,
                f"ann issues her orders for turn {turn} and commits: everyone has, and the turn "
                "resolves. " + _outcome(ann, game_id),
            )
        else:
            place = page.reserve()
            await _issue(example, ann, game_id, turn, ann_orders)
            await _commit(example, ann, game_id, turn)
            await _issue(example, bob, game_id, turn, bob_orders)
            await _commit(example, bob, game_id, turn)
            page.say_at(
                place,
                f"Turn {turn}. ann issues her orders and commits; bob and cy are told only that "
                "she committed, and her own view's patch holds her orders. Then bob "
                + ("issues his" if bob_orders else "commits without orders")
                + (" and commits" if bob_orders else "")
                + ": the turn resolves. "
                + _outcome(ann, game_id),
            )
        if _finished(ann, game_id):
            page.heading_at(heading, THE_END)
        turn += 1

    page.say(
        "The game is over, so anyone may have it told again. cy asks for its statistics: the server plays the "
        "stored game again from its seed and logged orders, once, and counts each player's territories, units, "
        "income, battles won and lost and cards played, turn by turn and in total, and who put whom out. Then "
        "cy opens its replay with everyone's sight: the map, the players and the timeline (the board as set "
        "up, then one point per turn); and asks for turn 1, the third point after the board as set up and the "
        "placement: the board after it, and its events."
    )
    await example.expect(cy, {"type": "game_statistics", "game_id": game_id}, "statistics")
    await example.expect(cy, {"type": "open_replay", "game_id": game_id}, "replay")
    await example.expect(cy, {"type": "replay_turn", "game_id": game_id, "index": 2}, "replayed_turn")

    page.say(
        "cy stops watching. ann and bob get an update with no entries: its summary counts one spectator "
        "fewer. ann asks for a rematch; bob has not yet."
    )
    await example.expect(cy, {"type": "leave_game", "game_id": game_id}, "left")
    await example.expect(ann, {"type": "rematch", "game_id": game_id}, "rematch_pending")

    page.say(
        f"ann connects again (say, from another terminal) and resumes her seat with her token and an older "
        f"`last_seq` ({last_seen}, from before the last turn): she gets the map, then every entry after it and "
        "her view whole. Her first connection is told that its seat was taken over, and no longer follows the "
        "game. Then three requests the server refuses: a frame that is not JSON, a join from a connection that "
        "holds a seat in the game already, and a commit whose turn is not a number."
    )
    ann2 = await _greeted(example, "ann's second connection")
    await example.expect(
        ann2, {"type": "resume", "game_id": game_id, "token": ann_token, "last_seq": last_seen}, "resumed"
    )
    await example.send_raw(ann2, "this is not JSON", "not JSON")
    await example.refused(ann2, {"type": "join_game", "game_id": game_id, "name": "zed"}, "already-seated")
    await example.refused(ann2, {"type": "commit", "game_id": game_id, "turn": "two"}, "invalid-message")

    page.say(
        "bob asks for a rematch too. Everyone has asked: the server creates the new game with the same "
        "settings, logs `rematch_started` in the old one, and seats both players in the new one, each keeping "
        "the seat token they had. Each connection gets `resumed` (with no ref: nobody asked for it), the new "
        "game's map and its first update; bob is seated first, so he gets one more update when ann's "
        "connection is seated too. (This example's server gives every game the same seed, so the rematch "
        "deals the territories as the first game did; a real server draws a seed for each game.)"
    )
    await example.expect(bob, {"type": "rematch", "game_id": game_id}, "rematch_pending")

    page.say("The server is stopped. It tells every connection before closing it (close code 1001).")
    await example.server.stop()
    for link in example.links:
        await asyncio.wait_for(link.closed.wait(), TIMEOUT)
    await example.settle()


def _outcome(link: Link, game_id: str) -> str:
    """What the resolving update tells, in a sentence."""
    if _finished(link, game_id):
        return (
            f"{link.games[game_id]['winner']} takes bob's last territory: the update logs the orders, the "
            "moves and combats, bob's elimination and her win. The game is over; its view's patch names the "
            "winner."
        )
    return (
        "The update logs every player's orders (`orders_revealed`), then what they did: the moves, each combat "
        "(attackers of one territory fight one after the other), the units received, and the next turn. The "
        "view comes as a patch: only the territories and players that changed."
    )


async def _dropped_and_handed_over(
    example: Example, game_id: str, ann: Link, bob: Link, bob_orders: list[Message], bob_token: str
) -> Link:
    """Turn 2: bob commits and his connection drops; ann hands his seat to the server's computer player; bob comes
    back with his token and takes it again. Returns bob's new connection."""
    page = example.page
    page.say(
        "Turn 2. bob "
        + ("issues his orders and commits" if bob_orders else "commits (with no orders)")
        + " first; then his connection drops. ann and cy are told in an update with no entries: bob's seat "
        "shows `connected: false`."
    )
    await _issue(example, bob, game_id, 2, bob_orders)
    await _commit(example, bob, game_id, 2)
    example.comment("(bob's connection drops)")
    await bob.ws.close()
    await bob.closed.wait()
    await ann.until(
        lambda m: (
            m.get("type") == "update"
            and any(s["name"] == "bob" and not s["connected"] for s in ann.games[game_id]["seats"])
        )
    )
    await example.settle(ann)

    page.say(
        "In a game with no time limit, an absent player's seat may be handed to the server's computer player, "
        "once the player has been away long enough (120 seconds by default). ann asks too early; two minutes "
        "later she asks again. She sits in the game's first seat, so her vote decides alone: the log says so "
        "(`seat_handed_over`), and once the server's player has taken the seat, a second update shows bob's "
        "seat connected again. bob has committed already, so it has nothing to do this turn."
    )
    await example.refused(ann, {"type": "hand_over", "game_id": game_id, "player": "bob"}, "cannot-hand-over")
    example.comment("(two minutes pass)")
    example.clock.advance(120)
    await example.expect(ann, {"type": "hand_over", "game_id": game_id, "player": "bob"}, "hand_over_pending")

    page.say(
        "bob reconnects and resumes his seat with his token and the number of the last entry he saw: the server "
        "sends the map, then the entries he missed and his view whole. The seat is his again: the server's "
        "player leaves it and the log tells everyone (`seat_taken_back`); his commit was kept."
    )
    back = await _greeted(example, "bob")
    await example.expect(
        back, {"type": "resume", "game_id": game_id, "token": bob_token, "last_seq": bob.seq[game_id]}, "resumed"
    )
    return back


async def capture(seed: int = SEED) -> str:
    """Play the example on a server of this process and return the page's text (markdown)."""
    clock = ManualClock()
    server = RiscServer(ServerConfig(host="127.0.0.1", port=0), seeds=lambda: seed, clock=clock)
    await server.start()
    example = Example(server, clock)
    played = False
    try:
        await play(example)
        played = True
    finally:
        for link in example.links:
            with contextlib.suppress(ConnectionClosed):
                await link.ws.close()
        if not played:  # play() stops the server itself, as part of the example
            await server.stop()
    return example.page.markdown(example.stand_ins)


def run(seed: int = SEED) -> str:
    return asyncio.run(capture(seed))
