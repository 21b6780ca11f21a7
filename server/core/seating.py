"""Who sits at a game and who watches it: joining (a join sent again too), leaving, whose eyes a watcher sees with,
who is here and since when, an unstarted game left idle or closed, a game that plays by itself, and who hears a word
of the game's chat.
"""

from __future__ import annotations

from collections.abc import Sequence, Set
from dataclasses import replace

from server.core.entries import WATCHERS, Entry, Logged
from server.core.table import Decision, Table, start
from server.refusal import Refusal
from server.storage.base import SeatRecord
from shared.game import turns
from shared.game.errors import Refused
from shared.protocol import log as game_log
from shared.protocol.codes import ErrorCode
from shared.protocol.names import looks_alike


def seat_named(table: Table, name: str) -> str | None:
    """The seat a request names (`watch GAME alice`, a hand-over, a word to one player): names ignore case, as they do
    when a player joins, so `alice` is Alice."""
    seats = [s.name for s in table.seats]
    if name in seats:
        return name
    return next((seat for seat in seats if seat.casefold() == name.casefold()), None)


def join(table: Table, name: str, group: int | None, token_hash: str, account: str | None = None) -> Decision:
    """A seat taken: a guest's, opened by its token (of which only the hash is kept), or an account's (`account`),
    opened by the account's sessions and no token."""
    if table.game is not None:
        raise Refusal(ErrorCode.GAME_STARTED, f"game {table.game_id} has started: watch it instead")
    if table.settings.rated and account is None and name not in table.server_seats:
        raise Refusal(
            ErrorCode.ACCOUNT_NEEDED,
            f"game {table.game_id} is rated: only accounts sit in it, never a guest; sign up or in, or watch it",
        )
    if any(looks_alike(s.name, name) for s in table.seats):
        raise Refusal(ErrorCode.NAME_TAKEN, f'the name "{name}" is taken in game {table.game_id}', field="name")
    if len(table.seats) >= table.settings.players:
        raise Refusal(ErrorCode.GAME_FULL, f"game {table.game_id} has no free seat")
    _check_group(table, group)
    if account is not None and any(s.account == account for s in table.seats):
        raise Refusal(ErrorCode.ALREADY_SEATED, f"your account sits in game {table.game_id} already")
    seat = SeatRecord(name=name, token_hash="" if account is not None else token_hash, group=group, account=account)
    seats = (*table.seats, seat)
    joined = [Logged(game_log.PlayerJoined(player=name))]
    if len(seats) < table.settings.players:
        return Decision(table.evolve(seats=seats), joined)
    started = start(table, seats)
    return Decision(started.table, joined + started.entries)


def token_renewed(table: Table, player: str, token_hash: str) -> Decision:
    """A join sent again after its reply was lost (the seat was taken then): the seat's token cannot be sent again
    (only its hash is kept), so the seat gets a new one, which the request's id proves is its player's."""
    seats = tuple(s.model_copy(update={"token_hash": token_hash}) if s.name == player else s for s in table.seats)
    return Decision(table.evolve(seats=seats))


def _check_group(table: Table, group: int | None) -> None:
    if table.choices is None:
        if group is not None:
            raise Refusal(
                ErrorCode.BAD_GROUP,
                f"starting groups in game {table.game_id} are drawn at random: join without a group",
                field="group",
            )
        return
    if group is None or not 0 <= group < len(table.choices):
        raise Refusal(ErrorCode.BAD_GROUP, f"choose a starting group from 0 to {len(table.choices) - 1}", field="group")
    holder = next((s.name for s in table.seats if s.group == group), None)
    if holder is not None:
        raise Refusal(ErrorCode.BAD_GROUP, f"group {group} is taken by {holder}", field="group")


