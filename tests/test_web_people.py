"""The web page's part in playing with other people away from the board, in a real headless Chromium against a real
server: the challenges waiting on the account's home (who, the game's rules, map and players) accepted, the account's
seat coming on screen, or declined; challenging an account from its profile with the new game's settings, and the
challenge's refusals in the server's words; how the account is told (mail, webhook and its signing key, events, the
page and the text client) and its vacation, set on the account's screen, with the paused channels on the home; and a
nudge to the player a game waits for. Each checks what the page shows and what the server then holds, at a desk and
at a phone's width."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from shared.protocol.names import skeleton
from tests.server_support import Client
from tests.test_accounts import PASSWORD
from tests.web_support import (
    Opened,
    Pages,
    browser_or_skip,
    create_in_lobby,
    page_url,
    place_everything,
    sign,
    signed_in,
    watched_pages,
    web_server,
)

browser_or_skip()
pytestmark = pytest.mark.asyncio(loop_scope="module")

DESK = {"width": 1280, "height": 800}
PHONE = {"width": 360, "height": 740}


async def account(server: Any, name: str) -> Client:
    """A connection signed up to a new account `name`."""
    client = await Client.connect(server)
    assert (await client.request(type="sign_up", name=name, password=PASSWORD))["type"] == "signed_in"
    return client


async def signed_page(pages: Pages, server: Any, name: str) -> Opened:
    """A page at a desk's size, signed up to a new account `name` through its form, its home on screen."""
    opened = await pages.open(page_url(server), **DESK)
    await sign(opened.page, name, PASSWORD, up=True)
    await signed_in(opened.page, name)
    return opened


async def within_a_phone(page: Any, path: Path) -> None:
    """At 360 x 740 the page is no wider than the screen (nothing to scroll sideways); a picture of it kept."""
    await page.set_viewport_size(PHONE)
    width = await page.evaluate("document.documentElement.scrollWidth")
    await page.screenshot(path=str(path), full_page=True)
    assert width <= PHONE["width"], f"the page is {width} px wide at a phone's 360"
    await page.set_viewport_size(DESK)


async def test_a_challenge_on_the_home_accepted_puts_the_accounts_seat_on_screen_and_one_declined_goes(
    browser: Any, tmp_path: Path
) -> None:
    async with web_server() as server, watched_pages(browser, tmp_path) as pages:
        bob = await account(server, "Bob")
        opened = await signed_page(pages, server, "Ann")
        page = opened.page
        assert await page.is_hidden("#home-challenges")  # none yet
        settings = {"ruleset": "risc", "map": "seed", "players": 2, "rated": True, "turn_seconds": 86400}
        sent = await bob.request(type="challenge", name="Ann", settings=settings)
        assert sent["type"] == "challenge_sent" and sent["to"] == "Ann"
        game_id = sent["game_id"]

        # Listed at once (the challenge's notice lists the home again), with who and what game.
        row = f"#home-challenges li[data-challenge='{game_id}']"
        await page.wait_for_selector(row)
        listed = [m for m in opened.watch.received if m["type"] == "my_games"][-1]["challenges"]
        assert [(c["game_id"], c["by"]) for c in listed] == [(game_id, "Bob")]
        game = listed[0]["game"]
        said = await page.inner_text(row)
        assert said.startswith(
            f"Bob challenges you: {game['ruleset_title']} on {game['map_name']}, 2 players (Bob seated, 1 seat free); "
            "rated; 1 d a turn."
        ), said
        assert await page.is_visible(f"{row} [data-accept='{game_id}']")
        assert await page.is_visible(f"{row} [data-decline='{game_id}']")
        await page.screenshot(path=str(tmp_path / "challenge-desk.png"), full_page=True)
        await within_a_phone(page, tmp_path / "challenge-phone.png")

        # Accepted: the game on screen in the account's seat, with no token, and the server seats the account.
        await page.click(f"[data-accept='{game_id}']")
        await page.wait_for_selector(f"#game:not([hidden])[data-you='Ann'][data-game-id='{game_id}']")
        await page.wait_for_selector("#player-list li[data-player='Bob']")
        answered = next(m for m in opened.watch.received if m["type"] == "challenge_answered")
        assert answered == {**answered, "game_id": game_id, "name": "Ann", "accepted": True}
        ann = await Client.connect(server)
        assert (await ann.request(type="sign_in", name="Ann", password=PASSWORD))["type"] == "signed_in"
        home = await ann.request(type="my_games")
        assert [(g["game"]["game_id"], g["player"]) for g in home["games"]] == [(game_id, "Ann")]
        assert home["challenges"] == []
        seats = [s["name"] for s in home["games"][0]["game"]["seats"]]
        assert seats == ["Bob", "Ann"]

        # Another, declined from the home: it goes, the server keeps no invitation, and Bob still sits alone in it.
        await page.click("#home")
        await page.wait_for_selector("#home-screen[data-state=listed]:not([hidden])")
        second = (await bob.request(type="challenge", name="Ann", settings={"map": "seed", "players": 2}))["game_id"]
        await page.wait_for_selector(f"[data-decline='{second}']")
        await page.click(f"[data-decline='{second}']")
        await page.wait_for_selector(f'#home-note:has-text("You declined Bob\'s challenge (game {second}).")')
        assert await page.is_hidden("#home-challenges")
        assert (await ann.request(type="my_games"))["challenges"] == []
        listed_games = (await bob.request(type="my_games"))["games"]
        declined = next(g["game"] for g in listed_games if g["game"]["game_id"] == second)
        assert [s["name"] for s in declined["seats"]] == ["Bob"]

        # Answering a challenge that is no longer there: the server's words.
        await bob.request(type="challenge", name="Ann", settings={"map": "seed", "players": 2})
        await page.wait_for_selector("#home-challenges li[data-challenge]")
        third = await page.get_attribute("#home-challenges li[data-challenge]", "data-challenge")
        assert (await ann.request(type="answer_challenge", game_id=third, accept=False))["type"] == (
            "challenge_answered"
        )
        await page.click(f"[data-accept='{third}']")
        await page.wait_for_selector(f"#challenges-note:has-text('Nobody challenged you to game {third}.')")
        assert await page.is_visible("#home-screen")


