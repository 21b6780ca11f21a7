"""A finished game's final ranking, whatever its rule set: what ratings are worked out from.

The winner is first. Then come the players still in when the game ended (beside a winner who won otherwise than by
putting everyone out, or at a draw: the turn limit), ranked by their rule set's standing (`RuleSet.final_standing`:
territories, then units, in most rule sets), equal standings tied. Then the players who went out, the last out
first: those who went out at the same moment (one resolution of a simultaneous turn) tie. A resignation is going out
at the moment of resigning, whatever becomes of what the player held.

Everything is read from what a game keeps: its final state, and its log, whose entries say who went out when (the
framework's `player_eliminated` and `player_resigned`, which every rule set logs under those kinds) and carry the
number of the change that logged them. Nothing here depends on the server: a ratings module calls `final_ranking`
with a finished game as the store gives it back.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import groupby
from typing import Any

from shared.game.game import Game
from shared.game.ruleset import AnyRuleSet

OUT_KINDS = frozenset({"player_eliminated", "player_resigned"})
"""The log's entries that put a player out: an elimination, a resignation."""


@dataclass(frozen=True)
class Ranking:
    """The players of a finished game from first to last, each place the players tied in it."""

    places: tuple[tuple[str, ...], ...]

    def place(self, player: str) -> int:
        """1 for the first; tied players share a place, and the places after them count them (1, 2, 2, 4)."""
        before = 0
        for tied in self.places:
            if player in tied:
                return before + 1
            before += len(tied)
        raise KeyError(f"{player} did not play this game")

    @property
    def players(self) -> tuple[str, ...]:
        return tuple(p for tied in self.places for p in tied)


def final_ranking(ruleset: AnyRuleSet, game: Game[Any, Any], log: Sequence[Mapping[str, Any]]) -> Ranking:
    """The ranking of a finished `game` played by `ruleset` (its variant), from the game's final state and its `log`:
    its entries in order, each with its `event` as JSON values and the number of the change that logged it, as the
    store keeps it (`change`, beside the entry's place `seq`) or as a client is told it (`seq`). Raises ValueError for a
    game that is not over, or whose log does not say when a player who is out went out."""
    status = ruleset.status(game)
    if not status.finished:
        raise ValueError("the game is not over: only a finished game is ranked")
    went_out = _went_out(game.players, log)
    missing = [p for p in status.eliminated if p not in went_out]
    if missing:
        raise ValueError(f"the log does not say when {', '.join(missing)} went out")
    out = [p for p in game.players if p in went_out]
    still_in = [p for p in game.players if p not in went_out and p != status.winner]
    standing = ruleset.final_standing(game)
    places: list[tuple[str, ...]] = [(status.winner,)] if status.winner is not None else []
    places += _tied(still_in, lambda p: standing.get(p, ()))
    places += _tied(out, lambda p: went_out[p])
    return Ranking(tuple(places))


def _went_out(players: Sequence[str], log: Sequence[Mapping[str, Any]]) -> dict[str, int]:
    """Each player who went out, and the number of the change that put them out (the first that says so)."""
    moments: dict[str, int] = {}
    for entry in log:
        event = entry.get("event") or {}
        player = event.get("player")
        if event.get("kind") in OUT_KINDS and isinstance(player, str) and player in players and player not in moments:
            moments[player] = int(entry.get("change", entry["seq"]))
    return moments


def _tied(players: Sequence[str], key: Any) -> list[tuple[str, ...]]:
    """The players from the highest key to the lowest, each run of equal keys one place (in seat order)."""
    ranked = sorted(players, key=key, reverse=True)
    return [tuple(sorted(group, key=players.index)) for _, group in groupby(ranked, key=key)]
