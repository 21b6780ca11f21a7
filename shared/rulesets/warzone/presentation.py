"""How Warzone reads in the text client: the seven order commands, the board with its continents, pools, card counts
and the viewer's own hand, the turn's report, and the statistics table at the end.

`cards` is a show-only command (Presentation.shows, a generic hook added for it): it prints the viewer's hand.
Until the text client offers show-only commands, the hand is on the board too, and alone with `board cards`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from shared.game import grammar, reports, tagged
from shared.game.grammar import ParseError
from shared.game.presentation import (
    FRONT,
    ArgKind,
    Context,
    Fragments,
    Holding,
    OrderCommand,
    Palette,
    Presentation,
    ShowCommand,
    Shown,
    draw_line,
    front_of,
    line,
    plural,
    runs,
    territory_board,
    units,
    whole,
)
from shared.game.ruleset import Private
from shared.game.shares import even_shares
from shared.maps.model import GameMap
from shared.rulesets.warzone import events
from shared.rulesets.warzone.board import Phase
from shared.rulesets.warzone.cards import REINFORCEMENT_UNITS, Card, a_card
from shared.rulesets.warzone.events import TurnStats
from shared.rulesets.warzone.orders import (
    AdvanceOrder,
    AirliftOrder,
    BlockadeOrder,
    BombOrder,
    DeployOrder,
    NegotiateOrder,
    ReinforceOrder,
)
from shared.rulesets.warzone.view import WarzoneView

DEPLOY = OrderCommand(
    "deploy",
    ("dep",),
    "deploy N TERRITORY...",
    "deploy 5 Quebec",
    "put N units of your pool on one of your territories, or spread them over several (name "
    "them all, or * for all yours); deploy rest TERRITORY... deploys what is left; deploys execute first",
    (ArgKind.UNITS, ArgKind.OWN),
    ("orders",),
    repeat=True,
)
ADVANCE = OrderCommand(
    "advance",
    ("adv",),
    "advance N FROM TO",
    "advance 3 Quebec Ontario",
    "send N units to a neighbouring territory: a move if it is yours, a battle otherwise",
    (ArgKind.UNITS, ArgKind.OWN, ArgKind.TARGET),
    ("orders",),
)
BOMB = OrderCommand(
    "bomb",
    (),
    "bomb TERRITORY",
    "bomb Ontario",
    "halve the units of a territory next to yours (plays a bomb card)",
    (ArgKind.ENEMY,),
    ("orders",),
)
BLOCKADE = OrderCommand(
    "blockade",
    ("blk",),
    "blockade TERRITORY",
    "blockade Quebec",
    "multiply your territory's units and make it neutral (plays a blockade card)",
    (ArgKind.OWN,),
    ("orders",),
)
AIRLIFT = OrderCommand(
    "airlift",
    ("air",),
    "airlift N FROM TO",
    "airlift 4 Quebec Alberta",
    "move N units between two of your territories, at any distance (plays an airlift card)",
    (ArgKind.UNITS, ArgKind.OWN, ArgKind.OWN),
    ("orders",),
)
NEGOTIATE = OrderCommand(
    "negotiate",
    ("neg",),
    "negotiate PLAYER",
    "negotiate Bob",
    "a truce with a player for this turn: no advances or bombs between you (plays a diplomacy card)",
    (ArgKind.PLAYER,),
    ("orders",),
)
REINFORCE = OrderCommand(
    "reinforce",
    ("rf",),
    "reinforce",
    "reinforce",
    "5 more units in this turn's pool, for the deploys you issue next (plays a reinforcement card)",
    (),
    ("orders",),
)

CARDS = ShowCommand("cards", ("hand",), "cards", "show your cards (the others see only how many you hold)")

CARDS_FOCUS = "cards"
"""`board cards`: the viewer's hand alone, for a client that offers no show-only commands."""

