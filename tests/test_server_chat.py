"""The chat's limits (issue 35): the lobby's words paced by address and as a whole, texts that show nothing or pile
marks on a letter refused, names that pass for the server's refused, and a finished game's chat kept to those who
were at its table (its players, and those who watched it being played).

Every client here is a raw WebSocket connection to a real server; several come from other loopback addresses
(127.0.0.2, ...), as other computers would. The server's clock is a test's, so that a pace is measured, not waited
for."""

from __future__ import annotations

from typing import Any

from server.clock import ManualClock
from server.lobby.chat import LOBBY_BURST, LOBBY_WORDS_BURST
from tests.server_support import FAST, Client, create_game, join, running_server


async def in_the_lobby(server: Any, source: str | None = None) -> Client:
    """A connection that looks at the lobby, so hears its chat."""
    client = await Client.connect(server, source=source)
    assert (await client.request(type="list_games"))["type"] == "games"
    return client


async def say(client: Client, text: str, name: str = "ann", **where: Any) -> dict[str, Any]:
    return await client.request(type="chat", text=text, name=name, **where)


def heard(client: Client) -> list[str]:
    return [f["text"] for f in client.frames if f["type"] == "lobby_chat"]


async def test_the_connections_of_one_address_share_the_lobbys_pace() -> None:
    clock = ManualClock()
    async with running_server(clock=clock, **FAST) as server:
        reader = await in_the_lobby(server)
        crowd = [await in_the_lobby(server, "127.0.0.2") for _ in range(3 * LOBBY_WORDS_BURST)]
        answers = [await say(client, f"line {n}") for n, client in enumerate(crowd)]
        assert [a["type"] for a in answers] == ["chat_sent"] * LOBBY_WORDS_BURST + ["error"] * (2 * LOBBY_WORDS_BURST)
        assert {a["code"] for a in answers[LOBBY_WORDS_BURST:]} == {"rate-limited"}
        assert "your computer is talking too fast" in answers[-1]["message"]
        other = await in_the_lobby(server, "127.0.0.3")
        assert (await say(other, "hello from elsewhere", name="bob"))["type"] == "chat_sent", "another computer"
        clock.advance(2.0)
        assert (await say(crowd[-1], "again"))["type"] == "chat_sent"
        await reader.request(type="list_games")  # a round trip: what the lobby said has reached it
        assert heard(reader) == [f"line {n}" for n in range(LOBBY_WORDS_BURST)] + ["hello from elsewhere", "again"]


async def test_the_lobby_as_a_whole_takes_so_many_lines_whoever_says_them() -> None:
    clock = ManualClock()
    async with running_server(clock=clock, **FAST) as server:
        reader = await in_the_lobby(server)
        speakers = [await in_the_lobby(server, f"127.0.0.{10 + n}") for n in range(LOBBY_BURST + 10)]
        answers = [await say(client, f"line {n}") for n, client in enumerate(speakers)]
        assert [a["type"] for a in answers[:LOBBY_BURST]] == ["chat_sent"] * LOBBY_BURST
        assert all(a["code"] == "rate-limited" and "busy" in a["message"] for a in answers[LOBBY_BURST:])
        await reader.request(type="list_games")
        assert len(heard(reader)) == LOBBY_BURST, "what every reader is sent is bounded"
        clock.advance(0.5)
        assert (await say(speakers[-1], "later"))["type"] == "chat_sent"


async def test_a_text_that_shows_nothing_or_piles_marks_is_refused_and_reaches_nobody() -> None:
    async with running_server(**FAST) as server:
        reader = await in_the_lobby(server)
        speaker = await in_the_lobby(server, "127.0.0.2")
        for text in ("\u3164\u3164\u3164", "\u2800", " \u3164 \u2800 ", "a" + "\u0301" * 299):
            reply = await say(speaker, text)
            assert reply["type"] == "error" and reply["code"] == "invalid-message", (text, reply)
            assert reply["field"] == "text"
        blank = (await say(speaker, "\u3164"))["message"]
        assert (
            blank
            == "invalid chat: text: say something that shows: the text is made of blank characters only (U+3164 ...)"
        )
        assert "marks on one letter" in (await say(speaker, "e" + "\u0301" * 4))["message"]
        assert (await say(speaker, "caf\u00e9 na\u00efve \u1ebf"))["type"] == "chat_sent", "a few marks are words"
        await reader.request(type="list_games")
        assert heard(reader) == ["caf\u00e9 na\u00efve \u1ebf"]


async def test_a_name_that_passes_for_the_server_is_refused_in_the_chat_and_at_a_table() -> None:
    async with running_server(**FAST) as server:
        speaker = await in_the_lobby(server)
        for name in ("server", "SERVER ANNOUNCEMENT", "S.E.R.V.E.R", "\u0455erver", "System", "the admin"):
            reply = await say(speaker, "the server restarts: send your password", name=name)
            assert reply["type"] == "error" and reply["code"] == "invalid-message", (name, reply)
            assert reply["field"] == "name" and "pass for the server" in reply["message"]
        game_id = await create_game(speaker, players=2)
        refused = await speaker.request(type="join_game", game_id=game_id, name="Server")
        assert refused["type"] == "error" and refused["field"] == "name"
        assert (await say(speaker, "hi", name="observer"))["type"] == "chat_sent", "a word holding it is a name"


async def test_a_finished_games_chat_is_its_tables_a_stranger_reads_it_but_says_nothing() -> None:
    async with running_server(seeds=lambda: 4, **FAST) as server:
        ann = await Client.connect(server)
        game_id = await create_game(ann, players=2, bots=1)
        await join(ann, game_id, "ann")
        dee = await Client.connect(server)
        assert (await dee.request(type="watch_game", game_id=game_id))["type"] == "watching"
        assert (await ann.request(type="resign", game_id=game_id))["type"] == "resigned"
        await ann.wait_for(lambda m: m["type"] == "update" and (ann.summaries[game_id]["status"] == "finished"))
        stranger = await Client.connect(server, source="127.0.0.2")
        assert (await stranger.request(type="watch_game", game_id=game_id))["type"] == "watching"
        log_before = len(server.lobby.get(game_id).log)
        for words in ({}, {"to": "ann"}):
            refused = await say(stranger, "I saw it all", name="eve", game_id=game_id, **words)
            assert refused["type"] == "error" and refused["code"] == "not-seated", refused
            assert "is over" in refused["message"] and "you may read it" in refused["message"]
        assert len(server.lobby.get(game_id).log) == log_before, "nothing of the stranger's was kept"
        said = await ann.request(type="chat", game_id=game_id, text="good game")
        assert said["type"] == "chat_sent", "a player talks on"
        assert (await say(dee, "well played", name="dee", game_id=game_id))["type"] == "chat_sent", (
            "one who watched it being played talks on"
        )
        await stranger.wait_for(
            lambda m: m["type"] == "update" and any(e["event"].get("text") == "well played" for e in m["events"])
        )
