// Warzone: the board's marks, the player's hand and pool, everyone's income and cards, the continents with their
// holders, and the statistics the game keeps turn by turn. The words of its orders and events, and what the
// player's orders leave of their pool, come from the server.

import { h } from "../dom.js";
import { generic, table } from "./generic.js";

function hand(view) {
  if (!view.hand) return null;
  const cards = Object.entries(view.hand).filter(([, n]) => n > 0);
  return h("div", { class: "hand", "data-hand": cards.map(([c, n]) => `${c}:${n}`).join(" ") },
    h("p", {}, `Pool to deploy: ${view.pool_left}`),
    cards.length ? h("ul", {}, cards.map(([card, n]) => h("li", {}, `${card} × ${n}`))) : h("p", {}, "No cards."));
}

export default {
  ...generic,
  marks(event, ctx) {
    if (event.kind === "battle") {
      return [{ territory: event.territory, mark: event.holder === event.attacker ? "conquest" : "battle" }];
    }
    if (event.kind === "cheat_conquered") return event.territories.map((territory) => ({ territory, mark: "conquest" }));
    if (event.kind === "bombed") return [{ territory: event.territory, mark: "battle" }];
    if (["reinforcements", "turn_stats", "game_won", "game_drawn", "turn_order", "skipped"].includes(event.kind)) return [];
    return generic.marks(event, ctx);
  },
  panels(view) {
    const panels = [];
    const mine = hand(view);
    if (mine) panels.push({ title: "Your hand and pool", body: mine });
    const players = Object.entries(view.players || {});
    if (players.length) {
      panels.push({
        title: "Pools and cards",
        body: table(players.map(([name, p]) => [name, `pool ${p.pool || 0}, income ${p.income || 0}, ` +
          `${p.cards || 0} card${p.cards === 1 ? "" : "s"}`])),
      });
    }
    return panels;
  },
  history(view) {
    if (!view.statistics) return null;
    return view.statistics.map((turn) => ({
      turn: turn.turn,
      players: Object.fromEntries(Object.entries(turn.players)
        .map(([name, p]) => [name, { territories: p.territories, units: p.units }])),
    }));
  },
  continentHolder(view, name) {
    return view.continents && view.continents[name] ? view.continents[name].holder || null : null;
  },
};
