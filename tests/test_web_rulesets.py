"""The web page plays every game the server has, in a real browser against a real server: classic Risk and the grid
game turn by turn (phases, dice, the move-in, no commit), RISC Evolution 2 (upgrades and research by pointing, levels
and stocks), Evolution 3 under fog of war (nothing the fog hides reaches the page; a spectator may not borrow a
player's sight), and a seat handed over to the computer by a vote from the page.

What the page shows is checked against what the rules say: the server's own game (its match) and the frames the page
received, which tests/web_support.py also checks against the protocol's schema.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from shared.protocol.patch import apply as apply_patch
from shared.rulesets import get_ruleset
from shared.rulesets.risc.evo_view import EvoView
from shared.rulesets.risc.fog import sight
from tests.server_support import Client, create_game, join
from tests.web_support import (
    Watch,
    borders_drawn,
    browser_or_skip,
    create_in_lobby,
    front,
    owned,
    page_url,
    pick,
    territories,
    watched_pages,
    web_server,
)

RISC = get_ruleset("risc")

browser_or_skip()
pytestmark = pytest.mark.asyncio(loop_scope="module")


def events(watch: Watch, kind: str) -> list[dict[str, Any]]:
    """Every rule-set event of this kind the page was sent, in order."""
    return [
        entry["event"]
        for message in watch.received
        if message.get("type") == "update"
        for entry in message["events"]
        if entry["event"]["kind"] == kind
    ]


def beats(attack: list[int], defence: list[int]) -> tuple[int, int]:
    """Classic Risk's and the grid game's comparison: highest against highest, ties to the defender; returns the
    attacker's and the defender's losses."""
    lost = [0, 0]
    for a, d in zip(sorted(attack, reverse=True), sorted(defence, reverse=True), strict=False):
        lost[0 if a <= d else 1] += 1
    return lost[0], lost[1]


async def acting_in(page: Any, phase: str) -> bool:
    """Whether the page's player is the one to act, in this phase."""
    return (await page.get_attribute("#game", "data-phase"), await page.get_attribute("#game", "data-active")) == (
        phase,
        await page.get_attribute("#game", "data-you"),
    )


async def facts(page: Any, selector: str) -> dict[str, str]:
    """A panel's table of facts, heading to value."""
    rows: list[list[str]] = await page.eval_on_selector_all(
        f"{selector} table.facts tr", "rows => rows.map(r => [r.cells[0].innerText, r.cells[1].innerText])"
    )
    return dict(rows)


async def step_changes(page: Any, action: Any) -> None:
    """Do `action` (an order taking effect at once) and wait until the page has the game's next step."""
    step = await page.get_attribute("#game", "data-step")
    await action()
    await page.wait_for_selector(f"#game:not([data-step='{step}'])")


