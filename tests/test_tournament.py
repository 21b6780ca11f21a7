"""`risc tournament` and the in-process runner behind it: the COMP 345 grammar and its limits (-M 1-5 maps, -P 2-4
strategies, -G 1-5 games, -D 10-50 turns), a game at the turn limit is a draw, and one seed gives one table, whatever
--jobs is."""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import types
from pathlib import Path

import pytest

from risc.cli import main
from shared.bots.tournament import GameResult, game_seed, play_game, player_names
from shared.maps import load_map

ROOT = Path(__file__).resolve().parent.parent
ARGS = [
    "tournament",
    "-M",
    "seed",
    "twin-keeps",
    "-P",
    "aggressive",
    "defensive",
    "strategist",
    "-G",
    "3",
    "-D",
    "25",
    "--seed",
    "11",
]


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


# --- the runner --------------------------------------------------------------------------------------------------


def test_players_are_named_after_their_strategies() -> None:
    assert player_names(["aggressive", "strategist"]) == ("aggressive", "strategist")
    assert player_names(["random", "strategist", "random"]) == ("random-1", "strategist", "random-2")


def test_game_seeds_differ_by_map_and_game_and_repeat_with_the_tournament_seed() -> None:
    seeds = {game_seed(7, m, g) for m in range(5) for g in range(1, 6)}
    assert len(seeds) == 25
    assert game_seed(7, 2, 3) == game_seed(7, 2, 3) != game_seed(8, 2, 3)


def test_one_seed_replays_the_same_game() -> None:
    game_map = load_map("seed")
    first = play_game(game_map, ["random", "aggressive", "strategist"], "replay", 50)
    again = play_game(game_map, ["random", "aggressive", "strategist"], "replay", 50)
    assert first == again


def test_a_game_that_reaches_the_turn_limit_is_a_draw() -> None:
    result = play_game(load_map("seed"), ["defensive", "defensive"], "limit", 3)
    assert result.winner is None and result.winner_strategy is None
    assert result.turns == 3


def test_a_won_game_names_the_winner_and_their_strategy() -> None:
    result = play_game(load_map("seed"), ["random", "strategist", "random"], "won", 100)
    assert isinstance(result, GameResult)
    assert result.winner is not None
    assert result.winner_strategy == result.strategies[result.players.index(result.winner)]
    assert result.territories[result.players.index(result.winner)] == 9
    assert result.refused == 0
    assert result.turns <= 100


# --- the command -------------------------------------------------------------------------------------------------


