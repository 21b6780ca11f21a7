"""R6-R7 on real maps: computed starting groups are equal, and contiguous where the map allows."""

from __future__ import annotations

from pathlib import Path

import pytest

from shared.maps import load_map
from shared.maps.groups import compute_groups, neutral_territories
from shared.maps.validate import components

REAL_MAPS = Path(__file__).resolve().parents[1].parent / "shared" / "maps"
MAPS = [
    "seed",
    "twin-keeps",
    "cataract",
    "saltreach",
    "meridian",
    "domination/bigeurope.map",
    "domination/world.map",
    "domination/uk.map",
    "conquest/_61_ CASTLE MOONBAT.map",
]


def _load(ref: str):  # type: ignore[no-untyped-def]
    if "/" not in ref:
        return load_map(ref)
    assert REAL_MAPS.is_dir(), f"the real map files are missing: expected them at {REAL_MAPS}"
    return load_map(REAL_MAPS / ref)


@pytest.mark.parametrize("ref", MAPS)
@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_R6_R7_computed_groups_are_equal_contiguous_and_leave_the_rest_neutral(ref: str, players: int) -> None:
    game_map = _load(ref)
    groups = compute_groups(game_map, players)
    size = len(game_map.territories) // players
    assert [len(g) for g in groups] == [size] * players
    grouped = [n for g in groups for n in g]
    assert len(set(grouped)) == len(grouped)
    assert len(neutral_territories(game_map, groups)) == len(game_map.territories) - size * players
    graph = game_map.undirected()
    for group in groups:
        inside = set(group)
        assert len(components({n: graph[n] & inside for n in group}, group)) == 1, group


def test_R6_computed_groups_do_not_depend_on_anything_but_the_map() -> None:
    game_map = _load("domination/bigeurope.map")
    assert compute_groups(game_map, 4) == compute_groups(game_map, 4)
