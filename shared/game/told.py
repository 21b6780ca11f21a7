"""Words as one reader reads them. A rule set's presentation words its events as a spectator reads them ("Wes
places the rest of their armies"); told to a player, a line that speaks of them speaks to them: `told_to` turns the
reader's name into "you", and a sentence whose subject they are into the second person ("You place the rest of your
armies"), its verbs with it. Verbs not in the present tense ("attacked", "drew") stay as they are; a word after the
name that is no verb (a roll's "Wes Oz -> Gondor") leaves the name where it stands.
"""

from __future__ import annotations

import re

_IRREGULAR = {"is": "are", "was": "were", "has": "have", "does": "do", "goes": "go"}
_SENTENCE = re.compile(r"(?:^|[.!?]\s+|\n|^Turn \d+\s+)$")
"""What comes before the start of a sentence: nothing, a full stop, a new line, or the heading of a turn ("Turn 3
Wes reinforces ...")."""


def second_person(verb: str) -> str | None:
    """A verb said of "you" rather than of one player ("places" -> "place", "is" -> "are"), a verb in another tense
    ("attacked", "drew") as it is; None for a word that is no verb (a number, a place's name)."""
    if verb in _IRREGULAR:
        return _IRREGULAR[verb]
    if not verb.isalpha() or not verb.islower():
        return None
    if verb.endswith("ies") and len(verb) > 4:
        return verb[:-3] + "y"
    if verb.endswith(("sses", "shes", "ches", "xes", "zzes")):
        return verb[:-2]
    if verb.endswith("s") and not verb.endswith("ss"):
        return verb[:-1]
    return verb


def told_to(text: str, reader: str | None) -> str:
    """`text` (words as a spectator reads them) as `reader` reads it: their name as "you" ("your" for "Wes's"), and a
    sentence whose subject they are in the second person, its verbs with it ("Wes moves 3 and ends the turn" -> "You
    move 3 and end the turn"). A grid game's "A (Wes)" is "you (A)". At the start of a sentence, a name followed by
    no verb (a roll's "Wes Oz -> Gondor") stays. Text that does not name the reader is as it was."""
    if reader is None or reader not in text:
        return text
    name = re.escape(reader)
    found = re.compile(
        rf"(?:(?P<mark>\b[A-Z]) \({name}\)|(?<![\w'-]){name}(?![\w-]))(?P<own>'s\b)?(?: (?P<word>[^\s,.;:!?]+))?"
    )
    out: list[str] = []
    at = 0
    for match in found.finditer(text):
        if match.start() < at:
            continue  # within a sentence told already
        begins = bool(_SENTENCE.search(text[: match.start()]))
        mark = f" ({match.group('mark')})" if match.group("mark") else ""
        word = match.group("word")
        if match.group("own"):
            said = ("Your" if begins else "your") + (f" {word}" if word else "")
        elif word is not None and (verb := second_person(word)) is not None:
            said = f"{'You' if begins else 'you'}{mark} {verb}"
            # the same sentence's other verbs of the same subject: "... and ends the turn"
            end = re.search(r"[.!?](\s|$)", text[match.end() :])
            stop = match.end() + (end.start() if end else len(text) - match.end())
            rest = re.sub(
                r"\band (?P<verb>[a-z]+s)\b",
                lambda m: f"and {second_person(m.group('verb')) or m.group('verb')}",
                told_to(text[match.end() : stop], reader),
            )
            rest = re.sub(r"\btheir(s?)\b", r"your\1", rest)
            out += [text[at : match.start()], said, rest]
            at = stop
            continue
        elif begins:
            continue  # no verb follows: the name stays
        else:
            said = f"you{mark}" + (f" {word}" if word else "")
        out += [text[at : match.start()], said]
        at = match.end()
    out.append(text[at:])
    return "".join(out)
