"""Player names a player can see and tell apart (issue 19, item 5).

A name is kept in its NFKC form (full-width letters, ligatures and decomposed accents become the plain letters
they show); a name with a character a player could not see (invisible, format, control, blank-looking) is refused;
a name that looks like one already seated (same letters up to case, or Cyrillic and Greek look-alikes of Latin
letters) is taken.
"""

from __future__ import annotations

import re

import pytest
from pydantic import TypeAdapter, ValidationError

from shared.protocol.lobby import PlayerName
from shared.protocol.names import check_name, looks_alike, skeleton
from tests.server_support import Client, create_game, join, running_server

NAME: TypeAdapter[str] = TypeAdapter(PlayerName)

INVISIBLE = {
    "ann\u200d": "U+200D",  # zero-width joiner
    "a\u200bnn": "U+200B",  # zero-width space
    "\u202eann": "U+202E",  # right-to-left override
    "ann\u00ad": "U+00AD",  # soft hyphen
    "ann\ufe0f": "U+FE0F",  # variation selector
    "\u3164": "U+3164",  # Hangul filler: a letter that shows nothing
    "a\u115fb": "U+115F",
    "ann\u2800": "U+2800",  # braille blank
    "an\u034fn": "U+034F",  # combining grapheme joiner
    "ann\x07": "U+0007",
    "ann\U000e0041": "U+E0041",  # a tag character
}


@pytest.mark.parametrize("name", list(INVISIBLE))
def test_a_name_with_a_character_no_player_could_see_is_refused_naming_it(name: str) -> None:
    with pytest.raises(ValueError, match=re.escape(INVISIBLE[name])):
        check_name(name)
    with pytest.raises(ValidationError):
        NAME.validate_python(name)


def test_a_name_is_kept_in_the_form_it_shows() -> None:
    assert check_name("ａｎｎ") == "ann"  # full-width letters
    assert check_name("Jose\u0301") == "José"  # a decomposed accent, composed
    assert check_name("ﬁona") == "fiona"  # a ligature
    assert check_name("ann\u3000lee") == "ann lee"  # an ideographic space is a space
    assert NAME.validate_python("ａｎｎ") == "ann"
    assert NAME.validate_python("Zoë") == "Zoë"


def test_marks_must_sit_on_a_letter_and_not_pile_up() -> None:
    with pytest.raises(ValueError, match="mark"):
        check_name("\u0301ann")
    with pytest.raises(ValueError, match="marks"):
        check_name("a\u0301\u0302\u0303\u0304\u0305nn")
    assert check_name("नमस्ते") == "नमस्ते"  # marks of a script that uses them


def test_names_that_look_alike_have_the_same_skeleton() -> None:
    for other in ("ann", "Ann", "ANN", "аnn", "ΑΝΝ", "ａｎｎ"):
        assert looks_alike("ann", other), other
    assert skeleton("Bob") == skeleton("ВОВ") == skeleton("ΒΟΒ")  # Cyrillic and Greek capitals
    assert skeleton("ann  lee") == skeleton("ann lee")
    for other in ("anna", "José", "an", "bob"):
        assert not looks_alike("ann", other), other
    assert not looks_alike("José", "Jose")  # an accent shows


async def test_a_look_alike_of_a_seated_name_is_taken_and_an_invisible_one_is_refused() -> None:
    async with running_server() as server:
        clients = [await Client.connect(server) for _ in range(9)]
        game_id = await create_game(clients[0], players=5)
        await join(clients[0], game_id, "ann")
        await join(clients[1], game_id, "José")
        for client, name in zip(clients[2:7], ("аnn", "ａnn", "ANN", "Jose\u0301", "ΑΝΝ"), strict=True):
            reply = await client.request(type="join_game", game_id=game_id, name=name)
            assert reply["type"] == "error" and reply["code"] == "name-taken", (name, reply)
        for name in ("ann\u200d", "\u3164", "ann\u2800"):
            reply = await clients[7].request(type="join_game", game_id=game_id, name=name)
            assert reply["type"] == "error" and reply["code"] == "invalid-message", (name, reply)
            assert "see" in reply["message"], reply
        reply = await clients[8].request(type="join_game", game_id=game_id, name="ｂｏｂ")
        assert reply["type"] == "joined" and reply["player"] == "bob"
