"""The text client's account decisions, without a terminal and without a server (docs/client.md, "Your account"):
passwords asked as secrets and sent once, the home and its numbers, what a guest is told on a server that needs an
account or has none, a session that ends elsewhere, and the status bar. (Through a real server and real terminals:
tests/test_client_accounts.py.)"""

from __future__ import annotations

from typing import Any

from client.core import effects as fx
from client.core import lobby, news
from client.core.account import ACCOUNT_NEEDED, NO_ACCOUNTS, on_signed_out
from client.core.commands import execute
from client.core.state import State
from client.core.status import status_bar
from client.link import SIGNED_OUT, LinkState
from client.tracker import Tracker
from shared.protocol import accounts as account_messages
from shared.protocol import messages as msg
from shared.protocol.accounts import AccountInfo, HomeGame, SessionInfo
from shared.protocol.codes import ErrorCode
from shared.protocol.lobby import GameStatus, GameSummary
from tests.client_core_support import Known, Run, seed_followed, state_of, taken
from tests.followed_support import start, summary, update

ANN = AccountInfo(name="Ann", created_at=1_795_000_000.0)
PASSWORD = "correct horse battery"


def signed_in(state: State, accounts: str = "optional") -> State:
    assert isinstance(state.known, Known)
    state.known.account, state.known.accounts = ANN, accounts
    return state


def game(game_id: str, status: GameStatus = GameStatus.PLAYING, **changes: Any) -> GameSummary:
    return summary(start()).model_copy(
        update={"game_id": game_id, "status": status, "ruleset_title": "RISC", **changes}
    )


def home_of(*games: tuple[GameSummary, str]) -> account_messages.Home:
    return account_messages.Home(games=[HomeGame(game=g, player="Ann", stands=stands) for g, stands in games])  # type: ignore[arg-type]


def test_signing_up_asks_the_password_twice_as_secrets_and_sends_it_once_then_shows_the_home() -> None:
    state = state_of()

    def server(request: fx.Request) -> Any:
        if isinstance(request, fx.SignUp):
            assert isinstance(state.known, Known)
            state.known.account = ANN  # as the session is once the server said signed_in
            return account_messages.SignedIn(account=ANN, session="s" * 43)
        assert isinstance(request, fx.MyGames)
        return home_of()

    run = Run(server=server, typed=[PASSWORD, PASSWORD])
    run(execute(state, "signup Ann"))
    asked = [e for e in run.effects if isinstance(e, fx.Ask)]
    assert [a.secret for a in asked] == [True, True]
    assert run.sent(fx.SignUp) == [fx.SignUp("Ann", PASSWORD)]
    assert PASSWORD not in repr(run.sent(fx.SignUp)), "a password is never printed, even in a request's repr"
    assert PASSWORD not in run.shown
    assert "Signed up and in as Ann" in run.shown and "Ann's games: none on this server yet" in run.shown
    assert state.name == "Ann"


def test_two_passwords_that_differ_make_no_account_and_an_empty_one_stops() -> None:
    run = Run(typed=[PASSWORD, PASSWORD + "!"])
    run(execute(state_of(), "signup Ann"))
    assert run.sent() == [] and "The two passwords differ: no account was made." in run.shown
    run = Run(typed=[""])
    run(execute(state_of(), "signin Ann"))
    assert run.sent() == [] and "Not signed in." in run.shown


def test_a_refused_sign_in_is_said_in_the_server_s_words_and_changes_nothing() -> None:
    state = state_of(name="Dee")
    refusal = msg.Error(code=ErrorCode.BAD_CREDENTIALS, message="no account has that name and password")
    run = Run(server=lambda request: refusal, typed=["not it"])
    run(execute(state, "signin Ann"))
    assert "Refused: no account has that name and password" in run.shown
    assert state.name == "Dee" and state.signed_in is None


def test_on_a_server_without_accounts_the_account_commands_say_so_and_send_nothing() -> None:
    state = state_of()
    assert isinstance(state.known, Known)
    state.known.accounts = "off"
    for line in ("signup Ann", "signin Ann", "signout", "password", "sessions", "sessions end 3f9a"):
        run = Run()
        run(execute(state, line))
        assert run.shown == NO_ACCOUNTS + "\n", (line, run.shown)


def test_a_guest_is_told_how_to_sign_up_where_the_server_requires_an_account() -> None:
    state = state_of(name="Dee")
    assert isinstance(state.known, Known)
    state.known.accounts = "required"
    for line in ("join g1", "create seed 3"):
        run = Run()
        run(execute(state, line))
        assert run.sent() == [] and run.shown == ACCOUNT_NEEDED + "\n", (line, run.shown)
    # a server whose welcome said otherwise, and then refused: the refusal, and how to sign up
    state.known.accounts = "optional"
    needed = msg.Error(code=ErrorCode.ACCOUNT_NEEDED, message="this server needs an account to create or join games")
    run = Run(server=lambda request: needed)
    run(execute(state, "join g1"))
    assert run.shown == f"Refused: {needed.message}\n{ACCOUNT_NEEDED}\n"


