"""The lobby's decisions: starting (the account's home when signed in, else a seat kept on this computer, else a name
and the games), the lists of games and maps, creating a game, joining and watching one, opening a game of the home,
and which game is on screen while one name plays several."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from pydantic import ValidationError

from client import commands as cmd
from client import render
from client.core import effects as fx
from client.core.account import ACCOUNT_NEEDED, account_needed, on_session_problem
from client.core.effects import Ask, Plan, Show
from client.core.home import show_home
from client.core.names import name_problem
from client.core.state import State, answer, error, on_screen, send
from client.followed import Followed
from client.help import help_text
from client.tokens import Seat
from client.tracker import Tracker
from shared.game import grammar
from shared.protocol import messages as msg
from shared.protocol import wording
from shared.protocol.codes import ErrorCode
from shared.protocol.lobby import DEFAULT_RULESET, GameSettings, GameStatus
from shared.rulesets import RULESETS

ACCOUNT_OR_GUEST = (
    "Give a name to play as a guest, or press Enter and then signin NAME (or signup NAME) to play with an account, "
    "which keeps your games from any computer."
)
ACCOUNT_SEATED = (ErrorCode.NAME_TAKEN, ErrorCode.GAME_STARTED, ErrorCode.ALREADY_SEATED)
"""A signed-in player's join refused for one of these may be because the account sits there already."""


def start(state: State, saved: Sequence[Seat], session_problem: str | None = None) -> Plan[None]:
    """The first screen: the game `--watch` names, else the account's home when signed in, else back to a seat kept
    on this computer (`saved`), else a name and the lobby's games (`session_problem`: why the session kept here
    signs nothing in any more, said once)."""
    yield Show([("class:title", "RISC"), ("", f" at {state.url}. Type help for the commands.\n")])
    if session_problem is not None:
        yield from on_session_problem(session_problem)
    signed = state.signed_in
    if signed is not None:
        if state.name is not None and state.name != signed:
            yield Show(f"You are signed in as {signed}: you play under that name (signout to play as a guest).")
        state.name = signed
    if state.watch_id is not None:
        yield from watch(state, state.watch_id, None)
        return
    if signed is not None and (yield from show_home(state)):
        return
    if (yield from resume_saved(state, saved)):
        return
    if signed is None and state.known.accounts == "required":
        yield Show(ACCOUNT_NEEDED, "class:hint")
        yield from list_games(state)
        return
    if state.name is None:
        accounts = state.known.accounts != "off"
        if accounts:
            yield Show(ACCOUNT_OR_GUEST, "class:hint")
        state.name = yield from ask_name(optional=accounts)
        if state.name is None:
            state.quit = True
            return
        state.name = state.name or None
    yield from list_games(state)


def ask_name(optional: bool = False) -> Plan[str | None]:
    """The player's name, asked until it will do (None: they typed quit, or input ended; "": Enter, where the name
    is `optional`)."""
    while True:
        typed = yield Ask("Your name: ")
        if typed is None or typed.casefold() in ("quit", "exit"):
            return None
        if optional and not typed:
            return ""
        problem = name_problem(typed)
        if problem is None:
            return str(typed)
        yield error(problem)


def quit_client(state: State) -> Plan[None]:
    if state.tracker is not None and state.tracker.active:
        yield Show(state.seat_kept.format(game_id=state.tracker.game_id), "class:hint")
    state.quit = True


def list_games(state: State) -> Plan[None]:
    reply = yield from answer(fx.ListGames(), msg.Games)
    if reply is not None:
        yield Show(render.games_table(reply.games))
        if reply.total > len(reply.games):
            yield Show(f"(the {len(reply.games)} newest of {reply.total} games)", "class:muted")


def list_maps(state: State) -> Plan[None]:
    reply = yield from answer(fx.ListMaps(), msg.Maps)
    if reply is not None:
        state.maps = [m.id for m in reply.maps]
        lines = [f"  {m.id:<16} {m.territories:>4} territories  {m.name}" for m in reply.maps]
        yield Show("Maps (create MAP ...):\n" + "\n".join(lines))


