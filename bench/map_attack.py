"""Crafted map files against the map readers: how long each takes to be read (and refused, or played on).

Run by hand: `python bench/map_attack.py [--sizes 65536,262144,1048576] [--repeat 3]`. Each shape is a file built
to find a quadratic spot of a reader: many territories, long border lines, many duplicate names, a long continent
list, many territories with no border, a star (one territory bordering all), many unknown section headers. For
each shape and size it prints the file's size, the median seconds of `check_map_file` (read, decode, parse, build,
validate) and of computing starting groups for 3 players when the map is playable, what the reader said, and the
growth from the previous size: linear work grows as the size does (x4 from one size to the next), quadratic work
as its square (x16). Files past the size limit, or past the territory or border limits, are refused unread or
unbuilt.
"""

from __future__ import annotations

import argparse
import dataclasses
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from shared.maps.findings import Severity
from shared.maps.groups import starting_groups
from shared.maps.loader import check_map_file


def _lines_until(
    size: int,
    header: str,
    line: Callable[[int], str],
    footer: Callable[[int], str] = lambda n: "",
) -> str:
    """`header`, then line(0), line(1), ... while the text stays under `size` bytes, then footer(count)."""
    parts, total, count = [header], len(header), 0
    while True:
        text = line(count) + "\n"
        if total + len(text) + 200 > size:
            break
        parts.append(text)
        total += len(text)
        count += 1
    parts.append(footer(count))
    return "".join(parts)


