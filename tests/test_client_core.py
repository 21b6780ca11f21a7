"""The text client's decisions, without a terminal and without a server: which seat a player goes back to, the news
held while a command is answered, a game off screen that waits for the player, orders said in one line, why a
request got no answer, the status bar, a finished game's figures; and that the core loads no terminal, no event loop
and no socket. (The real client over the same core: tests/test_client_*.py; in a real terminal:
tests/test_client_terminal.py.)"""

from __future__ import annotations

from typing import Any

from client.core import effects as fx
from client.core import lobby, news, playing
from client.core.commands import execute
from client.core.paging import MORE, paged
from client.core.state import State
from client.core.status import status_bar
from client.followed import Followed
from client.link import LinkState
from client.tokens import Seat
from client.tracker import Tracker
from shared.protocol import messages as msg
from shared.protocol.codes import ErrorCode
from shared.protocol.lobby import GameStatus, GameSummary
from shared.protocol.log import PlayerCommitted
from shared.protocol.statistics import GameStatistics, PlayerTotals
from shared.rulesets.risc.board import Phase
from tests.client_core_support import Run, seed_followed, state_of, taken
from tests.engine_support import SEED_UNITS, RiscGame, make_state, seed_map
from tests.followed_support import OWNERS, PLAYERS, start, summary, update
from tests.terminal_support import modules_loaded

SERVER = "ws://game-night.example:8765"


def test_the_core_loads_no_terminal_no_event_loop_and_no_socket() -> None:
    loaded = modules_loaded(
        "import client.core.commands, client.core.news, client.core.status",
        ("prompt_toolkit", "asyncio", "websockets", "client.session", "client.connection", "client.app"),
    )
    assert loaded == [], loaded


def seat(game_id: str, player: str, token: str = "t") -> Seat:
    return Seat(SERVER, game_id, player, f"{token}-{player}", 0.0)


def playing_summary(game_id: str = "g1") -> GameSummary:
    return summary(start()).model_copy(update={"game_id": game_id})


def test_without_a_name_the_seats_kept_here_are_offered_and_choosing_none_takes_nobody_s() -> None:
    state = state_of()
    games = msg.Games(games=[playing_summary()], total=1)
    run = Run(server=lambda request: games, typed=["", "Dee"])
    run(lobby.start(state, [seat("g1", "Cy"), seat("g1", "Bob"), seat("g1", "Ann")]))
    assert "Seats kept on this computer for this server:\n  1. Cy in game g1\n  2. Bob in game g1\n" in run.shown
    assert f"Return to which seat (number; Enter for none)? {lobby.ACCOUNT_OR_GUEST}\nYour name: " in run.shown
    assert run.sent() == [fx.ListGames(limit=100), fx.ListGames()], "no seat is taken back: nobody's"
    assert "players: Ann, Ben, Cy" in run.shown and "Back in game" not in run.shown
    assert state.name == "Dee" and state.tracker is None


def test_a_number_that_names_no_seat_is_asked_again_and_a_chosen_seat_is_taken_back() -> None:
    followed = seed_followed("g1", "Bob")
    state = state_of(followed)
    games = msg.Games(games=[playing_summary()], total=1)

    def server(request: fx.Request) -> Any:
        if isinstance(request, fx.ResumeSeat):
            return msg.Resumed(game_id=request.game_id, player=request.player)
        return games

    run = Run(server=server, typed=["3", "2"])
    assert run(lobby.start(state, [seat("g1", "Ann"), seat("g1", "Bob")])) is None
    assert "type a number from 1 to 2, or press Enter" in run.shown
    assert run.sent(fx.ResumeSeat) == [fx.ResumeSeat("g1", "Bob", "t-Bob")]
    assert state.name == "Bob" and state.tracker is not None and state.tracker.followed is followed


def test_a_seat_in_a_game_rematched_while_away_moves_to_the_rematch_and_seats_of_finished_games_are_forgotten() -> None:
    finished = playing_summary("g1").model_copy(update={"status": GameStatus.FINISHED, "rematch_game": "g2"})
    over = playing_summary("g3").model_copy(update={"status": GameStatus.FINISHED})
    games = msg.Games(games=[finished, playing_summary("g2"), over], total=3)
    rematch = seed_followed("g2", "Ann")
    state = state_of(rematch, name="Ann")

    def server(request: fx.Request) -> Any:
        if isinstance(request, fx.ResumeSeat):
            return msg.Resumed(game_id=request.game_id, player=request.player)
        return games

    run = Run(server=server)
    run(lobby.start(state, [seat("g1", "Ann"), seat("g3", "Ann")]))
    assert run.sent(fx.ResumeSeat) == [fx.ResumeSeat("g2", "Ann", "t-Ann")], "one seat and a name: no question"
    kept = [e for e in run.effects if isinstance(e, fx.KeepSeat | fx.ForgetSeat)]
    assert kept == [fx.KeepSeat("g2", "Ann", "t-Ann"), fx.ForgetSeat("g1", "Ann"), fx.ForgetSeat("g3", "Ann")]
    assert state.tracker is not None and state.tracker.game_id == "g2"