def test_the_start_opens_on_the_home_when_signed_in_and_a_guest_may_skip_the_name() -> None:
    state = signed_in(state_of(name="Bob"))
    run = Run(server=lambda request: home_of((game("g1"), "your-turn")))
    run(lobby.start(state, []))
    assert run.sent() == [fx.MyGames()], "no seat kept here is asked for, no lobby listed"
    assert "You are signed in as Ann: you play under that name" in run.shown and state.name == "Ann"
    assert "Ann's games (type a number to open one):\n   1  your turn  g1  " in run.shown

    guest = state_of()
    run = Run(server=lambda request: msg.Games(games=[], total=0), typed=[""])
    run(lobby.start(guest, [], session_problem="that session has expired: sign in again"))
    assert run.shown.splitlines()[1] == (
        "The session kept on this computer no longer signs you in: that session has expired: sign in again "
        "(signin NAME). You are a guest meanwhile."
    )
    assert lobby.ACCOUNT_OR_GUEST in run.shown and guest.name is None and not guest.quit


def test_the_home_lists_games_waiting_for_the_player_first_and_a_number_opens_one_without_a_token() -> None:
    state = signed_in(state_of())
    finished = game("g4", GameStatus.FINISHED, winner="Ben")
    home = home_of(
        (game("g1"), "your-turn"), (game("g2"), "running"), (game("g3", GameStatus.LOBBY, free=1), "waiting"),
        (finished, "finished"),
    )  # fmt: skip
    followed = seed_followed("g2", "Ann")
    taken(followed, update(start(), "Ann", 1, []))

    def server(request: fx.Request) -> Any:
        if isinstance(request, fx.MyGames):
            return home
        if isinstance(request, fx.ResumeSeat):
            assert isinstance(state.known, Known)
            state.known.followed["g2"] = followed  # as the session follows it once resumed
            return msg.Resumed(game_id="g2", player="Ann")
        assert isinstance(request, fx.WatchGame)
        assert isinstance(state.known, Known)
        state.known.followed["g4"] = seed_followed("g4", None)
        return msg.Watching(game_id="g4")

    run = Run(server=server)
    run(execute(state, "home"))
    lines = run.shown.splitlines()
    assert [line.split()[:2] for line in lines[1:]] == [
        ["1", "your"], ["2", "running"], ["3", "waiting"], ["4", "finished"]
    ]  # fmt: skip
    assert "g3  RISC on Seed, 1 of 3 seats free; with Ben, Cy" in lines[3]
    assert lines[4].endswith("g4  RISC on Seed, Ben won; with Ben, Cy")
    run(execute(state, "2"))
    assert run.sent(fx.ResumeSeat) == [fx.ResumeSeat("g2", "Ann", None)], "the account opens its seat: no token"
    assert state.tracker is not None and state.tracker.followed is followed
    run(execute(state, "home 4"))
    assert "Game g2 goes on without being on screen" in run.shown
    assert run.sent(fx.WatchGame) == [fx.WatchGame("g4")], "a finished game is watched"
    run = Run()
    run(execute(state, "7"))
    assert run.shown == "Your games are numbered 1 to 4: home lists them again.\n" and run.sent() == []


def test_a_number_before_any_home_says_how_to_list_it() -> None:
    run = Run()
    run(execute(state_of(), "1"))
    assert run.shown == "A number opens one of your games: signin NAME, then home lists them.\n"
    run = Run()
    run(execute(signed_in(state_of()), "games mine 1"))  # not a form of home: the lobby's games take nothing more
    assert "games takes no arguments" in run.shown


def test_a_signed_in_join_of_a_game_the_account_sits_in_takes_its_seat_back() -> None:
    state = signed_in(state_of())
    followed = seed_followed("g1", "Ann")

    def server(request: fx.Request) -> Any:
        if isinstance(request, fx.JoinGame):
            assert request.name == "Ann"
            return msg.Error(code=ErrorCode.GAME_STARTED, message="game g1 has started: watch it instead", game_id="g1")
        assert isinstance(request, fx.ResumeSeat) and request.token is None
        assert isinstance(state.known, Known)
        state.known.followed["g1"] = followed
        return msg.Resumed(game_id="g1", player="Ann")

    run = Run(server=server)
    run(execute(state, "join g1"))
    assert "Refused" not in run.shown and state.tracker is not None and state.tracker.game_id == "g1"


def test_a_session_ended_elsewhere_takes_the_account_s_game_off_screen_and_the_guest_s_link_comes_back_quietly() -> (
    None
):
    followed = seed_followed("g1", "Ann")
    followed.account = True
    taken(followed, update(start(), "Ann", 1, []))
    state = signed_in(state_of(followed))
    state.tracker = state.trackers["g1"] = Tracker(followed)
    assert isinstance(state.known, Known)
    state.known.account = None  # what the session did on hearing signed_out: forgotten, and the seat unfollowed
    del state.known.followed["g1"]
    run = Run()
    run.take(on_signed_out(state))
    run.take(news.on_link(state, LinkState.RECONNECTING, SIGNED_OUT))
    run.take(news.on_reconnected(state))
    assert run.shown.startswith("Signed out: this computer's session was ended elsewhere")
    assert run.shown.endswith("Your games stay your account's: signin NAME, then home, to play them again.\n")
    assert "Connection lost" not in run.shown and "Reconnected" not in run.shown
    assert state.tracker is None and not state.trackers and state.name is None


