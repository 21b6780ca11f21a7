"""A finished game told again in the web page, in a real headless Chromium: the end's statistics as charts, and a
replay of a finished game of every rule set stepped through turn by turn (the board, the turn's events, the dice),
from the lobby's list or by the game's id, under fog of war from one player's sight or everyone's, at a desk's size
and a phone's.

What the page shows is checked against what the server told it (the `replay` and `replayed_turn` frames, which the
server's own tests check against the stored log) and against the server's game itself.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from shared.rulesets import get_ruleset
from tests.server_support import Client, create_game
from tests.web_support import Watch, browser_or_skip, page_url, watched_pages, web_server

browser_or_skip()
pytestmark = pytest.mark.asyncio(loop_scope="module")

GAME_SECONDS = 60.0
GAMES = {
    "risc": {"ruleset": "risc", "map": "cataract", "players": 2},
    "warzone": {"ruleset": "warzone", "map": "saltreach", "players": 2},
    "classic": {"ruleset": "classic", "map": "cataract", "players": 2},
    "grid": {"ruleset": "grid", "map": None, "players": 3},
    "evolution-3": {"ruleset": "risc", "map": "cataract", "players": 2, "options": {"evolution": 3}},
}
FORCES = {"risc": "units", "warzone": "units", "classic": "armies", "grid": "troops", "evolution-3": "units"}


async def finished_game(server: Any, settings: dict[str, Any]) -> str:
    """A game of the server's computer players, played to its end (a fixed seed: the same game every run)."""
    client = await Client.connect(server)
    try:
        game_id = await create_game(client, **settings, bots=settings["players"])
        await client.request(type="watch_game", game_id=game_id)
        await client.wait_for(
            lambda m: m["type"] == "update" and client.summaries[game_id]["status"] == "finished", timeout=GAME_SECONDS
        )
        return game_id
    finally:
        await client.ws.close()


def received(watch: Watch, kind: str) -> list[dict[str, Any]]:
    return [m for m in watch.received if m.get("type") == kind]


async def board_shown(page: Any) -> dict[str, tuple[str, int | None]]:
    rows: list[list[Any]] = await page.eval_on_selector_all(
        "#replay-board g[data-territory]",
        "els => els.map(e => [e.dataset.territory, e.dataset.owner, "
        "e.dataset.units === '' ? null : Number(e.dataset.units)])",
    )
    return {name: (owner, units) for name, owner, units in rows}


def board_told(view: dict[str, Any], forces: str) -> dict[str, tuple[str, int | None]]:
    """The board as the server's view says it: each territory's owner and forces ('' and None where unknown)."""
    shown = {}
    for name, state in view["territories"].items():
        if state.get("fog") == "unknown":
            shown[name] = ("", None)
        else:
            shown[name] = (state.get("owner") or "", state.get(forces, 0))
    return shown


@pytest.mark.parametrize("name", list(GAMES))
async def test_a_finished_game_of_each_rule_set_is_replayed_turn_by_turn(
    browser: Any, tmp_path: Path, name: str
) -> None:
    async with web_server(seeds=lambda: 7) as server, watched_pages(browser, tmp_path) as pages:
        game_id = await finished_game(server, GAMES[name])
        opened = await pages.open(page_url(server))
        page = opened.page
        await page.click(f"tr[data-game-id='{game_id}'] [data-replay]")
        await page.wait_for_selector("#replay[data-index='0'] #replay-board g[data-territory]")
        assert page.url.endswith(f"#replay={game_id}")
        (outline,) = received(opened.watch, "replay")
        points = len(outline["turns"])
        assert await page.get_attribute("#replay-slider", "max") == str(points - 1)
        assert (await page.inner_text("#replay-where")).strip() == f"0 of {points - 1}"
        final = server.lobby.get(game_id).table.game
        winner = server.lobby.get(game_id).ruleset.status(final).winner
        assert f"{winner} won" in await page.inner_text("#replay-title")

        # every point of the timeline, stepped forward with the button: the board and the events the server told
        for index in range(points):
            if index:
                await page.click("#replay-next")
            await page.wait_for_selector(f"#replay[data-index='{index}']")
            frame = next(m for m in received(opened.watch, "replayed_turn") if m["index"] == index)
            assert await board_shown(page) == board_told(frame["view"], FORCES[name])
            told = await page.eval_on_selector_all(
                "#replay-events li[data-kind]", "els => els.map(e => e.dataset.kind)"
            )
            assert told == [event["kind"] for event in frame["events"]]
            # each in the server's words (the page asked for them: it holds no rule set's)
            said = await page.eval_on_selector_all("#replay-events li[data-kind]", "els => els.map(e => e.textContent)")
            assert frame["texts"] is not None and len(frame["texts"]) == len(said)
            assert all(shown.startswith(words) for shown, words in zip(said, frame["texts"], strict=True)), said
            # above the board and over the events, the same count of what the turn did
            point = outline["turns"][index]
            counted = f"{len(frame['events'])} event" + ("" if len(frame["events"]) == 1 else "s")
            if point["steps"] > 1:
                counted = f"{point['steps']} actions, {counted}"
            assert counted in await page.inner_text("#replay-state")
            if index:
                assert counted in await page.inner_text("#replay-events-title")
            rolls = [e for e in frame["events"] if e["kind"] in ("dice_rolled", "battle") and "attack" in e]
            if rolls:  # the turn's last roll, on the board and under it
                shown = await page.get_attribute("#replay-roll", "data-attack")
                assert shown == " ".join(str(d) for d in rolls[-1]["attack"])
                assert await page.locator("#replay-board .roll .die.attack").count() == len(rolls[-1]["attack"])
        assert await page.is_disabled("#replay-next") and await page.is_disabled("#replay-last")
        # the last point is the board the game ended on
        finished = get_ruleset(outline["ruleset"]).dump_view(server.lobby.get(game_id).ruleset.view(final, None))
        assert await board_shown(page) == board_told(finished, FORCES[name])
        assert "(won)" in await page.inner_text(f"#replay-players li[data-player='{winner}']")

        # back to the start with the slider; the charts mark the turn shown
        await page.fill("#replay-slider", "1")
        await page.wait_for_selector("#replay[data-index='1']")
        first_turn = outline["turns"][1]["turn"]
        await page.wait_for_selector(
            f"#replay-charts svg[data-chart=territories] line.now[data-turn='{first_turn}']", state="attached"
        )
        (statistics,) = received(opened.watch, "statistics")
        players = len(statistics["statistics"]["players"])
        assert await page.locator("#replay-charts svg[data-chart=units] polyline").count() == players
        assert await page.locator("#replay-charts svg[data-chart=battles] rect.bar").count() == 2 * players


