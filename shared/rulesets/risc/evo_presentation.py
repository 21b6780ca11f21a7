"""How RISC Evolutions 2 and 3 read in the text client: commands that name levels, upgrades, research, spies and
cloaks; a board with unit levels, sizes, production, stocks and technology, and under fog what was last seen and when.

Each evolution's presentation is a subclass of Evolution 1's (presentation.py), made by its rule set's variant: it
says only what its evolution changes, and Evolution 1 reads exactly as before.

Commands (E3): `move 5 Narnia Oz` takes the lowest levels first, from what the player's orders so far leave at
Narnia; `move 2@3 Narnia Oz` moves two level-3 units; `move 3@0,2@1 Narnia Oz` names several levels; `attack` reads
the same. The orders always carry their levels: one order per level. `upgrade 4 Narnia 0 2`, `research`,
`research cloaking`, `spy 1 Narnia` (train a spy), `spy 1 Narnia Oz` (move spies), `cloak Narnia`.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from shared.game import grammar
from shared.game.grammar import ParseError
from shared.game.presentation import (
    FRONT,
    Context,
    Fragments,
    OrderCommand,
    Palette,
    Shown,
    by_continent,
    front_of,
    held_text,
    legend,
    line,
    plural,
    short_names,
    units,
    whole,
)
from shared.maps.model import GameMap
from shared.rulesets.risc.board import Phase
from shared.rulesets.risc.commands import CLOAK, RESEARCH, SPY, UPGRADE, usage
from shared.rulesets.risc.evo_checker import EvoTally, account, levels_left, start_tally
from shared.rulesets.risc.evo_events import (
    Battle,
    CloakingResearched,
    LevelMoved,
    SpiesMoved,
    SpiesTrained,
    StocksReport,
    TechnologyResearched,
    TerritoryCloaked,
    UnitsUpgraded,
)
from shared.rulesets.risc.evo_orders import (
    CloakingResearchOrder,
    CloakOrder,
    LevelAttackOrder,
    LevelMoveOrder,
    ResearchOrder,
    SpyMoveOrder,
    SpyOrder,
    UpgradeOrder,
)
from shared.rulesets.risc.evo_view import EvoTerritory, EvoView, game_from_evo_view
from shared.rulesets.risc.levels import TOP_LEVEL, lowest_first, research_cost, short_levels
from shared.rulesets.risc.presentation import RiscPresentation, pending_placements, stage_of

_COUNT = re.compile(r"^(\d{1,9})(?:@(\d{1,2}))?$")


def _count(text: str, command: OrderCommand) -> int | ParseError:
    return grammar.count(text, "the number of units", usage(command))


def counts(text: str, command: OrderCommand) -> list[tuple[int, int | None]] | ParseError:
    """`5`, `2@3` or `3@0,2@1`: (units, level) pairs, level None where the player left it out."""
    found: list[tuple[int, int | None]] = []
    for part in text.split(","):
        match = _COUNT.match(part.strip())
        if match is None:
            return ParseError(
                f'"{text}" is not a number of units (N, or N@LEVEL such as 2@3, or several such as '
                f"3@0,2@1); {usage(command)}"
            )
        level = None if match.group(2) is None else int(match.group(2))
        if level is not None and level > TOP_LEVEL:
            return ParseError(f"unit levels go from 0 to {TOP_LEVEL}, not {level}")
        found.append((int(match.group(1)), level))
    if len(found) > 1 and any(level is None for _, level in found):
        return ParseError(f"name a level for each count (3@0,2@1), or give one plain count; {usage(command)}")
    return found


def _tally(context: Context, view: EvoView | None) -> tuple[Any, EvoTally] | None:
    if view is None or context.game_map is None or context.you is None or context.you not in view.players:
        return None
    game = game_from_evo_view(view, context.game_map, context.you, list(context.orders))
    counted = start_tally(game, context.you)
    for order in context.orders:
        counted = account(game, context.you, counted, order)
    return game, counted


def parse_move_or_attack(
    command_name: str, words: list[str], context: Context, view: EvoView | None, command: OrderCommand
) -> list[Any] | ParseError:
    asked = counts(words[0], command)
    if isinstance(asked, ParseError):
        return asked
    if len(words) < 3:
        return ParseError(f"{command_name} needs a number of units, where from and where to; {usage(command)}")
    names = context.territories
    pair = grammar.source_and_target(words[1:], names, usage(command))
    if isinstance(pair, ParseError):
        return pair
    source, target = pair
    cls = LevelMoveOrder if command_name == "move" else LevelAttackOrder
    if len(asked) == 1 and asked[0][1] is None:
        wanted = asked[0][0]
        known = _tally(context, view)
        if known is None:
            return [cls(wanted, 0, source, target)]
        game, counted = known
        left = levels_left(game.board, counted, source) if source in game.board.owner else ()
        taken = lowest_first(left, wanted)
        if wanted < 1 or source not in game.board.owner or game.board.owner[source] != context.you:
            return [cls(wanted, 0, source, target)]  # the rules say what is wrong with it
        if sum(n for _, n in taken) < wanted:  # more than there is: the server says so, in the rules' words
            return [cls(wanted, taken[0][0] if taken else 0, source, target)]
        return [cls(n, level, source, target) for level, n in taken]
    return [cls(n, level if level is not None else 0, source, target) for n, level in asked]


def _parse(command: OrderCommand, args: list[str], context: Context, view: EvoView | None) -> list[Any] | ParseError:
    names = context.territories
    if command.name in ("move", "attack"):
        if not args:
            return ParseError(f"{command.name} needs a number of units, where from and where to; {usage(command)}")
        return parse_move_or_attack(command.name, args, context, view, command)
    if command is UPGRADE:
        if len(args) < 4:
            return ParseError(f"upgrade needs a number of units, a territory and two levels; {usage(command)}")
        count = _count(args[0], command)
        if isinstance(count, ParseError):
            return count
        levels = [grammar.count(word, "a level", usage(command)) for word in args[-2:]]
        for level in levels:
            if isinstance(level, ParseError):
                return level
        territory = grammar.name(" ".join(args[1:-2]), names)
        if isinstance(territory, ParseError):
            return territory
        return [UpgradeOrder(count, territory, int(str(levels[0])), int(str(levels[1])))]
    if command is RESEARCH:
        if not args:
            return [ResearchOrder()]
        if len(args) == 1 and "cloaking".startswith(args[0].casefold()) and args[0]:
            return [CloakingResearchOrder()]
        return ParseError(f"research takes nothing, or the word cloaking; {usage(command)}")
    if command is SPY:
        if len(args) < 2:
            return ParseError(f"spy needs a number of spies and a territory (or two); {usage(command)}")
        count = _count(args[0], command)
        if isinstance(count, ParseError):
            return count
        rest = args[1:]
        one = grammar.name(" ".join(rest), names) if len(rest) >= 1 else None
        two = grammar.names(rest, names, 2, usage(command)) if len(rest) >= 2 else None
        if isinstance(two, tuple) and isinstance(one, str) and len(rest) > 2:
            return ParseError(
                f'"{" ".join(rest)}" can be read as one territory or two: put "double quotes" around each name'
            )
        if isinstance(two, tuple):
            return [SpyMoveOrder(count, two[0], two[1])]
        if isinstance(one, str):
            return [SpyOrder(count, one)]
        return one if isinstance(one, ParseError) else ParseError(usage(command))
    if command is CLOAK:
        if not args:
            return ParseError(f"cloak needs a territory; {usage(command)}")
        territory = grammar.name(" ".join(args), names)
        return territory if isinstance(territory, ParseError) else [CloakOrder(territory)]
    return ParseError(usage(command))


# ---- events ----------------------------------------------------------------------------------------------------------


def _with_levels(counts_: Sequence[int]) -> str:
    total = sum(counts_)
    shown = short_levels(counts_)
    return f"{total} ({shown})" if shown and any(counts_[1:]) else str(total)


def battle_line(battle: Battle, palette: Palette) -> Fragments:
    seen = sum(n for _, n in battle.sources)
    attacking = sum(battle.attacking)
    if len(battle.sources) == 1 and seen == attacking:
        came = f" from {battle.sources[0][0]}"
    elif battle.sources:
        came = " from " + ", ".join(f"{name} {n}" for name, n in battle.sources)
        if seen < attacking:
            came += f" and {attacking - seen} from out of sight"
    else:
        came = " from out of sight"
    out: Fragments = [
        *palette.name(battle.attacker),
        ("", f" attacked {battle.territory} ("),
        *palette.name(battle.defender),
        ("", f") with {_with_levels(battle.attacking)}{came} against {_with_levels(battle.defending)}: "),
    ]
    lost_a = attacking - sum(battle.attackers_left)
    lost_d = sum(battle.defending) - sum(battle.defenders_left)
    out += [
        *palette.name(battle.attacker),
        ("", f" lost {lost_a}, "),
        *palette.name(battle.defender),
        ("", f" lost {lost_d}. "),
    ]
    if battle.attacker_won:
        out += [
            *palette.name(battle.attacker),
            ("", f" takes {battle.territory}, {_with_levels(battle.attackers_left)} left."),
        ]
    else:
        out += [
            *palette.name(battle.defender),
            ("", f" holds {battle.territory}, {_with_levels(battle.defenders_left)} left."),
        ]
    return [*out, ("", "\n")]


def _event_line(event: Any, palette: Palette, you: str | None) -> Fragments | None:
    """One evolution event as a line; None for an event of Evolution 1 (presentation.py says those)."""
    if isinstance(event, LevelMoved):
        return line(
            *palette.name(event.player),
            ("", f" moved {event.units} level-{event.level} from {event.source} to {event.target}."),
        )
    if isinstance(event, Battle):
        return battle_line(event, palette)
    if isinstance(event, UnitsUpgraded):
        return line(
            *palette.name(event.player),
            ("", f" upgraded {event.units} on {event.territory} from level {event.level} to {event.to_level}."),
        )
    if isinstance(event, TechnologyResearched):
        return line(*palette.name(event.player), ("", f" reached technology level {event.tech_level}."))
    if isinstance(event, CloakingResearched):
        return line(*palette.name(event.player), ("", " learnt cloaking."))
    if isinstance(event, TerritoryCloaked):
        return line(("", f"{event.territory} is cloaked to the end of turn {event.until}."))
    if isinstance(event, SpiesTrained):
        return line(
            *palette.name(event.player), ("", f" trained {plural(event.units, 'spy', 'spies')} on {event.territory}.")
        )
    if isinstance(event, SpiesMoved):
        spies = plural(event.units, "spy", "spies")
        return line(*palette.name(event.player), ("", f" moved {spies} from {event.source} to {event.target}."))
    if isinstance(event, StocksReport):
        spent = (
            f"{event.spent_food} food and {event.spent_technology} technology, produced {event.produced_food} food "
            f"and {event.produced_technology} technology"
        )
        if event.player == you:  # the player's own, told to them
            return line(
                ("class:muted", f"Spent {spent}: you hold {event.food} food and {event.technology} technology.")
            )
        return line(  # whose, for anyone else who reads it (a replay with everyone's eyes)
            *palette.name(event.player),
            (
                "class:muted",
                f" spent {spent}: {event.player} holds {event.food} food and {event.technology} technology.",
            ),
        )
    return None


# ---- the board -------------------------------------------------------------------------------------------------------


def _territory_cell(t: EvoTerritory, palette: Palette, short: str) -> Fragments:
    """A neighbour in a few characters: its label, units and holder's mark (`Oz 8 A`), `Oz ?` where never seen."""
    if t.fog == "unknown":
        return [(whole("class:muted"), f"{short} ?")]
    return [held_text((t.owner, t.units), palette, short)]


