"""Where territories are drawn: the bundled maps carry coordinates, and a map without them is laid out the same way on
every run, within its box, with few crossing borders, in bounded time; the server lays out a map read without them,
so the map a game's followers are sent always has positions."""

from __future__ import annotations

from pathlib import Path

import pytest

from shared.maps.layout import MARGIN, WIDTH, _crossings, has_positions, layout, with_positions
from shared.maps.loader import bundled_map_names, load_map
from shared.maps.model import GameMap
from tests.server_support import Client, create_game, running_server

REAL = Path(__file__).resolve().parents[2] / "shared" / "maps"
BIGGEST = REAL / "domination" / "bigeurope.map"


def crossings(game_map: GameMap, placed: dict[str, tuple[float, float]]) -> int:
    names = list(game_map.names)
    index = {name: i for i, name in enumerate(names)}
    pairs = sorted(
        {
            (min(index[a], index[b]), max(index[a], index[b]))
            for a, targets in game_map.undirected().items()
            for b in targets
        }
    )
    return _crossings(pairs, [placed[n][0] for n in names], [placed[n][1] for n in names])


def without_positions(game_map: GameMap) -> GameMap:
    from dataclasses import replace

    return replace(game_map, territories=tuple(replace(t, x=None, y=None) for t in game_map.territories))


@pytest.mark.parametrize("name", bundled_map_names())
def test_every_bundled_map_says_where_each_territory_is(name: str) -> None:
    assert has_positions(load_map(name))


def test_the_same_map_is_laid_out_the_same_way_every_time() -> None:
    game_map = without_positions(load_map("saltreach"))
    assert layout(game_map) == layout(game_map)


@pytest.mark.parametrize("name", ["seed", "twin-keeps", "cataract", "saltreach"])
def test_a_layout_fits_its_box_and_crosses_few_borders(name: str) -> None:
    game_map = without_positions(load_map(name))
    placed = layout(game_map)
    assert set(placed) == set(game_map.names)
    for x, y in placed.values():
        assert MARGIN - 0.1 <= x <= WIDTH - MARGIN + 0.1 and MARGIN - 0.1 <= y <= WIDTH - MARGIN + 0.1
    assert len(set(placed.values())) == len(placed), "no two territories on one spot"
    assert crossings(game_map, placed) <= 1


def test_the_largest_real_map_is_laid_out_legibly() -> None:
    """How long it takes is bench/maps.py's to say (a timed test fails on a busy machine, not on slow code)."""
    if not BIGGEST.is_file():
        pytest.fail(f"the real maps are missing ({BIGGEST}): shared/maps must sit beside the project")
    game_map = without_positions(load_map(str(BIGGEST)))
    placed = layout(game_map)
    borders = sum(len(t) for t in game_map.undirected().values()) // 2
    assert crossings(game_map, placed) < borders // 10


def test_a_map_with_coordinates_keeps_them() -> None:
    game_map = load_map("meridian")
    assert with_positions(game_map) is game_map


UPLOAD = """
name = "Three rooms"
[territories.Hall]
borders = ["Kitchen", "Study"]
[territories.Kitchen]
borders = ["Study"]
[territories.Study]
"""


async def test_the_server_lays_out_an_uploaded_map_without_coordinates() -> None:
    async with running_server() as server:
        client = await Client.connect(server)
        game_id = await create_game(client, upload=("rooms.toml", UPLOAD), players=2)
        await client.request(type="watch_game", game_id=game_id)
        sent = await client.wait_type("game_map", game_id=game_id)
        assert all(isinstance(t["x"], float) and isinstance(t["y"], float) for t in sent["map"]["territories"])
        await client.close()