async def test_the_end_of_a_game_draws_the_server_s_statistics_and_opens_its_replay(
    browser: Any, tmp_path: Path
) -> None:
    async with web_server(seeds=lambda: 7) as server, watched_pages(browser, tmp_path) as pages:
        game_id = await finished_game(server, GAMES["classic"])
        opened = await pages.open(page_url(server, f"game={game_id}"))
        page = opened.page
        await page.wait_for_selector("#result:not([hidden]) #charts svg[data-chart=territories]")
        (reply,) = received(opened.watch, "statistics")
        statistics = reply["statistics"]
        totals = statistics["totals"]
        for chart in ("territories", "units", "income"):
            assert await page.locator(f"#charts svg[data-chart={chart}] polyline").count() == len(totals)
        for player, total in totals.items():  # bars as the server counted: battles won and lost, cards played
            for field in ("battles_won", "battles_lost"):
                bar = f"#charts svg[data-chart=battles] rect[data-player='{player}'][data-field={field}]"
                assert await page.get_attribute(bar, "data-value") == str(total[field])
            cards = f"#charts svg[data-chart=cards] rect[data-player='{player}']"
            assert await page.get_attribute(cards, "data-value") == str(total["cards_played"])
        (out,) = statistics["eliminations"]
        assert f"Turn {out['turn']}: {out['by']} put {out['player']} out" in await page.inner_text("#charts")
        # as many turns as the game played, the one it ended on: the startup (turn 0) is not one more
        last = server.lobby.get(game_id).status().turn  # type: ignore[union-attr]
        assert statistics["turns"][0]["turn"] == 0 and statistics["turns"][-1]["turn"] == last
        assert f"{last} turns, as the server counted them." in await page.inner_text("#charts")
        await page.click("#replay-this")
        await page.wait_for_selector("#replay[data-index='0'] #replay-board g[data-territory]")
        assert page.url.endswith(f"#replay={game_id}")
        # the browser's back button returns to the game
        await page.go_back()
        await page.wait_for_selector("#game:not([hidden])[data-status=finished]")


