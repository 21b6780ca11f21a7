"""What a player types: short forms, names in any case and by unique prefix (D4), clear errors, typo hints, help."""

from __future__ import annotations

import pytest
from prompt_toolkit.document import Document

from client.commands import (
    Board,
    Create,
    Done,
    Help,
    Issue,
    Join,
    ListOrders,
    MapPicture,
    ParseError,
    Quit,
    Reorder,
    Report,
    Setting,
    Watch,
    Withdraw,
    example,
    offered_commands,
    parse,
    resolve_command,
)
from client.completion import CommandCompleter, StaticCandidates
from client.help import help_text
from shared.game.presentation import Context
from shared.maps import Territory, build_map, load_map
from shared.rulesets import RULESETS
from shared.rulesets.grid.cells import make_grid
from shared.rulesets.grid.orders import Deploy
from shared.rulesets.risc.orders import AttackOrder, MoveOrder, PlaceOrder
from tests.engine_support import RISC, seed_state, view
from tests.evolution_support import rules, seed_game

SEED = Setting(RISC.presentation, Context(load_map("seed"), view(seed_state(), "green"), "green"))
LOBBY = Setting()


def Move(units: int, source: str, target: str) -> Issue:
    return Issue("move", (MoveOrder(units, source, target),))


def Attack(units: int, source: str, target: str) -> Issue:
    return Issue("attack", (AttackOrder(units, source, target),))


def Place(units: int, territory: str) -> Issue:
    return Issue("place", (PlaceOrder(territory, units),))


def error_of(line: str, setting: Setting = SEED) -> str:
    result = parse(line, setting)
    assert isinstance(result, ParseError), f"{line!r} was read as {result}"
    return result.message


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("move 5 Narnia Oz", Move(5, "Narnia", "Oz")),
        ("m 5 Narnia Oz", Move(5, "Narnia", "Oz")),
        ("M 5 narnia OZ", Move(5, "Narnia", "Oz")),
        ("attack 10 Midkemia Scadrial", Attack(10, "Midkemia", "Scadrial")),
        ("a 10 mid sca", Attack(10, "Midkemia", "Scadrial")),
        ("place 7 hog", Place(7, "Hogwarts")),
        ("p 7 Hogwarts", Place(7, "Hogwarts")),
        ("D", Done()),
        ("done", Done()),
        ("commit", Done()),
        ("o", ListOrders()),
        ("withdraw 2", Withdraw(2)),
        ("w 1", Withdraw(1)),
        ("reorder 3 1", Reorder(3, 1)),
        ("q", Quit()),
    ],
)
def test_orders_and_short_forms(line: str, expected: object) -> None:
    assert parse(line, SEED) == expected


def test_a_unique_prefix_of_a_command_name_is_enough() -> None:
    assert parse("att 3 Oz Mordor", SEED) == Attack(3, "Oz", "Mordor")
    assert parse("HIST", SEED).__class__.__name__ == "History"


def test_an_ambiguous_territory_prefix_names_the_candidates() -> None:
    # Mordor and Midkemia both start with M.
    message = error_of("move 5 M Oz")
    assert "could be any of: Midkemia, Mordor" in message


def test_an_unknown_territory_is_named() -> None:
    assert 'no territory matches "Atlantis"' in error_of("attack 5 Oz Atlantis")


def test_a_number_of_units_must_be_a_whole_number() -> None:
    message = error_of("move five Narnia Oz")
    assert 'not "five"' in message and "e.g. move 5 Narnia Midkemia" in message


def test_missing_arguments_say_how_to_write_the_command() -> None:
    assert "usage: attack N FROM TO" in error_of("attack 5 Oz")
    assert "usage: place N TERRITORY" in error_of("place 5")
    assert "withdraw 2" in error_of("withdraw")
    assert "reorder needs two numbers" in error_of("reorder 2")
    assert 'its new place must be a whole number, not "top"' in error_of("reorder 2 top")


def test_orders_need_a_game_on_screen() -> None:
    assert "unknown command" in error_of("move 5 Narnia Oz", LOBBY)  # no game: no game's orders


@pytest.mark.parametrize(
    ("typo", "meant"),
    [("mvoe", "move"), ("atack", "attack"), ("dnoe", "done"), ("withdrw", "withdraw"), ("boadr", "board")],
)
def test_a_typo_suggests_the_nearest_command(typo: str, meant: str) -> None:
    message = error_of(f"{typo} 5 Narnia Oz")
    assert f"did you mean {meant}" in message
    assert "help" in message


