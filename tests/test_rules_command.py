"""A rule set's options from the command line: `risc rules [NAME]` lists them with the values they take, and a bad
`--option` of `risc play` or `risc tournament` is said as the lobby says it, with the options the rule set has."""

from __future__ import annotations

import pytest

from risc.cli import main
from risc.commands.rules import OptionsError, read_options
from shared.rulesets import RULESETS, get_ruleset


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def test_risc_rules_lists_every_rule_set(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "rules")
    assert status == 0
    assert out.splitlines()[0] == "Rule sets (risc play --rules NAME; risc rules NAME for its options):"
    for name, ruleset in RULESETS.items():
        assert f"  {name.ljust(7)}  {ruleset.title}: {ruleset.blurb}" in out


def test_risc_rules_name_lists_its_options_with_their_values_and_defaults(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "rules", "warzone")
    assert status == 0
    assert out.startswith("Warzone (warzone): COMP 345 Warzone")
    assert "Players: 2 to 6 (with the default options)." in out
    assert (
        "Computer players (--strategy, -P): aggressive, benevolent, cheater, neutral, random, strategist "
        "(the default)." in out
    )
    assert "  initial_cards: a whole number from 0 to 10; default 2\n" in out
    assert "  allow_cheaters: yes or no; default no\n      accept the cheater's conquest order" in out
    for option in get_ruleset("warzone").options_type.model_fields:
        assert f"  {option}: " in out

    _, risc, _ = run(capsys, "rules", "risc")
    assert "  evolution: a whole number from 1 to 3; default 1\n" in risc
    assert "  initial_units (or units): a whole number from 1 to 100000; default not set\n" in risc
    assert "not set: 10 per starting territory" in risc and "null" not in risc
    _, classic, _ = run(capsys, "rules", "classic")
    assert "  mode: domination, capital or mission; default domination\n" in classic

    status, _, err = run(capsys, "rules", "chess")
    assert status == 2 and "risc rules: no rule set 'chess': known rule sets are classic, grid, risc, warzone" in err


@pytest.mark.parametrize(
    "command", [["play"], ["tournament", "-M", "seed", "-P", "random", "random", "-G", "1", "-D", "10"]]
)
def test_a_bad_option_is_said_in_a_players_words_with_the_options_there_are(
    capsys: pytest.CaptureFixture[str], command: list[str]
) -> None:
    prefix = f"risc {command[0]}: {'error: ' if command[0] == 'tournament' else ''}--option: "

    status, out, err = run(capsys, *command, "--rules", "warzone", "--option", "cheating=true")
    assert status == 2 and out == ""
    assert err.startswith(prefix + "Warzone options: cheating is not a setting here (did you mean allow_cheaters?)\n")
    assert "Warzone's options (--option KEY=VALUE; risc rules warzone says the same):\n" in err
    assert "  allow_cheaters: yes or no; default no\n" in err
    assert "  initial_cards: a whole number from 0 to 10; default 2\n" in err
    assert "validation error" not in err and "pydantic" not in err and "Extra inputs" not in err

    status, _, err = run(capsys, *command, "--option", "evolution=7")
    assert status == 2
    assert err.startswith(prefix + "RISC options: evolution must be at most 3\n")
    assert "  evolution: a whole number from 1 to 3; default 1\n" in err
    assert "validation error" not in err

    status, _, err = run(capsys, *command, "--option", "evolution")
    assert status == 2
    assert err.startswith(prefix + '"evolution" is not KEY=VALUE (e.g. --option neutral_units=3)\n')


def test_options_are_read_as_the_lobby_reads_them() -> None:
    """Numbers and yes/no as such, the lobby's short words for the long names, and its wording of a refusal."""
    risc = get_ruleset("risc")
    given, chosen = read_options(risc, ["units=20", "evolution=2", "choose=yes"])
    assert given == {"initial_units": 20, "evolution": 2, "choose_groups": True}
    assert chosen.initial_units == 20 and chosen.evolution == 2 and chosen.choose_groups
    with pytest.raises(
        OptionsError,
        match=r"^Classic Risk options: cheating is not a setting here \(did you mean "
        r"cheaters\?\)",
    ):
        read_options(get_ruleset("classic"), ["cheating=yes"])
    with pytest.raises(
        OptionsError,
        match=r"^Classic Risk options: mode must be one of 'domination', 'capital' or "
        r"'mission'\n",
    ):
        read_options(get_ruleset("classic"), ["mode=war"])
    with pytest.raises(
        OptionsError,
        match=r"^RISC options: players is not a setting here \(did you mean "
        r"max_players\?\)",
    ):
        read_options(risc, ["players=3"])
    with pytest.raises(OptionsError, match=r"^RISC options: food must be a whole number\n"):
        read_options(risc, ["food=lots"])