def _territory_line(
    name: str,
    view: EvoView,
    game_map: GameMap,
    palette: Palette,
    short: dict[str, str],
    width: int,
    digits: int,
    placing: int,
) -> Fragments:
    """One territory on one line: units, holder, levels above 0, size and production, the viewer's spies and cloak,
    when it was seen, then its neighbours short (`Narnia 9 A (3 L0, 4 L1) size 2 +7f +5t | Mid 12 A, Ela 6 B`)."""
    t = view.territories[name]
    if t.fog == "unknown":
        head: Fragments = [("class:muted", f"  {name.ljust(width)} {'?':>{digits}} ? size {t.size}")]
    else:
        shown = short_levels(t.levels)
        extra = [f"({shown})"] if shown and any(t.levels[1:]) else []
        if placing:
            extra.append(f"(+{placing} to place)")
        extra.append(f"size {t.size}")
        if t.food is not None:
            extra.append(f"+{t.food}f +{t.technology}t")
        if t.spies:
            extra.append(plural(t.spies, "spy", "spies"))
        if t.cloaked_until is not None:
            extra.append(f"cloaked to t{t.cloaked_until}")
        if t.fog == "memory":
            extra.append(f"seen t{t.seen}")
        style = palette.style(t.owner)
        head = [
            ("", "  "),
            (style, name.ljust(width)),
            (style, f" {t.units:>{digits}} {palette.mark(t.owner)}"),
            ("class:muted" if t.fog == "memory" else "", " " + " ".join(extra)),
        ]
    out: Fragments = [*head, ("", " |")]
    for number, neighbour in enumerate(game_map.neighbours_in_order(name)):
        out.append(("", ", " if number else " "))
        out += _territory_cell(view.territories[neighbour], palette, short[neighbour])
    return [*out, ("", "\n")]


