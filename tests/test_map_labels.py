"""Every label the text client shows for a territory names it when typed: the map picture's (`map`) and the
boards' neighbours, on every bundled map and every real map in ../shared/maps that plays, read back from what is
drawn and matched by the same matcher every order command uses."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from shared.game import grammar
from shared.game.pictures import map_picture
from shared.game.presentation import Palette, territory_board
from shared.maps.layout import with_positions
from shared.maps.loader import bundled_map_names, load_map
from shared.maps.model import GameMap
from tests.client_support import driven
from tests.server_support import FAST, running_server, url
from tests.test_real_maps import MAPS, PLAYABLE

PLAYERS = ("Ann", "Bob", "Cy")
LABEL = re.compile(r"(?<!\S)(\S*[A-Za-z0-9]\S*) ([A-H-])(\d+)(?!\S)")
"""A territory on the map picture: its label, its holder's mark, its units (the lines between labels are none)."""
NEIGHBOUR = re.compile(r"(\S+) (\d+) ([A-H-])")
"""A neighbour on a board line: its label, its units, its holder's mark."""


def every_map() -> list[tuple[str, GameMap]]:
    maps = [(name, with_positions(load_map(name))) for name in bundled_map_names()]
    return maps + [(name, with_positions(load_map(MAPS / name))) for name in PLAYABLE]


MAPS_TO_READ = every_map()


def holdings(game_map: GameMap) -> dict[str, tuple[str | None, int]]:
    """Every territory held by someone (or nobody) with a number of units no other territory has: what is drawn
    beside a label says which territory it was drawn for."""
    return {name: (PLAYERS[i % 4] if i % 4 < 3 else None, i + 1) for i, name in enumerate(game_map.names)}


@pytest.mark.parametrize(("name", "game_map"), MAPS_TO_READ, ids=[n for n, _ in MAPS_TO_READ])
def test_every_label_on_the_map_picture_names_its_own_territory(name: str, game_map: GameMap) -> None:
    held = holdings(game_map)
    by_units = {units: territory for territory, (_, units) in held.items()}
    picture = map_picture(game_map, held, Palette(PLAYERS), "Ann", 2000, 400)
    assert picture is not None, f"{name} has coordinates, its own or laid out"
    text = "".join(part for _, part in picture)
    assert "no room for" not in text, text
    drawn = [match for row in text.splitlines() for match in LABEL.finditer(row)]
    assert len(drawn) == len(game_map.names), text
    for label, mark, units in (m.groups() for m in drawn):
        territory = by_units[int(units)]
        assert mark == Palette(PLAYERS).mark(held[territory][0])
        assert grammar.name(label, game_map.names) == territory, f"{label} is drawn for {territory}"


@pytest.mark.parametrize(("name", "game_map"), MAPS_TO_READ, ids=[n for n, _ in MAPS_TO_READ])
def test_every_neighbour_on_the_board_is_named_by_what_a_player_may_type(name: str, game_map: GameMap) -> None:
    held = holdings(game_map)
    by_units = {units: territory for territory, (_, units) in held.items()}
    board = "".join(part for _, part in territory_board(game_map, held, Palette(PLAYERS), "Ann"))
    neighbours = [m for row in board.splitlines() if " | " in row for m in NEIGHBOUR.finditer(row.split(" | ", 1)[1])]
    assert len(neighbours) == sum(len(game_map.neighbours_in_order(n)) for n in game_map.names)
    for label, units, _ in (m.groups() for m in neighbours):
        assert grammar.name(label, game_map.names) == by_units[int(units)]


def test_labels_on_bigeurope_were_ambiguous_or_pointed_the_wrong_way_and_now_are_prefixes() -> None:
    """The picture used to draw `Pl3` for pol3 and `Po1` for pol1 (while `Po2` was por2): none could be typed."""
    game_map = with_positions(load_map(MAPS / "domination/bigeurope.map"))
    picture = map_picture(game_map, holdings(game_map), Palette(PLAYERS), "Ann", 2000, 400)
    assert picture is not None
    labels = {m.group(1) for row in "".join(p for _, p in picture).splitlines() for m in LABEL.finditer(row)}
    assert {"pol1", "pol3", "pol10", "por2", "ah13", "na10", "sp14", "gc10"} <= labels
    assert not {"Pl3", "Po1", "A13", "Na0", "Pol", "S14", "Gc0"} & labels


async def test_a_label_read_off_the_map_is_accepted_by_an_order(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Through a real server and the real client: Alice reads her territories off `map` on bigeurope and places
    units on one by the label drawn for it."""
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    async with (
        running_server(maps=(MAPS / "domination",), seeds=lambda: 5, **FAST) as server,
        driven(url(server), name="Alice") as alice,
    ):
        await alice.type("create bigeurope 2 bots=1")
        await alice.expect("The game starts")
        picture = await alice.type("map")
        if "map NAME draws a continent" in picture:  # too big for the screen: one of the continents she holds in
            held = next(row.split()[0] for row in picture.splitlines() if row.startswith("  ") and " B " in row)
            picture = await alice.type(f"map {held}")
        tracker = alice.app.tracker
        assert tracker is not None and tracker.view is not None
        mine = {name for name, t in tracker.view.territories.items() if t.owner == "Alice"}
        labels = [m.group(1) for row in picture.splitlines() for m in LABEL.finditer(row) if m.group(2) == "B"]
        assert labels, picture
        for label in labels[:5]:
            shown = await alice.type(f"place 1 {label}")
            assert "Order" in shown and "Refused" not in shown, shown
        placed = {o.territory for o in tracker.followed.orders}
        assert placed <= mine and len(placed) == min(5, len(labels))


def test_a_name_s_letters_and_digits_alone_name_it_where_the_name_as_typed_matches_none() -> None:
    names = ["North America", "North Africa", "St. Petersburg", "pol1", "pol10"]
    assert grammar.name("northam", names) == "North America"
    assert grammar.name("NorthAf", names) == "North Africa"
    assert grammar.name("stpete", names) == "St. Petersburg"
    assert grammar.name("pol1", names) == "pol1"
    assert str(grammar.name("north", names)) == '"north" could be any of: North Africa, North America'
    assert str(grammar.name("northz", names)) == 'no territory matches "northz"'
