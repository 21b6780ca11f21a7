"""Accounts on the web page, in a real headless Chromium against a real server: signing up and in through the page's
form (its refusals in the server's words), the session in a cookie the page's scripts cannot read, the password never
in a URL, a frame or the browser's storage; the home listing the account's games and opening each; the account's seat
taken back from a second browser (another device) without any token, and signing out everywhere closing the first
one's account, which goes on as a guest; keeping an account (a new password, the sessions, an export, deleting it);
a server without accounts showing none of it, and one that requires them saying how to sign up."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any
from urllib.parse import quote, quote_plus

import pytest

from tests.server_support import Client
from tests.web_support import (
    BACK_AS_A_GUEST,
    Opened,
    browser_or_skip,
    create_in_lobby,
    page_url,
    place_everything,
    session_cookie,
    sign,
    signed_in,
    watched_pages,
    web_server,
)

browser_or_skip()
pytestmark = pytest.mark.asyncio(loop_scope="module")

PASSWORD = "correct horse battery"
DESK = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}


class Seen:
    """Every request a browser context made (method, URL, headers) and every WebSocket it opened."""

    def __init__(self, context: Any) -> None:
        self.requests: list[tuple[str, str, dict[str, str]]] = []
        self.sockets: list[str] = []
        context.on("request", lambda r: self.requests.append((r.method, r.url, dict(r.headers))))
        context.on("page", lambda page: page.on("websocket", lambda ws: self.sockets.append(ws.url)))

    def urls(self) -> list[str]:
        return [url for _, url, _ in self.requests] + self.sockets


async def refused(page: Any, words: str) -> str:
    """The sign-in form's note once it says `words`."""
    await page.wait_for_selector(f"#sign-in-note:has-text({json.dumps(words)})")
    return str(await page.inner_text("#sign-in-note"))


async def storage(page: Any) -> str:
    """Everything the page keeps in the browser's storage, keys and values."""
    kept: str = await page.evaluate("JSON.stringify([Object.entries(localStorage), Object.entries(sessionStorage)])")
    return kept


def nowhere(secret: str, places: list[str]) -> None:
    for spelled in {secret, quote(secret), quote_plus(secret)}:
        for place in places:
            assert spelled not in place, f"a secret in {place[:200]}"


async def new_game(page: Any, name: str, *, players: int = 2, bots: int = 1) -> str:
    """From any screen, a game created in the lobby with `name` seated in it: its id."""
    if not await page.is_visible("#lobby"):
        await page.click("#home")  # the first screen: the home when signed in, which leads to the lobby
        await page.click("#home-to-lobby")
    await create_in_lobby(page, name, players=players, bots=bots)
    await page.wait_for_selector(f"#game[data-you='{name}'][data-game-id]:not([data-game-id=''])")
    return str(await page.get_attribute("#game", "data-game-id"))


async def home_rows(page: Any) -> list[tuple[str, str]]:
    """The home's games as the server last listed them: (id, where it stands)."""
    await page.wait_for_selector("#home-screen[data-state=listed]:not([hidden]) #home-games tr[data-game-id]")
    rows: list[list[str]] = await page.eval_on_selector_all(
        "#home-games tr[data-game-id]", "rows => rows.map(r => [r.dataset.gameId, r.dataset.stands])"
    )
    return [(game_id, stands) for game_id, stands in rows]