def help_create(only: str | None, setting: cmd.Setting) -> Plan[None]:
    """`help create`: the command, then the games the server plays and their options as the server describes them
    (`help create NAME`: one game's)."""
    text = help_text("create", setting)
    reply = yield from send(fx.ListRuleSets())
    if not isinstance(reply, msg.RuleSets):
        yield Show(text)
        if isinstance(reply, msg.Error):
            yield error(f"Refused: {reply.message}")
        return
    known = [r.name for r in reply.rulesets]
    if only is not None:
        found = grammar.name(only, known, "game")
        if isinstance(found, grammar.ParseError):
            yield Show(text)
            yield error(f"{found} (this server plays {', '.join(known)})")
            return
        only = found
    words = {name: r.presentation.option_words for name, r in RULESETS.items()}
    yield Show(text + render.create_help(reply.rulesets, words, only))


def settings_of(command: cmd.Create) -> GameSettings | str:
    """The game's settings as the server takes them, or what is wrong with those typed (the rule set's own options
    and number of players checked before the protocol's), in the words the player typed them with."""
    ruleset_name = command.ruleset or DEFAULT_RULESET
    ruleset = RULESETS.get(ruleset_name)
    words = ruleset.presentation.option_words if ruleset is not None else {}
    options = {words.get(k, k): v for k, v in command.options.items()}
    values: dict[str, Any] = {"ruleset": ruleset_name, "map": command.map, "options": options}
    if ruleset is not None and ruleset.own_map:
        values["map"] = None
    elif command.map is None and ruleset is not None:
        values["map"] = ruleset.default_map
    for key in ("players", "turn_seconds", "bots", "bot_strategy"):
        if getattr(command, key) is not None:
            values[key] = getattr(command, key)
    if command.rated:
        values["rated"] = True
    if values["map"] is None and (ruleset is None or not ruleset.own_map):
        return "Which map? create MAP ...: maps lists this server's maps."
    spoken = {v: k for k, v in words.items()} | {"turn_seconds": "time", "bot_strategy": "strategy"}

    def word(field: str) -> str:
        return spoken.get(field.removeprefix("options."), field.removeprefix("options."))

    try:
        if ruleset is not None:
            fewest, most = ruleset.player_counts(ruleset.options(options))
            players = values.get("players", GameSettings.model_fields["players"].default)
            if not fewest <= players <= most:
                problem = wording.player_count(ruleset.title, fewest, most, players)
                return f"Those settings will not do: {problem}."
        return GameSettings.model_validate(values)
    except ValidationError as exc:
        return f"Those settings will not do: {wording.problems(exc, word=word)}."


def needs_account(state: State) -> Plan[bool]:
    """Whether a guest is kept from playing here (the server requires accounts): then said, with how to sign up."""
    if state.signed_in is None and state.known.accounts == "required":
        yield error(ACCOUNT_NEEDED)
        return True
    return False


def create(state: State, command: cmd.Create) -> Plan[None]:
    settings = settings_of(command)
    if isinstance(settings, str):
        yield error(settings)
        return
    if (yield from needs_account(state)):
        return
    reply = yield from send(fx.CreateGame(settings))
    if isinstance(reply, msg.Error):
        yield error(f"Refused: {reply.message}")
        yield from account_needed(reply)
        return
    if not isinstance(reply, msg.GameCreated):
        return
    game = reply.game
    yield Show(
        f"Created game {game.game_id}: {game.ruleset_title} on {game.map_name}, {game.settings.players} players.",
        "class:ok",
    )
    if game.groups is not None:
        yield Show(render.groups_list(game))
        return
    if game.settings.bots >= game.settings.players:  # no seat left for a person: the game is there to watch
        yield Show(f"Every seat of game {game.game_id} is a computer's: you watch it.", "class:hint")
        yield from watch(state, game.game_id, None)
        return
    yield from join(state, game.game_id, None)


