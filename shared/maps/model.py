"""The one map model every format is read into: territories, directed borders, continents, starting groups."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field

from shared.maps.pictures import picture_name


@dataclass(frozen=True)
class Territory:
    name: str
    continent: str | None = None
    size: int = 1
    x: float | None = None
    y: float | None = None
    food: int | None = None
    """Food produced per turn (RISC E1), when the map gives it; None: the rule set assigns it."""
    technology: int | None = None
    """Technology produced per turn (RISC E1), when the map gives it."""


@dataclass(frozen=True)
class Continent:
    name: str
    bonus: int = 0


@dataclass(frozen=True)
class FileDetails:
    """What a Domination or Conquest file held that the rules never read, kept so that saving the map again in
    its own format gives that back: the game that draws the map needs its pictures and settings.

    `source` names the format that filled it ("domination", "conquest"; "" for none): a Domination preamble line
    and a Conquest [Map] setting are both key/value pairs, but mean nothing to the other game. Everything is a
    tuple, so the details stay immutable and hashable like the rest of the map.
    """

    source: str = ""
    properties: tuple[tuple[str, str], ...] = ()
    """Domination: the `key value` lines before the first section other than `name` (ver, test...);
    Conquest: the [Map] settings (author, image, wrap, scroll, warn), keys as written, in file order."""
    files: tuple[tuple[str, str], ...] = ()
    """Domination's [files] entries (pic, map, crd, prv), in file order."""
    colours: tuple[tuple[str, str], ...] = ()
    """Domination's continent colours, by continent name, as written (`red`, `#fff780`)."""

    def colour(self, continent: str) -> str | None:
        return next((colour for name, colour in self.colours if name == continent), None)

    @property
    def picture(self) -> str | None:
        """The file name of the picture the map is drawn over, as the file names it: Domination's `[files] pic`,
        Conquest's `[Map] image` ("none" and "no": none), the native format's `picture`; None for none."""
        if self.source == "domination":
            named = dict(self.files).get("pic")
        else:
            named = next((value for key, value in self.properties if key.casefold() in PICTURE_KEYS), None)
        return picture_name(named)

    def with_picture(self, name: str | None) -> FileDetails:
        """These details with `name` as the map's picture (None: no picture), where the map's own format keeps it:
        a Domination map in its [files], a Conquest map in its [Map] settings, any other in the native format's
        `picture`."""
        if self.source == "domination":
            files = _set(self.files, lambda key: key == "pic", "pic", name)
            return dataclasses.replace(self, files=files)
        if self.source == "conquest":
            key = next((k for k, _ in self.properties if k.casefold() == "image"), "image")
            return dataclasses.replace(self, properties=_set(self.properties, lambda k: k == key, key, name or "none"))
        if name is None:
            return NO_DETAILS
        return FileDetails("native", (("picture", name),))


PICTURE_KEYS = frozenset({"image", "picture"})
"""The key of a picture among a file's settings: Conquest's [Map] `image`, the native format's `picture`."""


def _set(
    pairs: tuple[tuple[str, str], ...], found: Callable[[str], bool], key: str, value: str | None
) -> tuple[tuple[str, str], ...]:
    """`pairs` with the one `found` matches set to `value` in its place (added at the end where none does), or
    taken out when `value` is None."""
    out: list[tuple[str, str]] = []
    done = False
    for k, v in pairs:
        if found(k):
            if value is not None and not done:
                out.append((k, value))
            done = True
        else:
            out.append((k, v))
    if not done and value is not None:
        out.append((key, value))
    return tuple(out)


NO_DETAILS = FileDetails()


@dataclass(frozen=True)
class GameMap:
    """A board. Borders are directed (a border may be one-way); `borders[a]` holds where `a` can reach.

    `starting_groups[n]` are the map's own groups for n players, when its author gave them (R6).
    `details` is what the file held for the game that draws it (FileDetails); it takes no part in comparing
    maps, since two files that differ only in their picture names hold the same board.
    """

    name: str
    territories: tuple[Territory, ...]
    borders: Mapping[str, frozenset[str]]
    continents: tuple[Continent, ...] = ()
    starting_groups: Mapping[int, tuple[tuple[str, ...], ...]] = field(default_factory=dict)
    description: str = ""
    details: FileDetails = field(default=NO_DETAILS, compare=False)

    @property
    def names(self) -> tuple[str, ...]:
        cached: tuple[str, ...] | None = self.__dict__.get("_names_cache")
        if cached is None:  # read in loops over the map: built once (the map is immutable)
            cached = tuple(t.name for t in self.territories)
            object.__setattr__(self, "_names_cache", cached)
        return cached

    def territory(self, name: str) -> Territory:
        return self._by_name[name]

    @property
    def _by_name(self) -> dict[str, Territory]:
        cached: dict[str, Territory] | None = self.__dict__.get("_by_name_cache")
        if cached is None:
            cached = {t.name: t for t in self.territories}
            object.__setattr__(self, "_by_name_cache", cached)
        return cached

    def __contains__(self, name: object) -> bool:
        return name in self._by_name

    def neighbours(self, name: str) -> frozenset[str]:
        return self.borders.get(name, frozenset())

    def neighbours_in_order(self, name: str) -> tuple[str, ...]:
        """Where `name` borders, in the map's own territory order (stable for display)."""
        cached: dict[str, tuple[str, ...]] | None = self.__dict__.get("_ordered_cache")
        if cached is None:  # each territory's neighbours sorted by rank: not a walk of the whole map for each
            rank = {n: i for i, n in enumerate(self.names)}
            cached = {
                t.name: tuple(sorted((n for n in self.neighbours(t.name) if n in rank), key=rank.__getitem__))
                for t in self.territories
            }
            object.__setattr__(self, "_ordered_cache", cached)
        return cached.get(name, ())

    @property
    def two_way(self) -> bool:
        """Whether every border can be crossed both ways (most maps): reachability is then symmetric."""
        cached: bool | None = self.__dict__.get("_two_way_cache")
        if cached is None:
            cached = all(a in self.borders.get(b, frozenset()) for a, targets in self.borders.items() for b in targets)
            object.__setattr__(self, "_two_way_cache", cached)
        return cached

    def undirected(self) -> dict[str, set[str]]:
        """Borders taken both ways: what connectivity (R4) is judged on."""
        graph: dict[str, set[str]] = {t.name: set() for t in self.territories}
        for a, targets in self.borders.items():
            for b in targets:
                if a in graph and b in graph:
                    graph[a].add(b)
                    graph[b].add(a)
        return graph

    def continent_members(self) -> dict[str, list[str]]:
        members: dict[str, list[str]] = {c.name: [] for c in self.continents}
        for t in self.territories:
            if t.continent is not None and t.continent in members:
                members[t.continent].append(t.name)
        return members


def build_map(
    name: str,
    territories: Iterable[Territory],
    borders: Mapping[str, Iterable[str]],
    continents: Iterable[Continent] = (),
    starting_groups: Mapping[int, Iterable[Iterable[str]]] | None = None,
    description: str = "",
    details: FileDetails = NO_DETAILS,
) -> GameMap:
    """Freeze loose collections into a GameMap (no validation: see shared.maps.validate)."""
    terr = tuple(territories)
    frozen = {t.name: frozenset(borders.get(t.name, ())) for t in terr}
    for source, targets in borders.items():
        if source not in frozen:
            frozen[source] = frozenset(targets)
    groups = {n: tuple(tuple(g) for g in gs) for n, gs in (starting_groups or {}).items()}
    return GameMap(name, terr, frozen, tuple(continents), groups, description, details)