def on_screen(player: str | None = "Ann", game: Any = None, seq: int = 1) -> tuple[State, Followed]:
    """A state whose screen shows game g1 (`game`: the engine's game, the first turn's orders by default)."""
    followed = seed_followed("g1", player)
    taken(followed, update(start() if game is None else game, player, seq, []))
    state = state_of(followed, name=player)
    state.tracker = Tracker(followed)
    return state, followed


def test_news_that_comes_while_a_command_is_answered_is_shown_after_its_answer() -> None:
    state, followed = on_screen()
    news_effects: list[fx.Effect] = []

    def server(request: fx.Request) -> Any:
        assert isinstance(request, fx.Commit)
        cy = update(start().evolve(committed=frozenset({"Cy"})), "Ann", 2, [PlayerCommitted(player="Cy", turn=1)])
        news_effects.extend(news.on_update(state, followed, taken(followed, cy), cy))
        return msg.CommitAccepted(game_id="g1", turn=1)

    run = Run(server=server)
    run(execute(state, "done"))
    assert news_effects == [], "held while the commit is answered"
    assert run.shown.index("Committed turn 1. Waiting for Ben.") < run.shown.index("Cy committed."), run.shown
    assert not state.held and not state.holding


def won() -> RiscGame:
    """Ann holds every territory at turn 3: the game is over."""
    game = make_state(seed_map(), dict.fromkeys(OWNERS, "Ann"), SEED_UNITS, players=PLAYERS, turn=3)
    return game.evolve(board=game.board.evolve(phase=Phase.FINISHED, winner="Ann", eliminated=("Ben", "Cy")))


def test_a_game_played_off_screen_says_when_it_waits_for_the_player_once_a_turn_and_when_it_ends() -> None:
    followed = seed_followed("g1", "Ann")
    state = state_of(followed, name="Ann")
    first = update(start(), "Ann", 1, [])
    run = Run()
    run.take(news.on_update(state, followed, taken(followed, first), first))
    run.take(news.on_update(state, followed, taken(followed, first), first))
    assert run.shown == "Game g1 waits for you (turn 1): join g1 to play it.\n", "said once"
    end = update(won(), "Ann", 9, [])
    run.take(news.on_update(state, followed, taken(followed, end), end))
    assert run.shown.endswith("Game g1 ended: Ann won (join g1 to see it).\n")


def test_a_finished_game_s_figures_are_asked_for_once_beside_the_prompt() -> None:
    state, followed = on_screen()
    end = update(won(), "Ann", 9, [])
    later = [e for e in news.on_update(state, followed, taken(followed, end), end) if isinstance(e, fx.Later)]
    assert len(later) == 1
    assert [e for e in news.on_update(state, followed, taken(followed, end), end) if isinstance(e, fx.Later)] == []
    totals = PlayerTotals(
        territories=9, most_territories=9, units=74, most_units=74, income=0, battles_won=0, battles_lost=0,
        cards_played=0,
    )  # fmt: skip
    figures = GameStatistics(players=["Ann"], turns=[], eliminations=[], totals={"Ann": totals}, winner="Ann")
    run = Run(server=lambda request: msg.Statistics(game_id="g1", statistics=figures))
    run(later[0].plan)
    assert run.sent() == [fx.AskStatistics("g1")]
    assert "The game in figures" in run.shown and "Type rematch for a new game with the same players" in run.shown


def test_orders_given_together_are_said_in_one_line_with_what_they_leave() -> None:
    placing = start()
    placing = placing.evolve(
        board=placing.board.evolve(
            phase=Phase.PLACEMENT, turn=0, pools={p: 12 for p in PLAYERS}, units=dict.fromkeys(OWNERS, 0)
        )
    )
    state, followed = on_screen(game=placing)

    def server(request: fx.Request) -> Any:
        assert isinstance(request, fx.IssueOrders) and request.followed is followed
        ruleset = followed.ruleset
        assert ruleset is not None
        accepted = [
            msg.AcceptedOrder(position=n, index=n, order=ruleset.dump_order(o)) for n, o in enumerate(request.orders)
        ]
        reply = msg.OrdersAccepted(game_id="g1", turn=0, accepted=accepted, refused=[])
        followed.accepted_batch(reply)
        return [reply]

    run = Run(server=server)
    run(execute(state, "place 12 *"))
    assert len(run.sent(fx.IssueOrders)) == 1, "one message for the command's orders"
    said = run.shown.splitlines()
    assert len(said) == 1 and said[0].startswith("Orders 1-3: "), said
    assert said[0].count("; ") == 2


def test_why_a_request_got_no_answer_is_said_by_the_state_of_the_link() -> None:
    for unsent, said in (
        (fx.Unsent(LinkState.CONNECTED, lost="timed out"), "No answer from the server: timed out. Try again"),
        (fx.Unsent(LinkState.RECONNECTING), "Not connected to the server: the client reconnects by itself"),
        (fx.Unsent(LinkState.CLOSED), "Disconnected from the server for good: type quit"),
        (fx.Unsent(LinkState.CONNECTED, problems="text: too long"), "Not sent: text: too long."),
    ):
        run = Run(server=lambda request, unsent=unsent: unsent)  # type: ignore[misc]
        run(execute(state_of(), "games"))
        assert run.shown.startswith(said), run.shown