def test_the_sessions_fit_the_terminal_and_one_is_ended_by_the_start_of_its_id_but_this_one_by_signout() -> None:
    def session(id_: str, current: bool) -> SessionInfo:
        return SessionInfo(id=id_, created_at=0.0, last_used_at=0.0, expires_at=0.0, client="risc", current=current)

    listed = account_messages.Sessions(sessions=[session("3f9a0c1e5b7d2468", True), session("3f11aa22bb33cc44", False)])

    def server(request: fx.Request) -> Any:
        if isinstance(request, fx.ListSessions):
            return listed
        assert isinstance(request, fx.EndSession)
        return account_messages.SessionEnded(session=request.session)

    state = signed_in(state_of())
    run = Run(server=server)
    run(execute(state, "sessions"))
    lines = run.shown.splitlines()
    assert lines[0] == "Ann's sessions, a device signed in each (sessions end ID signs one out):"
    assert lines[2].startswith("  3f9a0c1e5b7d2468  ") and lines[2].endswith("  risc (this one)")
    assert lines[3].endswith("  risc") and all(len(line) <= 80 for line in lines), lines
    for typed, said in (
        ("3f", '"3f" could be any of 3f9a0c1e5b7d2468, 3f11aa22bb33cc44: type more of its id.'),
        ("3f9", "That is this session: signout ends it."),
        ("beef", 'No session of yours is "beef": sessions lists them.'),
        ("3F1", "Session 3f11aa22bb33cc44 ended: that device is signed out."),
    ):
        run = Run(server=server)
        run(execute(state, f"sessions end {typed}"))
        assert run.shown == said + "\n", run.shown
    assert run.sent(fx.EndSession) == [fx.EndSession("3f11aa22bb33cc44")]


def test_the_status_bar_says_who_is_signed_in() -> None:
    state = signed_in(state_of())
    state.size = (100, 24)
    bar = "".join(text for _, text in status_bar(state, 0.0, LinkState.CONNECTED, "ws://game-night.example:8765"))
    assert bar == " lobby: home, games, create, join, watch | signed in as Ann | game-night.example:8765 "
    state.size = (40, 24)
    bar = "".join(text for _, text in status_bar(state, 0.0, LinkState.CONNECTED, "ws://game-night.example:8765"))
    assert "signed in as Ann" not in bar and bar.startswith(" lobby: home")


def test_an_account_s_seat_opened_on_another_device_is_said_so_on_screen_or_off_a_guest_s_in_the_server_s_words() -> (
    None
):
    taken_back = "your seat in game {} was taken back with its token from another connection"
    state = signed_in(state_of())
    for game_id, account in (("g1", True), ("g2", True), ("g3", False)):
        followed = seed_followed(game_id, "Ann")
        followed.account = account
        state.trackers[game_id] = Tracker(followed)
    state.tracker = state.trackers["g1"]
    run = Run()
    for game_id in ("g1", "g2", "g3"):
        notice = msg.Error(code=ErrorCode.NOT_SEATED, game_id=game_id, message=taken_back.format(game_id))
        run.take(news.on_notice(state, notice))
    assert run.shown.splitlines() == [
        "Game g1 is open on another device signed in to your account now: home, then its number, brings it back here.",
        "Game g2 is open on another device signed in to your account now: home, then its number, brings it back here.",
        taken_back.format("g3"),
    ]
    assert state.tracker is None and not state.trackers


def test_the_home_lists_the_challenges_waiting_for_an_answer_and_the_channels_paused() -> None:
    from shared.protocol.notifications import ChannelProblem

    state = signed_in(state_of())
    offered = game("c7", GameStatus.LOBBY, free=1)
    home = account_messages.Home(
        games=[HomeGame(game=game("g1"), player="Ann", stands="your-turn")],
        challenges=[
            account_messages.Invitation(game_id="c7", by="Bob", game=offered),
            account_messages.Invitation(game_id="c9", by="Cy", game=None),
        ],
        problems=[ChannelProblem(channel="webhook", why="it failed 6 times running (hooks.example answered 500)")],
    )
    run = Run(server=lambda request: home)
    run(execute(state, "home"))
    lines = run.shown.splitlines()
    assert lines[0] == "Ann's games (type a number to open one):" and lines[1].split()[:2] == ["1", "your"]
    assert lines[2] == "Challenges waiting for your answer:"
    assert lines[3] == "  c7  from Bob: RISC on Seed, 3 players"
    assert lines[4] == "  c9  from Cy: a game played on another node"
    assert lines[5] == "  accept c7 sits you in it; decline c7 says no."
    assert lines[6] == (
        "Your webhook notifications are paused: it failed 6 times running (hooks.example answered 500). notify "
        "webhook URL turns them on again."
    )
    run(execute(state, "2"))
    assert run.shown.endswith("\nType 1, or home.\n"), "a challenge is not one of the games a number opens"