CARD_USE = {
    Card.BOMB.value: "bomb TERRITORY halves the units of a territory next to yours",
    Card.REINFORCEMENT.value: "reinforce adds 5 units to this turn's pool",
    Card.BLOCKADE.value: "blockade TERRITORY multiplies your territory's units and makes it neutral",
    Card.AIRLIFT.value: "airlift N FROM TO moves units between your territories at any distance",
    Card.DIPLOMACY.value: "negotiate PLAYER: no advances or bombs between you this turn",
}

STAT_COLUMNS = ("turn", "territories", "units", "conquests", "losses", "cards played")


def _usage(command: OrderCommand) -> str:
    return f"usage: {command.usage}, e.g. {command.example}"


def hand_text(hand: dict[str, int] | None) -> str:
    if hand is None:
        return "no hand (you are watching)"
    held = [f"{card}" if n == 1 else f"{card} x{n}" for card, n in hand.items() if n > 0]
    return ", ".join(held) if held else "no cards"


def statistics_table(statistics: Sequence[events.TurnStats], players: Sequence[str]) -> list[str]:
    """W14: each player's statistics turn by turn, then their totals, as plain lines."""
    out = ["Statistics, turn by turn:"]
    widths = [len(c) for c in STAT_COLUMNS]
    header = "  ".join(c.rjust(w) for c, w in zip(STAT_COLUMNS, widths, strict=True))
    for player in players:
        out.append(f"  {player}")
        out.append(f"    {header}")
        conquests = losses = cards = 0
        for stats in statistics:
            row = stats.players.get(player)
            if row is None:
                continue
            conquests += row.conquests
            losses += row.losses
            cards += row.cards_played
            cells = (stats.turn, row.territories, row.units, row.conquests, row.losses, row.cards_played)
            out.append("    " + "  ".join(str(v).rjust(w) for v, w in zip(cells, widths, strict=True)))
        cells_total = ("all", "", "", conquests, losses, cards)
        out.append("    " + "  ".join(str(v).rjust(w) for v, w in zip(cells_total, widths, strict=True)))
    return out


