"""Map reading benchmark: read + validate a map of 180 and of 5,000 territories in each format RISC reads, and lay out
bigeurope without its coordinates.

Run by hand: `python bench/maps.py`. Times check_map_file (read the file, decode, parse, build the model,
validate) on bigeurope.map (180 territories, from ../shared/maps) written in Domination, Conquest and native
form, and on generated grids of 180 and 5,000 territories in the same three forms. Prints medians and the
ratio 5000/180 per format, against bigeurope and against the generated 180 of the same shape: linear growth
would be about 5000 / 180 = 27.8. The target is under 50 ms for bigeurope.
"""

from __future__ import annotations

import gc
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from shared.maps import Continent, GameMap, Territory, build_map, check_map_file, load_map
from shared.maps.layout import layout
from shared.maps.native import write_native

BIGEUROPE = Path(__file__).resolve().parents[2] / "shared" / "maps" / "domination" / "bigeurope.map"
TARGET_MS = 50.0


def generated_map(size: int, seed: int = 1, width: int = 60) -> GameMap:
    """A grid with some diagonals (about the degree of a real Risk map), continents of 100 territories."""
    rng = random.Random(seed)
    names = [f"T{i:05d}" for i in range(size)]
    borders: dict[str, set[str]] = {n: set() for n in names}
    for i in range(size):
        for j in (i + 1 if (i + 1) % width else None, i + width, i + width + 1 if rng.random() < 0.3 else None):
            if j is not None and j < size:
                borders[names[i]].add(names[j])
                borders[names[j]].add(names[i])
    continents = [Continent(f"C{k:03d}", 1 + k % 7) for k in range((size + 99) // 100)]
    territories = [
        Territory(n, continents[i // 100].name, x=(i % width) * 20, y=(i // width) * 20) for i, n in enumerate(names)
    ]
    return build_map(f"generated-{size}", territories, borders, continents)


def to_domination(game_map: GameMap) -> str:
    number = {name: i for i, name in enumerate(game_map.names, start=1)}
    continent_number = {c.name: i for i, c in enumerate(game_map.continents, start=1)}
    lines = [
        f"; map: {game_map.name}.map",
        "",
        f"name {game_map.name}",
        "",
        "[files]",
        "crd bench.cards",
        "",
        "[continents]",
    ]
    lines += [f"{c.name} {c.bonus} red" for c in game_map.continents]
    lines += ["", "[countries]"]
    lines += [
        f"{number[t.name]} {t.name} {continent_number[t.continent or '']} {t.x:.0f} {t.y:.0f}"
        for t in game_map.territories
    ]
    lines += ["", "[borders]"]
    lines += [
        " ".join(str(number[n]) for n in (name, *sorted(game_map.neighbours(name), key=number.__getitem__)))
        for name in game_map.names
    ]
    return "\r\n".join(lines) + "\r\n"


def to_conquest(game_map: GameMap) -> str:
    lines = ["[Map]", "author=bench", "image=bench.bmp", "wrap=no", "scroll=none", "warn=yes", "", "[Continents]"]
    lines += [f"{c.name}={c.bonus}" for c in game_map.continents]
    lines += ["", "[Territories]"]
    lines += [
        ",".join([t.name, f"{t.x:.0f}", f"{t.y:.0f}", t.continent or "", *sorted(game_map.neighbours(t.name))])
        for t in game_map.territories
    ]
    return "\r\n".join(lines) + "\r\n"


def median_ms(fn: Callable[[], object], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def timed_check(path: Path, repeat: int) -> float:
    report = check_map_file(path)
    assert report.playable, [str(f) for f in report.findings]
    return median_ms(lambda: check_map_file(path), repeat)


def with_one_way_borders(game_map: GameMap, count: int) -> GameMap:
    """Drop the way back of `count` borders spread over the map, as real maps such as artic.map have."""
    borders = {n: set(game_map.neighbours(n)) for n in game_map.names}
    step = len(game_map.names) // count
    for name in game_map.names[::step][:count]:
        back = min(borders[name])
        borders[back].discard(name)
    return build_map(game_map.name, game_map.territories, borders, game_map.continents)


def main() -> None:
    if not BIGEUROPE.is_file():
        raise SystemExit(f"{BIGEUROPE} is missing: the real maps live in ../shared/maps from the project root")
    maps = {"bigeurope": load_map(BIGEUROPE), "gen180": generated_map(180), "gen5000": generated_map(5000)}
    writers: dict[str, Callable[[GameMap], str]] = {
        "Domination": to_domination,
        "Conquest": to_conquest,
        "native": write_native,
    }
    repeats = {"bigeurope": 31, "gen180": 31, "gen5000": 7}
    rows = []
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder)
        for fmt, write in writers.items():
            times = {}
            for label, game_map in maps.items():
                path = BIGEUROPE if (fmt, label) == ("Domination", "bigeurope") else out / f"{label}.{fmt}"
                if path != BIGEUROPE:
                    path.write_text(write(game_map), encoding="utf-8")
                times[label] = timed_check(path, repeats[label])
            rows.append((fmt, times))
        one_way_path = out / "one_way.map"
        one_way_path.write_text(to_domination(with_one_way_borders(maps["gen5000"], 10)), encoding="utf-8")
        one_way_ms = timed_check(one_way_path, 7)
        growth = []
        for size in (180, 1000, 2500, 5000):  # 5,000: the most territories a map may have (limits.py)
            path = out / f"growth{size}.map"
            path.write_text(to_domination(generated_map(size)), encoding="utf-8")
            repeat = 15 if size <= 1000 else 5
            with_gc = timed_check(path, repeat)
            gc.disable()
            try:
                without_gc = timed_check(path, repeat)
            finally:
                gc.enable()
            growth.append((size, with_gc * 1000 / size, without_gc * 1000 / size))

    print("read + validate (check_map_file), median ms. bigeurope.map has 180 territories; gen180 and gen5000")
    print(f"are generated grids of the same shape. Linear growth from 180 to 5000 is {5000 / 180:.1f}x.")
    print(
        f"{'format':<12}{'bigeurope':>10}{'gen180':>10}{'gen5000':>10}{'5000/big':>10}{'5000/180':>10}"
        f"   target <{TARGET_MS:.0f} ms for bigeurope"
    )
    for fmt, times in rows:
        verdict = "met" if times["bigeurope"] < TARGET_MS else "MISSED"
        print(
            f"{fmt:<12}{times['bigeurope']:>10.2f}{times['gen180']:>10.2f}{times['gen5000']:>10.2f}"
            f"{times['gen5000'] / times['bigeurope']:>9.1f}x{times['gen5000'] / times['gen180']:>9.1f}x   {verdict}"
        )
    print(f"gen5000 with 10 one-way borders (Domination; adds the reachability check): {one_way_ms:.2f} ms")
    unplaced = replace(
        maps["bigeurope"], territories=tuple(replace(t, x=None, y=None) for t in maps["bigeurope"].territories)
    )
    print(
        f"bigeurope laid out without its coordinates (shared/maps/layout.py): "
        f"{median_ms(lambda: layout(unplaced), 3):.0f} ms (median of 3)"
    )
    print("Domination, per territory, by size (with / without the garbage collector running):")
    for size, per_territory, without_gc in growth:
        print(f"  {size:>6} territories: {per_territory:6.2f} us  / {without_gc:6.2f} us")


if __name__ == "__main__":
    main()
