"""`risc rules [NAME]`: the rule sets this program plays, and each one's options with the values they take.

The same listing follows a bad `--option` of `risc play` and `risc tournament`, whose problem is worded by the
function the lobby words refused settings with (shared/protocol/wording.py), so that a player reads one language.
"""

from __future__ import annotations

import argparse
import difflib
import enum
import sys
import textwrap
import types
from collections.abc import Sequence
from typing import Any, Union, get_args, get_origin

from annotated_types import Ge, Le
from pydantic import ValidationError
from pydantic.fields import FieldInfo

from shared.game import grammar
from shared.game.ruleset import AnyRuleSet
from shared.protocol import wording
from shared.rulesets import RULESETS

WIDTH = 100
"""Descriptions are wrapped at this many columns."""


class OptionsError(ValueError):
    """Options a rule set will not take; the message says why in a player's words and lists its options."""


def _values(field: FieldInfo) -> str:
    """What values an option takes: "yes or no", "a whole number from 1 to 8", "seed, increasing or fixed"."""
    kinds = [
        a
        for a in (
            get_args(field.annotation)
            if get_origin(field.annotation) in (Union, types.UnionType)
            else (field.annotation,)
        )
        if a is not type(None)
    ]
    kind = kinds[0] if len(kinds) == 1 else None
    if kind is bool:
        return "yes or no"
    if isinstance(kind, type) and issubclass(kind, enum.Enum):
        names = [str(m.value) for m in kind]
        return ", ".join(names[:-1]) + f" or {names[-1]}" if len(names) > 1 else names[0]
    low = next((m.ge for m in field.metadata if isinstance(m, Ge)), None)
    high = next((m.le for m in field.metadata if isinstance(m, Le)), None)
    what = "a whole number" if kind is int else "a number" if kind is float else "a word"
    if low is not None and high is not None:
        return f"{what} from {low} to {high}"
    if low is not None:
        return f"{what}, at least {low}"
    if high is not None:
        return f"{what}, at most {high}"
    return what


def _shown(value: Any) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, enum.Enum):
        return str(value.value)
    return "not set" if value is None else str(value)


def option_lines(ruleset: AnyRuleSet, indent: str = "  ") -> list[str]:
    """Each option of a rule set: its name (and the lobby's short word for it), the values it takes, its default,
    and what it does."""
    short = {long: word for word, long in ruleset.presentation.option_words.items()}
    lines = []
    for name, field in ruleset.options_type.model_fields.items():
        also = f" (or {short[name]})" if name in short else ""
        lines.append(f"{indent}{name}{also}: {_values(field)}; default {_shown(field.default)}")
        if field.description:
            lines += textwrap.wrap(
                field.description.replace("null: ", "not set: "),
                WIDTH,
                initial_indent=indent + "    ",
                subsequent_indent=indent + "    ",
            )
    return lines


def read_options(ruleset: AnyRuleSet, pairs: Sequence[str]) -> tuple[dict[str, Any], Any]:
    """KEY=VALUE pairs as a rule set's options (numbers and yes/no read as such; the lobby's short words, such as
    units= for initial_units=, accepted): the options as given, and as the rule set completes them. OptionsError
    says what is wrong as the lobby would, then lists the rule set's options."""
    words = ruleset.presentation.option_words
    options: dict[str, Any] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key or not value:
            raise OptionsError(f'"{pair}" is not KEY=VALUE (e.g. --option {_example(ruleset)})\n' + _listing(ruleset))
        options[words.get(key.casefold(), key)] = grammar.option_value(value)
    try:
        return options, ruleset.options(options)
    except ValidationError as exc:
        problem = wording.problems(exc)
        known = list(ruleset.options_type.model_fields)
        unknown = [k for k in options if k not in known]
        if unknown and (guess := _guess(unknown[0], known)) is not None:
            problem += f" (did you mean {guess}?)"
        raise OptionsError(f"{ruleset.title} options: {problem}\n" + _listing(ruleset)) from None


def _guess(word: str, known: Sequence[str]) -> str | None:
    """The option a mistyped name most likely meant ("cheating": allow_cheaters), by the whole name or one of its
    words; None when nothing is close."""

    def likeness(name: str) -> float:
        return max(difflib.SequenceMatcher(None, word.casefold(), part).ratio() for part in [name, *name.split("_")])

    best = max(known, key=likeness, default=None)
    return best if best is not None and likeness(best) >= 0.6 else None


def _example(ruleset: AnyRuleSet) -> str:
    fields = ruleset.options_type.model_fields.items()
    name, field = next(((n, f) for n, f in fields if f.default is not None), next(iter(fields)))
    return f"{name}={_shown(field.default)}"


def _listing(ruleset: AnyRuleSet) -> str:
    return "\n".join(
        [
            f"{ruleset.title}'s options (--option KEY=VALUE; risc rules {ruleset.name} says the same):",
            *option_lines(ruleset),
        ]
    )


def describe(ruleset: AnyRuleSet) -> str:
    """One rule set in full: what it is, its players, computer players and options."""
    fewest, most = ruleset.player_counts(ruleset.options({}))
    strategies = ", ".join(
        f"{name}{' (the default)' if name == ruleset.default_strategy else ''}" for name in sorted(ruleset.strategies)
    )
    board = "its own board" if ruleset.own_map else f"a map (default {ruleset.default_map}; risc maps list)"
    return "\n".join(
        [
            f"{ruleset.title} ({ruleset.name}): {ruleset.blurb}.",
            f"Players: {fewest} to {most} (with the default options). Played on {board}.",
            f"Computer players (--strategy, -P): {strategies}.",
            "",
            f"Options (risc play --rules {ruleset.name} --option KEY=VALUE, risc tournament --option KEY=VALUE, or "
            "KEY=VALUE after the lobby's create):",
            *option_lines(ruleset),
        ]
    )


def _run(args: argparse.Namespace) -> int:
    if args.name is None:
        print("Rule sets (risc play --rules NAME; risc rules NAME for its options):")
        width = max(len(name) for name in RULESETS)
        for name, each in sorted(RULESETS.items()):
            print(f"  {name:<{width}}  {each.title}: {each.blurb}")
        return 0
    ruleset = RULESETS.get(args.name.casefold())
    if ruleset is None:
        print(
            f"risc rules: no rule set {args.name!r}: known rule sets are {', '.join(sorted(RULESETS))}", file=sys.stderr
        )
        return 2
    print(describe(ruleset))
    return 0


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "rules",
        help="the rule sets, and each one's options",
        description="List the rule sets (the games) this program plays; with a NAME, "
        "that rule set's players, computer players and options, with the "
        "values each option takes and its default.",
    )
    parser.add_argument(
        "name", nargs="?", default=None, metavar="NAME", help=f"a rule set: {', '.join(sorted(RULESETS))}"
    )
    parser.set_defaults(handler=_run)