class WarzonePresentation(Presentation):
    brief_boards = True
    cards = True
    resignation = "their territories are neutral now, with their units, and their cards went back to the deck"
    commands = (DEPLOY, ADVANCE, BOMB, BLOCKADE, AIRLIFT, NEGOTIATE, REINFORCE)
    shows = (CARDS,)

    # ---- reading ---------------------------------------------------------------------------------------------------

    def parse(self, command: OrderCommand, args: list[str], context: Context) -> list[Any] | ParseError:
        names = context.territories
        if command is REINFORCE:
            if args:
                return ParseError(f"reinforce takes nothing more; {_usage(command)}")
            return [ReinforceOrder()]
        if command is NEGOTIATE:
            if not args:
                return ParseError(f"negotiate needs a player's name; {_usage(command)}")
            players = list(context.view.players) if context.view is not None else []
            found = grammar.name(" ".join(args), [p for p in players if p != context.you] or players, "player")
            return found if isinstance(found, ParseError) else [NegotiateOrder(found)]
        if command in (BOMB, BLOCKADE):
            if not args:
                return ParseError(f"{command.name} needs a territory; {_usage(command)}")
            territory = grammar.name(" ".join(args), names)
            if isinstance(territory, ParseError):
                return territory
            return [BombOrder(territory) if command is BOMB else BlockadeOrder(territory)]
        if command is DEPLOY:
            if len(args) < 2:
                return ParseError(f"deploy needs a number of units and a territory; {_usage(command)}")
            view = context.view
            if args[0].casefold() in grammar.REST:
                left = self._pool_left(view, context.you, context.orders) if view and context.you else 0
                if left <= 0:
                    return ParseError("you have no units left to deploy")
                count: int | ParseError = left
            else:
                count = grammar.count(args[0], "the number of units", _usage(command))
            if isinstance(count, ParseError):
                return count
            own = [n for n in names if view is not None and view.territories[n].owner == context.you]
            targets = grammar.several(args[1:], names, own)
            if isinstance(targets, ParseError):
                return targets
            return [DeployOrder(name, units) for name, units in even_shares(count, targets)] or [
                DeployOrder(targets[0], count)
            ]
        if len(args) < 3:
            return ParseError(f"{command.name} needs a number of units, where from and where to; {_usage(command)}")
        count = grammar.count(args[0], "the number of units", _usage(command))
        if isinstance(count, ParseError):
            return count
        pair = grammar.source_and_target(args[1:], names, _usage(command))
        if isinstance(pair, ParseError):
            return pair
        source, target = pair
        if command is AIRLIFT:
            return [AirliftOrder(count, source, target)]
        return [AdvanceOrder(count, source, target)]

    def show(
        self, command: ShowCommand, view: WarzoneView, game_map: GameMap, palette: Palette, you: str | None
    ) -> Fragments:
        """`cards`: the viewer's hand, each card with what it does."""
        if command is not CARDS:
            return []
        out = line(("class:title", "Your cards: "), ("", hand_text(view.hand)))
        for card, n in (view.hand or {}).items():
            if n > 0:
                out += line(("class:muted", f"  {card}: {CARD_USE[card]}"))
        return out

    def candidates(self, kind: ArgKind, words: Sequence[str], context: Context) -> Sequence[str]:
        """Only names the order can take: own territories, a source's neighbours, territories a bomb can reach,
        players still in the game."""
        view: WarzoneView | None = context.view
        game_map = context.game_map
        names = context.territories
        if view is None or game_map is None:
            return names
        me = context.you
        own = [n for n in names if view.territories[n].owner == me]
        if kind is ArgKind.PLAYER:
            return [p for p, s in view.players.items() if p != me and not s.eliminated]
        if kind is ArgKind.OWN:
            if len(words) > 2 and words[0].casefold() in (*AIRLIFT.aliases, AIRLIFT.name):
                source = grammar.name(words[2], names)
                return [n for n in own if n != source]
            return own
        if kind is ArgKind.TARGET and len(words) > 2:
            source = grammar.name(words[2], names)
            if isinstance(source, str):
                return list(game_map.neighbours_in_order(source))
            return names
        if kind is ArgKind.ENEMY:
            mine = set(own)
            return [
                n for n in names if view.territories[n].owner != me and any(n in game_map.neighbours(s) for s in mine)
            ]
        return names

    def focus_names(self, view: Any, game_map: GameMap) -> Sequence[str]:
        extra = [CARDS_FOCUS, FRONT]
        if isinstance(view, WarzoneView):
            extra += list(view.players) + list(view.continents)
        return [*game_map.names, *extra]

    def holdings(self, view: WarzoneView) -> dict[str, Holding]:
        """Every territory's owner and units: `map` draws them where the map puts each territory."""
        return {name: (territory.owner, territory.units) for name, territory in view.territories.items()}

    # ---- showing the board -----------------------------------------------------------------------------------------

    def draw(self, asked: Shown) -> Fragments:
        """The continents (bonus and holder) in a paragraph, the players (pool, cards, income), your hand and pool,
        then a territory a line grouped by continent as RISC's board: its units and holder's mark, your deploys to
        come, and each neighbour short with its units and mark. `focus`: one territory with its neighbours, a
        player, a continent, your front, or `cards` for the hand alone."""
        view: WarzoneView = asked.view
        game_map, palette, you, orders, focus = asked.game_map, asked.palette, asked.you, asked.orders, asked.focus
        if focus == CARDS_FOCUS:
            return line(("class:title", "Your cards: "), ("", hand_text(view.hand)))
        deploying: dict[str, int] = {}
        for order in orders:
            if isinstance(order, DeployOrder):
                deploying[order.territory] = deploying.get(order.territory, 0) + order.units
        held = self.holdings(view)
        names = list(game_map.names)
        if focus == FRONT:
            names = front_of(game_map, {n: t.owner for n, t in view.territories.items()}, you)
            if not names:
                return line(("", "You have no front: no territory of yours is next to someone else's."))
        elif focus is not None and focus in view.continents:
            names = [t.name for t in game_map.territories if t.continent == focus] or names
        elif focus is not None and focus in game_map:
            names = [focus, *game_map.neighbours_in_order(focus)]
        elif focus is not None and focus in view.players:
            names = [n for n in names if view.territories[n].owner == focus]
            if not names:
                return line(*palette.name(focus, you), ("", " holds no territory."))
        out: Fragments = self._header(view, game_map, palette, you, orders) if focus is None else []
        return [
            *out,
            *territory_board(
                game_map, held, palette, you, names, {n: f" (+{k} to deploy)" for n, k in deploying.items() if k}
            ),
        ]

    def _header(
        self, view: WarzoneView, game_map: GameMap, palette: Palette, you: str | None, orders: Sequence[Any]
    ) -> Fragments:
        if not game_map.continents:  # the whole map counts as one continent of bonus 0: nothing worth saying
            out: Fragments = line(("class:title", "Continents"), ("", ": none on this map, so no continent bonus."))
            return [*out, *self._players_and_hand(view, game_map, palette, you, orders)]
        out = [
            ("class:title", "Continents"),
            ("class:muted", " (bonus, and the mark of who holds all of one)"),
            ("", ": "),
        ]
        for number, (name, continent) in enumerate(view.continents.items()):
            out.append(("", ", " if number else ""))
            out.append((whole(""), f"{name} {continent.bonus}"))
            if continent.holder:
                out += [("", " "), (palette.style(continent.holder), palette.mark(continent.holder))]
        out.append(("", "\n"))
        return [*out, *self._players_and_hand(view, game_map, palette, you, orders)]

    def _players_and_hand(
        self, view: WarzoneView, game_map: GameMap, palette: Palette, you: str | None, orders: Sequence[Any]
    ) -> Fragments:
        out = self.summary(view, game_map, palette, you)
        if you is not None and view.hand is not None:
            out += line(("class:title", "Your cards: "), ("", hand_text(view.hand)))
            if view.phase is Phase.ORDERS:
                left = self._pool_left(view, you, orders or view.your_orders)
                out += line(("class:title", "Your pool: "), ("", f"{units(left)} to deploy"))
        return out

    @staticmethod
    def _pool_left(view: WarzoneView, you: str, orders: Sequence[Any]) -> int:
        """The viewer's pool left once `orders` (their orders as they stand now) are counted."""
        player = view.players.get(you)
        if player is None:
            return 0
        deployed = sum(o.units for o in orders if isinstance(o, DeployOrder))
        return player.pool - deployed + REINFORCEMENT_UNITS * sum(1 for o in orders if isinstance(o, ReinforceOrder))

    def summary(self, view: WarzoneView, game_map: GameMap, palette: Palette, you: str | None) -> Fragments:
        """Per player: territories, units, pool, cards held, income; then the turn."""
        stage = (
            f"finished after turn {view.turn}"
            if view.phase is Phase.FINISHED
            else f"turn {view.turn}" + (f" of {view.max_turns}" if view.max_turns else "")
        )
        out: Fragments = [("class:title", f"{game_map.name}, {stage}"), ("", "\n")]
        rows: list[tuple[str | None, str, str]] = []
        for name, player in view.players.items():
            shown = f"{name} (you)" if name == you else name
            if player.eliminated:
                text = "eliminated"
            else:
                text = (
                    f"{plural(player.territories, 'territory', 'territories')}, {units(player.units)}, "
                    f"pool {player.pool}, {plural(player.cards, 'card')}, income {player.income}"
                )
                if view.phase is Phase.FINISHED and name == view.winner:
                    text += ", winner"
            rows.append((name, shown, text))
        neutral = [t for t in view.territories.values() if t.owner is None]
        if neutral:
            rows.append(
                (
                    None,
                    "neutral",
                    f"{plural(len(neutral), 'territory', 'territories')}, {units(sum(t.units for t in neutral))}",
                )
            )
        width = max(len(r[1]) for r in rows)
        for owner, shown, text in rows:
            out += [("", "  "), (palette.style(owner), shown.ljust(width)), ("", f"  {text}\n")]
        return out

    # ---- the turn's report -----------------------------------------------------------------------------------------

    def events(self, entries: Sequence[Any], palette: Palette, you: str | None) -> Fragments:
        told = [e.event if isinstance(e, Private) else e for e in entries]
        # Players whose card is told by name (one's own; everyone's once the game is over, when no entry is private
        # any more): the public line that they drew a card would tell the same draw twice.
        drawn_shown = {e.player for e in told if isinstance(e, events.CardDrawn)}
        out: Fragments = []
        deploys = runs(
            told,
            lambda first, event: (
                isinstance(first, events.Deployed)
                and isinstance(event, events.Deployed)
                and event.player == first.player
            ),
        )
        for run in deploys:
            event = run[0]
            if isinstance(event, events.Deployed):
                where = ", ".join(f"{d.units} on {d.territory}" for d in run)
                out += line(*palette.name(event.player), ("", f" deployed {where}."))
            elif isinstance(event, events.CardReceived) and event.player in drawn_shown:
                pass
            else:
                out += self.event_line(event, palette, you)
        return out

    def brief(self, entries: Sequence[Any], palette: Palette, you: str | None) -> Fragments:
        """A turn in few lines: its order, truces and cards played as they are; the viewer's deploys, everyone
        else's in one line; the viewer's fights and moves a few words each, everyone else's counted
        (shared.game.reports); the viewer's skipped orders, the others' counted; who drew a card; the statistics
        line; everyone's new units in one line; the end."""
        told = [e.event if isinstance(e, Private) else e for e in entries]
        drawn_shown = {e.player for e in told if isinstance(e, events.CardDrawn)}
        fights = [
            reports.Fight(
                b.territory,
                b.attacker,
                b.defender,
                b.attacking_units,
                b.defending_units,
                b.conquered,
                b.units_left,
                (b.source,),
            )
            for b in told
            if isinstance(b, events.Battle)
        ]
        moves = [reports.Move(m.player, m.units, m.source, m.target) for m in told if isinstance(m, events.Moved)]
        out: Fragments = []
        deployed = [e for e in told if isinstance(e, events.Deployed)]
        own = [d for d in deployed if d.player == you]
        if own:
            out += line(("", "You deployed " + ", ".join(f"{d.units} on {d.territory}" for d in own) + "."))
        others = [d for d in deployed if d.player != you]
        if others:
            parts: Fragments = [("", "Deployed: ")]
            for number, player in enumerate(dict.fromkeys(d.player for d in others)):
                theirs = [d for d in others if d.player == player]
                where = plural(len({d.territory for d in theirs}), "territory", "territories")
                parts += [
                    ("", ", " if number else ""),
                    *palette.name(player),
                    ("", f" {sum(d.units for d in theirs)} on {where}"),
                ]
            out += line(*parts, ("class:muted", " (report: where)"), ("", "."))
        told_first = [
            e for e in told if isinstance(e, events.TurnOrderDrawn | events.TruceMade | events.ReinforcementCardPlayed)
        ]
        out = [*self.events(told_first, palette, you), *out]
        out += reports.brief(fights, moves, palette, you)
        for event in told:
            if isinstance(
                event,
                events.Bombed
                | events.Blockaded
                | events.CheatConquered
                | events.DeckEmpty
                | events.PlayerEliminated
                | events.CardDrawn,
            ) or (isinstance(event, events.Skipped) and event.player == you):
                out += self.event_line(event, palette, you)
        skipped = sum(1 for e in told if isinstance(e, events.Skipped) and e.player != you)
        if skipped:
            out += line(("class:muted", f"{plural(skipped, 'order')} of others skipped (report: which)."))
        drew = [e.player for e in told if isinstance(e, events.CardReceived) and e.player not in drawn_shown]
        if drew:
            out += line(*_names(drew, palette), ("", " drew a card." if len(drew) == 1 else " each drew a card."))
        for event in told:
            if isinstance(event, events.TurnStats):
                out += self.event_line(event, palette, you)
        received = [e for e in told if isinstance(e, events.ReinforcementsReceived)]
        if received:
            parts = [("", "New units: ")]
            for number, event in enumerate(received):
                parts += [("", ", " if number else ""), *palette.name(event.player, you), ("", f" +{event.units}")]
            out += line(*parts, ("class:muted", " (report: from where)"), ("", "."))
        for event in told:
            if isinstance(event, events.GameWon | events.GameDrawn | events.TurnStarted):
                out += self.event_line(event, palette, you)
        return out

    def event_line(self, event: Any, palette: Palette, you: str | None) -> Fragments:
        name = palette.name
        if isinstance(event, events.TurnOrderDrawn):
            return line(("class:muted", f"Turn {event.turn} executes in this order: {', '.join(event.players)}."))
        if isinstance(event, events.TruceMade):
            return line(
                *name(event.player),
                ("", " and "),
                *name(event.partner),
                ("", " are in a truce until the end of the turn."),
            )
        if isinstance(event, events.Deployed):
            return line(*name(event.player), ("", f" deployed {event.units} on {event.territory}."))
        if isinstance(event, events.ReinforcementCardPlayed):
            return line(*name(event.player), ("", f" played a reinforcement card: +{event.units} to deploy."))
        if isinstance(event, events.Moved):
            how = "airlifted" if event.airlift else "moved"
            short = f" (of {event.ordered} ordered: only {event.units} left)" if event.units < event.ordered else ""
            return line(
                *name(event.player), ("", f" {how} {event.units} from {event.source} to {event.target}{short}.")
            )
        if isinstance(event, events.Battle):
            return line(*battle_line(event, palette))
        if isinstance(event, events.Bombed):
            return line(
                *name(event.player),
                ("", f" bombed {event.territory} ("),
                *name(event.owner),
                ("", f"): {event.before} -> {event.after} units."),
            )
        if isinstance(event, events.Blockaded):
            return line(
                *name(event.player),
                ("", f" blockaded {event.territory}: {event.before} -> {event.after} units, now neutral."),
            )
        if isinstance(event, events.CheatConquered):
            taken = ", ".join(event.territories) or "nothing"
            return line(*name(event.player), ("class:error", f" cheated and took without a battle: {taken}."))
        if isinstance(event, events.Skipped):
            return line(
                ("class:muted", "Skipped: "),
                *name(event.player),
                ("class:muted", f"'s {tagged.said_of(event.order)}: {event.reason}."),
            )
        if isinstance(event, events.CardDrawn):
            return line(
                (
                    "class:ok",
                    f"You drew {a_card(event.card)}."
                    if event.player == you
                    else f"{event.player} drew {a_card(event.card)}.",
                )
            )
        if isinstance(event, events.CardReceived):
            return line(*name(event.player), ("", " drew a card."))
        if isinstance(event, events.DeckEmpty):
            return line(*name(event.player), ("class:muted", " conquered, but the deck is empty: no card."))
        if isinstance(event, events.ReinforcementsReceived):
            bonus = f" + {', '.join(event.continents)}" if event.continents else ""
            return line(
                *name(event.player), ("", f" receives {units(event.units)} ({event.base}{bonus}): pool {event.pool}.")
            )
        if isinstance(event, events.PlayerEliminated):
            if event.player == you:
                return line(("class:error", "You are out: you hold no territory any more."))
            return line(
                *name(event.player),
                ("class:error", f" is eliminated ({plural(event.cards_returned, 'card')} back to the deck)."),
            )
        if isinstance(event, events.TurnStats):
            parts = ", ".join(f"{p} {s.territories}t/{s.units}u" for p, s in event.players.items() if s.territories)
            return line(("class:muted", f"After turn {event.turn}: {parts}."))
        if isinstance(event, events.GameWon):
            head = (
                line(("class:win", "You win: every other player is out!"))
                if event.player == you
                else line(*name(event.player), ("class:win", f" wins the game after turn {event.turn}!"))
            )
            return head + self._table(event.statistics)
        if isinstance(event, events.GameDrawn):
            return draw_line(event.reason) + self._table(event.statistics)
        if isinstance(event, events.TurnStarted):
            return line(("class:turn", f" Turn {event.turn} "))
        return []

    @staticmethod
    def _table(statistics: Sequence[TurnStats]) -> Fragments:
        players = list(statistics[0].players) if statistics else []
        return [("class:table", text + "\n") for text in statistics_table(statistics, players)]

    # ---- the client's other faces ----------------------------------------------------------------------------------

    def stage_key(self, view: WarzoneView) -> Any:
        return view.phase, view.turn

    def hint(self, view: WarzoneView, game_map: GameMap, you: str | None, awaited: bool) -> Fragments:
        if not awaited or you is None or view.phase is not Phase.ORDERS:
            return []
        own = [n for n in game_map.names if view.territories[n].owner == you]
        example = own[0] if own else "TERRITORY"
        cards = hand_text(view.hand)
        return [
            (
                "class:hint",
                f"Turn {view.turn}: deploy your {units(view.pool_left)} (e.g. deploy "
                f"{max(1, min(view.pool_left, 5))} {example}), then advance N FROM TO; cards: {cards}; "
                "done when your turn is complete (help for more).\n",
            )
        ]

    def status(self, view: WarzoneView, you: str | None, orders: Sequence[Any], game_map: GameMap | None = None) -> str:
        if view.phase is not Phase.ORDERS or you is None:
            return ""
        return f"{units(self._pool_left(view, you, orders))} to deploy"

    def standings(self, view: WarzoneView) -> dict[str, tuple[int, int]]:
        return {name: (p.territories, p.units) for name, p in view.players.items()}


