"""C11: Domination's game modes. Capital: each player picks a capital once the starting armies are placed; owning
every capital wins. Mission: a secret mission card each (two continents, countries, countries with 2 armies,
eliminating a player, which falls back to countries)."""

from __future__ import annotations

from collections import Counter

from shared.game import turns
from shared.game.random import SETUP_STEP, GameRandom
from shared.game.ruleset import Private
from shared.rulesets.classic.board import Phase
from shared.rulesets.classic.events import CapitalChosen, GameWon, MissionChanged
from shared.rulesets.classic.missions import Mission, MissionKind, mission_deck, scaled
from shared.rulesets.classic.orders import Attack, ChooseCapital, NoFortify, PlaceAll, Reinforce
from tests.classic_support import CLASSIC, TINY, act, game_at, loaded, real_map, refused

WORLD = real_map("world")


def test_C11_domination_is_the_default_mode() -> None:
    assert CLASSIC.options({}).mode == "domination"


def test_C11_capital_mode_each_player_picks_a_capital_in_seat_order_after_startup() -> None:
    game = CLASSIC.new_game(
        WORLD, ("ann", "bob", "cat"), CLASSIC.options({"mode": "capital"}), GameRandom("cap", SETUP_STEP)
    )
    for _ in range(3):
        game, _ = act(game, PlaceAll())
    assert game.board.phase is Phase.CAPITAL and CLASSIC.status(game).phase == "capital"
    seats = game.board.seats
    for player in seats:
        assert game.board.active == player
        theirs = next(n for n, p in game.board.owner.items() if p != player)
        assert refused(game, ChooseCapital(theirs)).code == "not-your-country"
        mine = game.board.countries_of(player)[0]
        game, events = act(game, ChooseCapital(mine))
        assert events[0] == CapitalChosen(player, mine)
    assert game.board.phase is Phase.REINFORCEMENT and game.board.active == seats[0]
    assert all(CLASSIC.view(game, None).players[p].capital for p in seats)  # capitals are public


def test_C11_capital_mode_win_by_taking_the_last_capital() -> None:
    owner = dict(zip("ABCDEFG", ["ann", "ann", "ann", "ann", "bob", "bob", "cat"], strict=True))
    owner["C"] = "ann"
    game = game_at(
        owner,
        [3, 1, 1, 4, 1, 2, 1],
        seats=("ann", "bob", "cat"),
        options={"mode": "capital"},
        capitals={"ann": "A", "bob": "E", "cat": "C"},
    )
    # ann holds her capital A and cat's capital C (cat is still in, on G); taking bob's capital E wins.
    assert not CLASSIC.status(game).finished
    game, events = act(game, Attack("D", "E", 3), loaded(6, 6, 6, 1))
    assert events[-1] == GameWon("ann", "capital")
    assert CLASSIC.status(game).winner == "ann"
    assert "cat" not in CLASSIC.status(game).eliminated


def test_C11_capital_mode_taking_a_capital_short_of_all_does_not_win() -> None:
    owner = dict(zip("ABCDEFG", ["ann", "ann", "ann", "ann", "bob", "bob", "cat"], strict=True))
    game = game_at(
        owner,
        [3, 1, 1, 4, 1, 2, 1],
        seats=("ann", "bob", "cat"),
        options={"mode": "capital"},
        capitals={"ann": "A", "bob": "E", "cat": "G"},
    )
    game, events = act(game, Attack("D", "E", 3), loaded(6, 6, 6, 1))
    assert not any(isinstance(e, GameWon) for e in events) and not CLASSIC.status(game).finished


def test_C11_the_mission_deck_for_the_classic_board() -> None:
    seats = ("ann", "bob", "cat")
    deck = mission_deck(WORLD, seats)
    kinds = Counter(m.kind for m in deck)
    assert kinds == {
        MissionKind.COUNTRIES: 1,
        MissionKind.ARMIES: 1,
        MissionKind.CONTINENTS: 6,
        MissionKind.ELIMINATE: 3,
    }
    assert Mission(MissionKind.COUNTRIES, countries=24) in deck
    assert Mission(MissionKind.ARMIES, countries=18, armies=2) in deck
    members = WORLD.continent_members()
    for mission in deck:
        if mission.kind is MissionKind.CONTINENTS:
            size = sum(len(members[c]) for c in mission.continents)
            assert len(set(mission.continents)) == 2 and 42 / 4 <= size <= 42 / 2
    assert {m.player for m in deck if m.kind is MissionKind.ELIMINATE} == set(seats)
    assert scaled(24, 84) == 48 and scaled(18, 21) == 9