@pytest.mark.parametrize("word", ["clear", "xyzzy", "surrender"])
def test_words_that_only_share_letters_with_a_command_get_no_suggestion(word: str) -> None:
    message = error_of(word)
    assert "did you mean" not in message, message  # clear is no typo of leave


def test_nonsense_gets_no_suggestion_but_points_to_help() -> None:
    message = error_of("xyzzy")
    assert "did you mean" not in message and "type help" in message


def test_names_with_spaces_quoted_or_split_the_one_way_that_works() -> None:
    world = build_map("w", [Territory(n) for n in ("North America", "South America", "Europe", "North Africa")], {})
    names = Setting(RISC.presentation, Context(world))
    assert parse('move 3 "North America" Europe', names) == Move(3, "North America", "Europe")
    assert parse("attack 3 north america north africa", names) == Attack(3, "North America", "North Africa")
    assert parse("a 3 south europe", names) == Attack(3, "South America", "Europe")


def test_lobby_commands() -> None:
    assert parse("join 3fa2c1") == Join("3fa2c1")
    assert parse("j 3fa2c1 0") == Join("3fa2c1", 0)
    assert parse("watch 3fa2c1") == Watch("3fa2c1")
    assert parse("create seed 3 time=90 units=40 choose") == Create(
        "seed", None, 3, 90.0, None, None, {"units": 40, "choose": True}
    )
    assert parse("create meridian players=5") == Create("meridian", None, 5)
    assert parse("create rules=grid bots=2") == Create(None, "grid", None, None, 2)
    assert "not a setting" in error_of("create seed colour=", LOBBY)
    assert "not a game id" in error_of("join ../etc", LOBBY)
    assert parse("join 3fa", Setting(games=("3fa2c1", "9bb001"))) == Join("3fa2c1"), "a unique prefix is enough"


def test_help_lists_every_command_with_an_example() -> None:
    text = help_text("all", SEED)
    for spec in offered_commands(SEED):
        assert spec.usage in text and f"e.g. {example(spec, SEED)}" in text
    assert parse("help m", SEED) == Help("move")
    assert "move 5 Narnia Midkemia" in help_text("move", SEED)


def test_completion_offers_own_territories_then_enemy_neighbours() -> None:
    own = ["Narnia", "Midkemia", "Oz"]
    completer = CommandCompleter(StaticCandidates(SEED, "orders", ["3fa2c1"], ["seed"]))

    def offered(text: str) -> list[str]:
        return [c.text for c in completer.get_completions(Document(text), None)]  # type: ignore[arg-type]

    assert offered("mo") == ["move"]
    assert offered("pl") == [], "place is for the placement, not the turns"
    assert offered("move 5 ") == own
    assert offered("move 5 m") == ["Midkemia"]
    assert offered("attack 5 midk ") == ["Elantris", "Scadrial"]
    assert offered("a 5 Oz s") == ["Scadrial"]
    assert offered("join ") == ["3fa2c1"]
    assert offered("create S") == ["seed"]


def test_board_name_is_a_territory_a_player_or_a_continent_by_unique_prefix() -> None:
    assert parse("board mid", SEED) == Board("Midkemia")
    assert parse("b RED", SEED) == Board("red")
    assert 'no territory, player or continent matches "xyz"' in error_of("board xyz")
    assert parse("board", SEED) == Board()
    assert parse("map", SEED) == MapPicture() and parse("report", SEED) == Report()


def test_place_spreads_over_several_territories_all_one_s_own_or_puts_the_rest() -> None:
    placing = Setting(RISC.presentation, Context(load_map("seed"), view(setup_state(), "green"), "green"))
    assert parse("place 7 Narnia Oz", placing) == Issue("place", (PlaceOrder("Narnia", 4), PlaceOrder("Oz", 3)))
    mine = [n for n, t in placing.context.view.territories.items() if t.owner == "green"]
    spread = parse("p 4 *", placing)
    assert isinstance(spread, Issue) and [o.territory for o in spread.orders] == mine[:4]
    pool = placing.context.view.pool_left
    assert parse("place rest oz", placing) == Issue("place", (PlaceOrder("Oz", pool),))
    after = Setting(
        placing.presentation,
        Context(placing.context.game_map, placing.context.view, "green", (PlaceOrder("Oz", pool),)),
    )
    assert "no units left to place" in error_of("place rest Oz", after)
    assert 'no territory matches "Atlantis"' in error_of("place 3 Oz Atlantis", placing)