def _names(players: Sequence[str], palette: Palette) -> Fragments:
    out: Fragments = []
    for number, player in enumerate(players):
        if number:
            out.append(("", " and " if number == len(players) - 1 else ", "))
        out += palette.name(player)
    return out


def battle_line(battle: events.Battle, palette: Palette) -> Fragments:
    """W7 in one line: who attacked where from where, the forces, the losses on both sides, who holds it now."""
    short = f" (of {battle.ordered} ordered)" if battle.attacking_units < battle.ordered else ""
    out: Fragments = [
        *palette.name(battle.attacker),
        ("", f" attacked {battle.territory} ("),
        *palette.name(battle.defender),
        ("", f") from {battle.source} with {battle.attacking_units}{short} against {battle.defending_units}: "),
        *palette.name(battle.attacker),
        ("", f" lost {battle.attacker_losses}, "),
        *palette.name(battle.defender),
        ("", f" lost {battle.defender_losses}. "),
    ]
    if battle.conquered:  # as RISC says it: the attacker takes it
        out += [*palette.name(battle.attacker), ("", f" takes {battle.territory}, {units(battle.units_left)} left.")]
    else:
        out += [*palette.name(battle.holder), ("", f" holds {battle.territory} with {units(battle.units_left)}.")]
    return out


__all__ = ["CARDS", "CARDS_FOCUS", "Card", "WarzonePresentation", "battle_line", "hand_text", "statistics_table"]