def test_a_refused_join_puts_the_game_played_before_back_on_screen_and_lists_the_groups_to_choose() -> None:
    state, followed = on_screen()
    groups = playing_summary("g2").model_copy(
        update={"status": GameStatus.LOBBY, "groups": [["Narnia", "Oz"], ["Gondor", "Mordor"]]}
    )

    def server(request: fx.Request) -> Any:
        if isinstance(request, fx.JoinGame):
            assert state.tracker is None, "the game on screen is parked meanwhile"
            return msg.Error(code=ErrorCode.BAD_GROUP, message="there is no group 7")
        state.known.games = [groups]  # type: ignore[misc]
        return msg.Games(games=[groups], total=1)

    run = Run(server=server)
    run(execute(state, "join g2 7"))
    assert run.shown.startswith("Refused: there is no group 7\nStarting groups of game g2 (join g2 N):\n  0: Narnia")
    assert state.tracker is not None and state.tracker.followed is followed
    assert "goes on without being on screen" not in run.shown


def test_quitting_while_a_seat_is_in_play_says_the_seat_is_kept_in_the_face_s_own_words() -> None:
    state, _ = on_screen()
    run = Run()
    run(execute(state, "quit"))
    assert run.shown == "Your seat stays yours: run the same command again to come back to the game.\n"
    assert state.quit
    state, _ = on_screen()
    state.seat_kept = "The game is kept: risc play --continue {game_id} takes it up."
    run = Run()
    run(execute(state, "quit"))
    assert run.shown == "The game is kept: risc play --continue g1 takes it up.\n"
    watching, _ = on_screen(player=None)
    run = Run()
    run(execute(watching, "quit"))
    assert run.shown == "" and watching.quit


def test_how_far_a_seat_s_player_has_seen_its_game_is_kept_once_for_each_entry_shown() -> None:
    state, followed = on_screen(seq=4)
    assert list(news.remember_seen(state)) == [fx.Seen("g1", "Ann", 4)]
    assert list(news.remember_seen(state)) == []
    more = update(start(), "Ann", 6, [PlayerCommitted(player="Cy", turn=1)])
    effects = news.on_update(state, followed, taken(followed, more), more)
    assert [e for e in effects if isinstance(e, fx.Seen)] == [fx.Seen("g1", "Ann", 6)]
    watcher, _ = on_screen(player=None, seq=4)
    assert list(news.remember_seen(watcher)) == [], "a watcher holds no seat"


def test_the_status_bar_puts_the_link_first_and_leaves_the_server_out_before_anything_of_the_game() -> None:
    state = state_of()
    assert render_bar(state, LinkState.CONNECTED) == " lobby: games, create, join, watch | game-night.example:8765 "
    assert render_bar(state, LinkState.RECONNECTING).startswith(" RECONNECTING | lobby: ")
    state.size = (40, 24)
    assert render_bar(state, LinkState.CONNECTED) == " lobby: games, create, join, watch "
    game, _ = on_screen()
    game.size = (60, 24)
    assert render_bar(game, LinkState.CONNECTED) == " Ann in g1: turn 1, orders | 0/3 committed "


def render_bar(state: State, link: LinkState) -> str:
    return "".join(text for _, text in status_bar(state, 0.0, link, SERVER + "/"))


def test_the_map_is_drawn_to_the_terminal_s_size() -> None:
    state, _ = on_screen()
    state.size = (60, 20)
    run = Run()
    run(playing.draw_map(state))
    drawing = run.shown[: run.shown.index("A Ann (you)")].splitlines()
    assert drawing and all(len(line) <= 59 for line in drawing) and len(drawing) <= 16, run.shown


def test_an_answer_longer_than_a_screen_waits_for_enter_keeps_a_piece_whole_and_stops_at_q() -> None:
    def answer() -> fx.Plan[None]:
        yield fx.Show("\n".join(f"line {n}" for n in range(1, 8)))  # 7 lines: cut at the screen's 5
        yield fx.Show("a\nb\nc\nd")  # fits a screen, not what is left of one: it starts the next, whole
        yield fx.Show("last")

    state = state_of()
    state.page_rows = 5
    run = Run(typed=["", ""])
    run(paged(state, answer()))
    screens = f"line 1\nline 2\nline 3\nline 4\nline 5\n{MORE}line 6\nline 7\n{MORE}a\nb\nc\nd\nlast\n"
    assert run.shown == screens, run.shown
    run = Run(typed=["q"])
    run(paged(state, answer()))
    assert run.shown == f"line 1\nline 2\nline 3\nline 4\nline 5\n{MORE}", "nothing more after q"
    state.page_rows = None  # no terminal: everything at once
    run = Run()
    run(paged(state, answer()))
    assert run.shown.count("\n") == 12 and MORE not in run.shown
