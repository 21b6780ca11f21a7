"""Web board benchmark: the page's own board on the largest maps, in a real headless Chromium.

Run by hand: `python bench/web_board.py [--runs N] [--beside REF]`. It starts a server with the web page, opens the
page in headless Chromium (the system's chromium-headless-shell, or $RISC_BROWSER), and times the page's own modules
(client/web/js/board.js and viewport.js) on two maps as the server sends them. With `--beside REF` (a git commit or
branch, such as main) it also serves the page as it was at REF, from a second server, and times both in turn, map
by map, so that the figures before and after a change are taken side by side under the same load:
- bigeurope.map, the largest real map at hand (180 territories, 410 borders, from ../shared/maps);
- a map at the Conquest format's limits, standing in for Asia 1200 (255 territories, up to 10 neighbours each, which
  the format's author set and Asia 1200 reaches; that file is not among the real maps at hand): made here, with a
  fixed seed, on a jittered grid, each territory bordering its nearest, with names of 4 to 14 letters.

Each figure is the page's script and the style and layout work it causes (forced at once), not the wait for the
next frame (up to 16.7 ms more at 60 Hz):
- draw: the whole SVG board made and laid out, the names placed;
- zoom step: one step of a gesture (the wheel, a pinch), shown at once by a transform of what is drawn;
- zoom settled: the board drawn afresh at its new scale once the gesture rests, or a button's or key's zoom: the
  viewBox set, the names placed again and laid out at their new size;
- pan step: one step of a drag (a transform); pan settled: the viewBox moved, nothing placed again;
- update, a turn: 20 territories changed and 6 marked (what a typical turn's patch does to the board);
- update, the whole view: every territory changed (a first view, a snapshot);
- game update: an `update` message with a 20-territory patch through the game screen (patch applied, board, player
  list, log and panels redrawn), on bigeurope.
Prints the median and the slowest of each, in milliseconds. The targets: a draw under 50 ms, a zoom or pan step under
16 ms (one frame), a turn's update under 5 ms.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import io
import json
import math
import random
import statistics
import subprocess
import sys
import tarfile
import tempfile
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from client.webpage import web_root
from server.app import RiscServer
from server.config import ServerConfig
from server.storage import MemoryStorage
from server.storage.codec import map_to_dict
from shared.maps.conquest import read_conquest
from shared.maps.layout import with_positions
from shared.maps.loader import load_map
from shared.maps.model import GameMap

BIGEUROPE = Path(__file__).resolve().parents[2] / "shared" / "maps" / "domination" / "bigeurope.map"
PLAYERS = ["Ann", "Ben", "Cy", "Dee", "Eve", "Flo"]
LARGEST = 255
MOST_NEIGHBOURS = 10

TIMING = """
async ({map, players, runs}) => {
  const { Board } = await import("/js/board.js");
  const { playerStyles } = await import("/js/palette.js");
  const painted = () => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)));
  const holder = document.createElement("div");
  holder.style.width = "880px";
  document.body.append(holder);
  const board = new Board(holder, { onPick: () => {} });
  const styles = playerStyles(players);
  const names = map.territories.map((t) => t.name);
  let seed = 7;
  const random = () => { seed = (seed * 1103515245 + 12345) % 2147483648; return seed / 2147483648; };
  const view = () => Object.fromEntries(names.map((n) => [n, {
    owner: players[Math.floor(random() * players.length)], units: 1 + Math.floor(random() * 40) }]));
  const times = { draw: [], whole: [], turn: [], zoomStep: [], zoomSettled: [], panStep: [], panSettled: [] };
  // style and layout of the whole page, as the next frame would do them (not getBBox: that also works out every
  // shape's box, which no frame needs)
  const laidOut = () => document.body.getBoundingClientRect();
  const timed = async (key, work) => {
    await painted();
    laidOut(); // whatever an earlier step left (a drag's settling, run between frames) is not this step's
    const start = performance.now();
    work();
    laidOut();
    times[key].push(performance.now() - start);
  };
  for (let i = 0; i < runs; i++) {
    await timed("draw", () => board.draw(map, styles));
    await timed("whole", () => board.update(view()));
    const some = Object.fromEntries(Object.entries(view()).slice(0, 20));
    await timed("turn", () => {
      board.update(some);
      board.mark(Object.keys(some).slice(0, 6).map((territory) => ({ territory, mark: "battle" })));
    });
    const viewport = board.viewport;
    const rect = holder.querySelector("svg").getBoundingClientRect();
    const x = rect.left + rect.width * 0.45;
    const y = rect.top + rect.height * 0.5;
    for (let step = 0; step < 3; step++) {
      await timed("zoomStep", () => viewport.zoomBy(1.25, x, y, true));
    }
    await timed("zoomSettled", () => viewport.settle());
    await timed("zoomSettled", () => viewport.zoomIn());
    for (let step = 0; step < 3; step++) await timed("panStep", () => viewport.panBy(40, 25, true));
    await timed("panSettled", () => viewport.settle());
    await timed("panSettled", () => viewport.panBy(-60, 0));
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

SYLLABLES = (
    "kha",
    "ra",
    "zm",
    "sam",
    "ar",
    "kand",
    "bu",
    "khar",
    "ta",
    "ng",
    "ut",
    "mon",
    "gol",
    "jin",
    "xia",
    "liao",
    "kor",
    "yeo",
    "dai",
    "viet",
    "pa",
    "gan",
    "tib",
    "et",
    "sin",
    "dh",
    "mul",
    "tan",
    "ghur",
    "id",
)


def largest_map(seed: int = 1200) -> GameMap:
    """A map at the Conquest format's limits: 255 territories on a jittered 17 x 15 grid, each bordering its nearest
    up to 10, in 8 continents by column bands; written as a Conquest .map and read back as an upload is."""
    rng = random.Random(seed)
    columns, rows = 17, 15
    points = [
        (column * 60 + rng.uniform(-18, 18), row * 55 + rng.uniform(-16, 16))
        for row in range(rows)
        for column in range(columns)
    ][:LARGEST]
    names: list[str] = []
    while len(names) < len(points):
        name = "".join(rng.choice(SYLLABLES) for _ in range(rng.randint(2, 4))).capitalize()[:14]
        if len(name) >= 4 and name not in names:
            names.append(name)
    borders: dict[int, set[int]] = {i: set() for i in range(len(points))}
    for i, (x, y) in enumerate(points):
        nearest = sorted(range(len(points)), key=lambda j: math.dist((x, y), points[j]))[1:7]
        for j in nearest:
            if len(borders[i]) < MOST_NEIGHBOURS and len(borders[j]) < MOST_NEIGHBOURS:
                borders[i].add(j)
                borders[j].add(i)
    continents = [f"Region {n + 1}" for n in range(8)]
    lines = ["[Map]", "author=bench", "", "[Continents]", *(f"{c}=3" for c in continents), "", "[Territories]"]
    for i, (x, y) in enumerate(points):
        continent = continents[min(7, int(x // (60 * columns / 8)))]
        lines.append(
            ",".join(
                [names[i], str(round(x) + 20), str(round(y) + 20), continent, *(names[j] for j in sorted(borders[i]))]
            )
        )
    game_map, findings = read_conquest("\n".join(lines).encode())
    if game_map is None:
        raise SystemExit(f"the generated map does not read: {findings}")
    return with_positions(game_map)


def browser_path() -> str:
    from tests.web_support import find_browser

    found = find_browser()
    if found is None:
        raise SystemExit("no Chromium found: apt-get install chromium-headless-shell, or set RISC_BROWSER")
    return found


def figure(times: list[float]) -> str:
    return f"median {statistics.median(times):7.2f} ms, slowest {max(times):7.2f}"


def report(name: str, times: dict[str, list[float]]) -> None:
    """One line: each page's figures side by side (the page as it was at the REF first)."""
    runs = len(next(iter(times.values())))
    print(f"  {name:<32} " + "   ".join(f"{label}: {figure(t)}" for label, t in times.items()) + f"   ({runs} runs)")


@contextlib.contextmanager
def page_at(ref: str) -> Any:
    """The web page's folder as it was at git commit or branch `ref`, in a temporary folder."""
    root = Path(__file__).resolve().parents[1]
    archive = subprocess.run(
        ["git", "archive", "--format=tar", ref, "client/web"], cwd=root, capture_output=True, check=True
    ).stdout
    with tempfile.TemporaryDirectory() as folder:
        with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
            tar.extractall(folder, filter="data")
        yield Path(folder) / "client" / "web"


@contextlib.asynccontextmanager
async def serving(folder: Path) -> AsyncIterator[RiscServer]:
    config = ServerConfig(host="127.0.0.1", port=0, web_root=folder)
    async with RiscServer(config, MemoryStorage()) as server:
        yield server


async def run(runs: int, beside: str | None) -> None:
    from playwright.async_api import async_playwright

    from tests.web_support import LAUNCH_FLAGS

    maps = {"bigeurope.map": with_positions(load_map(str(BIGEUROPE))), "at the format's limits": largest_map()}
    with contextlib.ExitStack() as folders:
        roots = {**({beside: folders.enter_context(page_at(beside))} if beside else {}), "now": web_root()}
        async with contextlib.AsyncExitStack() as stack:
            servers = {label: await stack.enter_async_context(serving(root)) for label, root in roots.items()}
            playwright = await stack.enter_async_context(async_playwright())
            browser = await playwright.chromium.launch(executable_path=browser_path(), args=LAUNCH_FLAGS)
            pages = {}
            for label, server in servers.items():
                page = await browser.new_page(viewport={"width": 1280, "height": 800})
                await page.goto(f"http://127.0.0.1:{server.port}/")
                await page.wait_for_selector("#lobby:not([hidden])")
                pages[label] = page
            for name, game_map in maps.items():
                data: dict[str, Any] = json.loads(json.dumps(map_to_dict(game_map)))
                arguments = {"map": data, "players": PLAYERS, "runs": runs}
                times = {label: await page.evaluate(TIMING, arguments) for label, page in pages.items()}
                edges = sum(len(t) for t in game_map.undirected().values()) // 2
                print(
                    f"{name}: {len(game_map.territories)} territories, {edges} borders; headless Chromium, a board "
                    "880 px wide"
                )

                def each(key: str, first: int = 0) -> dict[str, list[float]]:
                    return {label: t[key][first:] or t[key] for label, t in times.items()}  # noqa: B023

                report("draw the board", each("draw", 1))
                report("zoom step (a gesture's)", each("zoomStep"))
                report("zoom settled (or a button's)", each("zoomSettled"))
                report("pan step (a drag's)", each("panStep"))
                report("pan settled", each("panSettled"))
                report("update, a turn (20 territories)", each("turn"))
                report(f"update, the whole view ({len(game_map.territories)})", each("whole"))
            data = json.loads(json.dumps(map_to_dict(maps["bigeurope.map"])))
            arguments = {"map": data, "players": PLAYERS, "runs": runs}
            game_times = {label: await page.evaluate(GAME_UPDATE, arguments) for label, page in pages.items()}
            print("bigeurope.map through the game screen:")
            report("game update (patch of 20 + log)", game_times)
            await browser.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=21)
    parser.add_argument("--beside", metavar="REF", help="time the page as it was at git REF too, side by side")
    args = parser.parse_args()
    asyncio.run(run(args.runs, args.beside))


if __name__ == "__main__":
    main()
