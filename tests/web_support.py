"""A real headless Chromium for the web page's tests, driven by playwright's async API (one browser per module).

The browser is the system's (Debian's chromium-headless-shell, which .ci/run installs), never one playwright
downloads. Without it the tests skip and say why, except under CI (CI=true), where they fail: a CI run that skipped
them would pass without having tried the page at all.

Every page a test opens is watched: each WebSocket frame it sends or receives is checked against the protocol's
schema, and every console error or uncaught exception is kept; `watched_page` fails the test on either, and saves a
screenshot of each of its pages into the test's tmp_path when the test fails. The one console error that is no fault
of the page is the browser's own line for a sign-in the server refused (a POST to /account/... answered 401, 409,
...: the refusal's status is the protocol's); each such line must match a refusal the page was answered.
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
from pydantic import ValidationError

from client.webpage import web_root
from server.app import RiscServer
from server.config import ServerConfig
from server.storage import MemoryStorage
from shared.protocol.messages import CLIENT_ADAPTER, SERVER_ADAPTER

LAUNCH_FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
CANDIDATES = ("chromium-headless-shell", "chromium", "chromium-browser", "google-chrome", "google-chrome-stable")
PLACES = (Path("/usr/lib/chromium/chromium-headless-shell"), Path("/usr/lib/chromium/chromium"))
WAIT_MS = 10_000
"""How long a test waits for the page to show something, in milliseconds."""


def find_browser() -> str | None:
    """The browser to drive: $RISC_BROWSER, else a Chromium on the PATH or where Debian puts it."""
    named = os.environ.get("RISC_BROWSER")
    if named:
        return named if Path(named).is_file() else None
    for name in CANDIDATES:
        found = shutil.which(name)
        if found:
            return found
    return next((str(p) for p in PLACES if p.is_file()), None)


def browser_or_skip() -> str:
    """The browser's path; skips the module (fails it under CI) when playwright or a browser is missing."""
    problem = None
    try:
        import playwright.async_api  # noqa: F401
    except ImportError:
        problem = "the playwright package is not installed (pip install -e '.[test]')"
    path = find_browser()
    if problem is None and path is None:
        problem = (
            "no Chromium found: install chromium-headless-shell (apt-get install chromium-headless-shell) "
            "or name one in RISC_BROWSER"
        )
    if problem is not None:
        if os.environ.get("CI") == "true":
            pytest.fail(f"the web page's browser tests cannot run: {problem}", pytrace=False)
        pytest.skip(f"browser tests skipped: {problem}", allow_module_level=True)
    assert path is not None
    return path


@contextlib.asynccontextmanager
async def launched() -> AsyncIterator[Any]:
    """One headless Chromium (playwright's Browser)."""
    from playwright.async_api import async_playwright

    path = browser_or_skip()
    async with async_playwright() as playwright:
        browser = await playwright.chromium.launch(executable_path=path, args=LAUNCH_FLAGS)
        try:
            yield browser
        finally:
            await browser.close()


@contextlib.asynccontextmanager
async def web_server(*, seeds: Callable[[], int] | None = None, **settings: Any) -> AsyncIterator[RiscServer]:
    """A server with the web page on a free port of 127.0.0.1, its games in memory; `seeds`: each new game's seed,
    for a game (its computer players too) that must play the same way every run."""
    settings.setdefault("bot_turn_pause", 0.0)
    config = ServerConfig(host="127.0.0.1", port=0, web_root=web_root(), **settings)
    async with RiscServer(config, MemoryStorage(), seeds=seeds) as server:
        yield server


def page_url(server: RiscServer, fragment: str = "") -> str:
    return f"http://127.0.0.1:{server.port}/" + (f"#{fragment}" if fragment else "")


ACCOUNT_REFUSED = re.compile(r"^Failed to load resource: the server responded with a status of (4\d\d|503)\b")
"""The browser's own line for a response it counts as failed: for a sign-in the server refuses (a wrong password is a
401, docs/protocol.md), that is the answer, not a fault of the page."""