def test_completion_offers_another_territory_after_each_one_named_for_place() -> None:
    placing = Setting(RISC.presentation, Context(load_map("seed"), view(setup_state(), "green"), "green"))
    completer = CommandCompleter(StaticCandidates(placing, "placement"))
    offered = [c.text for c in completer.get_completions(Document("place 5 Narnia "), None)]  # type: ignore[arg-type]
    mine = [n for n, t in placing.context.view.territories.items() if t.owner == "green"]
    assert offered == [n for n in load_map("seed").names if n in mine]


def setup_state() -> object:
    """The seed map's placement, before anyone has placed."""
    from tests.engine_support import setup

    return setup(load_map("seed"), ("green", "blue", "red"), seed=1)


def every_game() -> list[tuple[str, Setting]]:
    """The lobby, and a game on screen of every rule set (RISC in each of its evolutions), as the client reads it."""
    found = [("lobby", LOBBY)]
    for name, ruleset in RULESETS.items():
        found.append((name, Setting(ruleset.presentation, simultaneous=ruleset.simultaneous)))
    found.append(("risc evolution 1", SEED))
    for evolution in (2, 3):
        game = seed_game(evolution)
        found.append(
            (
                f"risc evolution {evolution}",
                Setting(RISC.presentation, Context(game.game_map, RISC.view(game, "green"), "green")),
            )
        )
    return found


@pytest.mark.parametrize(("label", "setting"), every_game(), ids=[label for label, _ in every_game()])
def test_no_two_commands_share_a_name_or_a_short_form(label: str, setting: Setting) -> None:
    seen: dict[str, object] = {}
    for command in offered_commands(setting):
        for word in (command.name, *command.aliases):
            assert word.casefold() not in seen, f"{label}: {word} is both {seen[word.casefold()]} and {command}"
            seen[word.casefold()] = command
    text = help_text("all", setting)
    for word, command in seen.items():
        assert resolve_command(word, setting) is command, f"{label}: {word}"
        if word != command.name:  # help lists each short form beside the command it stands for
            assert any(
                line.lstrip().startswith(command.usage) and word in line.split(command.usage, 1)[1]
                for line in text.splitlines()
            ), f"{label}: {word} of {command.name}"


@pytest.mark.parametrize(
    ("label", "setting"),
    [g for g in every_game() if g[0].startswith("risc")],
    ids=[label for label, _ in every_game() if label.startswith("risc")],
)
def test_r_is_report_in_every_evolution(label: str, setting: Setting) -> None:
    assert parse("r", setting) == Report(), label
    assert parse("r 3", setting) == Report(3), "report TURN: that turn in full"
    assert "report [TURN] [r]" in help_text("all", setting)
    assert "research [r]" not in help_text("all", setting)


def test_a_turn_by_turn_game_offers_no_orders_to_list_withdraw_or_commit() -> None:
    grid = Setting(RULESETS["grid"].presentation, Context(make_grid()), simultaneous=False)
    classic = Setting(RULESETS["classic"].presentation, simultaneous=False)
    assert parse("dep 2,3", grid) == Issue("deploy", (Deploy("2,3"),)), "dep is the grid game's deploy"
    assert "there is nothing to commit" in error_of("d 2,3", grid), "d is done in every game, offered or not"
    for setting in (grid, classic):
        for word in ("done", "commit", "orders", "withdraw 1", "reorder 2 1"):
            message = error_of(word, setting)
            assert "each order is carried out as it is given" in message, (word, message)
        text = help_text("all", setting)
        assert "done" not in text.split() and "withdraw" not in text and "reorder" not in text
    assert "done [d, commit]" in help_text("all", SEED)


