"""Edits on a map, as the map editor's commands make them (../shared/spec/classic.md M1): pure functions from a
map to a new map or an EditError.

The draft being edited is a GameMap like any other: every edit returns a new one and leaves the old one as it was,
so undo is keeping the old one, and validation, showing and saving need nothing of their own. A command with
several edits (`editcountry -add A X -add B X`) applies them all or none.

Names typed for what already exists match as players' territory names do (D4): the exact name, else the name
ignoring case, else a unique prefix ignoring case. A new name is taken exactly as typed.
"""

from __future__ import annotations

import dataclasses
import difflib
import re
from collections.abc import Sequence
from dataclasses import dataclass

from shared.maps.model import Continent, GameMap, Territory


@dataclass(frozen=True)
class AddContinent:
    name: str
    bonus: int


@dataclass(frozen=True)
class RemoveContinent:
    name: str


@dataclass(frozen=True)
class AddTerritory:
    name: str
    continent: str


@dataclass(frozen=True)
class RemoveTerritory:
    name: str


@dataclass(frozen=True)
class AddBorder:
    first: str
    second: str


@dataclass(frozen=True)
class RemoveBorder:
    first: str
    second: str


Edit = AddContinent | RemoveContinent | AddTerritory | RemoveTerritory | AddBorder | RemoveBorder


@dataclass(frozen=True)
class EditError:
    """Why an edit cannot be made, said to the map's author; the map is left as it was."""

    message: str


@dataclass(frozen=True)
class Edited:
    """The map after the edits, and what each of them did (the matched names written out in full)."""

    game_map: GameMap
    messages: tuple[str, ...]


_CONTROL = re.compile(r"[\x00-\x1f\x7f]")


def find_name(typed: str, names: Sequence[str], kind: str) -> str | EditError:
    """The existing name `typed` means: exact, else ignoring case, else a unique prefix ignoring case."""
    if typed in names:
        return typed
    wanted = typed.casefold()
    same = [n for n in names if n.casefold() == wanted]
    if len(same) == 1:
        return same[0]
    candidates = same or [n for n in names if wanted and n.casefold().startswith(wanted)]
    if len(candidates) == 1:
        return candidates[0]
    if candidates:
        shown = ", ".join(f'"{n}"' for n in sorted(candidates)[:6])
        more = f" and {len(candidates) - 6} more" if len(candidates) > 6 else ""
        return EditError(f'"{typed}" could be the {kind} {shown}{more}: type more of the name')
    close = difflib.get_close_matches(typed, names, n=2, cutoff=0.7)
    hint = " (did you mean " + " or ".join(f'"{n}"' for n in close) + "?)" if close else ""
    return EditError(f'there is no {kind} "{typed}"{hint}')


def new_name_problem(name: str, kind: str, existing: Sequence[str]) -> str | None:
    """Why `name` cannot name a new territory or continent, or None.

    Names that differ only in case are refused: players type names ignoring case, and Conquest would take the two
    for one. A leading `-` would read as an option of the command, and a `"` could not be typed back.
    """
    if not name.strip():
        return f"a {kind} needs a name"
    if name != name.strip() or _CONTROL.search(name):
        return f'"{name}": a {kind} name cannot start or end with a space or hold a control character'
    if name.startswith("-") or '"' in name:
        return f'"{name}": a {kind} name cannot start with - or hold a double quote'
    same = next((n for n in existing if n.casefold() == name.casefold()), None)
    if same == name:
        return f'there is already a {kind} "{name}"'
    if same is not None:
        return f'there is already a {kind} "{same}" (names are matched ignoring case)'
    return None


def apply_edits(game_map: GameMap, edits: Sequence[Edit]) -> Edited | EditError:
    """All the edits in order, each seeing the ones before it; the first that cannot be made stops them all."""
    messages: list[str] = []
    for edit in edits:
        result = apply_edit(game_map, edit)
        if isinstance(result, EditError):
            return result
        game_map = result.game_map
        messages.extend(result.messages)
    return Edited(game_map, tuple(messages))


def apply_edit(game_map: GameMap, edit: Edit) -> Edited | EditError:
    match edit:
        case AddContinent(name, bonus):
            return _add_continent(game_map, name, bonus)
        case RemoveContinent(name):
            return _remove_continent(game_map, name)
        case AddTerritory(name, continent):
            return _add_territory(game_map, name, continent)
        case RemoveTerritory(name):
            return _remove_territory(game_map, name)
        case AddBorder(first, second):
            return _add_border(game_map, first, second)
        case RemoveBorder(first, second):
            return _remove_border(game_map, first, second)