async def test_classic_risk_played_by_pointing_through_a_turn_with_its_dice(browser: Any, tmp_path: Path) -> None:
    async with web_server() as server, watched_pages(browser, tmp_path) as pages:
        opened = await pages.open(page_url(server))
        page, seen = opened.page, opened.watch
        await create_in_lobby(
            page,
            "Ann",
            ruleset="classic",
            map_id="twin-keeps",
            players=2,
            bots=1,
            strategy="benevolent",
            options={"initial_armies": "6"},
        )
        await page.wait_for_selector("#game[data-status=playing][data-simultaneous=false]")

        # Startup: armies go on one at a time, the computer player and Ann in turn; there is nothing to commit.
        await page.wait_for_selector("#game[data-phase=startup][data-active=Ann]")
        assert "your move" in await page.inner_text("#game-state")
        assert "Place your starting armies" in await page.inner_text("#prompt")
        first = (await owned(page, "Ann"))[0]
        before = (await territories(page))[first][1]
        await pick(page, first)
        await step_changes(page, lambda: page.click("li[data-kind=placearmy] [data-issue]"))
        await page.wait_for_selector(f"g[data-territory='{first}'][data-units='{before + 1}']")
        assert {"kind": "army_placed", "player": "Ann", "country": first} in events(seen, "army_placed")
        assert await page.locator("#commit").is_hidden()
        await page.wait_for_selector("#game[data-phase=startup][data-active=Ann]")
        # the server's words for each order a page offers, a person's words rather than the console's commands
        assert await page.inner_text("li[data-kind=placeall] button") == "place all the rest at random"
        await step_changes(page, lambda: page.click("li[data-kind=placeall] button"))

        # Reinforcement: the turn's armies (3 for 4 countries) on a country at the front, by pointing.
        await page.wait_for_selector("#game[data-phase=reinforcement][data-active=Ann][data-turn='1']")
        started = events(seen, "turn_started")[-1]
        assert started["player"] == "Ann" and started["armies"] == 3
        assert "Place 3 armies" in await page.inner_text("#prompt")
        source, target = await front(page, "Ann")
        armies = (await territories(page))[source][1]
        await pick(page, source)
        assert await page.get_attribute("li[data-kind=reinforce] [data-count]", "max") == "3"
        await step_changes(page, lambda: page.click("li[data-kind=reinforce] [data-issue]"))
        await page.wait_for_selector(f"g[data-territory='{source}'][data-units='{armies + 3}']")

        # Attack: the source stays picked; the target, then two dice. The roll is in the log and on the board.
        await page.wait_for_selector("#game[data-phase=attack][data-active=Ann]")
        await pick(page, source)
        assert await page.locator(f"g[data-territory='{target}'][data-target]").count() == 1
        await page.click(f"g[data-territory='{target}']")
        assert await page.locator("li[data-kind=allout]").count() == 1, "the all-out attack is offered"
        assert f"attack {target} from {source} all out, until it falls or one army is left" in await page.inner_text(
            "li[data-kind=allout]"
        )
        assert await page.inner_text("li[data-kind=noattack] button") == "end the attack phase"
        await page.fill("li[data-kind=attack] [data-count]", "2")
        await step_changes(page, lambda: page.click("li[data-kind=attack] [data-issue]"))
        roll = events(seen, "dice_rolled")[-1]
        assert (roll["player"], roll["source"], roll["target"]) == ("Ann", source, target)
        assert len(roll["attack"]) == 2 and 1 <= len(roll["defence"]) <= 2
        assert all(1 <= die <= 6 for die in roll["attack"] + roll["defence"])
        assert beats(roll["attack"], roll["defence"]) == (roll["attacker_losses"], roll["defender_losses"])
        shown = " ".join(map(str, roll["attack"]))
        await page.wait_for_selector(f"#log li[data-kind=dice_rolled] .dice.attack[data-dice='{shown}']")
        assert await page.get_attribute("g.roll", "data-attack") == shown
        assert await page.get_attribute("g.roll", "data-defence") == " ".join(map(str, roll["defence"]))
        assert await page.get_attribute("#roll", "data-attack") == shown
        board = await territories(page)
        assert board[source][1] == roll["source_armies"]
        if roll["target_armies"] == 0:  # taken: the armies that move in are chosen, between the least and the most
            await page.wait_for_selector(f"g[data-territory='{target}'][data-mark=conquest]")
            taken = events(seen, "country_conquered")[-1]
            if taken["least"] < taken["most"]:
                await page.wait_for_selector("#game[data-phase=move-in][data-active=Ann]")
                count = page.locator("li[data-kind=attackmove] [data-loose-count]")
                assert (await count.get_attribute("min"), await count.get_attribute("max")) == (
                    str(taken["least"]),
                    str(taken["most"]),
                )
                await count.fill(str(taken["least"]))
                await step_changes(page, lambda: page.click("li[data-kind=attackmove] [data-loose]"))
            moved = events(seen, "armies_moved_in")[-1]
            assert (await territories(page))[target] == ("Ann", moved["armies"])
        else:
            assert board[target] == ("bot-benevolent-1", roll["target_armies"])
            assert await page.get_attribute(f"g[data-territory='{target}']", "data-mark") == "battle"

        # The attack phase ends, the fortification is skipped (each phase also ends by itself when nothing is left
        # to do in it): the turn passes to the computer player and comes back.
        if await acting_in(page, "attack"):
            await step_changes(page, lambda: page.click("li[data-kind=noattack] button"))
        if await acting_in(page, "fortification"):
            assert "Fortify" in await page.inner_text("#prompt")
            assert await page.inner_text("li[data-kind=nofortify] button") == "skip fortifying: end your turn"
            await page.click("li[data-kind=nofortify] button")
        await page.wait_for_selector("#game[data-phase=reinforcement][data-active=Ann][data-turn='2']")
        assert [e["player"] for e in events(seen, "turn_started")][-2:] == ["bot-benevolent-1", "Ann"]
        assert await page.locator("#commit").is_hidden() and await page.locator("[data-no-orders]").count() == 0
        assert "commit" not in seen.types("sent")
        assert "Your cards" in await page.inner_text("#extras")


