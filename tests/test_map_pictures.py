"""`map` at 80 by 24 on every bundled map and every real map in ../shared/maps that plays: each screen fits the
terminal, every territory is on a screen reached from what `map` shows (the whole map, or the continents it lists
and `map NAME` for each), and lines join territories that touch where there is room; through the real client and a
real server on the largest real map (an Asia map of Conquest's when ../shared/maps has one)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from shared.game import grammar
from shared.game.pictures import DRIFT, label_texts, map_pictures, place
from shared.game.presentation import Fragments, Palette, wrap
from shared.maps.layout import with_positions
from shared.maps.loader import bundled_map_names, load_map
from shared.maps.model import GameMap
from tests.client_support import driven
from tests.server_support import FAST, running_server, url
from tests.test_map_labels import LABEL
from tests.test_real_maps import MAPS, PLAYABLE, playable_map

PLAYERS = ("Ann", "Bob", "Cy")
COLUMNS, ROWS = 80, 24
SCREEN = ROWS - 2
"""The lines of one screen of an answer: the prompt and the status bar take two."""
LIST_HEAD = "map NAME draws a continent"


def every_map() -> list[tuple[str, GameMap]]:
    maps = [(name, with_positions(load_map(name))) for name in bundled_map_names()]
    return maps + [(name, with_positions(playable_map(name))) for name in PLAYABLE]


MAPS_TO_DRAW = every_map()
LARGEST = next(
    (name for name in PLAYABLE if "asia" in name.casefold()),
    max(PLAYABLE, key=lambda name: len(playable_map(name).names)),
)


def holdings(game_map: GameMap) -> dict[str, tuple[str | None, int]]:
    return {name: (PLAYERS[i % 4] if i % 4 < 3 else None, i % 97 + 1) for i, name in enumerate(game_map.names)}


def lines(screen: Fragments) -> list[str]:
    return "".join(part for _, part in wrap(screen, COLUMNS - 1)).splitlines()


def drawn(text: str, game_map: GameMap) -> set[str]:
    """The territories whose labels `text` shows, read back as a player types them."""
    found = set()
    for row in text.splitlines():
        for label, _, _ in LABEL.findall(row):
            name = grammar.name(label, game_map.names)
            if isinstance(name, str):
                found.add(name)
    return found


def listed(text: str) -> list[str]:
    """The continents `map` lists, as `map NAME` takes them."""
    after = text[text.index(LIST_HEAD) :].splitlines()[1:]
    return [row[2:].split("  ")[0].strip() for row in after if row.startswith("  ")]


@pytest.mark.parametrize(("name", "game_map"), MAPS_TO_DRAW, ids=[n for n, _ in MAPS_TO_DRAW])
def test_every_territory_is_on_a_screen_that_fits_80_by_24_reached_from_map(name: str, game_map: GameMap) -> None:
    held = holdings(game_map)
    palette = Palette(PLAYERS)
    first = map_pictures(game_map, held, palette, "Ann", COLUMNS - 1, SCREEN)
    assert first is not None and first, name
    screens = list(first)
    text = "".join(part for screen in first for _, part in screen)
    if LIST_HEAD in text:
        continents = listed(text)
        assert sorted(continents) == sorted(c.name for c in game_map.continents), text
        for continent in continents:
            shown = map_pictures(game_map, held, palette, "Ann", COLUMNS - 1, SCREEN, continent)
            assert shown, f"map {continent} draws nothing"
            screens += shown
        pictures = screens[1:]
    else:
        pictures = screens
    for screen in pictures:
        assert len(lines(screen)) <= SCREEN, "\n".join(lines(screen))
    reached = set().union(*(drawn("".join(part for _, part in screen), game_map) for screen in pictures))
    assert reached == set(game_map.names), sorted(set(game_map.names) - reached)


def test_a_map_drawn_whole_is_drawn_readably_and_lines_join_those_that_touch() -> None:
    game_map = load_map("meridian")
    [screen] = map_pictures(game_map, holdings(game_map), Palette(PLAYERS), "Ann", COLUMNS - 1, SCREEN) or [[]]
    text = "".join(part for _, part in screen)
    assert place(game_map, game_map.names, label_texts(game_map, holdings(game_map), Palette(PLAYERS)), 79, 19, DRIFT)
    assert len(re.findall(r"[-|/\\]", text)) > 60, "lines between neighbours"
    assert "(lines: borders)" in text


def test_a_continent_too_big_for_a_screen_is_drawn_in_parts_and_each_says_what_lies_beyond_it() -> None:
    game_map = with_positions(playable_map("domination/bigeurope.map"))
    held = holdings(game_map)
    screens = map_pictures(game_map, held, Palette(PLAYERS), "Ann", 39, 12, "Russia")
    assert screens is not None and len(screens) >= 2
    texts = ["".join(part for _, part in screen) for screen in screens]
    assert texts[0].startswith(f"Russia, part 1 of {len(screens)}")
    assert "Beyond this picture: " in texts[0] and "(part 2)" in texts[0]
    parts = [drawn(text, game_map) for text in texts]
    russia = {t.name for t in game_map.territories if t.continent == "Russia"}
    assert set().union(*parts) == russia and sum(len(p) for p in parts) == len(russia), "each once"
    alone = map_pictures(game_map, held, Palette(PLAYERS), "Ann", 39, 12, "r4")
    assert alone is not None and len(alone) == 1 and "r4 " in "".join(part for _, part in alone[0])


async def test_the_largest_real_map_is_read_whole_at_80_by_24_through_the_client(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Alice on the largest real map that plays, in a terminal of 80 by 24: `map` lists the continents, `map NAME`
    draws each; every territory is on one of them, and no screen is taller than the terminal."""
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    game_map = playable_map(LARGEST)
    folder = (MAPS / LARGEST).parent
    async with (
        running_server(maps=(folder,), seeds=lambda: 5, **FAST) as server,
        driven(url(server), name="Alice", size=(COLUMNS, ROWS)) as alice,
    ):
        await alice.type(f"create {Path(LARGEST).stem} 2 bots=1")
        await alice.expect("The game starts")
        overview = await alice.type("map")
        assert LIST_HEAD in overview and "no room for" not in overview, overview
        reached: set[str] = set()
        for continent in listed(overview):
            shown = await alice.type(f"map {continent}")
            assert shown.startswith(continent), shown
            reached |= drawn(shown, game_map)
        assert reached == set(game_map.names), sorted(set(game_map.names) - reached)
