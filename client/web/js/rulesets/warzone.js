// Warzone: the board's marks, the player's hand and pool, everyone's income and cards, the continents with their
// holders, and what to do now. The words of its orders and events, and what the player's orders leave of their
// pool, come from the server.

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
  /** What the turn asks of the player now: the whole pool deployed (W4: a commit needs it), then advances, airlifts
   * and cards. */
  prompt(view, ctx) {
    if (!ctx.acting) return "";
    const cards = Object.values(view.hand || {}).some((n) => n > 0) ? ", play a card" : "";
    if (view.pool_left > 0) {
      return `Deploy your ${view.pool_left} units: pick one of your territories (the whole pool is deployed before ` +
        "you are done).";
    }
    return `Pick one of your territories, then a neighbour to advance to or attack${cards}; "Done with this turn" ` +
      "when ready.";
  },
  continentHolder(view, name) {
    return view.continents && view.continents[name] ? view.continents[name].holder || null : null;
  },
};
