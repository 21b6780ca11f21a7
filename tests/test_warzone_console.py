"""The COMP 345 console (`risc warzone`): start-up commands, hot-seat turns, computer players, replay and quit,
tournaments (W16), commands refused in the wrong state, and the game log."""

from __future__ import annotations

import argparse
import re
from pathlib import Path

import pytest

from client.warzone_console import Log, State, WarzoneConsole, main, parse_tournament
from risc.cli import COMMAND_MODULES
from shared.game.random import SETUP_STEP, GameRandom
from shared.maps import load_map
from tests.warzone_support import EUROPE, MAPS, WORLD, WZ

SEED = "console-test"


def console() -> tuple[WarzoneConsole, list[str]]:
    said: list[str] = []
    return WarzoneConsole(said.append, seed=SEED, max_turns=60), said


def ann_s_first_turn() -> list[str]:
    """Ann's orders for turn 1, from the deal the console's seed makes (so the file names her own territories)."""
    game_map = load_map(EUROPE)
    options = WZ.options({"max_turns": 1})
    game = WZ.new_game(game_map, ("Ann", "Robo", "Dee"), options, GameRandom(f"{SEED}/game1", SETUP_STEP))
    own = game.board.territories_of("Ann")
    first, second = own[0], own[1]
    enemy = next(t for t in game_map.neighbours_in_order(second) if game.board.owner[t] != "Ann")
    return [
        "cards",
        "showmap",
        f"deploy 60 {first}",
        f"deploy 30 {first}",
        f"deploy 20 {second}",
        "orders",
        "withdraw 2",
        "done",
        f"deploy 20 {second}",
        f"advance 15 {second} {enemy}",
        f"advance 99 {second} {enemy}",
        f"bomb {first}",
        "bomb Ann",
        "done",
    ]