def focused(view: EvoView, game_map: GameMap, focus: str, you: str | None = None) -> list[str]:
    """What `board NAME` shows: a territory and its neighbours, a player's territories (as far as the player sees
    them), a continent's, or the viewer's front (`board front`)."""
    if focus == FRONT:
        return front_of(game_map, {n: t.owner if t.fog != "unknown" else "?" for n, t in view.territories.items()}, you)
    if focus in game_map:
        return [focus, *game_map.neighbours_in_order(focus)]
    if focus in view.players:
        return [
            n for n in game_map.names if view.territories[n].fog != "unknown" and view.territories[n].owner == focus
        ]
    return [n for n in game_map.names if game_map.territory(n).continent == focus]


def _continent_head(continent: str | None, members: Sequence[str], view: EvoView, palette: Palette) -> Fragments:
    """A continent's heading: how many of its territories each player holds, as far as the viewer knows, and how
    many they never saw (`? 2`)."""
    out: Fragments = [("class:title", continent or "Elsewhere")]
    counts: dict[str | None, int] = {}
    unknown = 0
    for name in members:
        t = view.territories[name]
        if t.fog == "unknown":
            unknown += 1
        else:
            counts[t.owner] = counts.get(t.owner, 0) + 1
    for owner in [*palette.players, None]:
        if counts.get(owner):
            out += [("", "  "), (palette.style(owner), f"{palette.mark(owner)} {counts[owner]}")]
    if unknown:
        out += [("", "  "), ("class:muted", f"? {unknown}")]
    return [*out, ("", "\n")]


