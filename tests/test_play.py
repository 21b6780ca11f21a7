"""`risc play` end to end: a server in the same process, server-run bots, and the real text client typed into."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from prompt_toolkit.application import create_app_session
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput
from websockets.asyncio.client import connect

from risc.cli import main
from risc.commands.play import LocalPlay
from shared.rulesets.risc.board import Phase
from shared.rulesets.risc.view import RiscView as GameView
from tests.client_support import QUICK, Driver
from tests.server_support import until

TURN_CAP = 200


@pytest.fixture(autouse=True)
def config_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    return tmp_path / "config"


@contextlib.asynccontextmanager
async def playing(**options: object) -> AsyncIterator[tuple[LocalPlay, Driver]]:
    options.setdefault("name", "Alice")
    with create_pipe_input() as pipe, create_app_session(input=pipe, output=DummyOutput()):
        local = LocalPlay(backoff=QUICK, **options)  # type: ignore[arg-type]
        task = asyncio.get_running_loop().create_task(local.run())
        task.add_done_callback(lambda _: local.opened.set())
        await asyncio.wait_for(local.opened.wait(), 10)
        assert local.app is not None, "risc play did not open the client"
        driver = Driver(local.app, pipe, task)
        try:
            yield local, driver
        finally:
            if not task.done():
                with contextlib.suppress(Exception):
                    await driver.at_prompt()
                    pipe.send_text("quit\r")
                    await asyncio.wait_for(asyncio.shield(task), 5)
            if not task.done():
                task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task


def current(driver: Driver) -> GameView:
    tracker = driver.app.tracker
    assert tracker is not None and tracker.view is not None
    return tracker.view


async def my_next_turn(driver: Driver, after: tuple[Phase, int] | None) -> GameView:
    """Wait until the game asks Alice for something new, or is over (looked at again whenever the client shows
    something)."""

    def moved_on() -> bool:
        tracker = driver.app.tracker
        view = tracker.view if tracker is not None else None
        return view is not None and (
            view.phase is Phase.FINISHED
            or (tracker is not None and tracker.followed.awaited and (view.phase, view.turn) != after)
        )

    try:
        await until(moved_on, "move of the game", driver, timeout=10)
    except AssertionError:
        raise AssertionError(f"the game did not move on; the client showed:\n{driver.app.text()[-2000:]}") from None
    return current(driver)


async def server_is_down(port: int) -> bool:
    try:
        async with connect(f"ws://127.0.0.1:{port}", open_timeout=2):
            return False
    except OSError:
        return True


async def test_risc_play_a_whole_game_that_the_bot_wins() -> None:
    async with playing(bots=1, strategy="strategist") as (local, alice):
        assert local.server is not None
        port = local.server.port
        await alice.expect("You sit in game")
        await alice.expect("The game starts: bot-strategist-1, Alice.")
        await alice.expect("Place your")
        view = current(alice)
        mine = [name for name, t in view.territories.items() if t.owner == "Alice"]
        shown = await alice.type(f"place {view.pool_left} {mine[0]}")
        assert "Order 1: place" in shown
        await alice.type("done")
        step: tuple[Phase, int] | None = (Phase.PLACEMENT, 0)
        for _ in range(TURN_CAP):  # Alice only commits: the strategist takes the map from her
            view = await my_next_turn(alice, step)
            if view.phase is Phase.FINISHED:
                break
            step = (view.phase, view.turn)
            await alice.type("D")
        assert view.phase is Phase.FINISHED and view.winner == "bot-strategist-1"
        seen = await alice.expect("won game")
        assert "Turn 1" in alice.app.text() and "You have lost" in alice.app.text()
        assert "bot-strategist-1" in seen
        await alice.at_prompt()
        alice.pipe.send_text("quit\r")
        assert await asyncio.wait_for(alice.task, 5) == 0
    assert await server_is_down(port)


async def test_risc_play_turns_with_an_attack_against_two_bots() -> None:
    async with playing(bots=2, strategy="random") as (local, alice):
        await alice.expect("Place your")
        assert local.server is not None and local.game is not None
        assert [s.name for s in local.game.game.seats] == ["bot-random-1", "bot-random-2"]
        view = current(alice)
        mine = [name for name, t in view.territories.items() if t.owner == "Alice"]
        await alice.type(f"place {view.pool_left} {mine[0]}")
        await alice.type("D")
        view = await my_next_turn(alice, (Phase.PLACEMENT, 0))
        assert view.phase is Phase.ORDERS and view.turn == 1
        by_name = view.territories
        game_map = alice.app.tracker.followed.game_map  # type: ignore[union-attr]
        assert game_map is not None
        target = next(n for n in game_map.neighbours_in_order(mine[0]) if by_name[n].owner != "Alice")
        shown = await alice.type(f"attack {by_name[mine[0]].units - 1} {mine[0]} {target}")
        assert f"Order 1: attack {by_name[mine[0]].units - 1} from {mine[0]} to {target}." in shown
        await alice.type("D")
        results = await alice.expect(" Turn 2 ")
        assert f"{target}" in results and "Alice" in results
        view = await my_next_turn(alice, (Phase.ORDERS, 1))
        assert view.phase is Phase.FINISHED or view.turn >= 2
        port = local.server.port
    assert alice.task.done() and alice.task.result() == 0
    assert await server_is_down(port)


def test_risc_play_refuses_bad_arguments(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "--bots", "9"]) == 2
    assert "--bots 9" in capsys.readouterr().err
    assert main(["play", "--strategy", "cunning"]) == 2
    assert "strategist" in capsys.readouterr().err
    assert main(["play", "--name", "bot-x"]) == 2
    assert "bot-" in capsys.readouterr().err


async def test_risc_play_keeps_the_game_and_offers_to_continue_it(tmp_path: Path) -> None:
    games = tmp_path / "games"
    async with playing(bots=1, strategy="random", data_dir=games) as (local, alice):
        game_id, _ = await place_and_quit(local, alice)
        assert (
            f"The game is kept: run risc play again to continue it (or risc play --continue {game_id})."
            in alice.app.text()
        )

    async with playing(bots=1, strategy="random", data_dir=games, name=None) as (local, alice):
        question = await alice.expect("[Y/n] ")
        assert f"Continue game {game_id}, RISC on Seed example (turn 1, Alice vs bot-random-1)?\n" in question
        back = await alice.type("")
        assert f"Back in game {game_id} as Alice." in back
        await alice.expect("Turn 1: move N FROM TO")
        assert local.game is None, "no new game was made"
        await quit_(alice)

    async with playing(bots=1, strategy="random", data_dir=games, name="Alice", new=True) as (local, alice):
        await alice.expect("Place your")
        assert local.game is not None and local.game.game.game_id != game_id
        assert "Continue game" not in alice.app.text()


async def test_an_answer_that_is_neither_yes_nor_no_is_asked_again_rather_than_taken_for_a_new_game(
    tmp_path: Path,
) -> None:
    games = tmp_path / "games"
    async with playing(bots=1, strategy="random", data_dir=games) as (local, alice):
        game_id, _ = await place_and_quit(local, alice)

    async with playing(bots=1, strategy="random", data_dir=games, name=None) as (local, alice):
        await alice.expect("[Y/n] ")
        again = await alice.type("move 3 Ashvale Bramble")  # an order typed ahead of the question
        assert f"type y (or Enter) to continue game {game_id}, or n for a new game" in again
        assert local.game is None, "no new game was made"
        await alice.expect("[Y/n] ")
        back = await alice.type("y")
        assert f"Back in game {game_id} as Alice." in back
        await quit_(alice)


async def test_a_second_risc_play_on_the_same_games_is_refused(tmp_path: Path) -> None:
    async with playing(bots=1, data_dir=tmp_path) as (_, alice):
        await alice.expect("Place your")
        second = LocalPlay(name="Bob", data_dir=tmp_path)
        assert await second.run() == 1  # saying "Is another risc play running?"
        assert second.server is None


async def quit_(driver: Driver) -> None:
    await driver.at_prompt()
    driver.pipe.send_text("quit\r")
    assert await asyncio.wait_for(driver.task, 5) == 0


async def place_and_quit(local: LocalPlay, alice: Driver) -> tuple[str, GameView]:
    """Alice places every unit on one territory, sees turn 1 come, and quits: the game's id and her placement's
    view."""
    await alice.expect("Place your")
    assert local.game is not None
    game_id = local.game.game.game_id
    view = current(alice)
    mine = [name for name, t in view.territories.items() if t.owner == "Alice"]
    await alice.type(f"place rest {mine[0]}")
    await alice.type("done")
    await my_next_turn(alice, (Phase.PLACEMENT, 0))
    await quit_(alice)
    return game_id, view


async def start_and_quit(games: Path, **options: object) -> str:
    """Start a new game with `risc play` and quit it at once: an unfinished game kept on the computer."""
    async with playing(data_dir=games, new=True, bots=1, **options) as (local, alice):
        await alice.expect("You sit in game")
        assert local.game is not None
        await quit_(alice)
        return local.game.game.game_id


async def test_risc_play_offers_the_unfinished_games_of_the_rules_asked_for_and_names_their_rules(
    tmp_path: Path,
) -> None:
    games = tmp_path / "games"
    evolution = await start_and_quit(games, rules="risc", options={"evolution": 2})

    # Asked for Warzone: the RISC game is not offered, but counted; a new Warzone game is made.
    async with playing(bots=1, data_dir=games, rules="warzone") as (local, alice):
        shown = await alice.expect("You sit in game")
        assert "Continue game" not in shown
        assert (
            "1 unfinished game of other rule sets: risc play --list shows them, risc play --continue GAME "
            "takes one up." in shown
        )
        assert local.game is not None and local.game.game.settings.ruleset == "warzone"
        warzone = local.game.game.game_id
        await quit_(alice)

    # Asked for RISC: only the RISC game is offered, named with its evolution.
    async with playing(bots=1, data_dir=games, rules="risc") as (local, alice):
        question = await alice.expect("[Y/n] ")
        assert (
            f"Continue game {evolution}, RISC with evolution 2 on Seed example (turn 0, Alice vs "
            "bot-strategist-1)?" in question
        )
        assert "1 unfinished game of other rule sets" in question
        assert f"Back in game {evolution} as Alice." in await alice.type("")
        assert local.game is None
        await quit_(alice)

    # Asked for nothing: both are listed, newest first, and either can be taken up.
    async with playing(bots=1, data_dir=games, name=None) as (local, alice):
        listed = await alice.expect("? ")
        assert "Unfinished games on this computer, newest first:\n" in listed
        assert f"  1. {warzone}  Warzone on Cataract (turn 1, Alice vs bot-strategist-1)\n" in listed
        assert (
            f"  2. {evolution}  RISC with evolution 2 on Seed example (turn 0, Alice vs bot-strategist-1)\n" in listed
        )
        assert "Continue which (1-2, Enter for 1; n for a new RISC game)? " in listed
        assert "type a number from 1 to 2" in await alice.type("3")
        assert f"Back in game {evolution} as Alice." in await alice.type("2")
        assert local.game is None
        await quit_(alice)

    async with playing(bots=2, data_dir=games, rules="grid") as (local, alice):
        shown = await alice.expect("New game")
        assert "2 unfinished games of other rule sets" in shown and "Continue" not in shown
        assert local.game is not None and local.game.game.settings.ruleset == "grid"


async def test_risc_play_lists_the_unfinished_games_and_continues_the_one_named(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    games = tmp_path / "games"
    assert await asyncio.to_thread(main, ["play", "--list", "--data-dir", str(games)]) == 0
    assert capsys.readouterr().out == "No unfinished games on this computer: risc play starts one.\n"
    first = await start_and_quit(games)
    second = await start_and_quit(games, rules="warzone", options={"allow_cheaters": True})

    assert await asyncio.to_thread(main, ["play", "--list", "--data-dir", str(games)]) == 0
    out = capsys.readouterr().out
    assert out.splitlines() == [
        "Unfinished games on this computer, newest first (risc play --continue GAME takes",
        "    one up):",
        f"  {second}  Warzone with allow cheaters on Cataract (turn 1, Alice vs",
        "      bot-strategist-1)",
        f"  {first}  RISC on Seed example (turn 0, Alice vs bot-strategist-1)",
    ]
    assert all(len(line) <= 80 for line in out.splitlines()), "it fits a terminal of 80 columns"
    assert await asyncio.to_thread(main, ["play", "--list", "--rules", "risc", "--data-dir", str(games)]) == 0
    assert second not in capsys.readouterr().out

    # --continue takes a game up by the start of its id, with no question, whatever the newest is.
    async with playing(data_dir=games, name=None, continue_game=first[:4]) as (local, alice):
        back = await alice.expect(f"Back in game {first} as Alice.")
        assert "Continue" not in back and local.game is None
        await quit_(alice)

    assert await asyncio.to_thread(main, ["play", "--continue", "zzzzzz", "--data-dir", str(games)]) == 2
    err = capsys.readouterr().err
    assert "risc play: --continue zzzzzz: no unfinished game of that id on this computer; these are:" in err
    assert first in err and second in err
    assert await asyncio.to_thread(main, ["play", "--continue", first, "--bots", "3", "--data-dir", str(games)]) == 2
    assert "--continue: --bots is for a new game" in capsys.readouterr().err


async def test_risc_replay_finds_a_game_of_risc_play_and_prints_its_board_when_asked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    local_games = tmp_path / "data" / "risc" / "local"  # where risc play keeps its games by default
    assert await asyncio.to_thread(main, ["replay", "abc123"]) == 1
    err = capsys.readouterr().err
    assert (
        f"no game database at {tmp_path / 'data' / 'risc' / 'games.sqlite3'} nor "
        f"{local_games / 'games.sqlite3'} (risc play keeps its games in {local_games})" in err
    )

    async with playing(bots=1, strategy="random", data_dir=local_games) as (local, alice):
        game_id, view = await place_and_quit(local, alice)

    assert await asyncio.to_thread(main, ["replay", game_id]) == 0
    out = capsys.readouterr().out
    assert "Turn 0" in out and "  standing:" in out and "  board:" not in out
    assert out.rstrip().splitlines()[-1].startswith("OK")

    assert await asyncio.to_thread(main, ["replay", game_id, "--board"]) == 0
    board = capsys.readouterr().out
    assert "  board:" in board and "  standing:" not in board
    assert all(name in board for name in view.territories), "every territory is on the board"
    assert board.rstrip().splitlines()[-1].startswith("OK")

    assert await asyncio.to_thread(main, ["replay", "abc123"]) == 1
    assert f'there is no game "abc123" in {local_games / "games.sqlite3"} (games: {game_id})' in capsys.readouterr().err


async def test_risc_replay_takes_the_start_of_a_game_s_id_as_the_client_does(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    local_games = tmp_path / "data" / "risc" / "local"
    async with playing(bots=1, strategy="random", data_dir=local_games) as (local, alice):
        game_id, _ = await place_and_quit(local, alice)
    assert await asyncio.to_thread(main, ["replay", game_id[:3].upper()]) == 0, capsys.readouterr().err
    out = capsys.readouterr().out
    assert "Turn 0" in out and out.rstrip().splitlines()[-1].startswith("OK")
    assert await asyncio.to_thread(main, ["replay", "zz" + game_id]) == 1
    assert f'there is no game "zz{game_id}"' in capsys.readouterr().err


def test_risc_replay_help_says_what_it_prints(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["replay", "--help"])
    out = " ".join(capsys.readouterr().out.split())
    assert "the board after each turn" not in out
    assert "each player's standing after each turn; --board: the whole board" in out
    assert "then among those of risc play" in out