async def test_signing_up_and_in_puts_the_session_in_a_cookie_the_page_cannot_read_and_the_password_nowhere(
    browser: Any, tmp_path: Path
) -> None:
    async with web_server() as server, watched_pages(browser, tmp_path) as pages:
        bob = await Client.connect(server)
        assert (await bob.request(type="sign_up", name="Bob", password=PASSWORD))["type"] == "signed_in"
        context = await browser.new_context(viewport=DESK)
        seen = Seen(context)
        opened = await pages.open(page_url(server), context=context)
        page = opened.page
        await page.wait_for_selector("#lobby:not([hidden]) #you-account:not([hidden])")
        assert await page.is_visible("#open-sign-in") and not await page.is_visible("#signed-as")
        named = "els => els.filter(e => e.name).map(e => e.id)"  # what a form the browser sent itself would carry
        assert await page.eval_on_selector_all("#sign-in input, #account input", named) == []

        # The form's refusals, in the server's words; two passwords that differ are not even sent.
        await sign(page, "bob", PASSWORD, up=True)
        said = await refused(page, "No account was made")
        assert 'the name "bob" (or one that looks like it) is taken' in said.lower()
        await sign(page, "Ann", "short", up=True)
        assert "A password has at least 8 characters (this one has 5)." in await refused(page, "No account")
        posts = len(seen.requests)
        await sign(page, "Ann", PASSWORD, up=True, again=PASSWORD + "!")
        assert "The two passwords differ" in await refused(page, "differ")
        assert len(seen.requests) == posts

        await sign(page, "Ann", PASSWORD, up=True)
        await page.wait_for_selector("#home-screen:not([hidden])")
        await page.wait_for_selector("body[data-signed-in=true]")
        assert "Signed up and in as Ann" in await page.inner_text("#account-note")
        welcome = [m for m in opened.watch.received if m["type"] == "welcome"][-1]
        assert welcome["account"]["name"] == "Ann" and welcome["session_problem"] is None
        assert await page.input_value("#account-password") == "" == await page.input_value("#account-password-again")

        cookie = await session_cookie(context)
        assert cookie is not None
        assert cookie["httpOnly"] and cookie["sameSite"] == "Strict" and cookie["path"] == "/"
        assert not cookie["secure"]  # the page came over plain http (over https it is Secure: tests/test_accounts_http)
        assert "risc_session" not in await page.evaluate("document.cookie")
        tokens = [cookie["value"]]

        # Signed out here: a guest, the cookie gone; a wrong password refused as the server words it.
        await page.click("#sign-out")
        await page.wait_for_selector("body[data-signed-in=false] #lobby:not([hidden])")
        await page.wait_for_function(BACK_AS_A_GUEST)
        assert "Signed out of Ann" in await page.inner_text("#account-note")
        assert await session_cookie(context) is None
        await sign(page, "Ann", "wrong horse battery")
        assert "Not signed in: No account has that name and password." in await refused(page, "Not signed in")
        assert await page.get_attribute("#sign-in-form", "data-code") == "bad-credentials"
        await sign(page, "ann", PASSWORD)
        await signed_in(page, "Ann")
        cookie = await session_cookie(context)
        assert cookie is not None
        tokens.append(cookie["value"])

        # Neither the password nor a session's token is in any URL the browser asked for, any frame the page sent,
        # or the browser's storage; the password went only in the Authorization header of the sign-in POSTs.
        places = seen.urls() + [json.dumps(m) for m in opened.watch.sent] + [await storage(page), page.url]
        for secret in (PASSWORD, *tokens):
            nowhere(secret, places)
        authorized = [(method, url) for method, url, headers in seen.requests if "authorization" in headers]
        assert authorized and all(
            method == "POST" and url.split("/", 3)[3] in ("account/sign-in", "account/sign-up")
            for method, url in authorized
        ), authorized

        # Too many wrong passwords: the server says when to try again.
        await page.click("#sign-out")
        await page.wait_for_function(BACK_AS_A_GUEST)
        for _ in range(12):
            await sign(page, "Ann", "not the password")
            said = await refused(page, "Not signed in")
            if await page.get_attribute("#sign-in-form", "data-code") == "sign-in-wait":
                break
            await page.fill("#account-password", "")  # the next try types it again
        assert await page.get_attribute("#sign-in-form", "data-code") == "sign-in-wait"
        assert "Too many failed sign-ins" in said and "try again in" in said, said
        await bob.ws.close()


