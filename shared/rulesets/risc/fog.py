"""E12-E15: fog of war. Who sees which territory, what each player remembers, and who is told what happened.

Sight (E12): a player sees their own territories, every territory that borders one of them (borders taken both
ways: what touches your land, you see), except territories another player has cloaked (E14), and every territory
where one of their spies stands, cloaked or not (E13).

Memory (E12): after every resolution each player's sight is written into their memory in the board, marked with
the turn it belongs to (the turn whose orders they give seeing it), so a territory out of sight shows what was last
seen of it and when. Memory is kept in the board, not worked out from the log, so a view never needs the past.

Reports (E12, E15): a player is told of a move, an upgrade, a placement or a combat only if they could see where it
happened when the turn began (their sight while giving orders), or took part in it. A combat's sources are cut down
to what each listener could see, so that the way an attack came through a cloaked territory stays hidden; listeners
who would hear the same words share one Private event. Public events name no territory.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace

from shared.game.ruleset import Private
from shared.maps.model import GameMap
from shared.rulesets.risc.board import RiscBoard
from shared.rulesets.risc.evo_board import Sighting
from shared.rulesets.risc.evo_events import Battle
from shared.rulesets.risc.levels import NO_UNITS


def touching(game_map: GameMap) -> Mapping[str, tuple[str, ...]]:
    """Each territory's neighbours, borders taken both ways, in map order (kept with the immutable map)."""
    cached: dict[str, tuple[str, ...]] | None = game_map.__dict__.get("_touching_cache")
    if cached is None:
        both = game_map.undirected()
        cached = {name: tuple(n for n in game_map.names if n in both[name] and n != name) for name in game_map.names}
        object.__setattr__(game_map, "_touching_cache", cached)
    return cached


def cloaked(board: RiscBoard, territory: str) -> bool:
    """E14: the territory is hidden from other players' adjacency view this turn."""
    evo = board.evo
    return evo is not None and evo.cloaked.get(territory, -1) >= board.turn


def sight(game_map: GameMap, board: RiscBoard, player: str) -> frozenset[str]:
    """E12-E14: the territories `player` sees now."""
    own = [name for name in game_map.names if board.owner[name] == player]
    seen = set(own)
    near = touching(game_map)
    for name in own:
        for other in near[name]:
            if other not in seen and not cloaked(board, other):
                seen.add(other)
    if board.evo is not None:
        seen.update(name for name, spies in board.evo.spies_of(player).items() if spies > 0)
    return frozenset(seen)


def sights(game_map: GameMap, board: RiscBoard, players: Iterable[str]) -> dict[str, frozenset[str]]:
    return {player: sight(game_map, board, player) for player in players}


def remember(
    game_map: GameMap, board: RiscBoard, players: Sequence[str], witnessed: Mapping[str, Iterable[str]] | None = None
) -> dict[str, dict[str, Sighting]]:
    """E12: every player's memory once they have looked at `board`: what they see now, marked with its turn.

    `witnessed`: territories a player no longer sees but whose end they watched: the land they lost this turn. They
    were told of every combat there, so they know who holds it now, and what is left there."""
    evo = board.evo
    assert evo is not None
    memory: dict[str, dict[str, Sighting]] = {}
    for player in players:
        known = dict(evo.memory.get(player, {}))
        for name in sight(game_map, board, player) | frozenset((witnessed or {}).get(player, ())):
            known[name] = Sighting(board.turn, board.owner[name], evo.levels.get(name, NO_UNITS))
        memory[player] = {name: known[name] for name in game_map.names if name in known}
    return memory


def audience(seen: Mapping[str, frozenset[str]], *territories: str, also: Iterable[str | None] = ()) -> frozenset[str]:
    """The players who saw every one of `territories` when the turn began, and those in `also` (who took part)."""
    told = {player for player, sees in seen.items() if all(t in sees for t in territories)}
    told.update(p for p in also if p is not None)
    return frozenset(told)


def tell(event: object, listeners: Iterable[str]) -> Private[object]:
    return Private(event, frozenset(listeners))


def tell_battle(battle: Battle, seen: Mapping[str, frozenset[str]]) -> list[Private[object]]:
    """A combat, told to whoever saw its territory or fought in it; each listener hears of the sources they saw.

    A combat nobody else saw is still kept (told to its attacker at least): the log holds every event, and a
    finished game's replay shows everything."""
    listeners = audience(seen, battle.territory, also=(battle.attacker, battle.defender))
    versions: dict[tuple[tuple[str, int], ...], set[str]] = {}
    for player in sorted(listeners):
        sees = seen.get(player, frozenset())
        shown = (
            battle.sources
            if player == battle.attacker
            else tuple((name, units) for name, units in battle.sources if name in sees)
        )
        versions.setdefault(shown, set()).add(player)
    return [tell(replace(battle, sources=sources), players) for sources, players in versions.items()]