def _board(
    view: EvoView,
    game_map: GameMap,
    palette: Palette,
    you: str | None,
    placing: dict[str, int],
    focus: str | None = None,
) -> Fragments:
    """Stocks and technology levels, the marks, then a territory a line grouped by continent, as Evolution 1's
    board with each territory's levels, size and production (under fog, what was last seen and when, `?` for what
    never was). `focus`: a territory with its neighbours, a player, a continent or the front alone, without the
    stocks."""
    names = game_map.names if focus is None else focused(view, game_map, focus, you)
    if focus is not None and not names:
        if focus == FRONT:
            return line(("", "You have no front: no territory of yours is next to someone else's."))
        return line(*palette.name(focus, you), ("", " holds no territory you can see."))
    out: Fragments = []
    me = view.players.get(you) if you is not None else None
    if focus is None and me is not None and me.food is not None:
        step = research_cost(me.tech_level)
        research = f" (research to {me.tech_level + 1}: {step} technology)" if step is not None else ""
        out.append(
            (
                "class:title",
                f"You hold {me.food} food and {me.technology} technology; maximum technology "
                f"level {me.tech_level}{research}" + (", cloaking learnt" if me.cloaking else "") + "\n",
            )
        )
    others = [f"{p} {s.tech_level}" for p, s in view.players.items() if p != you and not s.eliminated]
    if others and focus is None:
        out.append(("class:muted", "Technology levels: " + ", ".join(others) + "\n"))
    if view.following is not None and focus is None:
        out.append(("class:muted", f"Following {view.following}'s sight.\n"))
    known = [view.territories[n] for n in names if view.territories[n].fog != "unknown"]
    out += [*legend(palette, you, any(t.owner is None for t in known)), ("", "\n")]
    out.append(
        (
            "class:muted",
            "Each territory: units, holder, levels above 0 (5 L2: five of level 2), size, food "
            "and technology made a turn (+7f +5t)"
            + (", when last seen (seen t3; ?: never seen)" if view.fogged() else "")
            + " | its neighbours.\n",
        )
    )
    short = short_names(tuple(game_map.names))
    width = min(max((len(n) for n in names), default=0), 18)
    digits = max((len(str(view.territories[n].units)) for n in names), default=1)
    for continent, members in by_continent(game_map, names):
        if game_map.continents:
            out += _continent_head(continent, members, view, palette)
        for name in members:
            out += _territory_line(name, view, game_map, palette, short, width, digits, placing.get(name, 0))
    return out


