"""Player names that players can see and tell apart.

A name is what other players read on their screens, and the only way they know who is who. So a name is kept in
the form it shows (NFKC: full-width letters, ligatures, decomposed accents become the plain letters they look
like); a name with a character that shows nothing (zero-width and format characters, controls, fillers such as
U+3164 that are letters but blank) is refused; and two names whose letters look the same (`skeleton`: case folded,
and the Cyrillic and Greek letters that are drawn like Latin ones taken as those) cannot sit in one game.

The confusables map is the small part of Unicode's (UTS #39) that matters for names typed on a LAN: Cyrillic and
Greek look-alikes of Latin letters. A complete skeleton would need Unicode's data file, a dependency that the
names of a game among friends do not justify.
"""

from __future__ import annotations

import re
import unicodedata
from typing import Final, Literal

FORM: Final[Literal["NFKC"]] = "NFKC"

INVISIBLE_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})
"""Controls, format characters (zero-width joiners, direction overrides, tags...), surrogates, private use,
unassigned code points, line and paragraph separators."""

BLANK = frozenset(
    {
        0x115F,
        0x1160,
        0x3164,
        0xFFA0,
        0x2800,
        0x034F,
        0x17B4,
        0x17B5,
        0x180B,
        0x180C,
        0x180D,
        0x180F,
        *range(0xFE00, 0xFE10),
        *range(0xE0100, 0xE01F0),
        0x1D159,
        *range(0x1D173, 0x1D17B),
    }
)
"""Characters outside those categories that show nothing: Hangul fillers (letters), the braille blank, the combining
grapheme joiner and variation selectors (marks), Khmer inherent vowels; Unicode's Default_Ignorable_Code_Point
list, less what the categories above already hold."""

MAX_MARKS = 3
"""Marks on one letter: scripts that use them need two or three; more are piled up to spill over other lines."""

_LOOK_ALIKES = {
    # Cyrillic capitals and small letters drawn as Latin ones
    "А": "A",
    "В": "B",
    "Е": "E",
    "К": "K",
    "М": "M",
    "Н": "H",
    "О": "O",
    "Р": "P",
    "С": "C",
    "Т": "T",
    "Х": "X",
    "У": "Y",
    "Ү": "Y",
    "І": "I",
    "Ј": "J",
    "Ѕ": "S",
    "Ԛ": "Q",
    "Ԝ": "W",
    "а": "a",
    "е": "e",
    "о": "o",
    "р": "p",
    "с": "c",
    "у": "y",
    "х": "x",
    "і": "i",
    "ј": "j",
    "ѕ": "s",
    "ԁ": "d",
    "ԛ": "q",
    "ԝ": "w",
    "һ": "h",
    "ӏ": "l",
    "ѵ": "v",
    "ү": "y",
    # Greek capitals and small letters drawn as Latin ones
    "Α": "A",
    "Β": "B",
    "Ε": "E",
    "Ζ": "Z",
    "Η": "H",
    "Ι": "I",
    "Κ": "K",
    "Μ": "M",
    "Ν": "N",
    "Ο": "O",
    "Ρ": "P",
    "Τ": "T",
    "Υ": "Y",
    "Χ": "X",
    "α": "a",
    "ι": "i",
    "κ": "k",
    "ν": "v",
    "ο": "o",
    "ρ": "p",
    "υ": "u",
    "χ": "x",
    # Latin letters drawn as other Latin letters
    "ı": "i",
    "ȷ": "j",
    "ɑ": "a",
    "ɡ": "g",
}
_LOOK_ALIKE_TABLE = str.maketrans(_LOOK_ALIKES)


def _described(char: str) -> str:
    return f"U+{ord(char):04X} {unicodedata.name(char, 'an unnamed character')}"


def check_name(name: str) -> str:
    """`name` in the form it shows (NFKC). Raises ValueError, in a sentence naming the character, for a name holding
    one that a player could not see, or marks that sit on no letter or pile up."""
    shown = unicodedata.normalize(FORM, name)
    for text in (name, shown):  # as typed (so the message names what the player typed), then as it shows
        for char in text:
            category = unicodedata.category(char)
            if (
                category in INVISIBLE_CATEGORIES
                or ord(char) in BLANK
                or (text is shown and category == "Zs" and char != " ")
            ):  # NFKC makes most spaces " "
                raise ValueError(
                    f"the name holds {_described(char)}, which players could not see: "
                    "use letters, digits and the characters they can see"
                )
    problem = marks_problem(shown, "the name")
    if problem is not None:
        raise ValueError(problem)
    return shown


def marks_problem(text: str, what: str) -> str | None:
    """What is wrong with the marks (accents and the like) of `text` (`what`: "the name"), if anything: a mark that
    starts it and so sits on no letter, or more than MAX_MARKS piled on one letter, which spill over the lines above
    and below on a screen (a letter with 299 of them covered a chat's lines)."""
    marks = 0
    for index, char in enumerate(text):
        if unicodedata.category(char).startswith("M"):
            marks += 1
            if index == 0:
                return f"{what} starts with {_described(char)}, a mark that belongs on a letter"
            if marks > MAX_MARKS:
                return f"{what} piles more than {MAX_MARKS} marks on one letter, which players could not see clearly"
        else:
            marks = 0
    return None


def shows_nothing(text: str) -> bool:
    """Whether `text` shows nothing on a screen: spaces, blank characters (BLANK: the Hangul filler U+3164, the
    braille blank U+2800, ...) and marks alone."""
    return all(
        char.isspace()
        or ord(char) in BLANK
        or unicodedata.category(char) in ("Zs", "Mn", "Me", "Mc")
        or unicodedata.category(char) in INVISIBLE_CATEGORIES
        for char in text
    )


def skeleton(name: str) -> str:
    """What a name looks like: two names with the same skeleton cannot be told apart on a screen."""
    shown = unicodedata.normalize(FORM, name).translate(_LOOK_ALIKE_TABLE)
    folded = unicodedata.normalize(FORM, shown.casefold())
    return " ".join(folded.split())  # two spaces look like one


RESERVED_WORDS = frozenset({"server", "system", "admin", "administrator", "moderator"})
"""Words a name a person takes may not hold: the server's own words would seem to come from a name holding them
(`server`, `SERVER ANNOUNCEMENT` said in the lobby's chat that the game restarts and asked for passwords)."""


def reserved_word(name: str) -> str | None:
    """The word of RESERVED_WORDS that `name` holds, if any: as a word of its own, however it is written (case,
    look-alike letters, `S.E.R.V.E.R`)."""
    shown = skeleton(name)
    words = {word for word in re.split(r"[\W_]+", shown) if word}
    words.add("".join(char for char in shown if char.isalnum()))
    return next((word for word in sorted(words) if word in RESERVED_WORDS), None)


def not_reserved(value: str) -> str:
    """For validation (pydantic's AfterValidator) of a name a person takes: refused when it passes for the server."""
    word = reserved_word(value)
    if word is not None:
        raise ValueError(f'a name holding "{word}" would pass for the server\'s own words: choose another')
    return value


def looks_alike(one: str, other: str) -> bool:
    return skeleton(one) == skeleton(other)


def normalised_name(value: object) -> object:
    """For validation (pydantic's BeforeValidator): a str checked and in its shown form; anything else as it came,
    for the str schema to refuse."""
    return check_name(value) if isinstance(value, str) else value