def test_the_console_plays_whole_games_from_a_command_file_and_writes_the_game_log(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    commands = [
        f"loadmap {EUROPE}",
        "validatemap",
        "addplayer Ann",
        "addplayer Robo -strategy aggressive",
        "gameplayer -add Dee -strategy strategist",
        "gamestart max_turns=1",
        *ann_s_first_turn(),
        "replay",
        f"loadmap {WORLD}",
        "validatemap",
        "gameplayer -add Ben -strategy benevolent -add Agg -strategy aggressive -add Str -strategy strategist",
        "gameplayer -add Rnd -strategy random -remove Ben",
        "gamestart",
        "replay",
        f"tournament -M {EUROPE} {WORLD} -P aggressive strategist cheater -G 2 -D 20",
        "quit",
    ]
    command_file = tmp_path / "commands.txt"
    command_file.write_text("\n".join(commands) + "\n", encoding="utf-8")
    log_file = tmp_path / "gamelog.txt"
    assert main(file=str(command_file), log_path=str(log_file), seed=SEED, max_turns=60) == 0
    out = capsys.readouterr().out
    log = log_file.read_text(encoding="utf-8").splitlines()

    # Every command, with its effect.
    assert [line.removeprefix("[command] ") for line in log if line.startswith("[command]")] == commands
    assert "[effect] the map is valid: a connected graph, each territory in one continent" in log
    assert "[effect] player Robo added (aggressive); 2 of 2-6" in log
    # Every change of state, in the COMP 345 engine's states.
    changes = [line.removeprefix("[state] ") for line in log if line.startswith("[state]")]
    assert changes[:6] == [
        "start -> maploaded",
        "maploaded -> mapvalidated",
        "mapvalidated -> playersadded",
        "playersadded -> assignreinforcement",
        "assignreinforcement -> issueorders",
        "issueorders -> executeorders",
    ]
    assert "executeorders -> win" in changes and "win -> start" in changes and changes[-1] == "start -> end"
    assert changes.count("win -> start") == 2
    # Every order issued, the human's and the computers', the refused ones with their reason, and its effect.
    assert any(re.fullmatch(r"\[order\] Ann issued: deploy 30 \S+", line) for line in log)
    assert any(line.startswith("[order] Ann withdrew: deploy 20") for line in log)
    assert any(line.startswith("[order] Robo issued: deploy") for line in log)
    assert any(line.startswith("[order] Dee issued: advance") for line in log)
    assert any(line.startswith("[refused] Ann: deploy 60") and "50 units left" in line for line in log)
    assert any(line.startswith("[refused] Ann: advance 99") for line in log)
    assert any(line.startswith("[refused] Ann: bomb Ann: no territory matches") for line in log)
    assert sum(line.startswith("[refused] Ann: bomb ") for line in log) == 2
    assert any(line.startswith("[refused]") and "still to deploy" in line for line in log)
    executed = [line for line in log if line.startswith("[executed]")]
    assert any("executes in this order" in line for line in executed)
    assert any(re.search(r"Ann deployed .*20 on ", line) for line in executed)
    attacked = re.compile(r"Ann attacked \S+ \(\S+\) from \S+ with (15|\d+ \(of 15 ordered\)) against")
    assert any(attacked.search(line) for line in executed)
    assert any("drew a" in line and "card. (told to" in line for line in executed)
    assert any("receives" in line for line in executed)
    assert any("The game is a draw: 1 turn played" in line for line in executed)
    assert any("wins the game" in line for line in executed)
    assert any("is eliminated" in line for line in executed)
    assert any(line == "[executed] Statistics, turn by turn:" for line in executed)
    # The tournament: its parameters, then a row per map and a column per game.
    start = log.index(
        f"[effect] Tournament mode: M: {EUROPE}, {WORLD}; P: aggressive, strategist, cheater; G: 2; D: 20"
    )
    header, europe, world = (line.removeprefix("[effect] ").split() for line in log[start + 5 : start + 8])
    assert header == ["Game", "1", "Game", "2"]
    assert europe[0] == "europe.map" and world[0] == "world.map"
    assert all(cell in ("aggressive", "strategist", "cheater", "Draw") for cell in europe[1:] + world[1:])
    # The screen shows the play, and each human their hand only on their turn.
    assert "--- Ann's turn 1: the others look away ---" in out
    assert "Bye." in out


def test_the_log_has_one_line_per_game_of_the_tournament() -> None:
    said: list[str] = []
    lines: list[str] = []

    class Collect:
        def write(self, text: str) -> None:
            lines.extend(text.splitlines())

        def flush(self) -> None:
            pass

    c = WarzoneConsole(said.append, Log(Collect()), seed=SEED)  # type: ignore[arg-type]
    c.handle(f"tournament -M {EUROPE} -P random benevolent -G 3 -D 10")
    games = [line for line in lines if re.match(r"\[effect\] map europe.map game \d", line)]
    assert len(games) == 3
    assert said[0].startswith("Tournament mode")
    table = said[1].splitlines()
    assert table[0].split() == ["Game", "1", "Game", "2", "Game", "3"]
    assert table[1].split()[0] == "europe.map" and len(table[1].split()) == 4


@pytest.mark.parametrize(
    ("args", "words"),
    [
        ("-M a -P aggressive random -G 1", "-D missing"),
        ("-M a b c d e f -P aggressive random -G 1 -D 10", "-M: 1 to 5 maps, not 6"),
        ("-M a -P aggressive -G 1 -D 10", "-P: 2 to 4 player strategies, not 1"),
        ("-M a -P aggressive random random random random -G 1 -D 10", "not 5"),
        ("-M a -P aggressive random -G 6 -D 10", "-G: 1 to 5 games per map, not 6"),
        ("-M a -P aggressive random -G 1 -D 9", "-D: 10 to 50 turns per game, not 9"),
        ("-M a -P aggressive random -G 1 -D 51", "not 51"),
        ("-M a -P aggressive human -G 1 -D 10", 'unknown strategy "human"'),
        ("-M a -P aggressive random -G x -D 10", "-G takes one whole number"),
        ("maps -M a", "usage"),
    ],
)
def test_W16_a_tournament_outside_the_comp345_bounds_is_refused(args: str, words: str) -> None:
    problem = parse_tournament(args.split())
    assert isinstance(problem, str) and words in problem


def test_W16_a_tournament_within_the_bounds_is_read() -> None:
    words = "-M a b -P aggressive cheater -G 5 -D 50"
    assert parse_tournament(words.split(" ")) == (["a", "b"], ["aggressive", "cheater"], 5, 50)


# Each command refused in a state, the reason it gives; the state does not change.
REFUSED = [
    (State.START, "gamestart", "not valid in state start"),
    (State.START, "validatemap", "not valid in state start"),
    (State.START, "addplayer Ann", "not valid in state start"),
    (State.START, "deploy 5 England", "not valid in state start"),
    (State.START, "done", "not valid in state start"),
    (State.START, "replay", "not valid in state start"),
    (State.START, "loadmap nowhere/none.map", "no map file"),
    (State.START, "loadmap", "usage: loadmap FILE"),
    (State.START, "showmap", "no map is loaded"),
    (State.START, "conquer everything", 'unknown command "conquer"'),
    (State.MAP_LOADED, "addplayer Ann", "not valid in state maploaded"),
    (State.MAP_VALIDATED, "gamestart", "not valid in state mapvalidated"),
    (State.MAP_VALIDATED, "addplayer Ann -strategy genius", 'unknown strategy "genius"'),
    (State.MAP_VALIDATED, "addplayer Ann Bob", "usage"),
    (State.MAP_VALIDATED, "addplayer Ann!", "cannot name a player"),
    (State.MAP_VALIDATED, "gameplayer -remove Zed", "no player called Zed"),
    (State.MAP_VALIDATED, "gameplayer -kick Zed", "usage"),
    (State.PLAYERS_ADDED, "addplayer ann", "already a player called ann"),
    (State.PLAYERS_ADDED, "gamestart", "2 to 6 players, there are 1"),
    (State.PLAYERS_ADDED, "tournament -M a -P random random -G 1 -D 10", "not valid in state playersadded"),
    (State.PLAYERS_ADDED, "loadmap x.map", "not valid in state playersadded"),
]


def reach(state: State) -> tuple[WarzoneConsole, list[str]]:
    c, said = console()
    steps = {
        State.MAP_LOADED: [f"loadmap {EUROPE}"],
        State.MAP_VALIDATED: [f"loadmap {EUROPE}", "validatemap"],
        State.PLAYERS_ADDED: [f"loadmap {EUROPE}", "validatemap", "addplayer Ann"],
    }
    for line in steps.get(state, []):
        c.handle(line)
    assert c.state is state
    said.clear()
    return c, said


@pytest.mark.parametrize(("state", "line", "words"), REFUSED, ids=[f"{s.value}: {c}" for s, c, _ in REFUSED])
def test_a_command_not_valid_in_the_state_is_refused_with_the_reason(state: State, line: str, words: str) -> None:
    c, said = reach(state)
    players = list(c.core.seats)
    c.handle(line)
    assert c.state is state
    assert c.core.seats == players
    assert said and said[-1].startswith("error: ") and words in said[-1], said


def test_an_invalid_map_does_not_pass_validatemap() -> None:
    c, said = console()
    c.handle(f"loadmap {MAPS / 'domination' / 'invalid1.map'}")
    c.handle("validatemap")
    assert c.state is State.MAP_LOADED and "the map is invalid" in said[-1]


def test_seven_players_are_refused() -> None:
    c, said = reach(State.PLAYERS_ADDED)
    for name in ("B", "C", "D", "E", "F"):
        c.handle(f"addplayer {name} -strategy random")
    c.handle("addplayer G")
    assert said[-1] == "error: a game has at most 6 players" and len(c.core.seats) == 6


def test_orders_refused_during_a_turn_say_why_and_the_turn_goes_on() -> None:
    c, said = reach(State.PLAYERS_ADDED)
    c.handle("addplayer Bot -strategy benevolent")
    c.handle("gamestart initial_units=10")
    assert c.state is State.ISSUE_ORDERS and c.acting == "Ann"
    c.handle("deploy 5 Atlantis")
    assert 'no territory matches "Atlantis"' in said[-1]
    c.handle("deploy 11 " + c.core.game.board.territories_of("Ann")[0])
    assert "refused: your pool has 10 units left to deploy" in said[-1]
    c.handle("done")
    assert "10 units of your pool still to deploy" in said[-1]
    c.handle("withdraw 3")
    assert "no order number 3" in said[-1]
    c.handle("gamestart")
    assert "not valid in state issueorders" in said[-1]
    c.handle("negotiate Bot")
    assert "diplomacy card" in said[-1] or "Bot" in said[-1]
    c.handle("deploy 10 " + c.core.game.board.territories_of("Ann")[0])
    c.handle("done")
    assert c.core.game.board.turn == 2 and c.acting == "Ann"


def test_gamestart_refuses_an_option_that_is_not_the_rule_set_s() -> None:
    c, said = reach(State.PLAYERS_ADDED)
    c.handle("addplayer Bot -strategy random")
    c.handle("gamestart initial_units=lots")
    assert "bad option: initial_units" in said[-1] and c.state is State.PLAYERS_ADDED
    c.handle("gamestart nonsense")
    assert "NAME=VALUE" in said[-1]


def test_a_cheater_seated_at_the_console_is_allowed_to_cheat() -> None:
    c, said = reach(State.PLAYERS_ADDED)
    c.handle("addplayer Cheat -strategy cheater")
    c.handle("gameplayer -remove Ann -add Agg -strategy aggressive")
    c.handle("gamestart")
    assert any("cheaters allowed" in line for line in said)
    assert c.state is State.WIN and c.core.game.options.allow_cheaters


def test_risc_warzone_is_a_risc_command_reading_a_file_and_writing_a_log(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from risc.commands import warzone

    assert "risc.commands.warzone" in COMMAND_MODULES
    parser = argparse.ArgumentParser(prog="risc")
    warzone.register(parser.add_subparsers(dest="command"))
    commands = tmp_path / "c.txt"
    commands.write_text(
        f"loadmap {EUROPE}\nvalidatemap\naddplayer A -strategy random\n"
        "addplayer B -strategy strategist\ngamestart\nquit\n",
        encoding="utf-8",
    )
    args = parser.parse_args(["warzone", "-file", str(commands), "--log", str(tmp_path / "log.txt"), "--seed", "3"])
    assert args.handler(args) == 0
    assert "[state] win -> end" in (tmp_path / "log.txt").read_text(encoding="utf-8")
    assert "wins the game" in capsys.readouterr().out
