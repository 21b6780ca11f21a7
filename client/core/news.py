"""What the server says unasked, turned into what to show: a game's updates (held while a command is answered, so
that nothing printed is older than what it follows), a game played off screen that comes to wait for the player, a
finished game's figures, notices, the lobby's news and chat, and the link going and coming back.

Each of these is told to the face by the session as it comes, so each returns its effects at once: none waits for
an answer (a finished game's figures are asked for `Later`).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from client import render
from client.core.effects import AskStatistics, Bell, Effect, Later, Plan, Said, Seen, Show
from client.core.state import State, error
from client.followed import Followed
from client.link import SIGNED_OUT, LinkState
from client.tracker import Tracker
from shared.protocol import messages as msg
from shared.protocol.codes import ErrorCode
from shared.protocol.lobby import GameStatus, GameSummary
from shared.protocol.notifications import Notice
from shared.protocol.ratings import AskGameRatings, GameRatings
from shared.rulesets import RULESETS


def answering(state: State, plan: Plan[Any]) -> Plan[Any]:
    """`plan` carried out while the game's news waits; then the news is shown, in the order it came."""
    state.holding += 1
    try:
        result = yield from plan
    finally:
        state.holding -= 1
    yield from released(state)
    return result


def released(state: State) -> Iterator[Effect]:
    """The news held while commands were answered, once none is answered any more."""
    if state.holding:
        return
    held, state.held = state.held, []
    for number, (followed, entries, update) in enumerate(held):
        later = any(other is followed for other, _, _ in held[number + 1 :])
        yield from shown_update(state, followed, entries, update, latest=not later)


def on_update(state: State, followed: Followed, entries: list[Any], update: msg.Update) -> list[Effect]:
    if state.holding:
        state.held.append((followed, entries, update))
        return []
    return list(shown_update(state, followed, entries, update))


def shown_update(
    state: State, followed: Followed, entries: list[Any], update: msg.Update, latest: bool = True
) -> Iterator[Effect]:
    """`latest`: no later update of the game is held (one that is tells the game as it now stands)."""
    t = state.tracker
    if (t is None or t.followed is not followed) and followed.game_id == state.expecting:
        t = state.tracker = Tracker(followed)
    if t is not None and t.followed is followed:
        yield Show(t.apply(entries, update, latest))
        yield from remember_seen(state, followed)
        if t.finished and t.game_id not in state.ended:
            state.ended.add(t.game_id)
            yield Later(tell_the_end(t, state.columns - 1))
    elif followed.player is not None:
        yield from note_elsewhere(state, followed)


def tell_the_end(t: Tracker, width: int) -> Plan[None]:
    """Once a game is over: its statistics, asked of the server, then what a player may do now (`width`: the
    terminal's); a rated game's changes of ratings before."""
    reply = yield AskStatistics(t.game_id)
    game = t.followed.game
    if game is not None and game.settings.rated:
        rated = yield Said(AskGameRatings(game_id=t.game_id))
        if isinstance(rated, GameRatings) and rated.rated:
            yield Show(rating_moves(rated), "class:hint")
    yield Show(t.the_end(reply.statistics if isinstance(reply, msg.Statistics) else None, width))


TITLES = {name: ruleset.title for name, ruleset in RULESETS.items()}


def rating_moves(rated: GameRatings) -> str:
    """What a rated game did to its players' ratings, in one line."""
    moves = ", ".join(
        f"{m.name} {m.before} to {m.after}{'?' if m.provisional else ''} ({m.after - m.before:+d})"
        for m in rated.players
    )
    return f"Ratings after game {rated.game_id} ({TITLES.get(rated.ruleset or '', rated.ruleset)}): {moves}."


def note_elsewhere(state: State, followed: Followed) -> Iterator[Effect]:
    """A game this client plays but does not show: one line when it comes to wait for the player, and when it ends,
    so that a player in several games knows where to go."""
    game = followed.game
    waiting = followed.awaited and not followed.committed
    key = (game.status if game is not None else None, followed.turn, waiting)
    if state.elsewhere.get(followed.game_id) == key:
        return
    before = state.elsewhere.get(followed.game_id)
    state.elsewhere[followed.game_id] = key
    if followed.finished and (before is None or before[0] is not GameStatus.FINISHED):
        result = f"{game.winner} won" if game is not None and game.winner else "it is over"
        yield Show(f"Game {followed.game_id} ended: {result} (join {followed.game_id} to see it).", "class:hint")
    elif waiting and (before is None or not before[2] or before[1] != followed.turn):
        yield Bell()
        yield Show(
            f"Game {followed.game_id} waits for you (turn {followed.turn}): join {followed.game_id} to play it.",
            "class:hint",
        )


