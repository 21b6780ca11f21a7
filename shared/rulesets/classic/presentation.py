"""How classic Risk reads in the text client: the SOEN 6441 grammar (C12), each command in its phase; the board by
continent with the phase, the active player and the viewer's cards; every roll as it falls."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from shared.game import grammar
from shared.game.grammar import ParseError
from shared.game.presentation import (
    FRONT,
    SMALL_MAP,
    ArgKind,
    Context,
    Fragments,
    Holding,
    OrderCommand,
    Palette,
    Shown,
    draw_line,
    front_of,
    held_text,
    line,
    plural,
    runs,
)
from shared.maps.model import GameMap
from shared.rulesets.classic.board import Phase
from shared.rulesets.classic.dice import most_attack_dice
from shared.rulesets.classic.events import (
    ArmiesMovedIn,
    ArmiesPlaced,
    ArmyPlaced,
    AttacksEnded,
    CapitalChosen,
    CardDrawn,
    CardReceived,
    CardsCaptured,
    CardsHandedOver,
    CardsKept,
    CardsTraded,
    Cheated,
    CountryConquered,
    DeckReshuffled,
    DiceRolled,
    FortificationSkipped,
    Fortified,
    GameDrawn,
    GameWon,
    MissionChanged,
    PlayerEliminated,
    Reinforced,
    TurnStarted,
)
from shared.rulesets.classic.orders import (
    AllOut,
    Attack,
    AttackMove,
    AttackUntil,
    Cheat,
    ChooseCapital,
    ExchangeCards,
    Fortify,
    KeepCards,
    NoAttack,
    NoFortify,
    PlaceAll,
    PlaceArmy,
    Reinforce,
)
from shared.rulesets.classic.view import ClassicView
from shared.rulesets.turn_by_turn.presentation import TurnByTurnPresentation

PLACEARMY = OrderCommand(
    "placearmy",
    (),
    "placearmy COUNTRY",
    "placearmy Alaska",
    "place one of your starting armies on one of your countries",
    (ArgKind.OWN,),
    ("startup",),
)
PLACEALL = OrderCommand(
    "placeall",
    (),
    "placeall",
    "placeall",
    "place all your remaining starting armies at random on your countries",
    (),
    ("startup",),
)
CAPITAL = OrderCommand(
    "capital",
    (),
    "capital COUNTRY",
    "capital Brazil",
    "choose one of your countries as your capital (capital mode)",
    (ArgKind.OWN,),
    ("capital",),
)
EXCHANGECARDS = OrderCommand(
    "exchangecards",
    ("exchange",),
    "exchangecards N N N | exchangecards -none",
    "exchangecards 1 2 3",
    "trade the cards at these positions of your hand for armies, or -none to keep them",
    (ArgKind.CHOICE,),
    ("reinforcement",),
    ("-none",),
)
REINFORCE = OrderCommand(
    "reinforce",
    (),
    "reinforce COUNTRY NUM",
    "reinforce Alaska 3",
    "place NUM of your reinforcements on one of your countries",
    (ArgKind.OWN, ArgKind.UNITS),
    ("reinforcement",),
)
ATTACK = OrderCommand(
    "attack",
    (),
    "attack FROM TO [NUMDICE] | attack FROM TO -allout | attack FROM TO -until NUM | attack -noattack",
    "attack Alaska Kamchatka 3",
    "roll NUMDICE dice (1 to 3; the most if left out) against a neighbour, attack until it falls "
    "(-allout) or until NUM armies are left in FROM (-until NUM), or end your attacks (-noattack)",
    (ArgKind.OWN, ArgKind.ENEMY, ArgKind.CHOICE),
    ("attack",),
    ("-allout", "-until", "-noattack", "1", "2", "3"),
)
ATTACKMOVE = OrderCommand(
    "attackmove",
    (),
    "attackmove NUM",
    "attackmove 3",
    "move NUM armies into the country you have just conquered",
    (ArgKind.UNITS,),
    ("move-in",),
)
FORTIFY = OrderCommand(
    "fortify",
    (),
    "fortify FROM TO NUM | fortify -none",
    "fortify Alaska Alberta 4",
    "your one move of the turn, between your countries joined by yours; -none to skip it (the turn ends)",
    (ArgKind.OWN, ArgKind.TARGET, ArgKind.UNITS),
    ("fortification",),
    ("-none",),
)
CHEAT = OrderCommand(
    "cheat",
    (),
    "cheat",
    "cheat",
    "break the rules as the cheater does (only in games that allow it)",
    (),
    ("reinforcement", "attack", "fortification"),
)

COMMANDS = (PLACEARMY, PLACEALL, CAPITAL, EXCHANGECARDS, REINFORCE, ATTACK, ATTACKMOVE, FORTIFY, CHEAT)


def _usage(command: OrderCommand) -> ParseError:
    return ParseError(f"usage: {command.usage}, e.g. {command.example}")


def _armies(n: int) -> str:
    return plural(n, "army", "armies")


def _country_and_count(
    args: list[str], command: OrderCommand, names: Sequence[str], what: str
) -> tuple[str, int] | ParseError:
    if len(args) < 2:
        return _usage(command)
    count = grammar.count(args[-1], what, command.usage)
    if isinstance(count, ParseError):
        return count
    country = grammar.name(" ".join(args[:-1]), names, "country")
    return country if isinstance(country, ParseError) else (country, count)


def _two_countries(args: list[str], command: OrderCommand, names: Sequence[str]) -> tuple[str, str] | ParseError:
    return grammar.source_and_target(args, names, command.usage, "country")


class ClassicPresentation(TurnByTurnPresentation):
    brief_boards = True
    cards = True
    territory_words = ("country", "countries")
    unit_words = ("army", "armies")
    resignation = "their countries stay theirs with their armies, for the others to take, and their cards are discarded"
    commands = COMMANDS

    def parse(self, command: OrderCommand, args: list[str], context: Context) -> list[Any] | ParseError:
        names = context.territories
        words = [a.casefold() for a in args]
        if command is PLACEALL:
            return [PlaceAll()] if not args else _usage(command)
        if command is CHEAT:
            return [Cheat()] if not args else _usage(command)
        if command in (PLACEARMY, CAPITAL):
            if not args:
                return _usage(command)
            country = grammar.name(" ".join(args), names, "country")
            if isinstance(country, ParseError):
                return country
            return [PlaceArmy(country) if command is PLACEARMY else ChooseCapital(country)]
        if command is EXCHANGECARDS:
            if words == ["-none"]:
                return [KeepCards()]
            if len(args) != 3:
                return _usage(command)
            positions = [grammar.count(a, "a card's position", command.usage) for a in args]
            for p in positions:
                if isinstance(p, ParseError):
                    return p
            a, b, c = (int(str(p)) for p in positions)
            return [ExchangeCards((a, b, c))]
        if command is REINFORCE:
            found = _country_and_count(args, command, names, "the number of armies")
            return found if isinstance(found, ParseError) else [Reinforce(*found)]
        if command is ATTACKMOVE:
            if len(args) != 1:
                return _usage(command)
            count = grammar.count(args[0], "the number of armies", command.usage)
            return count if isinstance(count, ParseError) else [AttackMove(count)]
        if command is ATTACK:
            if words == ["-noattack"]:
                return [NoAttack()]
            if len(args) < 2:
                return _usage(command)
            if words[-1] == "-allout":
                pair = _two_countries(args[:-1], command, names)
                return pair if isinstance(pair, ParseError) else [AllOut(*pair)]
            if len(args) >= 4 and words[-2] == "-until":
                pair = _two_countries(args[:-2], command, names)
                remain = grammar.count(args[-1], "the armies to leave", command.usage)
                if isinstance(pair, ParseError):
                    return pair
                return remain if isinstance(remain, ParseError) else [AttackUntil(pair[0], pair[1], remain)]
            if len(args) >= 3 and re.fullmatch(r"[+-]?\d+", args[-1]):
                pair = _two_countries(args[:-1], command, names)
                dice = grammar.count(args[-1], "the number of dice", command.usage)
                if isinstance(pair, ParseError):
                    return pair
                if isinstance(dice, ParseError):
                    return dice
                return [Attack(pair[0], pair[1], dice)]
            # C5: the number of dice is the attacker's choice, by default the most.
            pair = _two_countries(args, command, names)
            if isinstance(pair, ParseError):
                return pair
            view: ClassicView | None = context.view
            if view is None or pair[0] not in view.territories:
                return ParseError(f"say how many dice: {command.usage}")
            return [Attack(pair[0], pair[1], max(1, most_attack_dice(view.territories[pair[0]].armies)))]
        if command is FORTIFY:
            if words == ["-none"]:
                return [NoFortify()]
            if len(args) < 3:
                return _usage(command)
            count = grammar.count(args[-1], "the number of armies", command.usage)
            if isinstance(count, ParseError):
                return count
            pair = _two_countries(args[:-1], command, names)
            return pair if isinstance(pair, ParseError) else [Fortify(pair[0], pair[1], count)]
        return _usage(command)

    # ---- events --------------------------------------------------------------------------------------------------

    def gathers(self, event: Any, you: str | None) -> bool:
        """The armies the others place one at a time at the start: told a player a line once their run ends."""
        return isinstance(event, ArmyPlaced) and event.player != you

    def brief(self, events: Sequence[Any], palette: Palette, you: str | None) -> Fragments:
        """As `events`, but armies placed one at a time told a player a line: "bot-1 places 27 armies: 26 on
        Hermitage, 1 on Eyrie." (or "places 27 armies on Eyrie.") rather than 27 lines."""
        out: Fragments = []
        for run in runs(events, lambda first, then: isinstance(first, ArmyPlaced) and isinstance(then, ArmyPlaced)):
            if len(run) == 1 or not isinstance(run[0], ArmyPlaced):
                out += self.events(run, palette, you)
                continue
            placed: dict[str, dict[str, int]] = {}
            for event in run:
                where = placed.setdefault(event.player, {})
                where[event.country] = where.get(event.country, 0) + 1
            for player, where in placed.items():
                if len(where) == 1:
                    country, count = next(iter(where.items()))
                    what = "an army" if count == 1 else _armies(count)
                    out += line(*palette.name(player, you), ("", f" places {what} on {country}."))
                    continue
                spread = ", ".join(f"{n} on {country}" for country, n in sorted(where.items(), key=lambda p: -p[1]))
                out += line(*palette.name(player, you), ("", f" places {_armies(sum(where.values()))}: {spread}."))
        return out

    def event_line(self, event: Any, palette: Palette, you: str | None) -> Fragments:
        who = palette.name(getattr(event, "player", None), you)
        if isinstance(event, ArmyPlaced):
            return line(*who, ("", f" places an army on {event.country}."))
        if isinstance(event, ArmiesPlaced):
            where = ", ".join(f"{n} on {name}" for name, n in event.placed)
            whose = "your" if event.player == you else "their"
            return line(*who, ("", f" places the rest of {whose} armies: {where or 'none left'}."))
        if isinstance(event, CapitalChosen):
            return line(*who, ("", f" chooses {event.country} as capital."))
        if isinstance(event, TurnStarted):
            parts = [f"{event.from_countries} for countries"]
            parts += [f"{bonus} for {name}" for name, bonus in event.continents]
            return [
                ("class:turn", f" Turn {event.turn} "),
                ("", " "),
                *who,
                ("", f" reinforces with {_armies(event.armies)} ({', '.join(parts)}).\n"),
            ]
        if isinstance(event, CardsTraded):
            cards = ", ".join(str(c) for c in event.cards)
            return line(*who, ("", f" trades {cards} for {_armies(event.armies)}."))
        if isinstance(event, CardsKept):
            return line(*who, ("", " keeps their cards this turn."))
        if isinstance(event, Reinforced):
            return line(*who, ("", f" reinforces {event.country} with {event.armies} ({event.left} left to place)."))
        if isinstance(event, DiceRolled):
            return self.roll_line(event, palette, you)
        if isinstance(event, CountryConquered):
            tail: Fragments = (
                []
                if event.least == event.most
                else [
                    ("", f" {event.least} to {event.most} armies may move in."),
                    ("class:command", " (attackmove NUM)"),
                ]
            )
            return line(
                *who,
                ("class:ok", f" conquers {event.country}"),
                ("", " from "),
                *palette.name(event.defender, you),
                ("", "."),
                *tail,
            )
        if isinstance(event, ArmiesMovedIn):
            how = " (the only choice)" if event.automatic else ""
            return line(*who, ("", f" moves {_armies(event.armies)} from {event.source} into {event.target}{how}."))
        if isinstance(event, AttacksEnded):
            why = ": no attack is possible" if event.automatic else ""
            return line(*who, ("class:muted", f" ends the attacks{why}."))
        if isinstance(event, Fortified):
            return line(*who, ("", f" fortifies {event.target} with {_armies(event.armies)} from {event.source}."))
        if isinstance(event, FortificationSkipped):
            why = ": no move is possible" if event.automatic else ""
            return line(*who, ("class:muted", f" does not fortify{why}."))
        if isinstance(event, CardDrawn):
            return line(*who, ("", f" draws a card (now holds {event.cards})."))
        if isinstance(event, CardReceived):
            whose = "Your" if event.player == you else f"{event.player}'s"
            return line(("class:hint", f"{whose} new card: {event.card}."))
        if isinstance(event, DeckReshuffled):
            return line(("class:muted", f"The discard pile is shuffled into a new deck of {event.cards} cards."))
        if isinstance(event, CardsCaptured):
            return line(
                *who, ("", f" takes {plural(event.count, 'card')} from "), *palette.name(event.loser, you), ("", ".")
            )
        if isinstance(event, CardsHandedOver):
            return line(("class:hint", "The cards: " + ", ".join(str(c) for c in event.cards) + "."))
        if isinstance(event, MissionChanged):
            return line(("class:hint", f"{event.player}'s mission is now: {event.mission}."))
        if isinstance(event, Cheated):
            what = {
                "reinforcement": "doubles the armies on",
                "attack": "takes",
                "fortification": "doubles the armies on the borders at",
            }.get(event.phase, event.phase)
            return line(*who, ("class:error", " cheats: "), ("", f"{what} {', '.join(event.countries) or 'nothing'}."))
        if isinstance(event, PlayerEliminated):
            if event.player == you:
                return line(("class:error", "You are out: you hold no country any more."))
            return line(*who, ("class:error", " is eliminated by "), *palette.name(event.by, you), ("", "."))
        if isinstance(event, GameWon):
            if event.player == you:
                return line(("class:win", f"You win ({event.how})!"))
            return line(*who, ("class:win", f" wins the game ({event.how})!"))
        if isinstance(event, GameDrawn):
            return draw_line(event.reason)
        return []

    def roll_line(self, event: DiceRolled, palette: Palette, you: str | None) -> Fragments:
        """One roll: who attacks what, every die of both sides, the losses and the armies left on both sides."""
        attack = " ".join(str(d) for d in event.attack)
        defence = " ".join(str(d) for d in event.defence)
        out: Fragments = [
            *palette.name(event.player, you),
            ("", f" {event.source} -> {event.target} "),
            ("", "("),
            *palette.name(event.defender, you),
            ("", "): "),
            ("class:title", f"[{attack}]"),
            ("", " vs "),
            ("class:title", f"[{defence}]"),
            ("", "  "),
        ]
        losses = []
        if event.attacker_losses:
            losses.append(f"attacker -{event.attacker_losses}")
        if event.defender_losses:
            losses.append(f"defender -{event.defender_losses}")
        out.append(
            ("", f"{', '.join(losses)}; {event.source} {event.source_armies}, {event.target} {event.target_armies}\n")
        )
        return out

    # ---- the board -----------------------------------------------------------------------------------------------

    def draw(self, asked: Shown) -> Fragments:
        """The phase and who acts, then every country by continent (owner's mark, armies, name, neighbours), then
        the viewer's cards and mission."""
        view: ClassicView = asked.view
        game_map, palette, you, focus = asked.game_map, asked.palette, asked.you, asked.focus
        out = [*self.heading(view, palette, you), *palette.legend(you)]
        front = (
            set(front_of(game_map, {n: t.owner for n, t in view.territories.items()}, you)) if focus == FRONT else set()
        )
        capitals = {p.capital for p in view.players.values() if p.capital}
        groups = list(game_map.continent_members().items()) or [("", list(game_map.names))]
        grouped = {n for _, members in groups for n in members}
        loose = [n for n in game_map.names if n not in grouped]
        if loose:
            groups.append(("(no continent)", loose))
        bonus = {c.name: c.bonus for c in game_map.continents}
        for continent, members in groups:
            shown = [n for n in members if focus is None or focus in (n, view.territories[n].owner) or n in front]
            if not shown:
                continue
            if continent:
                owners = {view.territories[n].owner for n in members}
                held = f", held by {owners.pop()}" if len(owners) == 1 else ""
                out.append(("class:title", f"{continent.replace('_', ' ')} ({bonus.get(continent, 0)}{held})\n"))
            for name in shown:
                state = view.territories[name]
                star = "*" if name in capitals else " "
                out += [
                    ("", "  "),
                    (palette.style(state.owner), f"{palette.mark(state.owner)} {state.armies:>3}"),
                    ("", f" {star}{name}"),
                    ("class:muted", "  ->"),
                ]
                for number, neighbour in enumerate(game_map.neighbours_in_order(name)):
                    there = view.territories[neighbour]
                    out += [
                        ("class:muted", "," if number else ""),
                        ("", " "),
                        held_text((there.owner, there.armies), palette, neighbour),
                    ]
                out.append(("", "\n"))
        out += self.hand(view, you)
        return out

    def stage_board(
        self, view: ClassicView, game_map: GameMap, palette: Palette, you: str | None, orders: Sequence[Any] = ()
    ) -> Fragments:
        """A small map's whole board at each of the player's turns and phases; a large one's summary (the phase,
        who acts, each player's countries, armies and cards), where the player stands and their cards: `board`,
        `board front` and `map` show the countries when asked."""
        if len(game_map.territories) <= SMALL_MAP:
            return self.board(view, game_map, palette, you, orders)
        return [*super().stage_board(view, game_map, palette, you, orders), *self.hand(view, you)]

    def heading(self, view: ClassicView, palette: Palette, you: str | None) -> Fragments:
        if view.phase is Phase.FINISHED:
            return [("class:win", "Game over: "), *palette.name(view.winner, you), ("", " won.\n")]
        stage = "startup" if view.turn == 0 else f"turn {view.turn}"
        out: Fragments = [
            ("class:turn", f" {stage.capitalize()} "),
            ("", " "),
            *palette.name(view.active, you),
            ("", f", {view.phase.value} phase"),
        ]
        if view.phase is Phase.REINFORCEMENT:
            out.append(("", f": {_armies(view.reinforcements)} to place"))
        elif view.phase is Phase.STARTUP and view.active in view.players:
            out.append(("", f": {_armies(view.players[view.active].unplaced)} to place"))
        elif view.phase is Phase.MOVE_IN and view.conquest is not None:
            c = view.conquest
            out.append(("", f": {c.least} to {c.most} armies to move from {c.source} into {c.target}"))
        return [*out, ("", ".\n")]

    def hand(self, view: ClassicView, you: str | None) -> Fragments:
        if you is None or you not in view.players:
            return []
        out: Fragments = []
        if view.your_hand:
            cards = "  ".join(f"{i}. {card}" for i, card in enumerate(view.your_hand, 1))
            worth = f" (next set: {_armies(view.next_trade)})" if view.next_trade else ""
            out.append(("class:hint", f"Your cards{worth}: {cards}\n"))
        else:
            out.append(("class:muted", "You hold no cards.\n"))
        mission = view.players[you].mission
        if mission is not None:
            out.append(("class:hint", f"Your mission: {mission}.\n"))
        return out

    def summary(self, view: ClassicView, game_map: GameMap, palette: Palette, you: str | None) -> Fragments:
        out = self.heading(view, palette, you)
        rows = []
        for name in view.seats:
            p = view.players[name]
            state = (
                "out" if p.eliminated else "winner" if name == view.winner else "to act" if name == view.active else ""
            )
            extra = f", capital {p.capital}" if p.capital else ""
            rows.append(
                (
                    name,
                    f"{plural(p.countries, 'country', 'countries')}, {_armies(p.armies)}, "
                    f"{plural(p.cards, 'card')}{extra}",
                    state,
                )
            )
        width = max(len(n) + (6 if n == you else 0) for n, _, _ in rows)
        for name, text, state in rows:
            shown = f"{name} (you)" if name == you else name
            out += [("", "  "), (palette.style(name), shown.ljust(width)), ("", f"  {text}  {state}".rstrip() + "\n")]
        return out

    def actor(self, event: Any) -> str | None:
        if isinstance(event, MissionChanged):
            return None  # what follows someone's action, not one
        return super().actor(event)

    def hint(self, view: ClassicView, game_map: GameMap, you: str | None, awaited: bool) -> Fragments:
        if not awaited or you is None:
            return []
        text = {
            Phase.STARTUP: "Place a starting army: placearmy COUNTRY, or placeall.",
            Phase.CAPITAL: "Choose your capital: capital COUNTRY.",
            Phase.REINFORCEMENT: f"Place {_armies(view.reinforcements)}: reinforce COUNTRY NUM"
            + (
                "; trade cards first: exchangecards N N N"
                if len(view.your_hand) >= 5
                else "; exchangecards N N N or -none"
                if len(view.your_hand) >= 3 and not view.trading_closed
                else ""
            )
            + ".",
            Phase.ATTACK: "Attack: attack FROM TO NUMDICE, attack FROM TO -allout, or attack -noattack.",
            Phase.MOVE_IN: "Move armies into the conquered country: attackmove NUM"
            + (f" ({view.conquest.least} to {view.conquest.most})." if view.conquest else "."),
            Phase.FORTIFICATION: "Fortify: fortify FROM TO NUM, or fortify -none (ends your turn).",
        }.get(view.phase, "")
        return [("class:hint", text + "\n")] if text else []

    def status(self, view: ClassicView, you: str | None, orders: Sequence[Any], game_map: GameMap | None = None) -> str:
        if view.phase is Phase.REINFORCEMENT:
            return f"{_armies(view.reinforcements)} to place"
        if view.phase is Phase.STARTUP and you in view.players:
            return f"{_armies(view.players[you].unplaced)} to place"
        if view.phase is Phase.MOVE_IN and view.conquest is not None:
            return f"move {view.conquest.least}-{view.conquest.most} into {view.conquest.target}"
        return ""  # the status bar names the phase already

    def standings(self, view: ClassicView) -> dict[str, tuple[int, int]]:
        return {name: (p.countries, p.armies) for name, p in view.players.items()}

    def candidates(self, kind: ArgKind, words: Sequence[str], context: Context) -> Sequence[str]:
        view: ClassicView | None = context.view
        names = context.territories
        if view is None or context.game_map is None:
            return names
        game_map = context.game_map
        own = [n for n in names if view.territories[n].owner == context.you]
        if kind is ArgKind.OWN:
            return own or names
        source = grammar.name(words[1], names, "country") if len(words) > 1 else None
        if kind is ArgKind.ENEMY and isinstance(source, str):
            return [
                n
                for n in game_map.neighbours_in_order(source)
                if view.territories[n].owner != view.territories[source].owner
            ] or names
        if kind is ArgKind.TARGET:
            return own or names
        return names

    def focus_names(self, view: ClassicView, game_map: GameMap) -> Sequence[str]:
        return [*game_map.names, *view.seats, FRONT]

    def holdings(self, view: ClassicView) -> dict[str, Holding]:
        """Every country's owner and armies: `map` draws them where the map puts each country."""
        return {name: (country.owner, country.armies) for name, country in view.territories.items()}
