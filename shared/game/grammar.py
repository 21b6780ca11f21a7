"""Reading what a player types: words, numbers and names, with errors that say how to say it right.

Pure helpers shared by the text client's own commands and every rule set's order commands (presentation), so that a
territory is matched the same way whatever the game (D4: any case, a unique prefix), and a name with spaces may be
quoted, or typed as it is when only one way of splitting the words names what the command needs.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from shared.game.names import match_name


@dataclass(frozen=True)
class ParseError:
    message: str

    def __str__(self) -> str:
        return self.message


_TOKEN = re.compile(r'"([^"]*)"?|(\S+)')


def tokens(text: str) -> list[str]:
    """Words, with "double quotes" around a name that holds spaces; an unclosed quote runs to the end."""
    return [m.group(1) if m.group(1) is not None else m.group(2) for m in _TOKEN.finditer(text)]


def option_value(text: str) -> Any:
    """An option's value as a person types it (`evolution=3`, `cheaters=yes`), as the JSON value the rule set reads:
    a whole number, a number, yes/no, or the word itself. Options are read by JSON type, so what a person types is
    made one here, never guessed at by the rule set."""
    lowered = text.casefold()
    if lowered in ("true", "yes", "on"):
        return True
    if lowered in ("false", "no", "off"):
        return False
    if re.fullmatch(r"[+-]?\d{1,9}", text):
        return int(text)
    try:
        return float(text.rstrip("s")) if re.fullmatch(r"[+-]?\d*\.?\d+s?", text) else text
    except ValueError:
        return text


def count(text: str, what: str, usage: str = "") -> int | ParseError:
    """A whole number as typed (sign allowed: the rules, not the parser, say a count must be positive)."""
    if not re.fullmatch(r"[+-]?\d{1,9}", text):
        return ParseError(f'{what} must be a whole number, not "{text}"' + (f"; {usage}" if usage else ""))
    return int(text)


def name(typed: str, names: Sequence[str], what: str = "territory") -> str | ParseError:
    found = match_name(typed, names, what)
    return found if isinstance(found, str) else ParseError(found.message)


def names(
    words: Sequence[str], candidates: Sequence[str], wanted: int, usage: str, what: str = "territory"
) -> tuple[str, ...] | ParseError:
    """`wanted` names, each possibly several words: the one way to split the words that names them all."""
    if len(words) < wanted:
        return ParseError(f"{wanted} {what} names are needed; {usage}")
    if len(words) == wanted:
        found = []
        for word in words:
            one = name(word, candidates, what)
            if isinstance(one, ParseError):
                return one
            found.append(one)
        return tuple(found)
    splits = [
        split
        for split in _splits(list(words), wanted)
        if all(isinstance(name(part, candidates, what), str) for part in split)
    ]
    if len(splits) == 1:
        return tuple(str(name(part, candidates, what)) for part in splits[0])
    if splits:
        return ParseError(f'"{" ".join(words)}" can be read more than one way: put "double quotes" around each name')
    return ParseError(f'"{" ".join(words)}" does not name {wanted} {what}s; {usage}')


REST = ("rest", "left")
"""What stands for a count where a command places whatever the player's pool still holds (`place rest Oz`, `deploy
rest *`)."""

EVERY_OWN = ("*",)
"""What names every territory of the player's, where a command spreads a count over several (`place 30 *`)."""


def several(
    words: Sequence[str], candidates: Sequence[str], own: Sequence[str], what: str = "territory"
) -> list[str] | ParseError:
    """The territories a count is spread over: `*` for all the player's own (`own`), one name (possibly several
    words), or several names, one word (or one "quoted name") each, in the order typed."""
    if len(words) == 1 and words[0].casefold() in EVERY_OWN:
        return list(own) or ParseError(f"you hold no {what}")
    whole = name(" ".join(words), candidates, what)
    if isinstance(whole, str) or len(words) == 1:
        return [whole] if isinstance(whole, str) else whole
    found: list[str] = []
    for word in words:
        one = name(word, candidates, what)
        if isinstance(one, ParseError):
            return one
        if one not in found:
            found.append(one)
    return found


def source_and_target(
    words: Sequence[str], candidates: Sequence[str], usage: str, what: str = "territory"
) -> tuple[str, str] | ParseError:
    """Where from and where to, each possibly several words (see `names`); when two words were typed, a wrong one is
    named as the `from` or the `to`."""
    pair = names(words, candidates, 2, usage, what)
    if isinstance(pair, ParseError):
        if len(words) == 2:
            for label, word in (("from", words[0]), ("to", words[1])):
                one = name(word, candidates, what)
                if isinstance(one, ParseError):
                    return ParseError(f"{label}: {one}")
        return pair
    return pair[0], pair[1]


def _splits(words: list[str], parts: int) -> list[list[str]]:
    if parts == 1:
        return [[" ".join(words)]]
    found = []
    for cut in range(1, len(words) - parts + 2):
        for rest in _splits(words[cut:], parts - 1):
            found.append([" ".join(words[:cut]), *rest])
    return found