def test_C11_missions_are_secret_until_the_game_is_over() -> None:
    game = CLASSIC.new_game(
        WORLD, ("ann", "bob", "cat"), CLASSIC.options({"mode": "mission"}), GameRandom("mission", SETUP_STEP)
    )
    missions = game.board.missions
    assert set(missions) == {"ann", "bob", "cat"}
    view = CLASSIC.view(game, "ann")
    assert view.players["ann"].mission is not None
    assert view.players["bob"].mission is None and view.players["cat"].mission is None
    assert all(p.mission is None for p in CLASSIC.view(game, None).players.values())
    over = game.evolve(board=game.board.evolve(phase=Phase.FINISHED, winner="ann"))
    assert all(p.mission is not None for p in CLASSIC.view(over, None).players.values())


def mission_game(
    mission: Mission, owner: str = "aaaabbc", armies: tuple[int, ...] = (3, 1, 1, 4, 1, 4, 1), **fields: object
):  # type: ignore[no-untyped-def]
    return game_at(
        owner,
        list(armies),
        seats=("ann", "bob", "cat"),
        options={"mode": "mission"},
        missions={
            "ann": mission,
            "bob": Mission(MissionKind.COUNTRIES, countries=99),
            "cat": Mission(MissionKind.COUNTRIES, countries=99),
        },
        **fields,
    )


def test_C11_a_continents_mission_wins_when_both_are_held() -> None:
    game = mission_game(
        Mission(MissionKind.CONTINENTS, continents=("North", "South")), owner="aaaaaab", armies=(3, 1, 1, 4, 1, 4, 1)
    )
    game, events = act(game, Attack("F", "G", 3), loaded(6, 6, 6, 1))
    assert events[-1].kind == "game_won"


def test_C11_a_countries_mission_wins_as_soon_as_the_count_is_reached() -> None:
    game = mission_game(Mission(MissionKind.COUNTRIES, countries=5))
    game, events = act(game, Attack("D", "E", 3), loaded(6, 6, 6, 1))
    assert events[-1] == GameWon("ann", "mission: conquer 5 countries")


def test_C11_an_armies_mission_counts_countries_with_two_armies_or_more() -> None:
    game = mission_game(
        Mission(MissionKind.ARMIES, countries=3, armies=2),
        phase=Phase.REINFORCEMENT,
        reinforcements=3,
        armies=(2, 1, 1, 1, 1, 4, 1),
    )
    game, events = act(game, Reinforce("C", 1))
    assert not any(isinstance(e, GameWon) for e in events)
    game, events = act(game, Reinforce("B", 1))
    assert isinstance(events[-1], GameWon) and game.board.winner == "ann"


def test_C11_eliminating_the_named_player_wins() -> None:
    game = mission_game(
        Mission(MissionKind.ELIMINATE, countries=99, player="cat"), owner="aaaaaac", armies=(3, 1, 1, 4, 1, 4, 1)
    )
    game, events = act(game, Attack("F", "G", 3), loaded(6, 6, 6, 1))
    assert events[-1] == GameWon("ann", "mission: eliminate cat (else 99 countries)")


def test_C11_an_elimination_by_someone_else_turns_the_mission_into_countries_told_to_its_holder_alone() -> None:
    game = mission_game(Mission(MissionKind.ELIMINATE, countries=4, player="cat"), active="bob")
    done = turns.act(CLASSIC, game, "bob", Attack("F", "G", 3), loaded(6, 6, 6, 1))
    game, resolved = done  # type: ignore[misc]
    (changed,) = [e for e in resolved.events if isinstance(e, Private)]
    assert changed.event == MissionChanged("ann", Mission(MissionKind.COUNTRIES, countries=4))
    assert changed.audience == frozenset({"ann"})
    assert CLASSIC.view(game, "ann").players["ann"].mission == Mission(MissionKind.COUNTRIES, countries=4)
    # ann holds 4 countries: her mission is fulfilled when her turn comes.
    assert game.board.phase is Phase.FORTIFICATION and not CLASSIC.status(game).finished
    game, events = act(game, NoFortify())
    assert events[-1] == GameWon("ann", "mission: conquer 4 countries")


def test_C11_a_mission_to_eliminate_oneself_is_a_countries_mission() -> None:
    game = mission_game(Mission(MissionKind.ELIMINATE, countries=5, player="ann"))
    assert CLASSIC.view(game, "ann").players["ann"].mission == Mission(MissionKind.COUNTRIES, countries=5)
    game, events = act(game, Attack("D", "E", 3), loaded(6, 6, 6, 1))
    assert isinstance(events[-1], GameWon)


def test_C11_missions_fit_small_maps() -> None:
    deck = mission_deck(TINY, ("ann", "bob"))
    assert Mission(MissionKind.COUNTRIES, countries=4) in deck
    assert all(m.countries <= len(TINY.names) for m in deck)
