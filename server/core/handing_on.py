"""Seats and games passed on: the votes that hand an absent player's seat to the server's computer (and the seat
taken back), and when a finished game's rematch starts (R27).
"""

from __future__ import annotations

from collections.abc import Set
from dataclasses import dataclass

from server.core.entries import Logged
from server.core.playing import running
from server.core.seating import seat_named
from server.core.table import Decision, Table
from server.refusal import Refusal
from server.storage.base import SeatRecord
from shared.game.errors import Refused
from shared.protocol import log as game_log
from shared.protocol.codes import ErrorCode


def rematch_request(table: Table, player: str) -> tuple[Decision, list[str]]:
    """A player asks for a rematch: returns the decision and who is still to ask (empty: start it now)."""
    if not table.finished:
        raise Refusal(ErrorCode.NOT_FINISHED, f"game {table.game_id} is not over")
    if table.rematch_game is not None:
        raise Refusal(
            ErrorCode.GAME_STARTED, f"the rematch is game {table.rematch_game}: resume it with your seat token"
        )
    if player in table.declined:
        raise Refusal(ErrorCode.NOT_SEATED, "you left this game's table: the others go on without you")
    accepted = table.rematch if player in table.rematch else (*table.rematch, player)
    waiting = [s.name for s in table.seats if s.name not in accepted and s.name not in table.declined]
    return Decision(table.evolve(rematch=accepted), [Logged(game_log.RematchRequested(player=player))]), waiting


def rematch_seats(table: Table) -> list[SeatRecord]:
    """Who sits in the rematch: everyone who asked, in their seats' order."""
    return [s for s in table.seats if s.name in table.rematch]


@dataclass(frozen=True)
class RematchOutlook:
    """What the table's rematch requests call for now: start it with `seats`, say once that it cannot be
    (`impossible`), or nothing (someone is still to ask or to leave, it started already, or nobody asked)."""

    seats: tuple[SeatRecord, ...] = ()
    impossible: Decision | None = None


def rematch_outlook(table: Table) -> RematchOutlook:
    """Everyone still at the table asked: the rematch starts with them, if the rule set can seat so few."""
    if table.rematch_game is not None or not table.rematch:
        return RematchOutlook()
    if any(s.name not in table.rematch and s.name not in table.declined for s in table.seats):
        return RematchOutlook()
    problem = rematch_problem(table)
    if problem is None:
        return RematchOutlook(seats=tuple(rematch_seats(table)))
    if table.rematch_impossible_told:
        return RematchOutlook()
    return RematchOutlook(
        impossible=Decision(
            table.evolve(rematch_impossible_told=True), [Logged(game_log.RematchImpossible(reason=problem))]
        )
    )


def rematch_started(table: Table, game_id: str) -> Decision:
    """The rematch is game `game_id`: this one points there from now on."""
    return Decision(
        table.evolve(rematch_game=game_id),
        [Logged(game_log.RematchStarted(game_id=game_id, players=list(table.rematch)))],
    )


def rematch_problem(table: Table) -> str | None:
    """Why the players who asked cannot have a rematch without those who left (too few for the rule set)."""
    fewest, _ = table.ruleset.player_counts(table.options)
    if len(rematch_seats(table)) < fewest:
        return (
            f"{', '.join(table.declined)} left: a {table.ruleset.title} game needs at least {fewest} players, so "
            "there is no rematch"
        )
    return None


@dataclass(frozen=True)
class Vote:
    """Where a vote to hand a seat over stands: who has voted, who is still to, the table with the vote counted, and
    the decision once it is taken."""

    votes: list[str]
    needed: list[str]
    table: Table
    decision: Decision | None = None


def hand_over_vote(
    table: Table, voter: str, player: str, now: float, least_away: float, present: Set[str], computers: Set[str]
) -> Vote:
    """A vote to have the server's computer player take `player`'s seat, in a game with no time limit whose player
    has been away at least `least_away` seconds (`now` on the clock `away_since` was read on). The game's creator
    (its first seat a person took) decides alone; otherwise every other player still in and connected (`present`)
    must agree (the server's own players, `computers`, have no vote)."""
    _, status = running(table, None)
    names = [s.name for s in table.seats]
    named = seat_named(table, player)
    if named is None:
        raise Refusal(Refused.UNKNOWN_PLAYER, f"{player} does not play in game {table.game_id}")
    player = named
    if player == voter:
        raise Refusal(ErrorCode.CANNOT_HAND_OVER, "you cannot hand your own seat over: leave the game instead")
    if table.settings.turn_seconds is not None:
        raise Refusal(
            ErrorCode.CANNOT_HAND_OVER,
            "this game has a time limit: an absent player's turns pass when time runs out, so nobody is stuck",
        )
    if player in status.eliminated or player in table.handed_over or player in computers:
        raise Refusal(ErrorCode.CANNOT_HAND_OVER, f"{player} is played by the computer already, or is out")
    since = table.away_since.get(player)
    if since is None:
        raise Refusal(ErrorCode.CANNOT_HAND_OVER, f"{player} is connected")
    if now - since < least_away:
        raise Refusal(
            ErrorCode.CANNOT_HAND_OVER,
            f"{player} has been away {int(now - since)} s; a seat can be handed over after {int(least_away)} s",
        )
    votes = table.hand_over_votes.get(player, frozenset()) | {voter}
    people = [n for n in names if n not in computers and n not in table.handed_over]
    creator = people[0] if people else None
    voters = [n for n in people if n != player and n not in status.eliminated and n in present]
    needed = [] if creator in votes else [n for n in voters if n not in votes]
    if needed:
        return Vote(sorted(votes), needed, table.evolve(hand_over_votes={**table.hand_over_votes, player: votes}))
    decided = table.evolve(
        handed_over=(*table.handed_over, player),
        hand_over_votes={k: v for k, v in table.hand_over_votes.items() if k != player},
    )
    decision = Decision(
        decided, [Logged(game_log.SeatHandedOver(player=player, strategy=stand_in_strategy(table), by=sorted(votes)))]
    )
    return Vote(sorted(votes), [], decided, decision)


def stand_in_strategy(table: Table) -> str:
    """The computer player that plays a handed-over seat: the game's choice for its bots when the rule set knows it,
    else the rule set's strongest."""
    chosen = table.settings.bot_strategy
    return chosen if chosen is not None and chosen in table.ruleset.strategies else table.ruleset.default_strategy


def take_back(table: Table, player: str) -> Decision | None:
    """A handed-over seat's player is back: the computer stops playing for them."""
    if player not in table.handed_over:
        return None
    return Decision(
        table.evolve(handed_over=tuple(n for n in table.handed_over if n != player)),
        [Logged(game_log.SeatTakenBack(player=player))],
    )