async def test_challenging_from_a_profile_with_the_games_settings_and_the_refusals_in_the_servers_words(
    browser: Any, tmp_path: Path
) -> None:
    async with web_server() as server, watched_pages(browser, tmp_path) as pages:
        bob = await account(server, "Bob")
        guest = await pages.open(page_url(server, "ladder=risc&profile=Bob"), **DESK)
        opened = await signed_page(pages, server, "Ann")
        page = opened.page
        await guest.page.wait_for_selector("#profile-title:text('Bob')")
        assert await guest.page.locator("#profile-challenge").count() == 0  # a guest challenges nobody

        await page.goto(page_url(server, "ladder=risc&profile=Ann"))
        await page.wait_for_selector("#profile-title:text('Ann')")
        assert await page.locator("#profile-challenge").count() == 0  # nor anyone themselves
        await page.goto(page_url(server, "ladder=risc&profile=Bob"))
        await page.wait_for_selector("#profile-title:text('Bob')")
        await page.click("#profile-challenge")
        await page.wait_for_selector("#home-screen:not([hidden]) #challenge-ruleset [value=grid]", state="attached")
        assert await page.input_value("#challenge-name") == "Bob"
        await page.select_option("#challenge-map", "seed")
        await page.fill("#challenge-players", "2")
        await page.fill("#challenge-turn-seconds", "43200")
        await page.check("#challenge-rated")
        await page.screenshot(path=str(tmp_path / "challenge-form-desk.png"), full_page=True)
        await within_a_phone(page, tmp_path / "challenge-form-phone.png")
        await page.click("#challenge-send")

        # Sent: the game on screen with Ann in it, and Bob's home holds the invitation with the settings chosen.
        await page.wait_for_selector("#game:not([hidden])[data-you='Ann']")
        sent = next(m for m in opened.watch.received if m["type"] == "challenge_sent")
        assert sent["to"] == "Bob"
        assert await page.get_attribute("#game", "data-game-id") == sent["game_id"]
        invitations = (await bob.request(type="my_games"))["challenges"]
        assert [(i["game_id"], i["by"]) for i in invitations] == [(sent["game_id"], "Ann")]
        chosen = invitations[0]["game"]["settings"]
        assert (chosen["ruleset"], chosen["map"], chosen["players"], chosen["turn_seconds"], chosen["rated"]) == (
            "risc",
            "seed",
            2,
            43200,
            True,
        )

        # Refusals, from the home's form, in the server's words; none of them makes a game.
        await page.click("#open-home")
        await page.wait_for_selector("#home-screen[data-state=listed]:not([hidden])")
        assert await page.inner_text("#challenge-note") == ""  # the last challenge's words are not said again
        before = len((await bob.request(type="list_games", offset=0, limit=50))["games"])
        for name, words in (
            ("Nobody", 'Nobody was challenged: No account is named "Nobody".'),
            ("ann", "Nobody was challenged: You cannot challenge yourself."),
        ):
            await page.fill("#challenge-name", name)
            await page.click("#challenge-send")
            await page.wait_for_selector(f"#challenge-note:has-text({words!r})")
        await page.fill("#challenge-name", "")
        await page.click("#challenge-send")
        await page.wait_for_selector("#challenge-note:has-text('Write the name of the account to challenge.')")
        assert len((await bob.request(type="list_games", offset=0, limit=50))["games"]) == before
        assert [m["type"] for m in opened.watch.received].count("challenge_sent") == 1


