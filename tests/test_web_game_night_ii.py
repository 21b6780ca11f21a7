"""Game night II on the web page, in a real headless Chromium against a real server: the chat (the lobby's, a game's
to everyone and to one player, and among those who watch), resigning after a confirmation, and one player in several
games at once, switching between them."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.web_support import (
    browser_or_skip,
    create_in_lobby,
    page_url,
    place_everything,
    watched_pages,
    web_server,
)

browser_or_skip()
pytestmark = pytest.mark.asyncio(loop_scope="module")


async def say(page: Any, panel: str, text: str, to: str | None = None) -> None:
    """Type a word into a chat panel (`#lobby-chat` or `#game-chat`), for `to` when given, and send it."""
    if to is not None:
        await page.select_option(f"{panel} .chat-to", to)
    await page.fill(f"{panel} .chat-text", text)
    await page.click(f"{panel} .chat-form button[type=submit]")


async def hears(page: Any, panel: str, word: str) -> None:
    """Wait until a chat panel shows `word` as it reads."""
    await page.locator(f"{panel} .chat-lines li", has_text=word).first.wait_for()
    assert word in await heard(page, panel)


async def heard(page: Any, panel: str) -> list[str]:
    """Every word a chat panel shows, as it reads."""
    found: list[str] = await page.eval_on_selector_all(f"{panel} .chat-lines li", "els => els.map(e => e.innerText)")
    return found


async def test_chat_in_the_lobby_in_a_game_to_one_player_among_watchers_and_a_resignation(
    browser: Any, tmp_path: Path
) -> None:
    async with web_server() as server, watched_pages(browser, tmp_path) as pages:
        ann = (await pages.open(page_url(server))).page
        bob = (await pages.open(page_url(server))).page
        for page in (ann, bob):
            await page.wait_for_selector("#lobby:not([hidden]) #ruleset option", state="attached")
        await bob.fill("#name", "Bob")
        await say(bob, "#lobby-chat", "anyone for a game?")
        await ann.wait_for_selector("#lobby-chat li[data-from=Bob]")
        assert await heard(ann, "#lobby-chat") == ["Bob: anyone for a game?"]

        await create_in_lobby(ann, "Ann", map_id="twin-keeps", players=3, bots=1)
        await ann.wait_for_selector("#game[data-you=Ann]")
        game_id = await ann.get_attribute("#game", "data-game-id")
        await bob.click("#refresh")
        await bob.click(f"tr[data-game-id='{game_id}'] [data-join]")
        for page in (ann, bob):
            await page.wait_for_selector("#game[data-status=playing]")
        dee = (await pages.open(page_url(server, f"game={game_id}"))).page
        await dee.wait_for_selector("#game[data-status=playing]")
        assert await dee.is_visible("#game-chat .chat-name-label"), "a spectator speaks under a name of their own"
        await dee.fill("#game-chat .chat-name", "Dee")

        await say(ann, "#game-chat", "good luck, all")
        for page in (bob, dee):
            await page.wait_for_selector("#game-chat li[data-from=Ann][data-to='']")
        assert await heard(bob, "#game-chat") == ["Ann: good luck, all"]
        assert await heard(ann, "#game-chat") == ["Ann (you): good luck, all"]
        await say(ann, "#game-chat", "shall we take the bot first?", to="Bob")
        await bob.wait_for_selector("#game-chat li[data-to=Bob]")
        assert (await heard(bob, "#game-chat"))[-1] == "Ann to you: shall we take the bot first?"
        await say(dee, "#game-chat", "who is winning?")
        await dee.wait_for_selector("#game-chat li[data-watchers=true]")
        assert (await heard(dee, "#game-chat"))[-1] == "Dee (watching) to those who watch: who is winning?"
        await say(bob, "#game-chat", "still here")
        for page in (ann, dee):
            await hears(page, "#game-chat", "Bob: still here")
        assert not any("take the bot" in word for word in await heard(dee, "#game-chat")), "said to Bob alone"
        assert not any("who is winning" in word for word in await heard(ann, "#game-chat")), (
            "the players still in do not hear those who watch while the game runs"
        )
        assert not any("who is winning" in word for word in await heard(bob, "#game-chat"))

        # Resigning asks first; "No" plays on.
        await bob.click("#resign")
        await bob.wait_for_selector("#resign-confirm:not([hidden])")
        await bob.click("#resign-no")
        await bob.wait_for_selector("#resign-confirm", state="hidden")
        assert await ann.get_attribute("#player-list li[data-player=Bob]", "data-eliminated") == "false"
        await bob.click("#resign")
        await bob.click("#resign-yes")
        await ann.wait_for_selector("#player-list li[data-player=Bob][data-eliminated=true]")
        await ann.wait_for_selector("#log li[data-kind=player_resigned]")
        await bob.wait_for_selector("#resign", state="hidden")
        assert "You resigned" in await bob.inner_text("#order-note")
        assert await ann.get_attribute("#game", "data-status") == "playing", "Ann and the computer play on"
        # Out of the game, Bob talks with those who watch.
        assert await bob.eval_on_selector("#game-chat .chat-to", "e => e.options[0].textContent") == "those who watch"
        await say(bob, "#game-chat", "I am out")
        await hears(dee, "#game-chat", "Bob to those who watch: I am out")
        await say(ann, "#game-chat", "bye, Bob", to="")  # to everyone again: the last choice stays
        await hears(dee, "#game-chat", "Ann: bye, Bob")
        assert not any("I am out" in word for word in await heard(ann, "#game-chat"))


async def test_one_player_in_two_games_sees_where_each_stands_and_switches_between_them(
    browser: Any, tmp_path: Path
) -> None:
    async with web_server() as server, watched_pages(browser, tmp_path) as pages:
        opened = await pages.open(page_url(server))
        page = opened.page
        await create_in_lobby(page, "Ann", map_id="twin-keeps", players=2, bots=1)
        await page.wait_for_selector("#game[data-status=playing][data-you=Ann]")
        first = await page.get_attribute("#game", "data-game-id")
        assert await page.is_hidden("#my-games"), "one game: no bar"
        await place_everything(page, "Ann")

        await page.click("#to-lobby")  # the first game goes on off screen, and says when it waits for her
        await page.wait_for_selector(f"#my-games li[data-game-id='{first}'][data-waits=true]")
        assert "turn 1, your orders" in await page.inner_text(f"#my-games li[data-game-id='{first}']")
        # With the lobby on screen she is in the lobby, her game going on: she hears its chat.
        bob = (await pages.open(page_url(server))).page
        await bob.wait_for_selector("#lobby:not([hidden]) #ruleset option", state="attached")
        await bob.fill("#name", "Bob")
        await say(bob, "#lobby-chat", "a quick game, anyone?")
        await hears(page, "#lobby-chat", "Bob: a quick game, anyone?")
        await create_in_lobby(page, "Ann", map_id="seed", players=2, bots=1)
        await page.wait_for_selector(f"#game[data-status=playing][data-you=Ann]:not([data-game-id='{first}'])")
        second = await page.get_attribute("#game", "data-game-id")
        await page.wait_for_selector(f"#my-games li[data-game-id='{second}'] [aria-current=true]")
        assert await page.get_attribute("#game", "data-phase") == "placement"

        await page.click(f"#my-games li[data-game-id='{first}'] button")
        await page.wait_for_selector(f"#game[data-game-id='{first}'][data-phase=orders][data-turn='1']")
        assert await page.evaluate("location.hash") == f"#game={first}&player=Ann"
        await page.wait_for_selector(f"#my-games li[data-game-id='{second}'][data-waits=true]")
        await page.click("#commit")
        await page.wait_for_selector(f"#game[data-game-id='{first}'][data-turn='2']")

        await page.click(f"#my-games li[data-game-id='{second}'] button")
        await page.wait_for_selector(f"#game[data-game-id='{second}'][data-phase=placement]")
        await place_everything(page, "Ann")
        await page.wait_for_selector(f"#game[data-game-id='{second}'][data-turn='1'][data-phase=orders]")
        await page.wait_for_selector(f"#my-games li[data-game-id='{first}'][data-waits=true]")
        assert "turn 2, your orders" in await page.inner_text(f"#my-games li[data-game-id='{first}']")
        sent = opened.watch.sent
        assert sum(1 for m in sent if m["type"] == "join_game") == 2, "each game joined once; switching resumes"
        assert not any(m["type"] == "leave_game" for m in sent), "neither game was left"


async def test_the_end_says_a_player_who_resigned_resigned_and_credits_nobody_with_putting_them_out(
    browser: Any, tmp_path: Path
) -> None:
    async with web_server(seeds=lambda: 7) as server, watched_pages(browser, tmp_path) as pages:
        page = (await pages.open(page_url(server))).page
        await create_in_lobby(page, "Ann", map_id="seed", players=3, bots=2)
        await page.wait_for_selector("#game[data-status=playing][data-you=Ann]")
        await page.click("#resign")
        await page.click("#resign-yes")
        await page.wait_for_selector("#result:not([hidden])", timeout=60_000)
        out = page.locator("ul.eliminations li[data-eliminated=Ann]")
        assert await out.get_attribute("data-by") == ""
        assert (await out.inner_text()).endswith(": Ann resigned"), await out.inner_text()
        assert "put Ann out" not in await page.inner_text("ul.eliminations")


async def test_a_game_created_for_computers_alone_is_watched_not_refused_a_seat(browser: Any, tmp_path: Path) -> None:
    async with web_server(seeds=lambda: 7) as server, watched_pages(browser, tmp_path) as pages:
        page = (await pages.open(page_url(server))).page
        await create_in_lobby(page, "Ann", map_id="seed", players=2, bots=2)  # "Sit down" left checked
        # playing, or over already: two computers that press their advantage may end a small map's game at once
        await page.wait_for_selector("#game:not([hidden]):is([data-status=playing], [data-status=finished])")
        assert await page.get_attribute("#game", "data-you") == "", "she watches: no seat was left for her"
        assert "has started" not in await page.inner_text("body")
        game_id = await page.get_attribute("#game", "data-game-id")
        assert server.lobby.get(str(game_id)) is not None