@dataclass
class Watch:
    """What one page did: frames each way (decoded), frames that broke the schema, console errors; and the
    refusals of its POSTs to /account/... (their status, by URL), which the browser logs as failed loads."""

    sent: list[dict[str, Any]] = field(default_factory=list)
    received: list[dict[str, Any]] = field(default_factory=list)
    invalid: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    refusals: list[tuple[str, int]] = field(default_factory=list)
    refusals_logged: list[tuple[str, int]] = field(default_factory=list)

    def frame(self, direction: str, payload: str | bytes) -> None:
        import json

        if not isinstance(payload, str):
            self.invalid.append(f"{direction}: a binary frame")
            return
        adapter = CLIENT_ADAPTER if direction == "sent" else SERVER_ADAPTER
        try:
            adapter.validate_json(payload)
        except ValidationError as exc:
            self.invalid.append(f"{direction}: {payload[:300]}: {exc}")
            return
        (self.sent if direction == "sent" else self.received).append(json.loads(payload))

    def types(self, direction: str) -> list[str]:
        return [str(m.get("type")) for m in (self.sent if direction == "sent" else self.received)]

    def console(self, message: Any) -> None:
        if message.type != "error":
            return
        url = str(message.location.get("url", ""))
        logged = ACCOUNT_REFUSED.match(message.text)
        if logged and urlsplit(url).path.startswith("/account/"):
            self.refusals_logged.append((url, int(logged.group(1))))
        else:
            self.errors.append(f"console: {message.text}")

    def response(self, response: Any) -> None:
        if response.status >= 400 and urlsplit(response.url).path.startswith("/account/"):
            self.refusals.append((response.url, response.status))

    def check(self) -> None:
        assert not self.invalid, "frames outside the protocol's schema:\n" + "\n".join(self.invalid)
        assert not self.errors, "errors in the page's console:\n" + "\n".join(self.errors)
        assert sorted(self.refusals_logged) == sorted(self.refusals), (
            f"the console's failed loads {self.refusals_logged} are not the refused sign-ins {self.refusals}"
        )


def watch(page: Any) -> Watch:
    watched = Watch()

    def on_socket(ws: Any) -> None:
        ws.on("framesent", lambda payload: watched.frame("sent", payload))
        ws.on("framereceived", lambda payload: watched.frame("received", payload))

    page.on("websocket", on_socket)
    page.on("console", watched.console)
    page.on("response", watched.response)
    page.on("pageerror", lambda error: watched.errors.append(f"uncaught: {error}"))
    return watched


@dataclass
class Opened:
    page: Any
    watch: Watch
    context: Any


class Pages:
    """The pages a test opens, each in a browser context of its own (its own localStorage, like another person's
    browser) unless it shares one."""

    def __init__(self, browser: Any, screenshots: Path) -> None:
        self.browser = browser
        self.screenshots = screenshots
        self.opened: list[Opened] = []

    async def open(self, url: str, *, width: int = 1280, height: int = 900, context: Any = None) -> Opened:
        if context is None:
            context = await self.browser.new_context(viewport={"width": width, "height": height})
        page = await context.new_page()
        page.set_default_timeout(WAIT_MS)
        opened = Opened(page, watch(page), context)
        self.opened.append(opened)
        await page.goto(url)
        return opened

    async def shoot(self) -> None:
        for i, opened in enumerate(self.opened):
            with contextlib.suppress(Exception):
                path = self.screenshots / f"page-{i + 1}.png"
                await opened.page.screenshot(path=str(path), full_page=True)
                print(f"screenshot of page {i + 1}: {path}")

    async def close(self) -> None:
        contexts = {id(o.context): o.context for o in self.opened}
        for context in contexts.values():
            with contextlib.suppress(Exception):
                await context.close()


@contextlib.asynccontextmanager
async def watched_pages(browser: Any, tmp_path: Path) -> AsyncIterator[Pages]:
    """Pages for one test: on failure a screenshot of each; at the end, every frame and the console checked."""
    pages = Pages(browser, tmp_path)
    try:
        yield pages
    except BaseException:
        await pages.shoot()
        await pages.close()
        raise
    try:
        for opened in pages.opened:
            opened.watch.check()
    except AssertionError:
        await pages.shoot()
        raise
    finally:
        await pages.close()


async def attribute(page: Any, selector: str, name: str) -> str | None:
    value = await page.get_attribute(selector, name)
    return None if value is None else str(value)


async def territories(page: Any) -> dict[str, tuple[str, int]]:
    """Every territory on the board: its owner ("" for none) and units, as the page shows them."""
    rows: list[list[Any]] = await page.eval_on_selector_all(
        "g[data-territory]", "els => els.map(e => [e.dataset.territory, e.dataset.owner, Number(e.dataset.units)])"
    )
    return {name: (owner, units) for name, owner, units in rows}


async def owned(page: Any, player: str) -> list[str]:
    return [name for name, (owner, _) in (await territories(page)).items() if owner == player]


async def pick(page: Any, name: str) -> None:
    """Point at a territory, unless it is the one picked already (a second click lets it go)."""
    if await page.get_attribute(f"g[data-territory='{name}']", "data-picked") != "1":
        await page.click(f"g[data-territory='{name}']")


async def borders_drawn(page: Any, selector: str = "svg.board .borders") -> int:
    """How many borders the board draws: the segments of the two-way borders' path (each begins with M), and the
    one-way borders' lines; with `.lit`, those drawn bold for the territory picked."""
    segments: int = await page.eval_on_selector_all(
        f"{selector} path.border:not(.lit)",
        "paths => paths.reduce((n, p) => n + (p.getAttribute('d').match(/M/g) || []).length, 0)",
    )
    return segments + await page.locator(f"{selector} line.border.one-way").count()