def leave(table: Table, player: str) -> Decision | None:
    """A seated player leaves: before the start their seat is freed; after the end they turn the rematch down.
    Returns None where leaving changes nothing of the game (a player who lost, stopping to watch)."""
    if table.game is None:
        seats = tuple(s for s in table.seats if s.name != player)
        return Decision(table.evolve(seats=seats), [Logged(game_log.PlayerLeft(player=player))])
    status = turns.status_of(table.ruleset, table.game)
    if status.finished:
        if player in table.declined or player in table.rematch or table.rematch_game is not None:
            return None
        return Decision(
            table.evolve(declined=(*table.declined, player)), [Logged(game_log.RematchDeclined(player=player))]
        )
    if player not in status.eliminated:
        raise Refusal(
            ErrorCode.GAME_STARTED,
            "the game has started: you keep your seat until you lose, resign or "
            "the game ends (you may disconnect and come back)",
        )
    return None


def sight(table: Table, seat: str | None, follow: str | None) -> str | None:
    """The player whose eyes a connection that watches sees with: `follow` (named in any case) where the rule set
    lets the connection's seat (`seat`, None for a spectator) follow them, or nobody's (None). A seated player
    watches only by following someone: one who is out borrows a survivor's sight, and watches on as a spectator."""
    game = table.game
    if follow is None:
        if seat is not None:
            raise Refusal(ErrorCode.ALREADY_SEATED, f"you sit in game {table.game_id} as {seat}")
        return None
    named = seat_named(table, follow)
    if game is None or named is None or named not in game.players:
        raise Refusal(ErrorCode.CANNOT_FOLLOW, f"{follow} does not play in game {table.game_id}", field="follow")
    if not table.ruleset.may_follow(game, seat, named):
        why = table.ruleset.follow_refusal(game, seat, named)
        raise Refusal(
            ErrorCode.CANNOT_FOLLOW,
            f"in this game you cannot see with {named}'s eyes" + (f": {why}" if why else ""),
            field="follow",
        )
    return named


def seat_taken(table: Table, player: str) -> Table:
    """A connection holds `player`'s seat: they are here, and no vote to hand their seat over stands."""
    return table.evolve(
        away_since={k: v for k, v in table.away_since.items() if k != player},
        hand_over_votes={k: v for k, v in table.hand_over_votes.items() if k != player},
    )


def seat_left(table: Table, player: str, now: float) -> Table:
    """The last connection holding `player`'s seat is gone: they are away from `now`."""
    return table.evolve(away_since={**table.away_since, player: now})


def all_away(table: Table, held: Set[str], now: float) -> Table:
    """Every seat no connection holds is away from `now` on (a restored game's, before anyone is back)."""
    return table.evolve(away_since={**{s.name: now for s in table.seats if s.name not in held}, **table.away_since})


def presence_noted(table: Table, person_connected: bool, now: float) -> Table:
    """An unstarted game is idle from the moment no person holds a seat with a live connection."""
    if table.game is not None or person_connected:
        return table.evolve(idle_since=None) if table.idle_since is not None else table
    return table if table.idle_since is not None else table.evolve(idle_since=now)


def idle_left(table: Table, expiry: float, now: float) -> float | None:
    """Seconds until an unstarted game may be closed for want of players (0 or less: now); None while a player is
    here or once it has started."""
    if table.game is not None or table.idle_since is None:
        return None
    return table.idle_since + expiry - now


def people_seated(table: Table, held: Set[str] | None = None) -> bool:
    """Whether a person (not the server's own player) holds a seat: one of `held` (the seats live connections
    hold) when given, else any seat of the table."""
    names = held if held is not None else {s.name for s in table.seats}
    return any(name not in table.server_seats for name in names)


def accounts_seated(table: Table) -> bool:
    """Whether an account holds a seat (only they are told when they played by hand): worked out once for the
    table's seats (Table.kept: every change asks)."""
    seats = table.seats
    return table.kept("_accounts_seated", seats, lambda: any(s.account is not None for s in seats))


def people_in(table: Table) -> int:
    """How many people (not the server's own players) hold seats."""
    return sum(1 for s in table.seats if s.name not in table.server_seats)


def closable_unstarted(table: Table, held: Set[str], at_once: bool, lonely: bool = False) -> bool:
    """An unstarted game may be closed once no person holds a seat with a live connection; `at_once` (its last
    player left, whatever the time) only once no person has a seat in it at all; `lonely` (it waited long for
    players) while at most one person sits in it, connected or not."""
    if table.game is not None:
        return False
    if lonely:
        return people_in(table) <= 1
    return not people_seated(table, held) and not (at_once and people_seated(table))