def remember_seen(state: State, only: Followed | None = None) -> Iterator[Effect]:
    """How far each seat's player has seen its game, kept as it is shown: a terminal closed under the client ends it
    without a word, and coming back, the player is shown what came after."""
    for followed in [only] if only is not None else list(state.known.followed.values()):
        if followed.player is None or not followed.seq or state.seen.get(followed.game_id) == followed.seq:
            continue
        yield Seen(followed.game_id, followed.player, followed.seq)
        state.seen[followed.game_id] = followed.seq


def on_notice(state: State, notice: msg.Error) -> list[Effect]:
    """An error nobody waited for: said; the game on screen leaves it when the seat or the game is gone."""
    if notice.code not in (ErrorCode.NOT_SEATED, ErrorCode.NO_SUCH_GAME) or notice.game_id is None:
        return [error(notice.message)]
    t = state.trackers.pop(notice.game_id, None)  # the session follows it no more
    if state.tracker is not None and state.tracker.game_id == notice.game_id:
        t, state.tracker = state.tracker, None
    if notice.code == ErrorCode.NOT_SEATED and t is not None and t.followed.account:  # the account's, elsewhere
        return [
            Show(
                f"Game {t.game_id} is open on another device signed in to your account now: home, then its "
                "number, brings it back here.",
                "class:hint",
            )
        ]
    return [error(notice.message)]


def on_game_notice(state: State, notice: Notice) -> list[Effect]:
    """News of one of the account's games (a nudge, a name said in its chat, a challenge): a bell and a line, unless
    it is the game on screen, which tells it itself. A turn that waits is told by note_elsewhere already, from the
    game's own updates, for a game this client follows."""
    on_screen = state.tracker is not None and state.tracker.game_id == notice.game_id
    followed = notice.game_id is not None and notice.game_id in state.known.followed
    if on_screen or (notice.kind == "your_turn" and followed):
        return []
    where = f" (join {notice.game_id} to play it)" if notice.game_id and notice.kind != "game_ended" else ""
    return [Bell(), Show(notice.text + where, "class:hint")]


def on_listed(state: State, game: GameSummary) -> list[Effect]:
    if state.tracker is None:  # in the lobby: a new game to join
        return [Show(f"New game: {render.game_line(game)}", "class:hint")]
    return []


def on_lobby_chat(state: State, said: msg.LobbyChat) -> list[Effect]:
    if state.tracker is None:
        return [Show([("class:hint", "[lobby] "), ("", f"{said.player}: {said.text}")])]
    return []


def on_seated(state: State, followed: Followed) -> list[Effect]:
    """The server seated the player in the rematch: it comes on screen."""
    state.tracker = Tracker(followed)
    return [Show(f"The rematch begins: game {followed.game_id}, you play as {followed.player}.", "class:win")]


def on_resumed(followed: Followed) -> list[Effect]:
    return [Show(f"Back in game {followed.game_id} as {followed.player}.", "class:ok")]


def on_link(state: State, link: LinkState, detail: str) -> list[Effect]:
    if detail == SIGNED_OUT:  # the account's session ended (said as it was told): back at once, as a guest
        state.relinking_as_guest = True
        return []
    if link is LinkState.RECONNECTING:
        return [Show("Connection lost: reconnecting...", "class:error")]
    if link is LinkState.CLOSED:
        return [error(f"Disconnected: {detail}. Type quit.")]
    return []


def on_shutdown(message: str) -> list[Effect]:
    return [Show(f"{message}; the client reconnects by itself.", "class:hint")]


def on_reconnected(state: State) -> list[Effect]:
    t = state.tracker
    if state.relinking_as_guest:
        state.relinking_as_guest = False
        if t is None or t.player is None or t.game_id in state.known.followed:
            return []
    if t is None:
        return [Show("Reconnected.", "class:ok")]
    if t.player is None:
        return [Show(f"Reconnected: watching game {t.game_id} again.", "class:ok")]
    if t.game_id not in state.known.followed:
        return [error(f"Reconnected, but could not take your seat in game {t.game_id} back.")]
    return []