async def words(page: Any, selector: str) -> str:
    """An element's text as it reads, its lines and spaces made one space each."""
    return " ".join((await page.inner_text(selector)).split())


async def told(client: Client) -> dict[str, Any]:
    """How the server holds the account's channels now."""
    settings = await client.request(type="notifications")
    assert settings["type"] == "notification_settings", settings
    return settings


async def test_how_the_account_is_told_and_its_vacation_set_on_the_account_screen_and_the_paused_channel_on_the_home(
    browser: Any, tmp_path: Path
) -> None:
    async with (
        web_server(webhook_allow=("127.0.0.1",), vacation_days=5.0) as server,
        watched_pages(browser, tmp_path) as pages,
    ):
        opened = await signed_page(pages, server, "Ann")
        page = opened.page
        ann = await Client.connect(server)
        assert (await ann.request(type="sign_in", name="Ann", password=PASSWORD))["type"] == "signed_in"
        await page.click("#open-account")
        await page.wait_for_selector("#account:not([hidden]) #notify-events input[data-event=your_turn]")
        await page.wait_for_selector("#vacation-state:has-text('days taken this year')")
        held = await told(ann)
        checked = await page.eval_on_selector_all(
            "#notify-events input[data-event]", "boxes => boxes.filter(b => b.checked).map(b => b.dataset.event)"
        )
        assert checked == held["events"] and len(checked) == 7
        assert await page.input_value("#notify-mail") == "" and held["mail"] is None
        assert await page.is_checked("#notify-page") and await page.is_checked("#notify-terminal")

        # A mail address, fewer events, no text client: saved, and the server holds it.
        await page.fill("#notify-mail", "ann@example.org")
        await page.uncheck("#notify-events input[data-event=player_out]")
        await page.uncheck("#notify-events input[data-event=named]")
        await page.uncheck("#notify-terminal")
        await page.click("#notify-save")
        await page.wait_for_selector("#notify-note:text('Saved.')")
        held = await told(ann)
        assert held["mail"] == "ann@example.org" and not held["terminal"] and held["page"]
        assert held["events"] == ["your_turn", "game_started", "game_ended", "nudged", "challenge"]
        assert await words(page, "#notify-mail-state") == "Mail is on. Turn it off"

        # A webhook to a private address: refused in the server's words, nothing changed.
        await page.fill("#notify-webhook", "https://10.1.2.3/hook")
        await page.click("#notify-save")
        await page.wait_for_selector("#notify-note:has-text('Nothing changed')")
        refusal = [m for m in opened.watch.received if m["type"] == "error"][-1]
        assert refusal["code"] == "bad-channel" and "private" in refusal["message"]
        note = await page.inner_text("#notify-note")
        assert note == f"Nothing changed: {refusal['message'][0].upper()}{refusal['message'][1:]}."
        assert (await told(ann))["webhook"] is None
        assert await page.is_hidden("#notify-secret-line")

        # One the server may reach: its signing key shown, the one the server signs with.
        await page.fill("#notify-webhook", "https://127.0.0.1:9/hook")
        await page.click("#notify-save")
        await page.wait_for_selector("#notify-secret-line:not([hidden])")
        held = await told(ann)
        assert held["webhook"] == "https://127.0.0.1:9/hook" and len(held["webhook_secret"]) == 64
        assert await page.inner_text("#notify-secret") == held["webhook_secret"]
        assert held["mail"] == "ann@example.org"  # set once, not sent again
        await page.screenshot(path=str(tmp_path / "notify-desk.png"), full_page=True)

        # Mail turned off from its button.
        await page.click("[data-off=mail]")
        await page.wait_for_selector("#notify-note:text('Mail is off.')")
        assert (await told(ann))["mail"] is None
        assert await page.input_value("#notify-mail") == "" and await page.is_hidden("#notify-mail-state")

        # The webhook paused (as six failures running pause it): the home says so, and the account's screen starts it
        # again, with a new key.
        store = server.notifier.store
        record = await server.accounts.store.account_named(skeleton("Ann"))
        assert record is not None
        channels = await store.channels(record.account_id)
        assert channels is not None
        why = "it failed 6 times running (the last: no answer within 5 s)"
        await store.set_channels(record.account_id, replace(channels, webhook_paused=why))
        await page.click("#open-home")
        await page.wait_for_selector("#home-problems:not([hidden]) [data-problem=webhook]")
        assert (await words(page, "[data-problem=webhook]")).startswith(
            "Your webhook is paused: It failed 6 times running (the last: no answer within 5 s). "
        )
        await page.screenshot(path=str(tmp_path / "problems-desk.png"), full_page=True)
        await within_a_phone(page, tmp_path / "problems-phone.png")
        await page.click("[data-problem=webhook] button")
        await page.wait_for_selector("#notify-webhook-state[data-paused=true]")
        assert "The webhook is paused: It failed 6 times running" in await words(page, "#notify-webhook-state")
        old_key = held["webhook_secret"]
        await page.click("[data-restart=webhook]")
        await page.wait_for_selector("#notify-webhook-state[data-paused=false]")
        held = await told(ann)
        assert held["webhook_paused"] is None and held["webhook"] == "https://127.0.0.1:9/hook"
        assert held["webhook_secret"] != old_key and await page.inner_text("#notify-secret") == held["webhook_secret"]
        assert (await ann.request(type="my_games"))["problems"] == []

        # A vacation: more than the year allows refused in the server's words; more than 10 days not even sent.
        await page.fill("#vacation-days", "11")
        await page.click("#vacation-start")
        await page.wait_for_selector("#vacation-note:text('A vacation lasts 1 to 10 days: write how many.')")
        assert not [m for m in opened.watch.sent if m["type"] == "vacation" and m.get("days")]
        await page.fill("#vacation-days", "10")
        await page.click("#vacation-start")
        await page.wait_for_selector("#vacation-note:has-text('Nothing changed')")
        refusal = [m for m in opened.watch.received if m["type"] == "error"][-1]
        assert refusal["code"] == "no-vacation-left"
        assert "of this server's 5 days of vacation a year left" in await page.inner_text("#vacation-note")
        await page.fill("#vacation-days", "3")
        await page.click("#vacation-start")
        await page.wait_for_selector("#vacation-state:has-text('On vacation until')")
        status = await ann.request(type="vacation", days=None)
        assert status["until"] == pytest.approx(server.clock.wall() + 3 * 86400, abs=60)
        assert float(await page.get_attribute("#vacation-state", "data-until") or 0) == status["until"]
        assert (await page.inner_text("#vacation-state")).endswith("; 3 of 5 days taken this year.")
        await page.screenshot(path=str(tmp_path / "vacation-desk.png"), full_page=True)
        await within_a_phone(page, tmp_path / "account-phone.png")
        await page.click("#vacation-end")
        await page.wait_for_selector("#vacation-state:has-text('No vacation under way')")
        assert (await ann.request(type="vacation", days=None))["until"] is None