def computers_alone(table: Table) -> bool:
    """A game in play whose every player still in is the server's computer (its own, or one a seat was handed to):
    it plays on by itself, for as long as it lasts."""
    status = table.status
    if status is None or status.finished:
        return False
    out = set(status.eliminated)
    return all(
        seat.name in table.server_seats or seat.name in table.handed_over
        for seat in table.seats
        if seat.name not in out
    )


def chat(table: Table, seat: str | None, name: str | None, text: str, to: str | None, late: bool = False) -> Decision:
    """A word in a game's chat, from a seat or a spectator (`seat` None, speaking under `name`). While the game runs,
    those who do not play it (spectators, players who are out) talk among themselves: the players still in hear them
    once it is over. A word to one player is theirs and the speaker's, for good.

    Once it is over, the game's chat is its table's: its players and those who watched it being played talk on (the
    rematch is arranged there), and everyone who follows it hears them. A spectator who came once it was over (`late`)
    reads the log whole but says nothing in it, to everyone or to a player: a stranger's words would be kept in the
    game's log for good, and reach its players."""
    status = table.status
    running = status is not None and not status.finished
    if late and seat is None and status is not None and status.finished:
        raise Refusal(
            ErrorCode.NOT_SEATED,
            f"game {table.game_id} is over: its players and those who watched it being played talk in it; "
            "you may read it",
        )
    out = set(status.eliminated) if status is not None else set()
    if seat is None:
        if name is None:
            raise Refusal(ErrorCode.INVALID_MESSAGE, "a spectator chats under a name: give one")
        if any(looks_alike(s.name, name) for s in table.seats):
            raise Refusal(
                ErrorCode.NAME_TAKEN, f'"{name}" is a player\'s name in game {table.game_id}: chat under another'
            )
    speaker = seat if seat is not None else name
    assert speaker is not None
    watching = seat is None or (running and seat in out)
    if to is not None:
        named = seat_named(table, to)
        if named is None:
            raise Refusal(Refused.UNKNOWN_PLAYER, f"{to} does not play in game {table.game_id}")
        if named == seat:
            raise Refusal(Refused.UNKNOWN_PLAYER, "that is you: say it to someone else")
        if watching and running and named not in out:
            raise Refusal(
                ErrorCode.NOT_SEATED, f"{named} plays on: those who watch talk among themselves until the game is over"
            )
        said = game_log.ChatSaid(player=speaker, text=text, to=named, watching=seat is None)
        audience = frozenset({named} if seat is None else {named, seat})
        return Decision(table, [Logged(said, audience, lasting=True)])
    if watching and running:  # theirs for good: the players still in hear it when the game ends (watchers_heard)
        said = game_log.ChatSaid(player=speaker, text=text, watchers=True, watching=seat is None)
        return Decision(table, [Logged(said, frozenset({WATCHERS, *out}), lasting=True)])
    return Decision(table, [Logged(game_log.ChatSaid(player=speaker, text=text, watching=seat is None))])


def watchers_heard(decision: Decision, earlier: Sequence[Entry]) -> Decision:
    """`decision` ends the game: what those who watched said among themselves while it ran (`earlier`: the log as
    kept) is logged again with it, for the players who did not hear it, so that they read it now, after the result.
    The words themselves stay the watchers' (a later watcher reads them where they were said)."""
    seats = [s.name for s in decision.table.seats]
    told: list[Logged] = []
    for entry in earlier:
        if entry.kind != "chat" or entry.audience is None or WATCHERS not in entry.audience:
            continue
        said = (
            entry.event if isinstance(entry.event, game_log.ChatSaid) else game_log.ChatSaid.model_validate(entry.event)
        )
        deaf = frozenset(name for name in seats if name not in entry.audience)
        if deaf:
            told.append(Logged(said, deaf, lasting=True))
    return replace(decision, entries=[*decision.entries, *told]) if told else decision