async def test_under_fog_the_replay_is_seen_with_a_player_s_eyes_or_everyone_s(browser: Any, tmp_path: Path) -> None:
    async with web_server(seeds=lambda: 7) as server, watched_pages(browser, tmp_path) as pages:
        game_id = await finished_game(server, GAMES["evolution-3"])
        opened = await pages.open(page_url(server, f"replay={game_id}"))
        page = opened.page
        await page.wait_for_selector("#replay[data-index='0'] #replay-sight-form:not([hidden])")
        await page.click("#replay-next")
        await page.click("#replay-next")
        await page.wait_for_selector("#replay[data-index='2']")
        # everyone's: no territory out of sight
        fogged = "els => els.filter(e => e.dataset.fog !== 'clear').length"
        assert await page.eval_on_selector_all("#replay-board g[data-territory]", fogged) == 0
        everything = next(m for m in received(opened.watch, "replayed_turn") if m["index"] == 2 and m["sight"] is None)
        # everyone's eyes read every private line by name: whose stocks, whose spies; "you" is nobody here
        players = (await page.eval_on_selector_all("#replay-sight option", "os => os.map(o => o.value)"))[1:]
        said = await page.eval_on_selector_all("#replay-events li[data-kind]", "ls => ls.map((l) => l.textContent)")
        assert said and not any(re.search(r"\byou\b", line, re.IGNORECASE) for line in said), said
        stocks = await page.eval_on_selector_all(
            "#replay-events li[data-kind=stocks]", "ls => ls.map((l) => l.textContent)"
        )
        assert stocks and all(any(line.startswith(f"{p} spent") for p in players) for line in stocks), stocks
        player = (await page.eval_on_selector_all("#replay-sight option", "os => os.map(o => o.value)"))[1]
        await page.select_option("#replay-sight", player)
        await page.wait_for_selector(f"#replay[data-sight='{player}'][data-index='0']")
        assert page.url.endswith(f"#replay={game_id}&sight={player}")
        await page.click("#replay-next")
        await page.click("#replay-next")
        await page.wait_for_selector(f"#replay[data-sight='{player}'][data-index='2']")
        hers = next(m for m in received(opened.watch, "replayed_turn") if m["index"] == 2 and m["sight"] == player)
        assert await page.eval_on_selector_all("#replay-board g[data-territory]", fogged) > 0
        assert await board_shown(page) == board_told(hers["view"], "units")
        assert len(hers["events"]) < len(everything["events"])
        assert "as " + player + " saw it" in await page.inner_text("#replay-state")
        # and with a player's eyes, what they were told of themselves said to them
        mine = await page.eval_on_selector_all(
            "#replay-events li[data-kind=stocks]", "ls => ls.map((l) => l.textContent)"
        )
        assert mine and all(line.startswith("You spent") and player not in line for line in mine), mine


async def test_a_game_no_longer_listed_is_replayed_by_its_id_and_a_phone_steps_through_it(
    browser: Any, tmp_path: Path
) -> None:
    async with web_server(seeds=lambda: 7, finished_games_kept=0) as server, watched_pages(browser, tmp_path) as pages:
        game_id = await finished_game(server, GAMES["risc"])
        await finished_game(server, GAMES["risc"])  # creating it let go of the first: only the store keeps it
        assert game_id not in server.lobby.matches
        opened = await pages.open(page_url(server), width=390, height=844)
        page = opened.page
        await page.wait_for_selector("#lobby:not([hidden]) #games tbody tr")
        assert await page.locator(f"tr[data-game-id='{game_id}']").count() == 0
        await page.fill("#replay-id", "nosuch")
        await page.click("#replay-form button")
        await page.wait_for_selector("#lobby-note:has-text('Cannot replay game nosuch: there is no game')")
        await page.fill("#replay-id", game_id)
        await page.click("#replay-form button")
        await page.wait_for_selector("#replay[data-index='0'] #replay-board g[data-territory]")
        board = await page.locator("#replay-board svg.board").bounding_box()
        assert board["width"] <= 390
        await page.click("#replay-play")
        await page.wait_for_selector("#replay[data-index='1']")
        await page.click("#replay-play")  # pause
        assert await page.get_attribute("#replay", "data-playing") == "false"
        assert await page.inner_text("#replay-play") == "Play"


CHART_FACTS = """
() => [...document.querySelectorAll("#charts svg.chart[data-chart]")].map((svg) => {
  const boxes = [...svg.querySelectorAll("text.series-letter")].map((t) => t.getBoundingClientRect());
  const meet = (a, b) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
  const overlaps = boxes.flatMap((a, i) => boxes.slice(i + 1).filter((b) => meet(a, b))).length;
  const ticks = [...svg.querySelectorAll("text.tick")].map((t) => t.getBoundingClientRect().height);
  const points = Object.fromEntries([...svg.querySelectorAll("polyline[data-player]")].map((p) =>
    [p.dataset.player, p.getAttribute("points").trim().split(/\\s+/).length]));
  return { chart: svg.dataset.chart, overlaps, smallest: Math.min(...ticks), points };
})
"""


async def test_the_charts_of_a_warzone_game_end_with_what_each_turn_paid_and_read_at_any_width(
    browser: Any, tmp_path: Path
) -> None:
    async with web_server(seeds=lambda: 7) as server, watched_pages(browser, tmp_path) as pages:
        game_id = await finished_game(server, GAMES["warzone"])  # income comes as a turn begins: none on the last
        for width in (1280, 390):
            opened = await pages.open(page_url(server, f"game={game_id}"), width=width, height=900)
            page = opened.page
            await page.wait_for_selector("#result:not([hidden]) #charts svg[data-chart=income] polyline")
            (reply,) = received(opened.watch, "statistics")
            turns = reply["statistics"]["turns"]
            assert all(line["income"] is None for line in turns[-1]["players"].values()), "won before the income came"
            charts = {c["chart"]: c for c in await page.evaluate(CHART_FACTS)}
            paid = {
                p: sum(1 for line in turns if line["players"].get(p, {}).get("income") is not None)
                for p in reply["statistics"]["players"]
            }
            assert charts["income"]["points"] == paid  # no drop to 0 for everyone on the last turn
            for chart in charts.values():
                assert chart["overlaps"] == 0, chart  # each line's letter readable, equal lines' too
                assert chart["smallest"] >= 11, chart  # figures and turns as large as the page's small print
            await page.close()
