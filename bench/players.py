"""The benchmarks' RISC players over raw websockets: what they know of a game, and how they play it.

A bench client keeps what a real client keeps, with as little work as it can: the map's borders (sent once per
followed game), the view and the game's summary (each sent whole once, then as merge patches applied in place), and
nothing else. Its players
play all out, so games end and every turn moves units. The same strategy reads the views of the previous release
(protocol 1: the whole view, territories as a list with their neighbours), so bench/wire.py plays the same game on
both.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field
from typing import Any

from shared.protocol.patch import seats_keyed

Message = dict[str, Any]


@dataclass
class Territory:
    name: str
    owner: str | None
    units: int
    neighbours: list[str]


@dataclass
class Seen:
    """A player's view, as its strategy reads it (whatever the protocol)."""

    phase: str
    turn: int
    pool_left: int
    territories: list[Territory]
    alive: set[str]


def merge(target: Message, patch: Message) -> None:
    """Apply a JSON merge patch (RFC 7386) to `target` in place: a bench client owns its copy of the view."""
    for key, value in patch.items():
        if value is None:
            target.pop(key, None)
        elif isinstance(value, dict) and isinstance(target.get(key), dict):
            merge(target[key], value)
        else:
            target[key] = value


@dataclass
class Followed:
    """One game as a protocol 3 client follows it: its borders, and the view and summary the server's patches
    left."""

    neighbours: dict[str, list[str]] = field(default_factory=dict)
    view: Message | None = None
    game: Message | None = None

    def take_map(self, game_map: Message) -> None:
        self.neighbours = {name: list(borders) for name, borders in game_map.get("borders", {}).items()}

    def take_update(self, message: Message) -> bool:
        """Take in an update; True when it changed the view."""
        if message["game"] is not None:
            self.game = seats_keyed(message["game"])  # as the game's patches name its seats
        elif message.get("game_patch") is not None and self.game is not None:
            merge(self.game, message["game_patch"])
        if message["view"] is not None:
            self.view = message["view"]
            return True
        if message["view_patch"] is not None and self.view is not None:
            merge(self.view, message["view_patch"])
            return True
        return False

    def seen(self) -> Seen:
        view = self.view
        assert view is not None
        territories = [
            Territory(name, t.get("owner"), t.get("units", 0), self.neighbours.get(name, []))
            for name, t in view["territories"].items()
        ]
        alive = {name for name, p in view["players"].items() if not p.get("eliminated", False)}
        return Seen(view["phase"], view["turn"], view.get("pool_left", 0), territories, alive)


def seen_listed(view: Message) -> Seen:
    """A view whose territories come as a list, each with its neighbours: protocol 1's (the previous release), or
    the tests' legible view (tests/server_support.py)."""
    territories = [Territory(t["name"], t["owner"], t["units"], t["neighbours"]) for t in view["territories"]]
    alive = {p["name"] for p in view["players"] if not p["eliminated"]}
    return Seen(view["phase"], view["turn"], view.get("pool_left", 0), territories, alive)


def placement(seen: Seen, me: str) -> list[Message]:
    """Every unit on one territory that borders someone else's: the fastest way to end a game."""
    by_name = {t.name: t for t in seen.territories}
    mine = [t for t in seen.territories if t.owner == me]
    front = [t for t in mine if any(by_name[n].owner != me for n in t.neighbours)] or mine
    if not seen.pool_left or not front:
        return []
    return [{"kind": "place", "territory": front[0].name, "units": seen.pool_left}]


def all_out(seen: Seen, me: str) -> list[Message]:
    """Moves toward the front first, then every frontier territory that outnumbers its weakest foe attacks it with
    all it has. (Attacking always, two fronts emptied against each other swap owners turn after turn.)"""
    by_name = {t.name: t for t in seen.territories}
    mine = [t for t in seen.territories if t.owner == me]
    distance: dict[str, int] = {}
    queue: deque[str] = deque()
    for t in mine:
        if any(by_name[n].owner != me for n in t.neighbours):
            distance[t.name] = 0
            queue.append(t.name)
    while queue:
        name = queue.popleft()
        for n in by_name[name].neighbours:
            if by_name[n].owner == me and n not in distance:
                distance[n] = distance[name] + 1
                queue.append(n)
    moves, attacks = [], []
    for t in mine:
        if t.units <= 0:
            continue
        foes = [by_name[n] for n in t.neighbours if by_name[n].owner != me]
        if foes:
            beaten = [f for f in foes if f.units < t.units]
            # The strongest foe this one outnumbers, else the weakest: chasing only the weakest lets big armies
            # pass each other into emptied territories for ever.
            target = (
                max(beaten, key=lambda f: (f.units, f.name)) if beaten else min(foes, key=lambda f: (f.units, f.name))
            )
            if t.units <= target.units and seen.turn % 4:
                continue  # gather for a winning blow; every fourth turn strike regardless, so no front stalls
            attacks.append({"kind": "attack", "source": t.name, "target": target.name, "units": t.units})
        elif t.name in distance:
            closer = min((n for n in t.neighbours if n in distance), key=lambda n: distance[n])
            moves.append({"kind": "move", "source": t.name, "target": closer, "units": t.units})
    return moves + attacks


def orders_for(seen: Seen, me: str, most: int | None = None) -> list[Message]:
    """This turn's orders; with `most`, only that many (attacks first): a quieter turn than all out."""
    if me not in seen.alive:
        return []
    if seen.phase == "placement":
        return placement(seen, me)
    orders = all_out(seen, me)
    if most is None:
        return orders
    return sorted(orders, key=lambda o: o["kind"] != "attack")[:most]
