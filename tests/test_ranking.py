"""A finished game's final ranking (shared/game/ranking.py), what ratings are worked out from: the winner first, then
the players by when they went out, the last out first, a resignation going out at once; at a draw (the turn limit)
the players still in by their rule set's standing, equal ones tied. For every rule set: a win and a resignation in
games the server's computers played to their end, read back from the store; a turn-limit end with a tie, played on
a position set up at the last turn."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

from server.storage.codec import game_from_dict, map_from_dict
from shared.game.events import GameDrawn
from shared.game.game import Game
from shared.game.ranking import Ranking, final_ranking
from shared.game.ruleset import AnyRuleSet, Private
from shared.protocol.log import PlayerResigned
from shared.rulesets import game_ruleset
from shared.rulesets.classic.options import Mode
from shared.rulesets.classic.orders import NoFortify
from shared.rulesets.grid.orders import End
from tests import classic_support, engine_support, evolution_support, grid_support, warzone_support
from tests.server_support import FAST, Client, resigned_at_once, running_server
from tests.test_server_replays import GAMES as SERVED


def logged(ruleset: AnyRuleSet, change: int, told: Sequence[Any], first_seq: int = 1) -> list[dict[str, Any]]:
    """A change's events as the store keeps them: each in its place (`seq`), with the change's number."""
    entries = []
    for seq, event in enumerate(told, start=first_seq):
        plain = event.event if isinstance(event, Private) else event
        entries.append({"seq": seq, "change": change, "event": ruleset.dump_event(plain)})
    return entries


def resigned(player: str, change: int, turn: int) -> dict[str, Any]:
    return {"seq": change, "change": change, "event": PlayerResigned(player=player, turn=turn, step=0).model_dump()}


def limited(game: Game[Any, Any], turns: int) -> Game[Any, Any]:
    return game.evolve(options=game.options.model_copy(update={"max_turns": turns}))


def test_a_ranking_places_tied_players_together_and_counts_them_in_the_places_after() -> None:
    ranking = Ranking((("ann",), ("bob", "cy"), ("dee",)))
    assert [ranking.place(p) for p in ("ann", "bob", "cy", "dee")] == [1, 2, 2, 4]
    assert ranking.players == ("ann", "bob", "cy", "dee")
    with pytest.raises(KeyError):
        ranking.place("eve")


def test_a_game_that_is_not_over_has_no_ranking() -> None:
    game = engine_support.seed_state()
    with pytest.raises(ValueError, match="not over"):
        final_ranking(engine_support.RISC, game, [])


# ---- a draw at the turn limit, two players tied --------------------------------------------------------------------


def risc_draw(evolution: int) -> tuple[AnyRuleSet, Game[Any, Any], list[Any]]:
    """Ann and Bob hold one territory of 5 each at either end of a line of neutral ones, Cy went out earlier: the last
    turn (3) passes with no orders, and each gains one unit (R19)."""
    owner = {"A": "ann", "B": None, "C": None, "D": "bob"}
    units = {"A": 5, "B": 9, "C": 9, "D": 5}
    players = ("ann", "bob", "cy")
    if evolution == 1:
        game = engine_support.make_state(engine_support.line_map(*owner), owner, units, players, turn=3)
        game = game.evolve(board=game.board.evolve(eliminated=("cy",)))
        game, events = engine_support.play_turn(limited(game, 3), {})
        return engine_support.RISC, game, events
    game = evolution_support.make_game(
        evolution_support.line_map(*owner), owner, units, evolution, players=players, turn=3
    )
    game = limited(game.evolve(board=game.board.evolve(eliminated=("cy",))), 3)
    game, events = evolution_support.play_turn(game, {})
    return evolution_support.rules(game), game, events


def warzone_draw() -> tuple[AnyRuleSet, Game[Any, Any], list[Any]]:
    owner = {"A": "ann", "B": None, "C": "bob"}
    game = warzone_support.make_game(
        warzone_support.line_map(*owner),
        owner,
        {"A": 5, "B": 9, "C": 5},
        players=("ann", "bob", "cy"),
        turn=3,
        eliminated=("cy",),
        max_turns=3,
    )
    game, events = warzone_support.play_turn(game)
    return warzone_support.WZ, game, list(events)


def classic_draw() -> tuple[AnyRuleSet, Game[Any, Any], list[Any]]:
    """Bob, last in the seat order of those still in, ends round 3 of 3; Cy resigned earlier, keeping one country."""
    game = classic_support.game_at(
        "aabbcba",
        [3, 2, 2, 3, 1, 2, 2],
        phase=classic_support.Phase.FORTIFICATION,
        active="bob",
        seats=("ann", "bob", "cy"),
        turn=3,
        options={"max_turns": 3},
        eliminated=("cy",),
    )
    game, events = classic_support.act(game, NoFortify())
    return classic_support.CLASSIC, game, events


def grid_draw() -> tuple[AnyRuleSet, Game[Any, Any], list[Any]]:
    """Cy resigned earlier keeping one cell; Bob ends round 3 of 3 with as many cells and troops as Ann."""
    game = grid_support.game_at(
        "AAAAA AAAAA AABBB BBBBB BBBBC",
        [2] * 24 + [1],
        seats=("ann", "bob", "cy"),
        active="bob",
        turn=3,
        options={"max_turns": 3},
        eliminated=("cy",),
    )
    game, events = grid_support.act(game, End())
    return grid_support.GRID, game, events


DRAWS = {
    "risc": lambda: risc_draw(1),
    "risc-evolution-2": lambda: risc_draw(2),
    "risc-evolution-3": lambda: risc_draw(3),
    "warzone": warzone_draw,
    "classic": classic_draw,
    "grid": grid_draw,
}


@pytest.mark.parametrize("name", list(DRAWS))
def test_at_the_turn_limit_the_players_still_in_rank_by_standing_equal_ones_tied_above_those_out(name: str) -> None:
    ruleset, game, events = DRAWS[name]()
    status = ruleset.status(game)
    assert status.finished and status.winner is None
    assert any(isinstance(e, GameDrawn) for e in events)
    # Cy went out earlier: by an elimination (RISC, Warzone) or a resignation (classic, grid keep the cells).
    out = (
        resigned("cy", 4, 1)
        if name in ("classic", "grid")
        else {"seq": 4, "change": 4, "event": {"kind": "player_eliminated", "player": "cy"}}
    )
    log = [out, *logged(ruleset, 9, events, first_seq=20)]
    ann, bob = (ruleset.final_standing(game)[p] for p in ("ann", "bob"))
    assert ann == bob
    ranking = final_ranking(ruleset, game, log)
    assert ranking.places == (("ann", "bob"), ("cy",))
    assert [ranking.place(p) for p in ("ann", "bob", "cy")] == [1, 1, 3]


def test_at_the_turn_limit_more_territories_rank_higher_then_more_units() -> None:
    owner = {"A": "ann", "B": "ann", "C": None, "D": "bob", "E": "cy"}
    units = {"A": 1, "B": 1, "C": 9, "D": 7, "E": 3}
    game = engine_support.make_state(engine_support.line_map(*owner), owner, units, ("ann", "bob", "cy"), turn=3)
    game, events = engine_support.play_turn(limited(game, 3), {})
    ranking = final_ranking(engine_support.RISC, game, logged(engine_support.RISC, 1, events))
    assert ranking.places == (("ann",), ("bob",), ("cy",))  # 2 territories, then 1 with 8 units, then 1 with 4


def test_in_capital_risk_the_capitals_held_rank_first() -> None:
    # Bob holds his capital and Ann's, fewer countries than Ann: he ranks first at the limit.
    game = classic_support.game_at(
        "aaaabbb",
        [2] * 7,
        phase=classic_support.Phase.FORTIFICATION,
        active="bob",
        turn=2,
        options={"max_turns": 2, "mode": Mode.CAPITAL},
        capitals={"ann": "E", "bob": "F"},
    )
    game = game.evolve(board=game.board.evolve(owner={**game.board.owner, "D": "bob", "E": "bob"}))
    game, events = classic_support.act(game, NoFortify())
    ranking = final_ranking(classic_support.CLASSIC, game, logged(classic_support.CLASSIC, 1, events))
    assert classic_support.CLASSIC.status(game).winner is None
    assert ranking.places == (("bob",), ("ann",))


def test_players_who_go_out_in_the_same_resolution_tie_below_those_out_later() -> None:
    log = [
        {"seq": 3, "change": 2, "event": {"kind": "player_eliminated", "player": "cy"}},
        {"seq": 4, "change": 2, "event": {"kind": "player_eliminated", "player": "dee"}},
        {"seq": 9, "change": 5, "event": {"kind": "player_resigned", "player": "bob", "turn": 4, "step": 5}},
        {"seq": 10, "change": 5, "event": {"kind": "player_eliminated", "player": "bob"}},
    ]
    owner = {"A": "ann", "B": "ann"}
    game = engine_support.make_state(
        engine_support.line_map("A", "B"), owner, {"A": 1, "B": 1}, ("ann", "bob", "cy", "dee")
    )
    game = game.evolve(
        board=game.board.evolve(phase=engine_support.Phase.FINISHED, winner="ann", eliminated=("cy", "dee", "bob"))
    )
    ranking = final_ranking(engine_support.RISC, game, log)
    assert ranking.places == (("ann",), ("bob",), ("cy", "dee"))
    told = [{"seq": e["change"], "event": e["event"]} for e in log]  # as a client is told them: seq is the change
    assert final_ranking(engine_support.RISC, game, told) == ranking
    with pytest.raises(ValueError, match="does not say when dee went out"):
        final_ranking(engine_support.RISC, game, log[:1] + log[2:])


# ---- a win and a resignation, from the store -------------------------------------------------------------------

GAMES = {
    **{name: {**settings, "players": 3} for name, settings in SERVED.items()},
    "risc-evolution-2": {"ruleset": "risc", "map": "cataract", "players": 3, "options": {"evolution": 2}},
}
"""Every rule set's game of test_server_replays.py for three: two computers, and the player who resigns."""


@pytest.mark.asyncio
@pytest.mark.parametrize("name", list(GAMES))
async def test_the_winner_ranks_first_then_the_others_the_last_out_first_a_resignation_at_once(name: str) -> None:
    """Quitter resigns before anyone has played; the server's two computers play the game to its end. Read back
    from the store, the ranking is the winner, the computer that went out, then Quitter."""
    settings = GAMES[name]
    async with running_server(seeds=lambda: 11, **FAST) as server:
        client = await Client.connect(server)
        game_id = await resigned_at_once(client, settings)
        stored = await server.storage.load(game_id)
        assert stored is not None and stored.progress.state is not None
        ruleset, options = game_ruleset(stored.record.settings.ruleset, stored.record.settings.options)
        game = game_from_dict(ruleset, stored.progress.state, map_from_dict(stored.record.game_map), options)
        ranking = final_ranking(ruleset, game, stored.events)
        winner = ruleset.status(game).winner
        assert winner is not None and winner == client.summaries[game_id]["winner"]
        (other,) = [p for p in game.players if p not in (winner, "Quitter")]
        assert ranking.places == ((winner,), (other,), ("Quitter",))
        await client.close()