async def test_the_grid_game_is_drawn_as_its_grid_and_played_by_pointing(browser: Any, tmp_path: Path) -> None:
    async with web_server() as server, watched_pages(browser, tmp_path) as pages:
        opened = await pages.open(page_url(server))
        page, seen = opened.page, opened.watch
        await create_in_lobby(
            page, "Ann", ruleset="grid", map_id=None, players=3, bots=2, strategy="defensive", options={"troops": "10"}
        )
        await page.wait_for_selector("#game[data-status=playing] svg[data-shape=cells]")

        # Rows and columns as the cells' names say: "row,col", numbered 0 to 4 along the edges.
        assert await page.locator("g[data-territory] rect.body").count() == 25
        assert await page.locator("text[data-row]").all_text_contents() == ["0", "1", "2", "3", "4"]
        assert await page.locator("text[data-column]").all_text_contents() == ["0", "1", "2", "3", "4"]
        box = {name: await page.locator(f"g[data-territory='{name}']").bounding_box() for name in ("2,2", "2,3", "3,2")}
        assert box["2,3"]["x"] > box["2,2"]["x"] and abs(box["2,3"]["y"] - box["2,2"]["y"]) < 1
        assert box["3,2"]["y"] > box["2,2"]["y"] and abs(box["3,2"]["x"] - box["2,2"]["x"]) < 1
        assert await borders_drawn(page) == 40

        # Deployment: the first seats (the computer players, A and B) deploy first; Ann (C) one troop.
        await page.wait_for_selector("#game[data-phase=deployment][data-active=Ann]")
        first = (await owned(page, "Ann"))[0]
        troops = (await territories(page))[first][1]
        await pick(page, first)
        await step_changes(page, lambda: page.click("li[data-kind=deploy] [data-issue]"))
        assert (await territories(page))[first][1] == troops + 1

        # Ann's first turn: every new troop on one cell at the front, an attack with the dice, then the turn ends.
        await page.wait_for_selector("#game[data-phase='new troops'][data-active=Ann]")
        new = events(seen, "turn_started")[-1]
        assert new["player"] == "Ann" and new["new_troops"] == min(new["territories"] // 2, 3)
        source, target = await front(page, "Ann")
        troops = (await territories(page))[source][1]
        await pick(page, source)
        await step_changes(page, lambda: page.click("li[data-kind=deploy] [data-issue]"))
        assert (await territories(page))[source][1] == troops + new["new_troops"]
        await page.wait_for_selector("#game[data-phase=attack][data-active=Ann]")
        await pick(page, source)
        await page.click(f"g[data-territory='{target}']")
        most = int(await page.get_attribute("li[data-kind=attack] [data-count]", "max") or 0)
        assert most == min(3, troops + new["new_troops"] - 1)
        await step_changes(page, lambda: page.click("li[data-kind=attack] [data-issue]"))
        battle = events(seen, "battle")[-1]
        assert (battle["player"], battle["source"], battle["target"]) == ("Ann", source, target)
        defending = battle["target_troops"] + battle["defender_losses"]
        assert len(battle["attack"]) == most and len(battle["defence"]) == min(2, defending)
        assert beats(battle["attack"], battle["defence"]) == (battle["attacker_losses"], battle["defender_losses"])
        assert await page.get_attribute("g.roll", "data-attack") == " ".join(map(str, battle["attack"]))
        await page.wait_for_selector("#log li[data-kind=battle] .dice.defence")
        if await acting_in(page, "move-in"):
            assert "You took" in await page.inner_text("#prompt")
            # the only action is the move-in's: nothing says to pick a territory on the map
            await page.wait_for_selector("li[data-kind=movein] [data-loose]")
            assert "Pick a territory" not in await page.inner_text("#order-entry")
            count = page.locator("li[data-kind=movein] [data-loose-count]")
            least = int(await count.get_attribute("min") or 0)
            await count.fill(str(least))
            await step_changes(page, lambda: page.click("li[data-kind=movein] [data-loose]"))
            assert (await territories(page))[target] == ("Ann", least)
        ended = await acting_in(page, "attack")
        if ended:
            await page.click("li[data-kind=end] button")
        await page.wait_for_selector("#game[data-phase='new troops'][data-active=Ann][data-turn='2']")
        if ended:
            assert {"kind": "turn_ended", "player": "Ann", "automatic": False} in events(seen, "turn_ended")
        assert [(e["turn"], e["player"]) for e in events(seen, "turn_started")][-3:] == [
            (2, "bot-defensive-1"),
            (2, "bot-defensive-2"),
            (2, "Ann"),
        ], "turns go A, B, C"
        assert await page.locator("#commit").is_hidden()


async def test_evolution_2_upgrades_and_research_by_pointing_show_levels_and_stocks(
    browser: Any, tmp_path: Path
) -> None:
    async with web_server() as server, watched_pages(browser, tmp_path) as pages:
        opened = await pages.open(page_url(server))
        page = opened.page
        await create_in_lobby(
            page,
            "Ann",
            ruleset="risc",
            map_id="twin-keeps",
            players=2,
            bots=1,
            strategy="defensive",
            options={"evolution": "2", "initial_units": "12"},
        )
        await page.wait_for_selector("#game[data-phase=placement] #commit:not([hidden])")
        game_id = await page.get_attribute("#game", "data-game-id")
        match = server.lobby.get(str(game_id))
        home = (await owned(page, "Ann"))[0]
        await pick(page, home)
        await page.click("[data-issue='0']")
        await page.wait_for_selector("[data-order-index='0']")
        assert await page.get_attribute("[data-pool]", "data-pool") == "0", "the pool counts the orders issued"
        assert await page.inner_text("[data-pool]") == "Every unit is placed.", "no territory to click for nothing"
        # the heading says which RISC: the options the server words, where they are not the defaults
        assert "Evolution 2: unit levels, food and technology" in await page.inner_text("#game-title")
        await page.click("#commit")
        await page.wait_for_selector("#game[data-phase=orders][data-turn='1']")

        stocks = page.locator("[data-panel=stocks] .stocks")
        assert await stocks.get_attribute("data-food") == "100" == await stocks.get_attribute("data-technology")
        assert await stocks.get_attribute("data-tech-level") == "1"
        # Five units from level 0 to 1 (3 technology each), then research (50): the stocks left say so at once.
        await pick(page, home)
        upgrade = page.locator("li[data-kind=upgrade]").filter(has_text="from level 0 to 1")
        await upgrade.locator("[data-count]").fill("5")
        await upgrade.locator("[data-issue]").click()
        await page.wait_for_selector("[data-order-index='0']")
        await page.wait_for_selector("[data-panel=stocks] .stocks[data-technology-left='85']")
        await page.click("li[data-kind=research] button")
        await page.wait_for_selector("[data-order-index='1']")
        await page.wait_for_selector("[data-panel=stocks] .stocks[data-technology-left='35']")
        assert "upgrade 5 on" in await page.inner_text("[data-order-index='0']")
        # Two level-0 units moved on through one's own land cost food by the sizes on the way (E4): the page's
        # reckoning of what is left is the server's.
        await pick(page, home)
        away = await page.get_attribute("g[data-territory][data-target][data-owner=Ann]", "data-territory")
        await page.click(f"g[data-territory='{away}']")
        move = page.locator("li[data-kind=level_move]").filter(has_text="level-0")
        await move.locator("[data-count]").fill("2")
        await move.locator("[data-issue]").click()
        await page.wait_for_selector("[data-order-index='2']")
        told = match.ruleset.view(match.game, "Ann")
        assert isinstance(told, EvoView) and told.food_left is not None and told.food_left < 100
        await page.wait_for_selector(
            f"[data-panel=stocks] .stocks[data-food-left='{told.food_left}']"
            f"[data-technology-left='{told.technology_left}']"
        )
        await page.click("#commit")
        await page.wait_for_selector("#game[data-turn='2']")

        evo = match.game.board.evo
        assert evo.levels[home][:2] == (6, 5), "five left at level 0, one new, five at level 1"
        assert await page.text_content(f"g[data-territory='{home}'] .note-line") == "L1×5"
        await page.hover(f"g[data-territory='{home}']")
        await page.wait_for_selector(f"#details[data-territory='{home}']")
        details = await facts(page, "#details")
        land = evo.land[home]
        assert details["units by level"] == "6 at level 0, 5 at level 1"
        assert details["production"] == f"{land.food} food, {land.technology} technology a turn"
        assert details["size"] == str(land.size) and details["owner"] == "Ann" and details["units"] == "11"
        stock = evo.stocks["Ann"]
        assert await stocks.get_attribute("data-tech-level") == "2" == str(evo.tech_level["Ann"])
        assert await stocks.get_attribute("data-technology") == str(stock.technology)
        assert await stocks.get_attribute("data-food") == str(stock.food)
        assert "technology level 2" in await page.inner_text("li[data-player=Ann]")
        assert (
            await page.locator(
                "#log li[data-kind=technology_researched]", has_text="You reached technology level 2"
            ).count()
            == 1
        )


async def test_evolution_3_the_page_is_sent_and_shows_nothing_the_fog_hides(browser: Any, tmp_path: Path) -> None:
    async with web_server() as server, watched_pages(browser, tmp_path) as pages:
        opened = await pages.open(page_url(server))
        page, seen = opened.page, opened.watch
        await create_in_lobby(
            page,
            "Ann",
            ruleset="risc",
            map_id="twin-keeps",
            players=2,
            bots=1,
            strategy="random",
            options={"evolution": "3", "initial_units": "10"},
        )
        await page.wait_for_selector("#game[data-phase=placement] #commit:not([hidden])")
        game_id = str(await page.get_attribute("#game", "data-game-id"))
        match = server.lobby.get(game_id)
        mine = await owned(page, "Ann")
        await pick(page, mine[0])
        await page.click("[data-issue='0']")
        await page.wait_for_selector("[data-order-index='0']")
        await page.click("#commit")
        await page.wait_for_selector("#game[data-phase=orders][data-turn='1']")

        game = match.game
        sees = sight(game.game_map, game.board, "Ann")
        hidden = [name for name in game.game_map.names if name not in sees]
        assert hidden, "twin-keeps leaves part of the board out of sight"
        for name in hidden:  # drawn fogged: no owner, no units, though the server knows them
            assert game.board.owner[name] == "bot-random-1"
            node = f"g[data-territory='{name}']"
            assert await page.get_attribute(node, "data-fog") == "unknown"
            assert await page.get_attribute(node, "data-owner") == ""
            assert await page.text_content(f"{node} .units") == "?"
            assert "never seen" in str(await page.get_attribute(node, "aria-label"))
        for name in sees:
            assert await page.get_attribute(f"g[data-territory='{name}']", "data-fog") == "clear"

        # Nothing the page was sent says more: the map has no production, every view (whole, then patched) shows
        # territories out of sight as unknown with nothing in them, and every entry was meant for Ann.
        (sent_map,) = [m["map"] for m in seen.received if m["type"] == "game_map"]
        assert all(t["food"] is None and t["technology"] is None for t in sent_map["territories"])
        view: dict[str, Any] | None = None
        entries = {json.dumps(json.loads(e.text), sort_keys=True): e for e in match.log.after(0) or []}
        for message in seen.received:
            if message["type"] != "update" or message["game_id"] != game_id:
                continue
            if message["view"] is not None:
                view = message["view"]
            elif message["view_patch"] is not None and view is not None:
                view = apply_patch(view, message["view_patch"])
            for entry in message["events"]:  # each as the log holds it, but for its words (the page asks for them)
                logged = {key: value for key, value in entry.items() if key != "text"}
                audience = entries[json.dumps(logged, sort_keys=True)].audience
                assert audience is None or "Ann" in audience, entry
            for name, state in (view or {}).get("territories", {}).items():
                if state.get("fog") == "unknown":
                    assert set(state) <= {"units", "levels", "size", "fog", "spies"}, (name, state)
                    assert state["units"] == 0 and not any(state["levels"]) and not state["spies"]
            for name, player in (view or {}).get("players", {}).items():
                if name != "Ann":
                    assert set(player) <= {"eliminated", "tech_level"}, player

        # Ann trains a spy on one of hers: the territory says so under its units, in words (only she sees it)
        await pick(page, mine[0])
        spy = page.locator("li[data-kind=spy]")
        if await spy.locator("[data-count]").count():
            await spy.locator("[data-count]").fill("1")
        await spy.locator("[data-issue]").click()
        await page.wait_for_selector("[data-order-index='0']")
        await page.click("#commit")
        await page.wait_for_selector("#game[data-turn='2']")
        await page.wait_for_selector(f"g[data-territory='{mine[0]}'] .note-line:has-text('1 spy')")
        assert "your spies there, which only you see" in await page.inner_text("#extras .fog-legend")

        # A spectator may not borrow a player's sight here: the page asks, the server refuses and says who may.
        watcher = await pages.open(page_url(server, f"game={game_id}"))
        await watcher.page.wait_for_selector("#follow:not([hidden])")
        await watcher.page.select_option("#follow-player", "Ann")
        await watcher.page.click("#follow-form button[type=submit]")
        await watcher.page.wait_for_selector("#follow-note[data-code=cannot-follow]")
        assert "only a player who is out may follow" in await watcher.page.inner_text("#follow-note")
        assert any(m.get("follow") == "Ann" for m in watcher.watch.sent if m["type"] == "watch_game")
        spectator = await territories(watcher.page)
        assert all(owner == "" for owner, _ in spectator.values()), "a spectator sees only what is public"


async def test_a_seat_away_too_long_is_handed_over_by_a_vote_from_the_page(browser: Any, tmp_path: Path) -> None:
    async with web_server(hand_over_after=1.0) as server, watched_pages(browser, tmp_path) as pages:
        opened = await pages.open(page_url(server))
        page, seen = opened.page, opened.watch
        await create_in_lobby(page, "Alice", map_id="twin-keeps", players=2, bots=0, options={"initial_units": "6"})
        await page.wait_for_selector("#game[data-status=lobby][data-you=Alice]")
        game_id = str(await page.get_attribute("#game", "data-game-id"))
        bob = await Client.connect(server)
        token = (await bob.request(type="join_game", game_id=game_id, name="Bob"))["token"]
        await page.wait_for_selector("#game[data-status=playing]")
        await bob.close()

        # Bob is away: Alice (the game's creator: her vote decides) may ask for the computer to play his seat.
        await page.wait_for_selector("li[data-player=Bob][data-connected=false] [data-hand-over=Bob]")
        assert await page.locator("[data-hand-over=Alice]").count() == 0, "nobody votes on their own seat"
        await page.wait_for_timeout(1100)
        await page.click("[data-hand-over=Bob]")
        await page.wait_for_selector("li[data-player=Bob][data-computer=true]")
        await page.wait_for_selector("#log li[data-kind=seat_handed_over]")
        assert "played by the computer" in await page.inner_text("li[data-player=Bob]")
        assert await page.locator("[data-hand-over]").count() == 0
        pending = [m for m in seen.received if m["type"] == "hand_over_pending"]
        assert pending and pending[-1]["player"] == "Bob" and pending[-1]["needed"] == []
        # the computer places Bob's units; Alice places hers and the turn resolves
        await page.wait_for_selector("li[data-player=Bob][data-committed=true]")
        mine = await owned(page, "Alice")
        await pick(page, mine[0])
        await page.click("[data-issue='0']")
        await page.wait_for_selector("[data-order-index='0']")
        await page.click("#commit")
        await page.wait_for_selector("#game[data-phase=orders][data-turn='1']")
        assert sum(units for owner, units in (await territories(page)).values() if owner == "Bob") == 6

        # Bob comes back with his token: the seat is his again, and the page says so.
        back = await Client.connect(server)
        assert (await back.request(type="resume", game_id=game_id, token=token, last_seq=0))["type"] == "resumed"
        await page.wait_for_selector("#log li[data-kind=seat_taken_back]")
        await page.wait_for_selector("li[data-player=Bob][data-computer=false][data-connected=true]")
        await back.close()
        assert "hand_over" in seen.types("sent")


FOLLOW_SEED = 1
"""The game's seed, which also seeds the server's computer player: the same game every run."""


async def test_a_player_who_is_out_of_a_fog_game_sees_with_a_survivor_s_eyes(browser: Any, tmp_path: Path) -> None:
    async with (
        web_server(min_turn_seconds=0.1, bot_turn_pause=0.0, seeds=lambda: FOLLOW_SEED) as server,
        watched_pages(browser, tmp_path) as pages,
    ):
        client = await Client.connect(server)
        game_id = await create_game(
            client,
            ruleset="risc",
            map="cataract",
            players=4,
            bots=1,
            turn_seconds=0.25,
            bot_strategy="aggressive",
            options={"evolution": 3, "initial_units": 60},
        )
        opened = await pages.open(page_url(server))
        page = opened.page
        await page.wait_for_selector(f"tr[data-game-id='{game_id}'] [data-join]")
        await page.fill("#name", "Ann")
        await page.click(f"tr[data-game-id='{game_id}'] [data-join]")
        await join(client, game_id, "Cy")
        await join(await Client.connect(server), game_id, "Dee")
        await page.wait_for_selector("#game[data-status=playing]")
        await page.wait_for_selector(
            "li[data-player=Ann][data-eliminated=true], #game[data-status=finished]", timeout=60_000
        )
        assert await page.get_attribute("#game", "data-status") != "finished", (
            "with this seed the computer player puts Ann out while others are still in: someone is left to follow"
        )
        await page.wait_for_selector("#follow:not([hidden])")
        await page.select_option("#follow-player", "bot-aggressive-1")
        await page.click("#follow-form button[type=submit]")
        await page.wait_for_selector("#game[data-following=bot-aggressive-1]")
        await page.wait_for_selector("#game g[data-owner=bot-aggressive-1][data-fog=clear]")
        assert "seeing with bot-aggressive-1's eyes" in await page.inner_text("#game-state")
        assert await page.locator("#order-section").is_hidden()
        sent = [m for m in opened.watch.sent if m["type"] == "watch_game"]
        assert sent[-1]["follow"] == "bot-aggressive-1"
        await page.click("#unfollow")
        await page.wait_for_selector("#game[data-following='']")
        await page.wait_for_selector("li[data-player=Ann][data-connected=true]")
        await client.close()


async def test_warzone_says_what_to_do_now_deploy_then_advance(browser: Any, tmp_path: Path) -> None:
    async with web_server() as server, watched_pages(browser, tmp_path) as pages:
        page = (await pages.open(page_url(server))).page
        await create_in_lobby(page, "Alice", map_id="saltreach", players=2, bots=1, ruleset="warzone")
        await page.wait_for_selector("#game[data-status=playing][data-you=Alice] #commit:not([hidden])")
        match = server.lobby.get(await page.get_attribute("#game", "data-game-id") or "")
        pool = match.table.game.board.pools["Alice"]
        assert pool > 0
        await page.wait_for_selector(f"#prompt:has-text('Deploy your {pool} units')")
        # the whole pool on one territory by pointing: the line moves on to what the turn asks next
        await page.click(f"g[data-territory='{(await owned(page, 'Alice'))[0]}']")
        await page.fill("[data-count='0']", str(pool))
        await page.click("[data-issue='0']")
        await page.wait_for_selector("#prompt:has-text('then a neighbour to advance to or attack')")
        assert "Deploy" not in await page.inner_text("#prompt")


async def test_the_new_game_form_says_what_an_empty_option_means(browser: Any, tmp_path: Path) -> None:
    async with web_server() as server, watched_pages(browser, tmp_path) as pages:
        page = (await pages.open(page_url(server))).page
        await page.wait_for_selector("#lobby:not([hidden]) #ruleset option", state="attached")
        await page.select_option("#ruleset", "risc")
        help_text = await page.inner_text("label:has(#option-initial_units) small")
        assert help_text == "units each player places (R9); left empty: 10 per starting territory"
        await page.select_option("#ruleset", "classic")
        assert "left empty: 40, 35, 30, 25 or 20 for 2 to 6 players" in await page.inner_text("#options")
        assert "null" not in await page.inner_text("#options")
        # every option titled as a person reads it, those chosen from a list too (no card_schedule beside Max Players)
        labels = await page.eval_on_selector_all(
            "#options > label",
            "ls => ls.map((l) => l.childNodes[l.querySelector('input[type=checkbox]') ? 1 : 0].textContent.trim())",
        )
        assert {"Card Schedule", "Fortify", "Mode", "Initial Armies", "Max Players"} <= set(labels), labels
        assert not any("_" in label for label in labels), labels


async def test_warzone_orders_move_up_and_down_as_the_server_allows_and_stay_so_after_a_reload(
    browser: Any, tmp_path: Path
) -> None:
    async with web_server() as server, watched_pages(browser, tmp_path) as pages:
        page = (await pages.open(page_url(server))).page
        await create_in_lobby(page, "Alice", map_id="saltreach", players=2, bots=1, ruleset="warzone")
        await page.wait_for_selector("#game[data-status=playing][data-you=Alice] #commit:not([hidden])")
        game_id = await page.get_attribute("#game", "data-game-id") or ""
        match = server.lobby.get(game_id)
        board = match.table.game.board
        pool = board.pools["Alice"]
        source, target = await front(page, "Alice")
        other = next(t for t in await owned(page, "Alice") if t != source)
        # deploy on the front, then send more than was there before: the advance needs the deploy before it
        await pick(page, source)
        await page.fill("[data-count='0']", str(pool - 1))
        await page.click("[data-issue='0']")
        await page.wait_for_selector("[data-order-index='0']")
        await pick(page, source)
        await page.click(f"[data-target='{target}']")
        await page.click("[data-issue='0']")  # every unit there, the deployed ones too
        await page.wait_for_selector("[data-order-index='1']")
        await pick(page, other)
        await page.fill("[data-count='0']", "1")
        await page.click("[data-issue='0']")
        await page.wait_for_selector("[data-order-index='2']")
        texts = await page.eval_on_selector_all(
            "[data-order-index] > span:first-child", "s => s.map((e) => e.textContent)"
        )
        assert texts[0].startswith("deploy") and texts[1].startswith("advance") and other in texts[2]
        assert await page.locator("[data-order-index='0'] [data-move='move up']").count() == 0  # the first stays first

        # the advance before its deploy: refused with the server's reason, and nothing moves
        await page.click("[data-order-index='1'] [data-move='move up']")
        await page.wait_for_selector("#order-note:has-text('would not hold')")
        assert (
            await page.eval_on_selector_all("[data-order-index] > span:first-child", "s => s.map((e) => e.textContent)")
            == texts
        )
        # the last deploy first: the list and the server's own order change
        await page.click("[data-order-index='2'] [data-move='move up']")
        await page.click("[data-order-index='1'] [data-move='move up']")
        await page.wait_for_selector("#order-note:has-text('Order 2 is number 1 now.')")
        moved = [texts[2], texts[0], texts[1]]
        assert (
            await page.eval_on_selector_all("[data-order-index] > span:first-child", "s => s.map((e) => e.textContent)")
            == moved
        )
        kinds = [o.territory if o.kind == "deploy" else o.source for o in match.game.orders_of("Alice")]
        assert kinds == [other, source, source]
        await page.reload()
        await page.wait_for_selector("[data-order-index='2']")
        assert (
            await page.eval_on_selector_all("[data-order-index] > span:first-child", "s => s.map((e) => e.textContent)")
            == moved
        )


CLASSIC_UNTIL_SEED = 12
"""A classic game whose first attack until N remain rolls several times and takes the country with a choice of how
many armies move in (the seed fixes the deal, the computer player's choices and the dice)."""


async def test_classic_attack_until_n_remain_shows_every_roll_and_the_log_speaks_no_console(
    browser: Any, tmp_path: Path
) -> None:
    async with (
        web_server(seeds=lambda: CLASSIC_UNTIL_SEED) as server,
        watched_pages(browser, tmp_path) as pages,
    ):
        opened = await pages.open(page_url(server))
        page, seen = opened.page, opened.watch
        await create_in_lobby(
            page,
            "Ann",
            ruleset="classic",
            map_id="twin-keeps",
            players=2,
            bots=1,
            strategy="benevolent",
            options={"initial_armies": "12"},
        )
        await page.wait_for_selector("#game[data-phase=startup][data-active=Ann]")
        await step_changes(page, lambda: page.click("li[data-kind=placeall] button"))
        await page.wait_for_selector("#game[data-phase=reinforcement][data-active=Ann]")
        source, target = await front(page, "Ann")
        await pick(page, source)
        await step_changes(page, lambda: page.click("li[data-kind=reinforce] [data-issue]"))
        await page.wait_for_selector("#game[data-phase=attack][data-active=Ann]")
        armies = (await territories(page))[source][1]
        await pick(page, source)
        await page.click(f"g[data-territory='{target}']")
        until = page.locator("li[data-kind=attackuntil]")
        assert (
            f"attack {target} from {source} until it falls or … armies are left in {source}" in await until.inner_text()
        )
        assert (await until.locator("[data-count]").get_attribute("max")) == str(armies - 1)
        await until.locator("[data-count]").fill("2")
        before = len(events(seen, "dice_rolled"))
        await step_changes(page, lambda: until.locator("[data-issue]").click())
        rolls = events(seen, "dice_rolled")[before:]
        assert len(rolls) > 1, "the seed's attack rolls several times"
        # every roll of the attack under the board, in order, the last one's dice on the board
        shown = await page.eval_on_selector_all(
            "#roll ol.rolls li", "ls => ls.map((l) => [...l.querySelectorAll('.dice')].map((d) => d.dataset.dice))"
        )
        assert shown == [[" ".join(map(str, r["attack"])), " ".join(map(str, r["defence"]))] for r in rolls]
        assert await page.get_attribute("g.roll", "data-attack") == " ".join(map(str, rolls[-1]["attack"]))
        # each roll in the log with its dice
        assert await page.locator("#log li[data-kind=dice_rolled]").count() >= len(rolls)
        taken = events(seen, "country_conquered")
        assert taken and taken[-1]["least"] < taken[-1]["most"], "the seed's attack takes the country"
        assert rolls[-1]["source_armies"] >= 2 or taken
        # the move-in is the only action: nothing says to pick a territory on the map
        await page.wait_for_selector("#game[data-phase=move-in][data-active=Ann] li[data-kind=attackmove] [data-loose]")
        assert "Pick a territory" not in await page.inner_text("#order-entry")
        conquered = await page.inner_text("#log li[data-kind=country_conquered]")
        assert "armies may move in" in conquered and "attackmove" not in conquered, conquered
        assert not await page.locator("#log li:has-text('NUM')").count()


async def test_classic_mission_mode_shows_the_players_mission_in_the_servers_words(
    browser: Any, tmp_path: Path
) -> None:
    async with web_server() as server, watched_pages(browser, tmp_path) as pages:
        opened = await pages.open(page_url(server))
        page, seen = opened.page, opened.watch
        await create_in_lobby(
            page, "Ann", ruleset="classic", map_id="meridian", players=2, bots=1, options={"mode": "mission"}
        )
        await page.wait_for_selector("#game[data-status=playing] [data-mission]")
        views = [m["view"] for m in seen.received if m.get("type") == "update" and m.get("view")]
        words = views[-1]["players"]["Ann"]["mission_text"]
        assert words and await page.inner_text("[data-mission]") == f"Your mission: {words}."