def domination_chain(size: int) -> str:
    """Countries in a chain, each bordering the next: as many territories as the bytes allow."""
    countries = _lines_until(size // 2, "[continents]\nc 1 red\n[countries]\n", lambda i: f"{i + 1} t{i} 1 0 0")
    count = countries.count("\n") - 3
    borders = "".join(f"{i} {i - 1 if i > 1 else 2} {i + 1 if i < count else 1}\n" for i in range(1, count + 1))
    return countries + "[borders]\n" + borders


def domination_long_border(size: int) -> str:
    """Few countries; country 1 borders every other in one line, listed many times over."""
    countries = "".join(f"{i} t{i} 1 0 0\n" for i in range(1, 301))
    head = "[continents]\nc 1 red\n[countries]\n" + countries + "[borders]\n"
    ids = " ".join(str(2 + i % 299) for i in range(max(1, (size - len(head)) // 4)))
    return head + "1 " + ids + "\n" + "".join(f"{i} 1\n" for i in range(2, 301))


def domination_continents(size: int) -> str:
    """A continent list as long as the bytes allow, most of them duplicates, and two countries."""
    return _lines_until(
        size,
        "[continents]\n",
        lambda i: f"c{i % 1000} 1 red",
        lambda n: "[countries]\n1 a 1 0 0\n2 b 1 0 0\n[borders]\n1 2\n2 1\n",
    )


def domination_duplicates(size: int) -> str:
    """Every country has the same name."""
    return _lines_until(
        size, "[continents]\nc 1 red\n[countries]\n", lambda i: f"{i + 1} same 1 0 0", lambda n: "[borders]\n1 2\n"
    )


def domination_isolated(size: int) -> str:
    """Many countries, none with a border: every one is a piece of its own."""
    return _lines_until(
        size, "[continents]\nc 1 red\n[countries]\n", lambda i: f"{i + 1} t{i} 1 0 0", lambda n: "[borders]\n"
    )


def domination_sections(size: int) -> str:
    """Unknown section headers, each a little different (each asks for a close match)."""
    return _lines_until(size, "", lambda i: f"[contnents{i}x]", lambda n: "[countries]\n1 a 1 0 0\n")


def conquest_chain(size: int) -> str:
    """Territories in a chain, linked by name, with the names' case mixed."""

    def line(i: int) -> str:
        return f"T{i},0,0,C,t{i - 1 if i else 1},T{i + 1}"

    text = _lines_until(size, "[Continents]\nC=1\n[Territories]\n", line)
    return text.rsplit(",", 1)[0] + "\n"  # the last territory has no next one


def conquest_continents(size: int) -> str:
    """A continent list as long as the bytes allow, the names differing in case only, and two territories."""
    return _lines_until(
        size,
        "[Continents]\n",
        lambda i: f"Cont{'A' if i % 2 else 'a'}{i}=1",
        lambda n: "[Territories]\na,0,0,Conta1,b\nb,0,0,Conta1,a\n",
    )


def conquest_star(size: int) -> str:
    """One hub bordering every other territory: long neighbour lists and one group's frontier of all of them."""
    count = max(3, size // 40)
    hub = "hub,0,0,C," + ",".join(f"leaf{i}" for i in range(count))
    leaves = "".join(f"leaf{i},0,0,C,hub\n" for i in range(count))
    text = "[Continents]\nC=1\n[Territories]\n" + hub + "\n" + leaves
    while len(text) > size and count > 3:
        count = count * 9 // 10
        hub = "hub,0,0,C," + ",".join(f"leaf{i}" for i in range(count))
        leaves = "".join(f"leaf{i},0,0,C,hub\n" for i in range(count))
        text = "[Continents]\nC=1\n[Territories]\n" + hub + "\n" + leaves
    return text


def native_chain(size: int) -> str:
    """The native format: territories in a chain."""

    def line(i: int) -> str:
        return f'[territories.t{i}]\nborders = ["t{i + 1}"]\ncontinent = "c"\n'

    text = _lines_until(size, 'name = "chain"\n[continents.c]\nbonus = 1\n', line)
    return text.replace(f'borders = ["t{text.count("[territories.")}"]', "borders = []")


SHAPES: dict[str, tuple[str, Callable[[int], str]]] = {
    "domination: chain of countries": (".map", domination_chain),
    "domination: one long border line": (".map", domination_long_border),
    "domination: long continent list": (".map", domination_continents),
    "domination: duplicate names": (".map", domination_duplicates),
    "domination: no borders at all": (".map", domination_isolated),
    "domination: unknown sections": (".map", domination_sections),
    "conquest: chain, mixed case": (".map", conquest_chain),
    "conquest: long continent list": (".map", conquest_continents),
    "conquest: star": (".map", conquest_star),
    "native: chain": (".toml", native_chain),
}


def run(path: Path, repeat: int) -> tuple[float, float | None, str]:
    """(median seconds to read and check, median seconds to compute 3 groups or None, what the reader said)."""
    reads, groups = [], []
    said = ""
    for _ in range(repeat):
        started = time.perf_counter()
        report = check_map_file(path)
        reads.append(time.perf_counter() - started)
        errors = [f for f in report.findings if f.severity is Severity.ERROR]
        territories = len(report.game_map.territories) if report.game_map else 0
        said = (f"{territories} territories, " if report.game_map else "") + (
            f"refused: {errors[0].code} ({len(errors)} errors)" if errors else "playable"
        )
        if report.playable and report.game_map is not None and territories >= 3:
            started = time.perf_counter()
            starting_groups(dataclasses.replace(report.game_map), 3)  # a copy: groups are cached on the map
            groups.append(time.perf_counter() - started)
    return statistics.median(reads), statistics.median(groups) if groups else None, said


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="65536,262144,1048576", help="file sizes in bytes, comma-separated")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--only", default="", help="run only the shapes whose name holds this")
    args = parser.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    print(f"{'shape':36} {'bytes':>9} {'read s':>8} {'x':>6} {'groups s':>9}  what the reader said")
    with tempfile.TemporaryDirectory() as folder:
        for name, (suffix, make) in SHAPES.items():
            if args.only not in name:
                continue
            previous = None
            for size in sizes:
                path = Path(folder) / f"crafted{suffix}"
                path.write_text(make(size), encoding="utf-8")
                seconds, grouping, said = run(path, args.repeat)
                growth = f"{seconds / previous:6.1f}" if previous else "      "
                shown = f"{grouping:9.3f}" if grouping is not None else "        -"
                print(f"{name:36} {path.stat().st_size:9d} {seconds:8.3f} {growth} {shown}  {said}", flush=True)
                previous = seconds


if __name__ == "__main__":
    main()