async def test_the_home_opens_the_account_s_games_on_another_device_without_a_token_and_signing_out_everywhere(
    browser: Any, tmp_path: Path
) -> None:
    async with web_server(open_games_per_connection=10) as server, watched_pages(browser, tmp_path) as pages:
        desk = await pages.open(page_url(server), width=DESK["width"], height=DESK["height"])
        ann = desk.page
        await sign(ann, "Ann", PASSWORD, up=True)
        await ann.wait_for_selector(
            "#home-screen[data-state=listed]:not([hidden]) #home-games tbody tr td.hint"
        )  # none

        # Three games: one finished (Ann resigned), one waiting for a player, one waiting for Ann's orders.
        done = await new_game(ann, "Ann")
        await ann.wait_for_selector("#game[data-status=playing] #resign:not([hidden])")
        await ann.click("#resign")
        await ann.click("#resign-yes")
        await ann.wait_for_selector("#game[data-status=finished]")
        waiting = await new_game(ann, "Ann", players=3, bots=1)
        await ann.wait_for_selector("#game[data-status=lobby]")
        assert await ann.input_value("#name") == "Ann" and not await ann.is_editable("#name"), "the account's name"
        await ann.click("#home")
        await ann.click("#home-to-lobby")  # the lobby offers the account's seat back, and no second one
        await ann.wait_for_selector(f"#games tr[data-game-id='{waiting}'] [data-return=Ann]")
        assert await ann.locator(f"#games tr[data-game-id='{waiting}'] [data-join]").count() == 0
        playing = await new_game(ann, "Ann")
        await ann.wait_for_selector("#game[data-status=playing] #commit:not([hidden])")
        joins = [m for m in desk.watch.received if m["type"] == "joined"]
        assert len(joins) == 3 and all(m["token"] == "" for m in joins), "an account's seat has no token"
        assert "risc.seat." not in await storage(ann)

        await ann.click("#open-home")
        assert await home_rows(ann) == [(playing, "your-turn"), (waiting, "waiting"), (done, "finished")]
        row = await ann.inner_text(f"#home-games tr[data-game-id='{waiting}']")
        assert "Waiting for players" in row and "1 of 3 seats free" in row and "bot-" in row
        assert "won" in await ann.inner_text(f"#home-games tr[data-game-id='{done}']")
        await ann.click(f"#home-games [data-open='{playing}']")
        await ann.wait_for_selector(f"#game[data-game-id='{playing}'][data-you=Ann] #commit:not([hidden])")
        resumes = [m for m in desk.watch.sent if m["type"] == "resume" and m["game_id"] == playing]
        assert resumes and "token" not in resumes[-1], resumes

        # Another device: a phone's browser signs in to the account and takes Ann's seat back, with no token.
        phone_context = await browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True)
        phone = await pages.open(page_url(server), context=phone_context)
        await sign(phone.page, "Ann", PASSWORD)
        await signed_in(phone.page, "Ann")
        assert await home_rows(phone.page) == [(playing, "your-turn"), (waiting, "waiting"), (done, "finished")]
        assert await phone.page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        for button in await phone.page.query_selector_all("#home-games button, #account-bar button:not([hidden])"):
            box = await button.bounding_box()
            assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"], box
        await phone.page.click(f"#home-games [data-open='{playing}']")
        await place_everything(phone.page, "Ann")
        await phone.page.wait_for_selector("#game[data-turn='1'][data-you=Ann]")  # the seat played from the phone
        assert "risc.seat." not in await storage(phone.page) and "token" not in await storage(phone.page)
        # a reload, and a dropped link, take the seat back as the account's again
        await phone.page.reload()
        await phone.page.wait_for_selector(f"#game[data-game-id='{playing}'][data-you=Ann][data-turn='1']")
        await phone.page.wait_for_selector("#commit:not([hidden])")
        refs = await phone.page.evaluate("window.risc.link.refs")
        await phone.page.evaluate("window.risc.link.drop()")
        await phone.page.wait_for_function(f"() => window.risc.link.state === 'open' && window.risc.link.refs > {refs}")
        await phone.page.click("#commit")  # the seat is the phone's link's again: its commit counts
        await phone.page.wait_for_selector("#game[data-turn='2']")
        resumes = [m for m in phone.watch.sent if m["type"] == "resume"]
        assert len(resumes) == 3 and all("token" not in m for m in resumes), resumes
        # the desk's page lets the game go, and says where it went
        await ann.wait_for_selector("#home-screen:not([hidden])")
        assert "open on another device signed in to your account" in await ann.inner_text("#home-note")
        await ann.click(f"#home-games [data-open='{done}']")  # a finished game: its end, watched
        await ann.wait_for_selector(f"#game[data-game-id='{done}'][data-status=finished] #result:not([hidden])")
        assert "won" in await ann.inner_text("#result-title")
        await ann.click("#open-home")
        await ann.wait_for_selector("#home-screen:not([hidden])")

        # The phone signs out everywhere: the desk's link is closed, says why, and comes back as a guest's.
        await phone.page.click("#open-account")
        await phone.page.wait_for_selector("#sessions tr[data-session]")
        sessions = await phone.page.eval_on_selector_all(
            "#sessions tr[data-session]", "rows => rows.map(r => r.dataset.current)"
        )
        assert sorted(sessions) == ["false", "true"]
        hellos = desk.watch.types("sent").count("hello")
        await phone.page.click("#sign-out-everywhere")
        await phone.page.wait_for_selector("body[data-signed-in=false] #lobby:not([hidden])")
        assert "Signed out of Ann on every device" in await phone.page.inner_text("#account-note")
        await ann.wait_for_selector("#account-note[data-kind=problem]:has-text('ended elsewhere')")
        await ann.wait_for_function(BACK_AS_A_GUEST)
        await ann.wait_for_selector("body[data-signed-in=false] #lobby:not([hidden])")
        assert await ann.is_visible("#open-sign-in") and not await ann.is_visible("#signed-as")
        assert "signed_out" in desk.watch.types("received")
        assert await session_cookie(desk.context) is None, "the dead session's cookie is let go"
        await ann.click("#refresh")  # a round trip later, the page is still on the one link it opened
        await ann.wait_for_selector(f"#games tr[data-game-id='{playing}']")
        assert desk.watch.types("sent").count("hello") == hellos + 1, "no loop on the dead cookie"
        welcome = [m for m in desk.watch.received if m["type"] == "welcome"][-1]
        assert welcome["account"] is None and welcome["session_problem"] is None
        assert await ann.is_editable("#name") and await ann.input_value("#name") != "Ann"
        assert not await ann.is_visible("#my-games"), "the account's games left the page with it"