async def borders_lit(page: Any) -> int:
    """How many borders are drawn bold: the territory picked's."""
    found: int = await page.eval_on_selector(
        "svg.board path.border.lit", "p => (p.getAttribute('d').match(/M/g) || []).length"
    )
    return found


async def borders(page: Any) -> dict[str, list[str]]:
    found: dict[str, list[str]] = await page.evaluate("window.risc.game.map.borders")
    return found


async def front(page: Any, player: str) -> tuple[str, str]:
    """One of the player's territories with an enemy next to it (the one with most units), and that enemy."""
    board = await territories(page)
    ways = await borders(page)
    fronts = [
        (units, name)
        for name, (owner, units) in board.items()
        if owner == player and any(board[n][0] not in (player, "") for n in ways[name])
    ]
    _, source = max(fronts)
    target = next(n for n in ways[source] if board[n][0] not in (player, ""))
    return source, target


async def create_in_lobby(
    page: Any,
    name: str,
    *,
    map_id: str | None = "twin-keeps",
    players: int = 2,
    bots: int = 1,
    strategy: str | None = None,
    ruleset: str = "risc",
    options: dict[str, str] | None = None,
    sit: bool = True,
) -> None:
    """Fill in the lobby's form as a player would, and create the game (sitting down in it when `sit`: as `name`, which
    is the account's when the page is signed in). `map_id`:
    None for a rule set that makes its own board (the form has no map then). An option given as a list is chosen
    from it, any other typed in."""
    await page.wait_for_selector("#lobby:not([hidden]) #ruleset option", state="attached")
    if await page.is_editable("#name"):
        await page.fill("#name", name)
    else:  # signed in: the account's name, fixed
        assert await page.input_value("#name") == name
    await page.select_option("#ruleset", ruleset)
    if map_id is not None:
        await page.select_option("#map", map_id)
    await page.fill("#players", str(players))
    await page.fill("#bots", str(bots))
    if strategy is not None:
        await page.select_option("#strategy", strategy)
    for key, value in (options or {}).items():
        field_ = f"#option-{key}"
        if await page.eval_on_selector(field_, "e => e.tagName") == "SELECT":
            await page.select_option(field_, value)
        else:
            await page.fill(field_, value)
    if not sit:
        await page.uncheck("#sit-down")
    await page.click("#create button[type=submit]")


async def placing(page: Any, player: str, map_id: str = "cataract") -> None:
    """From the lobby, a RISC game of `player` and a computer player, at its placement, waiting for the player."""
    await create_in_lobby(page, player, map_id=map_id, players=2, bots=1)
    await page.wait_for_selector(f"#game[data-phase=placement] g[data-owner='{player}']")
    await page.wait_for_selector("#commit:not([hidden])")


async def place_everything(page: Any, player: str) -> None:
    """The placement turn by pointing: the whole pool on the first own territory, then done."""
    await page.wait_for_selector(f"#game[data-phase=placement] g[data-owner='{player}']")
    await page.wait_for_selector("#commit:not([hidden])")
    first = (await owned(page, player))[0]
    await page.click(f"g[data-territory='{first}']")
    await page.click("[data-issue='0']")
    await page.wait_for_selector("[data-order-index='0']")
    await page.click("#commit")


BACK_AS_A_GUEST = "() => window.risc.link.state === 'open' && window.risc.link.welcome.account === null"
"""The page's link is open again, and a guest's."""


async def sign(page: Any, name: str, password: str, *, up: bool = False, again: str | None = None) -> None:
    """Sign in (or up) through the page's form, as a player types it."""
    if not await page.is_visible("#sign-in"):
        await page.click("#open-sign-in")
    await page.wait_for_selector("#sign-in:not([hidden])")
    if up != (await page.get_attribute("#sign-in-form", "data-mode") == "up"):
        await page.click("#sign-in-mode")
    await page.fill("#account-name-input", name)
    await page.fill("#account-password", password)
    if up:
        await page.fill("#account-password-again", password if again is None else again)
    await page.click("#sign-in-submit")


async def signed_in(page: Any, name: str) -> None:
    """The page is signed in as `name`: it says so at the top, and shows the account's home."""
    await page.wait_for_selector("body[data-signed-in=true]")
    await page.wait_for_selector("#home-screen[data-state=listed]:not([hidden]) #home-games tbody tr")
    assert await page.inner_text("#account-name") == name
    assert await page.inner_text("#home-title-text") == f"{name}'s games"


async def session_cookie(context: Any) -> dict[str, Any] | None:
    found = [c for c in await context.cookies() if c["name"] == "risc_session"]
    return found[0] if found else None
