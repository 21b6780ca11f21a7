"""The account's home: every game it sits in on the server, whichever node plays it, those waiting for the player's
orders first, then running, waiting for players, recently finished; each numbered, so that one key opens it
(client/core/lobby.py: `open_home_game`)."""

from __future__ import annotations

from collections.abc import Sequence

from client.core import effects as fx
from client.core.effects import Plan, Show
from client.core.state import State, answer, error
from shared.game.presentation import Fragments
from shared.protocol.accounts import Home, HomeGame, Invitation
from shared.protocol.lobby import GameStatus
from shared.protocol.notifications import ChannelProblem

STANDS = {"your-turn": "your turn", "running": "running", "waiting": "waiting", "finished": "finished"}
"""Where a game stands for the player, in the home's words."""

NOT_SIGNED_IN = "You are not signed in: signin NAME shows your games from any computer (signup NAME makes an account)."


def show_home(state: State) -> Plan[bool]:
    """The home, asked of the server and numbered; whether it was shown."""
    name = state.signed_in
    if name is None:
        yield error(NOT_SIGNED_IN)
        return False
    reply = yield from answer(fx.MyGames(), Home)
    if reply is None:
        return False
    state.home = list(reply.games)
    yield Show(home_text(reply.games, name) + challenges_text(reply.challenges) + problems_text(reply.problems))
    return True


def home_text(games: Sequence[HomeGame], name: str) -> Fragments:
    if not games:
        return [
            ("class:title", f"{name}'s games"),
            ("", ": none on this server yet. games lists its games: create or join one, and it comes here.\n"),
        ]
    out: Fragments = [("class:title", f"{name}'s games"), ("", " (type a number to open one):\n")]
    for number, home_game in enumerate(games, start=1):
        stands = STANDS[home_game.stands]
        style = {"your-turn": "class:hint", "finished": "class:muted"}.get(home_game.stands, "")
        out += [("", f"  {number:>2}  "), (style, f"{stands:<9}"), ("", f"  {game_line(home_game)}\n")]
    return out


def challenges_text(challenges: Sequence[Invitation]) -> Fragments:
    """The challenges waiting for the player's answer, each with the commands that answer it."""
    if not challenges:
        return []
    out: Fragments = [("class:title", "Challenges"), ("", " waiting for your answer:\n")]
    for invitation in challenges:
        game = invitation.game
        what = (
            f"{game.ruleset_title or game.settings.ruleset} on {game.map_name}, {game.settings.players} players"
            + (", rated" if game.settings.rated else "")
            if game is not None
            else "a game played on another node"
        )
        out.append(("", f"  {invitation.game_id}  from {invitation.by}: {what}\n"))
    first = challenges[0].game_id
    out.append(("class:muted", f"  accept {first} sits you in it; decline {first} says no.\n"))
    return out


def problems_text(problems: Sequence[ChannelProblem]) -> Fragments:
    """Channels of notification paused after failing: the account is told nothing there until it sets them again."""
    out: Fragments = []
    for problem in problems:
        how = "mail ADDRESS" if problem.channel == "mail" else "webhook URL"
        out.append(("class:error", f"Your {problem.channel} notifications are paused: {problem.why}."))
        out.append(("", f" notify {how} turns them on again.\n"))
    return out


def game_line(home_game: HomeGame) -> str:
    """One game of the home: its id, rule set and map, where it stands, and who else plays."""
    game = home_game.game
    seat = next((s for s in game.seats if s.name == home_game.player), None)
    if game.status is GameStatus.LOBBY:
        where = f"{game.free} of {game.settings.players} seats free"
    elif game.status is GameStatus.FINISHED:
        where = (
            "you won"
            if game.winner == home_game.player
            else f"{game.winner} won"
            if game.winner
            else "a draw"
            if game.draw
            else "over"
        )
    else:
        where = f"{game.phase}, turn {game.turn}" + (", you are out" if seat is not None and seat.eliminated else "")
    others = [s.name for s in game.seats if s.name != home_game.player]
    title = game.ruleset_title or game.settings.ruleset
    return f"{game.game_id}  {title} on {game.map_name}, {where}" + (f"; with {', '.join(others)}" if others else "")