async def test_keeping_an_account_a_new_password_its_sessions_an_export_and_deleting_it(
    browser: Any, tmp_path: Path
) -> None:
    async with web_server() as server, watched_pages(browser, tmp_path) as pages:
        first = await pages.open(page_url(server), width=DESK["width"], height=DESK["height"])
        cy = first.page
        await sign(cy, "Cy", PASSWORD, up=True)
        game = await new_game(cy, "Cy")
        other: Opened = await pages.open(page_url(server))
        await sign(other.page, "Cy", PASSWORD)
        await signed_in(other.page, "Cy")

        # The sessions: this browser's and the other's; ending the other signs it out there.
        await cy.click("#open-account")
        await cy.wait_for_selector("#account:not([hidden]) #sessions tr[data-current=false] [data-end]")
        assert await cy.inner_text("#account-title") == "Cy"
        assert "the web page (this browser)" in await cy.inner_text("#sessions tr[data-current=true]")
        await cy.click("#sessions tr[data-current=false] [data-end]")
        await cy.wait_for_selector("#sessions-note:has-text('Session ended')")
        await other.page.wait_for_selector("#account-note:has-text('ended elsewhere')")
        await other.page.wait_for_function(BACK_AS_A_GUEST)
        assert await cy.locator("#sessions tr[data-session]").count() == 1

        # A new password: the current one given again, the new one twice alike; the other device signed out.
        await sign(other.page, "Cy", PASSWORD)
        await signed_in(other.page, "Cy")
        await cy.click("#sessions-refresh")
        await cy.wait_for_selector("#sessions tr[data-current=false]")
        await cy.fill("#old-password", "not my password")
        await cy.fill("#new-password", "staple horse battery")
        await cy.fill("#new-password-again", "staple horse battery")
        await cy.click("#password-change button[type=submit]")
        await cy.wait_for_selector("#password-note:has-text('stays as it was')")
        assert "That is not your password." in await cy.inner_text("#password-note")
        await cy.fill("#old-password", PASSWORD)
        await cy.fill("#new-password", "staple horse battery")
        await cy.fill("#new-password-again", "stable horse battery")
        await cy.click("#password-change button[type=submit]")
        await cy.wait_for_selector("#password-note:has-text('differ')")
        await cy.fill("#new-password-again", "staple horse battery")
        await cy.click("#password-change button[type=submit]")
        await cy.wait_for_selector("#password-note:has-text('Password changed')")
        assert "1 other session ended" in await cy.inner_text("#password-note")
        for field in ("#old-password", "#new-password", "#new-password-again"):
            assert await cy.input_value(field) == ""
        await other.page.wait_for_selector("#account-note:has-text('ended elsewhere')")
        await other.page.wait_for_function(BACK_AS_A_GUEST)
        await sign(other.page, "Cy", PASSWORD)
        await refused(other.page, "No account has that name and password")
        await sign(other.page, "Cy", "staple horse battery")
        await signed_in(other.page, "Cy")

        # A session kept in a browser that ended while its page was closed: said once, let go, no loop.
        await other.page.close()
        await cy.click("#sessions-refresh")
        await cy.wait_for_selector("#sessions tr[data-current=false] [data-end]")
        await cy.click("#sessions tr[data-current=false] [data-end]")
        await cy.wait_for_selector("#sessions-note:has-text('Session ended')")
        let_go = other.context.expect_event("response", lambda r: r.url.endswith("/account/sign-out"))
        async with let_go as cleared:
            back = await pages.open(page_url(server), context=other.context)
            await back.page.wait_for_selector("#account-note[data-kind=problem]:has-text('no longer signs you in')")
        assert (await cleared.value).ok
        assert "that session has ended" in await back.page.inner_text("#account-note")
        await back.page.wait_for_selector("body[data-signed-in=false] #lobby:not([hidden])")
        assert await session_cookie(other.context) is None
        await back.page.reload()
        await back.page.wait_for_selector("#lobby:not([hidden]) #games tr")
        assert not await back.page.is_visible("#account-note")
        problems = [m["session_problem"] for m in back.watch.received if m["type"] == "welcome"]
        assert len(problems) == 2 and "ended" in problems[0] and problems[1] is None, problems

        # Every game of the account as a JSON file.
        async with cy.expect_download() as downloading:
            await cy.click("#export")
        download = await downloading.value
        assert download.suggested_filename == "risc-Cy-games.json"
        exported = json.loads(Path(await download.path()).read_text())
        assert exported["account"]["name"] == "Cy"
        assert [g["game_id"] for g in exported["games"]] == [game] and exported["games"][0]["log"]
        assert "1 game written" in await cy.inner_text("#export-note")

        # Deleting: the password first, then asked again; a wrong password or a No changes nothing.
        await cy.click("#delete-form button[type=submit]")
        assert "Give your password first" in await cy.inner_text("#delete-note")
        await cy.fill("#delete-password", "not my password")
        await cy.click("#delete-form button[type=submit]")
        await cy.click("#delete-yes")
        await cy.wait_for_selector("#delete-note:has-text('The account stays')")
        assert "That is not your password." in await cy.inner_text("#delete-note")
        await cy.fill("#delete-password", "staple horse battery")
        await cy.click("#delete-form button[type=submit]")
        assert "Delete the account Cy for good?" in await cy.inner_text("#delete-confirm")
        await cy.click("#delete-no")
        assert not await cy.is_visible("#delete-confirm") and await cy.is_visible("#account")
        await cy.click("#delete-form button[type=submit]")
        await cy.click("#delete-yes")
        await cy.wait_for_selector("#account-note:has-text('is deleted')")
        assert "The account Cy is deleted: you resigned from 1 game." in await cy.inner_text("#account-note")
        await cy.wait_for_function(BACK_AS_A_GUEST)
        await cy.wait_for_selector("body[data-signed-in=false] #lobby:not([hidden])")
        assert await session_cookie(first.context) is None
        guest = await Client.connect(server)
        assert (await guest.request(type="sign_in", name="Cy", password="staple horse battery"))["code"] == (
            "bad-credentials"
        )
        watched = await guest.request(type="watch_game", game_id=game, last_seq=0)
        assert watched["type"] == "watching"
        update = await guest.wait_for(lambda m: m["type"] == "update" and m["game_id"] == game)
        assert update["game"]["status"] == "finished", "Cy resigned, and the computer player won"
        await guest.ws.close()