async def test_a_nudge_beside_the_player_the_game_waits_for_once_a_day(browser: Any, tmp_path: Path) -> None:
    async with web_server() as server, watched_pages(browser, tmp_path) as pages:
        bob = await account(server, "Bob")
        away = await Client.connect(server)  # Bob's other device, not looking at the game: told of the nudge
        assert (await away.request(type="sign_in", name="Bob", password=PASSWORD))["type"] == "signed_in"
        opened = await signed_page(pages, server, "Ann")
        page = opened.page
        await page.click("#home-to-lobby")
        await create_in_lobby(page, "Ann", map_id="seed", players=2, bots=0)
        await page.wait_for_selector("#game[data-you='Ann'][data-game-id]:not([data-game-id=''])")
        game_id = await page.get_attribute("#game", "data-game-id")
        assert (await bob.request(type="join_game", game_id=game_id, name="Bob"))["type"] == "joined"

        # While the game waits for Ann herself, she nudges nobody; once her turn is done, Bob, whom it waits for.
        await page.wait_for_selector("#game[data-phase=placement] #player-list li[data-player=Bob][data-awaited=true]")
        assert await page.locator("[data-nudge]").count() == 0
        await place_everything(page, "Ann")
        await page.wait_for_selector("#player-list li[data-player=Bob] [data-nudge=Bob]")
        assert await page.locator("[data-nudge]").count() == 1
        await page.click("[data-nudge=Bob]")
        await page.wait_for_selector("#players-note:text('Bob is told that the game waits for them.')")
        notice = await away.wait_for(
            lambda m: m["type"] == "notice" and m["kind"] == "nudged" and m["game_id"] == game_id
        )
        assert notice["body"]["by"] == "Ann"
        await page.screenshot(path=str(tmp_path / "nudge-desk.png"), full_page=True)
        await within_a_phone(page, tmp_path / "nudge-phone.png")

        # Again the same day: the server's refusal, in its words, and nobody told twice.
        await page.click("[data-nudge=Bob]")
        await page.wait_for_selector("#players-note:has-text('No nudge')")
        refusal = [m for m in opened.watch.received if m["type"] == "error"][-1]
        assert refusal["code"] == "rate-limited"
        assert await page.inner_text("#players-note") == (
            "No nudge: You nudged someone in this game less than a day ago: try again in about 24 hours."
        )
        assert [m["type"] for m in opened.watch.received].count("nudged") == 1