def test_the_command_prints_a_table_per_map_and_an_overall_table(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run(capsys, *ARGS)
    assert status == 0, err
    for m, name in enumerate(["seed", "twin-keeps"], start=1):
        game_map = load_map(name)
        assert f"Map {m}: {name} ({game_map.name}, {len(game_map.territories)} territories)" in out
    assert "Overall (6 games)" in out
    overall = out[out.index("Overall") :].splitlines()
    header = overall[1].split()
    assert header == ["seed", "twin-keeps", "total", "share"]
    wins = {line.split()[0]: [int(x) for x in line.split()[1:4]] for line in overall[2:6]}
    assert set(wins) == {"aggressive", "defensive", "strategist", "draws"}
    for per_seed, per_keeps, total in wins.values():
        assert per_seed + per_keeps == total
    assert sum(w[0] for w in wins.values()) == 3 and sum(w[1] for w in wins.values()) == 3
    assert err.count("] seed game") == 3 and err.count("] twin-keeps game") == 3, "one progress line a game"


def test_the_table_reports_the_games_the_seed_gives(capsys: pytest.CaptureFixture[str]) -> None:
    """The winners printed are those of the games played from the seeds derived from --seed, map and game."""
    status, out, _ = run(capsys, *ARGS)
    assert status == 0
    strategies = ["aggressive", "defensive", "strategist"]
    for m, name in enumerate(["seed", "twin-keeps"]):
        game_map = load_map(name)
        results = [play_game(game_map, strategies, game_seed(11, m, g), 25) for g in range(1, 4)]
        block = out[out.index(f"Map {m + 1}:") :]
        winner_row = next(line for line in block.splitlines() if line.strip().startswith("winner")).split()[1:]
        turns_row = next(line for line in block.splitlines() if line.strip().startswith("turns")).split()[1:]
        assert winner_row == [r.winner or "draw" for r in results]
        assert turns_row == [str(r.turns) for r in results]


def test_one_seed_gives_the_same_table_twice_and_with_two_jobs(capsys: pytest.CaptureFixture[str]) -> None:
    _, first, _ = run(capsys, *ARGS)
    _, again, _ = run(capsys, *ARGS)
    _, two_jobs, _ = run(capsys, *ARGS, "--jobs", "2")
    assert first == again == two_jobs


def test_the_table_does_not_depend_on_string_hashing() -> None:
    """Separate interpreters hash strings differently: choices must not follow set or dict-of-set order."""
    argv = [
        "tournament",
        "-M",
        "seed",
        "cataract",
        "-P",
        "random",
        "aggressive",
        "defensive",
        "strategist",
        "-G",
        "5",
        "-D",
        "30",
        "--seed",
        "11",
    ]
    outputs = []
    for hash_seed in ("1", "2"):
        env = {**os.environ, "PYTHONHASHSEED": hash_seed}
        done = subprocess.run(
            [sys.executable, "-m", "risc", *argv],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            timeout=120,
            check=True,
        )
        outputs.append(done.stdout)
    assert outputs[0] == outputs[1]
    assert "Overall (10 games)" in outputs[0]


def test_a_strategy_twice_gets_numbered_seats(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run(
        capsys, "tournament", "-M", "seed", "-P", "random", "random", "strategist", "-G", "1", "-D", "10", "--seed", "3"
    )
    assert status == 0, err
    overall = out[out.index("Overall") :]
    assert "random-1" in overall and "random-2" in overall


def test_without_a_seed_one_is_drawn_and_printed(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "tournament", "-M", "seed", "-P", "aggressive", "strategist", "-G", "1", "-D", "10")
    assert status == 0
    seed = int(out.split("(seed ")[1].split(")")[0])
    _, again, _ = run(
        capsys, "tournament", "-M", "seed", "-P", "aggressive", "strategist", "-G", "1", "-D", "10", "--seed", str(seed)
    )
    assert again == out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (
            ["-M", "seed", "-P", "aggressive", "sneaky", "-G", "1", "-D", "10"],
            '-P: unknown RISC strategy "sneaky" (known: aggressive, defensive, random, strategist)',
        ),
        (["-M", "seed", "-P", "aggressive", "-G", "1", "-D", "10"], "-P: a tournament has 2 to 4 strategies, not 1"),
        (["-M", "seed", "-P", *["random"] * 5, "-G", "1", "-D", "10"], "-P: a tournament has 2 to 4 strategies, not 5"),
        (
            [
                "--rules",
                "classic",
                "-M",
                "world",
                "-P",
                "random",
                "random",
                "random",
                "random",
                "-G",
                "1",
                "-D",
                "10",
                "--option",
                "max_players=3",
            ],
            "-P: a Classic Risk game seats at most 3 players (see --option), got 4",
        ),
        (
            ["-M", "seed", "-P", "aggressive", "strategist", "-G", "0", "-D", "10"],
            "-G: a tournament has 1 to 5 games per map, not 0",
        ),
        (
            ["-M", "seed", "-P", "aggressive", "strategist", "-G", "9", "-D", "10"],
            "-G: a tournament has 1 to 5 games per map, not 9",
        ),
        (
            ["-M", "seed", "-P", "aggressive", "strategist", "-G", "1", "-D", "9"],
            "-D: a tournament has 10 to 50 turns per game, not 9",
        ),
        (
            ["-M", "seed", "-P", "aggressive", "strategist", "-G", "1", "-D", "100"],
            "-D: a tournament has 10 to 50 turns per game, not 100",
        ),
        (
            ["-M", *["seed"] * 6, "-P", "aggressive", "strategist", "-G", "1", "-D", "10"],
            "-M: a tournament has 1 to 5 maps, not 6",
        ),
        (
            ["-P", "aggressive", "strategist", "-G", "1", "-D", "10"],
            "-M: name 1 to 5 maps to play RISC on: bundled maps by name (risc maps list) or map files",
        ),
        (
            ["-M", "atlantis", "-P", "aggressive", "strategist", "-G", "1", "-D", "10"],
            'no map file "atlantis" and no bundled map of that name',
        ),
        (
            ["-M", "seed", "-P", "aggressive", "strategist", "-G", "1", "-D", "10", "--jobs", "0"],
            "--jobs: at least 1 process",
        ),
    ],
)
def test_bad_arguments_are_refused_with_a_clear_message(
    capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    status, out, err = run(capsys, "tournament", *argv)
    assert status == 2
    assert message in err
    assert out == "", "nothing is played"


def test_a_map_file_that_cannot_be_played_is_refused(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    broken = tmp_path / "broken.toml"
    broken.write_text('name = "Broken"\n[territories.A]\nborders = ["Nowhere"]\n', encoding="utf-8")
    status, out, err = run(
        capsys, "tournament", "-M", str(broken), "-P", "aggressive", "strategist", "-G", "1", "-D", "10"
    )
    assert status == 2 and out == ""
    assert "broken.toml cannot be played" in err


def test_missing_arguments_are_refused_by_the_parser(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["tournament", "-M", "seed", "-P", "aggressive", "strategist", "-G", "1"])
    assert exit_info.value.code == 2
    assert "-D/--max-turns" in capsys.readouterr().err


def test_the_usage_and_help_say_what_is_needed_and_the_limits(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["tournament", "--help"])
    out = " ".join(capsys.readouterr().out.split())
    assert (
        "usage: risc tournament [--rules NAME] [--option KEY=VALUE] -M MAP [MAP ...] -P STRATEGY [STRATEGY ...] "
        "-G GAMES -D MAX_TURNS [--seed SEED] [--jobs N]" in out
    )
    assert "[-M" not in out, "-M is needed: the usage does not show it as optional"
    assert "1-5 maps, 2-4 strategies, 1-5 games per map, 10-50 turns per game" in out
    assert "-G GAMES, --games GAMES games per map, 1-5, needed" in out
    assert "-D MAX_TURNS, --max-turns MAX_TURNS turns per game, 10-50, needed" in out


def test_the_grid_game_needs_no_map(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run(
        capsys,
        "tournament",
        "--rules",
        "grid",
        "-P",
        "aggressive",
        "defensive",
        "random",
        "-G",
        "1",
        "-D",
        "10",
        "--seed",
        "2",
    )
    assert status == 0, err
    assert "Map 1: Grid Risk (VG101) board" in out


def test_a_map_named_for_the_grid_game_is_refused_rather_than_played_as_its_own_board(
    capsys: pytest.CaptureFixture[str],
) -> None:
    status, out, err = run(
        capsys,
        "tournament",
        "--rules",
        "grid",
        "-M",
        "seed",
        "cataract",
        "-P",
        "aggressive",
        "defensive",
        "random",
        "-G",
        "1",
        "-D",
        "10",
        "--seed",
        "2",
    )
    assert status == 2 and out == ""
    assert "-M: Grid Risk (VG101) is played on its own board: name no map (seed, cataract)" in err, err


def test_the_whole_run_is_timed_on_the_wall_clock(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The time printed is the run's, from the command's start to its tables, not the games' alone: checking the
    arguments takes half a second here, on a clock that moves only when told."""
    import risc.cli as cli
    import risc.commands.tournament as command

    now = [1000.0]
    monkeypatch.setattr(cli, "time", types.SimpleNamespace(monotonic=lambda: now[0]))
    checked = command.build_tournament

    def slow_to_check(args: argparse.Namespace) -> command.Tournament:
        now[0] += 0.5
        return checked(args)

    monkeypatch.setattr(command, "build_tournament", slow_to_check)
    status, _, err = run(
        capsys, "tournament", "-M", "seed", "-P", "aggressive", "strategist", "-G", "1", "-D", "10", "--seed", "1"
    )
    assert status == 0
    found = re.search(r"^1 game in (\d+\.\d) s$", err, flags=re.M)
    assert found is not None, err
    assert float(found.group(1)) >= 0.5
    _, _, err = run(capsys, "tournament", "-M", "seed", "-P", "aggressive", "strategist", "-G", "2", "-D", "10")
    assert re.search(r"^2 games in \d+\.\d s$", err, flags=re.M), err


def test_a_map_file_is_named_by_its_name_in_the_tables_not_by_its_path(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    folder = tmp_path / "a folder" / "of maps"
    folder.mkdir(parents=True)
    (folder / "keeps.toml").write_text((ROOT / "maps" / "twin-keeps.toml").read_text())
    status, out, err = run(
        capsys,
        "tournament",
        "-M",
        str(folder / "keeps.toml"),
        "seed",
        "-P",
        "aggressive",
        "defensive",
        "-G",
        "1",
        "-D",
        "10",
        "--seed",
        "3",
    )
    assert status == 0, err
    assert "Map 1: keeps (Twin Keeps, 8 territories)" in out
    assert str(tmp_path) not in out
    assert out[out.index("Overall") :].splitlines()[1].split() == ["keeps", "seed", "total", "share"]