async def test_a_server_without_accounts_shows_none_and_one_that_requires_them_says_how_to_sign_up(
    browser: Any, tmp_path: Path
) -> None:
    async with web_server(accounts="off") as server, watched_pages(browser, tmp_path) as pages:
        page = (await pages.open(page_url(server))).page
        await page.wait_for_selector("#lobby:not([hidden]) #ruleset option", state="attached")
        await page.wait_for_selector("body[data-accounts=off]")
        for hidden in ("#account-bar", "#you-account", "#open-sign-in", "#signed-as"):
            assert not await page.is_visible(hidden), hidden
        await create_in_lobby(page, "Dee", players=2, bots=1)
        await page.wait_for_selector("#game[data-status=playing][data-you=Dee]")

    async with web_server(accounts="required") as server, watched_pages(browser, tmp_path) as pages:
        page = (await pages.open(page_url(server))).page
        await page.wait_for_selector("#lobby:not([hidden]) #you-account:not([hidden])")
        assert "needs an account to create or join a game" in await page.inner_text("#you-account")
        await create_in_lobby(page, "Eve", players=2, bots=1)
        await page.wait_for_selector("#lobby-note:has-text('Sign up')")
        note = await page.inner_text("#lobby-note")
        assert "This server needs an account to create or join games: sign up or in." in note, note
        assert await page.evaluate("document.activeElement.id") == "you-sign-up"
        await page.click("#you-sign-up")
        await sign(page, "Eve", PASSWORD, up=True)
        await signed_in(page, "Eve")
        await new_game(page, "Eve")
        await page.wait_for_selector("#game[data-status=playing][data-you=Eve]")