def join(state: State, game_id: str, group: int | None) -> Plan[None]:
    held = state.known.followed.get(game_id)
    if held is not None and held.player is not None:  # a seat this client holds already: back to it
        yield from said_parked((yield from switch_away(state, game_id)))
        yield Show(f"Back to game {game_id}, where you play as {held.player}.", "class:ok")
        put_on_screen(state, held)
        if state.tracker is not None:
            yield Show(state.tracker.on_screen_again())
        return
    if (yield from needs_account(state)):
        return
    parked = yield from switch_away(state, game_id)
    if state.signed_in is not None:
        state.name = state.signed_in  # the server seats a signed-in player under the account's name alone
    if state.name is None:
        state.name = yield from ask_name()
        if state.name is None:
            unpark(state, parked)
            return
    state.expecting = game_id
    reply = yield from send(fx.JoinGame(game_id, state.name, group))
    if isinstance(reply, msg.Error) and state.signed_in is not None and reply.code in ACCOUNT_SEATED:
        # the account sits there already (joined from another computer): its seat is taken back, with no token
        back = yield from take_seat_back(state, reply.game_id or game_id, state.signed_in)
        if isinstance(back, msg.Resumed):
            yield from said_parked(parked)
            return
    if isinstance(reply, msg.Error):
        unpark(state, parked)
        yield error(f"Refused: {reply.message}")
        yield from account_needed(reply)
        if reply.code == ErrorCode.BAD_GROUP:
            yield from send(fx.ListGames())
            summary = next((g for g in state.known.games if g.game_id == game_id), None)
            if summary is not None and summary.groups:
                yield Show(render.groups_list(summary))
        return
    if not isinstance(reply, msg.Joined):
        unpark(state, parked)
        return
    yield from said_parked(parked)
    yield Show(f"You sit in game {reply.game_id} as {reply.player}.", "class:ok")
    put_on_screen(state, state.known.followed[reply.game_id])


def watch(state: State, game_id: str, follow: str | None) -> Plan[None]:
    parked = yield from switch_away(state, game_id, follow is not None)
    state.expecting = game_id
    reply = yield from answer(fx.WatchGame(game_id, follow), msg.Watching)
    if reply is None:
        unpark(state, parked)
        return
    yield from said_parked(parked)
    whose = f" through {reply.follow}'s eyes" if reply.follow else ""
    yield Show(f"Watching game {reply.game_id}{whose}. (leave stops watching)", "class:ok")
    followed = state.known.followed[reply.game_id]
    fresh = state.tracker is None or state.tracker.followed is not followed
    put_on_screen(state, followed)
    if fresh and state.tracker is not None:
        state.tracker.catching_up = True  # the log from the game's start comes: summed up, not printed whole
    ruleset = followed.ruleset
    note = (
        ruleset.presentation.spectator_note(followed.view)
        if ruleset is not None and not reply.follow and followed.view is not None
        else ""
    )
    if note:
        yield Show(note, "class:hint")


def leave(state: State) -> Plan[None]:
    t = yield from on_screen(state, seated=False)
    if t is None:
        return
    if (yield from answer(fx.LeaveGame(t.game_id), msg.Left)) is None:
        return
    state.tracker = None
    yield Show(f"You left game {t.game_id}.", "class:ok")
    yield from list_games(state)


def switch_away(state: State, game_id: str, following: bool = False) -> Plan[Tracker | None]:
    """Before following another game: stop following the one on screen, unless a seat there still matters. Such a
    game is parked off screen and returned: the caller says so once the other game is on screen (`said_parked`), or
    puts it back when the server refuses the other (`unpark`)."""
    t = state.tracker
    if t is None or (t.game_id == game_id and (t.player is None or following)):
        return None
    if t.active or (
        t.player is not None and t.followed.game is not None and t.followed.game.status is GameStatus.LOBBY
    ):
        state.tracker = None  # one name plays several games at once: it goes on, and says when it waits for you
        return t
    yield from send(fx.LeaveGame(t.game_id))
    state.tracker = None
    return None


def said_parked(parked: Tracker | None) -> Plan[None]:
    if parked is not None:
        yield Show(
            f"Game {parked.game_id} goes on without being on screen: join {parked.game_id} goes back to it.",
            "class:hint",
        )


def unpark(state: State, parked: Tracker | None) -> None:
    """The game parked for one the server refused comes back on screen, as if nothing had been asked."""
    state.expecting = None
    if parked is not None and state.tracker is None:
        state.tracker = parked


def put_on_screen(state: State, followed: Followed) -> None:
    """Put a game on screen (its updates already shown when they came first); a game played before, off screen
    since, comes back with what its screen had recorded (its history)."""
    if state.tracker is None or state.tracker.followed is not followed:
        kept = state.trackers.get(followed.game_id)
        state.tracker = kept if kept is not None and kept.followed is followed else Tracker(followed)
        state.trackers[followed.game_id] = state.tracker
    state.expecting = None


def resume(state: State, seat: Seat) -> Plan[msg.ServerMessage | None]:
    """Back in a kept seat: on screen once the server gives it back; the server's answer, whatever it is."""
    return (yield from take_seat_back(state, seat.game_id, seat.player, seat.token, seat.seq or None))


