"""Web board benchmark: drawing the largest real map and applying an update, in a real headless Chromium.

Run by hand: `python bench/web_board.py [--runs N]`. It starts a server with the web page, opens the page in
headless Chromium (the system's chromium-headless-shell, or $RISC_BROWSER), and times the page's own board module
(client/web/js/board.js) on bigeurope.map (180 territories, 410 borders, from ../shared/maps) as the server sends it:
Each figure is the page's script and the browser's style and layout work it causes (forced at once), not the wait
for the next frame (up to 16.7 ms more at 60 Hz):
- draw: the whole SVG board made and laid out;
- update, whole view: every territory's owner and units changed (what a first view or a snapshot does);
- update, a turn: 20 territories changed (what a typical turn's patch does);
- game update: an `update` message with a 20-territory patch through the game screen (patch applied, board, player
  list, log and panels redrawn).
Prints the median and the slowest of each, in milliseconds. The target is a draw under 100 ms and an update under
16 ms (one frame).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from client.webpage import web_root
from server.app import RiscServer
from server.codec import map_to_dict
from server.config import ServerConfig
from server.storage import MemoryStorage
from shared.maps.layout import with_positions
from shared.maps.loader import load_map

BIGEUROPE = Path(__file__).resolve().parents[2] / "shared" / "maps" / "domination" / "bigeurope.map"
PLAYERS = ["Ann", "Ben", "Cy", "Dee", "Eve", "Flo"]

TIMING = """
async ({map, players, runs}) => {
  const { Board } = await import("/js/board.js");
  const { playerStyles } = await import("/js/palette.js");
  const painted = () => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)));
  const holder = document.createElement("div");
  holder.style.width = "1200px";
  document.body.append(holder);
  const board = new Board(holder, { onPick: () => {} });
  const styles = playerStyles(players);
  const names = map.territories.map((t) => t.name);
  let seed = 7;
  const random = () => { seed = (seed * 1103515245 + 12345) % 2147483648; return seed / 2147483648; };
  const view = () => Object.fromEntries(names.map((n) => [n, {
    owner: players[Math.floor(random() * players.length)], units: 1 + Math.floor(random() * 40) }]));
  const times = { draw: [], whole: [], turn: [] };
  const laidOut = () => holder.querySelector("svg").getBBox();  // forces style and layout now
  for (let i = 0; i < runs; i++) {
    await painted();
    let start = performance.now();
    board.draw(map, styles);
    laidOut();
    times.draw.push(performance.now() - start);
    await painted();
    const whole = view();
    start = performance.now();
    board.update(whole);
    laidOut();
    times.whole.push(performance.now() - start);
    await painted();
    const some = Object.fromEntries(Object.entries(view()).slice(0, 20));
    start = performance.now();
    board.update(some);
    board.mark(Object.keys(some).slice(0, 6).map((territory) => ({ territory, mark: "battle" })));
    laidOut();
    times.turn.push(performance.now() - start);
  }
  holder.remove();
  return times;
}
"""

GAME_UPDATE = """
async ({map, players, runs}) => {
  const screen = window.risc.game;
  const painted = () => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)));
  const names = map.territories.map((t) => t.name);
  const seats = players.map((name) => ({ name, connected: true, group: null, eliminated: false, committed: false,
    awaited: true }));
  const game = { game_id: "bench", settings: { ruleset: "risc", map: null, players: players.length,
    turn_seconds: null, bots: 0, bot_strategy: null, options: {} }, ruleset_title: "RISC", simultaneous: true,
    map_name: map.name, territories: names.length, seats, free: 0, status: "playing", phase: "orders", turn: 1,
    step: 1, winner: null, draw: false, groups: null, spectators: 0, rematch: [], rematch_game: null,
    rematch_declined: [] };
  window.risc.screen("game");
  screen.reset("bench", null);
  screen.take({ type: "game_map", game_id: "bench", map });
  const territories = Object.fromEntries(names.map((n, i) => [n, { owner: players[i % players.length], units: 3 }]));
  const playerStates = Object.fromEntries(players.map((p) => [p, { territories: 30, units: 90, eliminated: false }]));
  let seq = 1;
  screen.take({ type: "update", game_id: "bench", seq, events: [], game, view: { kind: "risc", phase: "orders",
    turn: 1, territories, players: playerStates, your_orders: [], pool_left: 0 }, view_patch: null, you: null,
    deadline_in: null, snapshot: false });
  await painted();
  const times = [];
  for (let i = 0; i < runs; i++) {
    const patch = { territories: {} };
    for (let k = 0; k < 20; k++) patch.territories[names[(i * 20 + k) % names.length]] = { units: 5 + i + k };
    const events = Array.from({ length: 20 }, (_, k) => ({ seq: seq + 1 + k, event: { kind: "combat",
      territory: names[(i * 20 + k) % names.length], attacker: players[0], defender: players[1], attacking_units: 5,
      defending_units: 3, attacker_losses: 1, defender_losses: 3, new_owner: players[0], sources: [] } }));
    seq += 20;
    await painted();
    const start = performance.now();
    screen.take({ type: "update", game_id: "bench", seq, events, game: { ...game, step: 1 + i, turn: 1 + i },
      view: null, view_patch: { ...patch, turn: 1 + i }, you: null, deadline_in: null, snapshot: false });
    document.body.getBoundingClientRect();
    times.push(performance.now() - start);
  }
  return times;
}
"""


def browser_path() -> str:
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from tests.web_support import find_browser

    found = find_browser()
    if found is None:
        raise SystemExit("no Chromium found: apt-get install chromium-headless-shell, or set RISC_BROWSER")
    return found


def report(name: str, times: list[float]) -> None:
    print(f"{name:<34} median {statistics.median(times):7.2f} ms   slowest {max(times):7.2f} ms   ({len(times)} runs)")


async def run(runs: int) -> None:
    from playwright.async_api import async_playwright

    from tests.web_support import LAUNCH_FLAGS

    game_map = with_positions(load_map(str(BIGEUROPE)))
    data: dict[str, Any] = json.loads(json.dumps(map_to_dict(game_map)))
    config = ServerConfig(host="127.0.0.1", port=0, web_root=web_root())
    async with RiscServer(config, MemoryStorage()) as server, async_playwright() as playwright:
        browser = await playwright.chromium.launch(executable_path=browser_path(), args=LAUNCH_FLAGS)
        page = await browser.new_page(viewport={"width": 1400, "height": 1000})
        await page.goto(f"http://127.0.0.1:{server.port}/")
        await page.wait_for_selector("#lobby:not([hidden])")
        arguments = {"map": data, "players": PLAYERS, "runs": runs}
        times = await page.evaluate(TIMING, arguments)
        game_times = await page.evaluate(GAME_UPDATE, arguments)
        await browser.close()
    print(f"bigeurope.map: {len(game_map.territories)} territories, "
          f"{sum(len(t) for t in game_map.undirected().values()) // 2} borders; headless Chromium")
    report("draw the board", times["draw"][1:] or times["draw"])
    report("update, whole view (180)", times["whole"])
    report("update, a turn (20 territories)", times["turn"])
    report("game update (patch of 20 + log)", game_times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=21)
    args = parser.parse_args()
    asyncio.run(run(args.runs))


if __name__ == "__main__":
    main()