def games_with_views() -> list[tuple[str, Setting]]:
    """A game of every rule set on screen, with the view one of its players has, and its players."""
    from tests import classic_support, grid_support, warzone_support

    wz_map = warzone_support.line_map(
        "Ash",
        "Birch",
        "Cedar",
        "Dogwood",
        "Elm",
        continents={"Grove": (3, ["Ash", "Birch", "Cedar"]), "Fen": (2, ["Dogwood", "Elm"])},
    )
    wz = warzone_support.make_game(
        wz_map,
        {"Ash": "Ann", "Birch": "Ann", "Cedar": "Cy", "Dogwood": "Cy", "Elm": None},
        {"Ash": 5, "Birch": 3, "Cedar": 4, "Dogwood": 2, "Elm": 2},
        pools={"Ann": 5, "Cy": 5},
    )
    classic = classic_support.game_at("aabbbab", [3] * 7, active="ann")
    grid = grid_support.game_at("AAABB AAABB CCCBB CCCBB CCCBB")
    evo2, evo3 = seed_game(2), seed_game(3)
    return [
        (
            "warzone",
            Setting(WZ_SHOW, Context(wz_map, warzone_support.WZ.view(wz, "Ann"), "Ann"), players=("Ann", "Cy")),
        ),
        (
            "classic",
            Setting(
                RULESETS["classic"].presentation,
                Context(classic.game_map, RULESETS["classic"].view(classic, "ann"), "ann"),
                players=("ann", "bob"),
                simultaneous=False,
            ),
        ),
        (
            "grid",
            Setting(
                RULESETS["grid"].presentation,
                Context(grid.game_map, RULESETS["grid"].view(grid, "ann"), "ann"),
                players=grid_support.SEATS,
                simultaneous=False,
            ),
        ),
        ("risc evolution 1", Setting(SEED.presentation, SEED.context, players=("green", "blue", "red"))),
        (
            "risc evolution 2",
            Setting(
                rules(evo2).presentation,
                Context(evo2.game_map, rules(evo2).view(evo2, "green"), "green"),
                players=evo2.players,
            ),
        ),
        (
            "risc evolution 3",
            Setting(
                rules(evo3).presentation,
                Context(evo3.game_map, rules(evo3).view(evo3, "green"), "green"),
                players=evo3.players,
            ),
        ),
    ]


WZ_SHOW = RULESETS["warzone"].presentation


@pytest.mark.parametrize(("label", "setting"), games_with_views(), ids=[label for label, _ in games_with_views()])
def test_every_example_help_gives_reads_as_a_command_of_the_game_on_screen(label: str, setting: Setting) -> None:
    for command in offered_commands(setting):
        shown = example(command, setting)
        assert shown.split()[0] == command.name, (label, shown)
        assert not isinstance(parse(shown, setting), ParseError), (label, shown, parse(shown, setting))
        assert f"e.g. {shown}" in help_text("all", setting)


def test_warzone_s_help_speaks_of_the_game_s_own_territories_and_players() -> None:
    setting = dict(games_with_views())["warzone"]
    text = help_text("all", setting)
    for foreign in ("Quebec", "Ontario", "Alberta", "Bob", "Narnia", "help move"):
        assert foreign not in text, foreign
    assert "e.g. help deploy" in text
    assert "e.g. deploy 5 Ash" in text and "e.g. advance 3 Ash Birch" in text and "e.g. bomb Cedar" in text
    assert "e.g. airlift 4 Ash Birch" in text and "e.g. negotiate Cy" in text and "e.g. handover Cy" in text
    assert "e.g. deploy 5 Ash" in error_of("deploy 5", setting), "a usage in a refusal speaks the same"
    assert "e.g. help create" in help_text("all", LOBBY)


def test_each_evolution_s_help_lists_its_own_orders_and_the_others_say_where_they_belong() -> None:
    games = dict(games_with_views())
    first = help_text("all", games["risc evolution 1"])
    assert all(f"  {word}" not in first for word in ("upgrade", "research", "spy", "cloak"))
    second = help_text("all", games["risc evolution 2"])
    assert "  upgrade N TERRITORY FROM TO" in second and "  research" in second
    assert "  spy N" not in second and "  cloak" not in second
    third = help_text("all", games["risc evolution 3"])
    assert all(f"  {word}" in third for word in ("upgrade", "research", "spy", "cloak"))
    assert (
        error_of("upgrade 1 Narnia 0 1", games["risc evolution 1"])
        == "upgrade is an order of RISC Evolutions 2 and 3; this game plays Evolution 1"
    )
    assert (
        error_of("spy 1 Narnia", games["risc evolution 2"])
        == "spy is an order of RISC Evolution 3; this game plays Evolution 2"
    )
    assert "research is an order of RISC Evolutions 2 and 3" in help_text("research", games["risc evolution 1"])


def test_help_on_a_terminal_s_width_goes_on_under_each_command_s_summary() -> None:
    # a summary too long for its line goes on under its own first word, whether the command's usage left room
    # for it on the first line (move) or pushed it to a line of its own (place N TERRITORY...)
    text = help_text("orders", SEED, width=79)
    lines = text.splitlines()
    assert all(len(line) <= 79 for line in lines if line.startswith("  ")), text  # the commands' (the rest: wrapped)
    column = " " * 26
    place = lines.index("  place N TERRITORY... [p]")
    assert lines[place + 1].startswith(column + "put N units") and lines[place + 2].startswith(column + "or "), text
    move = next(i for i, line in enumerate(lines) if line.startswith("  move N FROM TO [m]"))
    assert (
        lines[move][26:].startswith("move N units")
        and lines[move + 1].startswith(column)
        and lines[move + 1][26] != " "
    ), text