def take_seat_back(
    state: State, game_id: str, player: str, token: str | None = None, last_seq: int | None = None
) -> Plan[msg.ServerMessage | None]:
    """Back in a seat, with its token or (None) as the signed-in account's: on screen once the server gives it
    back; the server's answer, whatever it is."""
    state.expecting = game_id
    reply: msg.ServerMessage | None = yield from send(fx.ResumeSeat(game_id, player, token, last_seq))
    if isinstance(reply, msg.Resumed):
        state.name = reply.player
        put_on_screen(state, state.known.followed[reply.game_id])
    else:
        state.expecting = None
    return reply


def open_home_game(state: State, number: int) -> Plan[None]:
    """A game of the home, by its number: the account's seat taken back (no token: the account opens it, from any
    computer), or a finished game watched."""
    if not state.home:
        if state.signed_in is None:
            yield error("A number opens one of your games: signin NAME, then home lists them.")
        else:
            yield error("A number opens one of your games: home lists them first.")
        return
    if number > len(state.home):
        last = len(state.home)
        yield error(f"Your games are numbered 1 to {last}: home lists them again." if last > 1 else "Type 1, or home.")
        return
    chosen = state.home[number - 1]
    game_id = chosen.game.game_id
    if chosen.stands == "finished":
        yield from watch(state, game_id, None)
        return
    held = state.known.followed.get(game_id)
    if held is not None and held.player is not None:
        yield from join(state, game_id, None)  # followed here already: back on screen
        return
    yield from open_account_seat(state, game_id, chosen.player)


def open_account_seat(state: State, game_id: str, player: str) -> Plan[None]:
    """The account's seat in a game put on screen (no token: the account opens it), the game on screen before it
    parked; or why it could not be."""
    parked = yield from switch_away(state, game_id)
    reply = yield from take_seat_back(state, game_id, player)
    if isinstance(reply, msg.Resumed):
        yield from said_parked(parked)
        return
    unpark(state, parked)
    if isinstance(reply, msg.Error):
        yield error(f"Could not open game {game_id}: {reply.message}")


def resume_saved(state: State, saved: Sequence[Seat]) -> Plan[bool]:
    """Back to a seat this user holds on this server, if its game is still on (or was rematched). With a name, that
    player's seats; without one, the seats kept on this computer, asking which when there are several: never a seat
    the person did not name or choose."""
    if not saved:
        return False
    reply = yield from send(fx.ListGames(limit=100))
    if not isinstance(reply, msg.Games):
        return False
    by_id = {g.game_id: g for g in reply.games}
    kept = {(s.game_id, s.player) for s in saved}
    live: list[Seat] = []
    for seat in saved:
        game = by_id.get(seat.game_id)
        rematch = game.rematch_game if game is not None and game.status is GameStatus.FINISHED else None
        if rematch is not None and (rematch, seat.player) not in kept:
            # The server seated us in the rematch while we were away, with the same token (R27).
            yield fx.KeepSeat(rematch, seat.player, seat.token)
            yield fx.ForgetSeat(seat.game_id, seat.player)
            kept |= {(rematch, seat.player)}
            seat = Seat(seat.server, rematch, seat.player, seat.token, seat.saved_at)
            game = by_id.get(rematch)
        if game is None or game.status is GameStatus.FINISHED:
            yield fx.ForgetSeat(seat.game_id, seat.player)
            continue
        live.append(seat)
    chosen = yield from choose_seat(state, live)
    if chosen is None:
        return False
    resumed = yield from resume(state, chosen)
    if isinstance(resumed, msg.Error):
        yield error(f"Could not return to game {chosen.game_id}: {resumed.message}")
    return isinstance(resumed, msg.Resumed)


def choose_seat(state: State, seats: list[Seat]) -> Plan[Seat | None]:
    if not seats:
        return None
    if state.name is not None and len(seats) == 1:
        return seats[0]
    lines = [f"  {n}. {s.player} in game {s.game_id}" for n, s in enumerate(seats, start=1)]
    yield Show("Seats kept on this computer for this server:\n" + "\n".join(lines))
    while True:
        typed = yield Ask("Return to which seat (number; Enter for none)? ")
        if not typed:
            return None
        if typed.isdigit() and 1 <= int(typed) <= len(seats):
            return seats[int(typed) - 1]
        yield error(f"type a number from 1 to {len(seats)}, or press Enter")