def _add_continent(game_map: GameMap, name: str, bonus: int) -> Edited | EditError:
    problem = new_name_problem(name, "continent", [c.name for c in game_map.continents])
    if problem is not None:
        return EditError(problem)
    if bonus < 0:
        return EditError(f"a continent's value is a whole number of units, 0 or more, not {bonus}")
    added = dataclasses.replace(game_map, continents=(*game_map.continents, Continent(name, bonus)))
    return Edited(added, (f'added continent "{name}", worth {bonus}',))


def _remove_continent(game_map: GameMap, typed: str) -> Edited | EditError:
    """A continent goes with its territories: a territory's continent can only be given when it is added."""
    name = find_name(typed, [c.name for c in game_map.continents], "continent")
    if isinstance(name, EditError):
        return name
    inside = [t.name for t in game_map.territories if t.continent == name]
    without = _without_territories(game_map, set(inside))
    without = dataclasses.replace(without, continents=tuple(c for c in game_map.continents if c.name != name))
    message = f'removed continent "{name}"'
    if inside:
        message += " and its territories " + ", ".join(f'"{n}"' for n in inside)
    return Edited(without, (message,))


def _add_territory(game_map: GameMap, name: str, typed_continent: str) -> Edited | EditError:
    problem = new_name_problem(name, "territory", game_map.names)
    if problem is not None:
        return EditError(problem)
    continent = find_name(typed_continent, [c.name for c in game_map.continents], "continent")
    if isinstance(continent, EditError):
        if not game_map.continents:
            return EditError(f"{continent.message}: add one first with editcontinent -add NAME VALUE")
        return continent
    borders = {**game_map.borders, name: frozenset[str]()}
    added = dataclasses.replace(
        game_map, territories=(*game_map.territories, Territory(name, continent)), borders=borders
    )
    return Edited(added, (f'added territory "{name}" to "{continent}"',))


def _remove_territory(game_map: GameMap, typed: str) -> Edited | EditError:
    name = find_name(typed, game_map.names, "territory")
    if isinstance(name, EditError):
        return name
    neighbours = sorted(game_map.undirected()[name] - {name}, key=game_map.names.index)
    message = f'removed territory "{name}"'
    if neighbours:
        message += " and its borders with " + ", ".join(f'"{n}"' for n in neighbours)
    dropped = sorted(n for n, groups in game_map.starting_groups.items() if any(name in g for g in groups))
    if dropped:
        message += "; the starting groups for " + ", ".join(map(str, dropped)) + " players held it and are dropped"
    return Edited(_without_territories(game_map, {name}), (message,))


def _without_territories(game_map: GameMap, gone: set[str]) -> GameMap:
    """The map without these territories, any border to or from them, and any starting groups that held them."""
    if not gone:
        return game_map
    borders = {a: targets - gone for a, targets in game_map.borders.items() if a not in gone}
    groups = {
        n: groups
        for n, groups in game_map.starting_groups.items()
        if not any(name in gone for g in groups for name in g)
    }
    return dataclasses.replace(
        game_map,
        territories=tuple(t for t in game_map.territories if t.name not in gone),
        borders=borders,
        starting_groups=groups,
    )


def _pair(game_map: GameMap, first: str, second: str) -> tuple[str, str] | EditError:
    a = find_name(first, game_map.names, "territory")
    if isinstance(a, EditError):
        return a
    b = find_name(second, game_map.names, "territory")
    if isinstance(b, EditError):
        return b
    if a == b:
        return EditError(f'"{a}" cannot border itself')
    return a, b


def _add_border(game_map: GameMap, first: str, second: str) -> Edited | EditError:
    """A border both ways, as the course's editors make them; a one-way border read from a file becomes two-way."""
    pair = _pair(game_map, first, second)
    if isinstance(pair, EditError):
        return pair
    a, b = pair
    there, back = b in game_map.neighbours(a), a in game_map.neighbours(b)
    if there and back:
        return EditError(f'"{a}" and "{b}" already border each other')
    borders = {**game_map.borders, a: game_map.neighbours(a) | {b}, b: game_map.neighbours(b) | {a}}
    if there or back:
        message = f'the one-way border between "{a}" and "{b}" now goes both ways'
    else:
        message = f'"{a}" and "{b}" now border each other'
    return Edited(dataclasses.replace(game_map, borders=borders), (message,))


def _remove_border(game_map: GameMap, first: str, second: str) -> Edited | EditError:
    pair = _pair(game_map, first, second)
    if isinstance(pair, EditError):
        return pair
    a, b = pair
    if b not in game_map.neighbours(a) and a not in game_map.neighbours(b):
        return EditError(f'"{a}" and "{b}" do not border each other')
    borders = {**game_map.borders, a: game_map.neighbours(a) - {b}, b: game_map.neighbours(b) - {a}}
    return Edited(dataclasses.replace(game_map, borders=borders), (f'"{a}" and "{b}" no longer border each other',))