def _summary(view: EvoView, game_map: GameMap, palette: Palette, you: str | None) -> Fragments:
    stage = stage_of(view)
    fogged = " (fog of war)" if view.fogged() else ""
    out: Fragments = [("class:title", f"{game_map.name}, {stage}, Evolution {view.evolution}{fogged}"), ("", "\n")]
    width = max((len(n) + (6 if n == you else 0) for n in view.players), default=0)
    for name, player in view.players.items():
        shown = f"{name} (you)" if name == you else name
        parts = []
        if player.territories is not None:
            parts.append(plural(player.territories, "territory", "territories"))
            parts.append(units(player.units or 0))
        parts.append(f"technology level {player.tech_level}")
        if player.food is not None:
            parts.append(f"{player.food} food, {player.technology} technology")
        if player.eliminated:
            parts.append("eliminated")
        elif view.phase is Phase.FINISHED and name == view.winner:
            parts.append("winner")
        out += [("", "  "), (palette.style(name), shown.ljust(width)), ("", "  " + "; ".join(parts) + "\n")]
    return out


def _status(view: EvoView, you: str | None, orders: Sequence[Any], game_map: GameMap | None) -> str:
    if view.phase is not Phase.ORDERS or you is None or view.food_left is None:
        return ""
    food, technology = view.food_left, view.technology_left
    if game_map is not None and list(orders) != list(view.your_orders):
        try:
            known = _tally(Context(game_map, view, you, tuple(orders)), view)
        except (KeyError, ValueError):  # orders the client holds that this view cannot account for
            known = None
        if known is not None:
            food, technology = known[1].food, known[1].technology
    return f"{food} food, {technology} technology left"


def _standings(view: EvoView) -> dict[str, tuple[int, int]]:
    if view.phase is Phase.PLACEMENT:
        return {}
    return {name: (p.territories, p.units or 0) for name, p in view.players.items() if p.territories is not None}


class Evolution2Presentation(RiscPresentation):
    """Evolution 2: moves and attacks name unit levels; upgrades and research; the board with levels and stocks."""

    evolution = 2
    turn_hint = "move N[@LEVEL] FROM TO, attack N[@LEVEL] FROM TO, upgrade N T FROM TO, research"

    def parse_turn(self, command: OrderCommand, args: list[str], context: Context) -> list[Any] | ParseError:
        return _parse(command, args, context, context.view)

    def event_line(self, event: Any, palette: Palette, you: str | None) -> Fragments:
        evolved = _event_line(event, palette, you)
        return super().event_line(event, palette, you) if evolved is None else evolved

    def draw(self, asked: Shown) -> Fragments:
        placed = pending_placements(asked.view, asked.orders)
        return _board(asked.view, asked.game_map, asked.palette, asked.you, placed, asked.focus)

    def summary(self, view: Any, game_map: GameMap, palette: Palette, you: str | None) -> Fragments:
        return _summary(view, game_map, palette, you)

    def status(self, view: Any, you: str | None, orders: Sequence[Any], game_map: GameMap | None = None) -> str:
        if view.phase is Phase.PLACEMENT:
            return super().status(view, you, orders, game_map)
        return _status(view, you, orders, game_map)

    def standings(self, view: Any) -> dict[str, tuple[int, int]]:
        return _standings(view)


class Evolution3Presentation(Evolution2Presentation):
    """Evolution 3: spies and cloaks besides, and under fog of war no picture of the map."""

    evolution = 3
    turn_hint = f"{Evolution2Presentation.turn_hint}, spy N T, cloak T"
    choices = ("cloaking",)

    def holdings(self, view: Any) -> dict[str, tuple[str | None, int]] | None:
        """None under fog of war (until the game is over): a picture of owners and units would show what the player
        does not know as if it were known."""
        return None if view.fogged() else super().holdings(view)

    def spectator_note(self, view: Any) -> str:
        if view.fogged():
            return (
                "This game is played under fog of war (Evolution 3): a spectator sees only what is public, so "
                "every territory shows as never seen until the game is over. A player who is out may follow a "
                "player still in and see with their eyes (watch GAME PLAYER); a spectator may not."
            )
        return ""

    def no_picture(self, view: Any, game_map: GameMap) -> str:
        if view.fogged():
            return (
                "Under fog of war the map is not drawn: a picture would show what you cannot see as if you "
                "saw it. board lists what you know, and when you saw it."
            )
        return super().no_picture(view, game_map)
