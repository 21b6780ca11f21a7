// Warzone: how its orders and the turn's report read, the board's marks, the player's hand and pool, everyone's
// income and cards, the continents with their holders, and what to do now.

import { h } from "../dom.js";
import { generic, table, worded } from "./generic.js";

/** The units a reinforcement card adds to the turn's pool (docs/rules-warzone.md). */
const REINFORCEMENT = 5;

const orders = {
  deploy: (o) => `deploy ${o.units} on ${o.territory}`,
  advance: (o) => `advance ${o.units} from ${o.source} to ${o.target}`,
  airlift: (o) => `airlift ${o.units} from ${o.source} to ${o.target}`,
  bomb: (o) => `bomb ${o.target}`,
  blockade: (o) => `blockade ${o.territory}`,
  negotiate: (o) => `negotiate with ${o.player}`,
  reinforce: () => `play a reinforcement card (+${REINFORCEMENT} units)`,
  cheat: () => "cheat: take every neighbouring territory",
};

function battle(e) {
  const outcome = e.holder === e.attacker ? `${e.attacker} takes ${e.territory}` : `${e.territory} holds`;
  return `${e.attacker} advanced from ${e.source} on ${e.territory} (${e.defender || "neutral"}) with ` +
    `${e.attacking_units} against ${e.defending_units}: lost ${e.attacker_losses}, killed ${e.defender_losses}; ` +
    `${outcome}`;
}

const events = {
  turn_order: (e) => `Turn ${e.turn}: orders are taken in the order ${e.players.join(", ")}`,
  truce: (e) => `${e.player} and ${e.partner} keep a truce this turn`,
  deployed: (e) => `${e.player} deployed ${e.units} on ${e.territory}`,
  reinforcement_card: (e) => `${e.player} played a reinforcement card: +${e.units}`,
  moved: (e) => `${e.player} ${e.airlift ? "airlifted" : "moved"} ${e.units} from ${e.source} to ${e.target}`,
  battle,
  bombed: (e) => `${e.player} bombed ${e.territory}: ${e.before} → ${e.after}`,
  blockaded: (e) => `${e.player} blockaded ${e.territory}: ${e.before} → ${e.after}, now neutral`,
  cheat_conquered: (e) => `${e.player} cheated and took ${e.territories.join(", ")}`,
  skipped: (e) => `${e.player}'s order was skipped: ${e.reason}`,
  card_drawn: (e) => `${e.player} drew ${/^[aeiou]/.test(e.card) ? "an" : "a"} ${e.card} card`,
  card_received: (e) => `${e.player} drew a card`,
  deck_empty: (e) => `${e.player} conquered, but the deck is empty`,
  reinforcements: (e) => `${e.player} receives ${e.units} (pool ${e.pool})` +
    (e.continents.length ? `, holding ${e.continents.join(", ")}` : ""),
  player_eliminated: (e) => `${e.player} is out of the game`,
  turn_stats: (e) => `Turn ${e.turn} is over`,
  game_won: (e) => `${e.player} won the game on turn ${e.turn}`,
  game_drawn: (e) => `The game is a draw on turn ${e.turn}: ${e.reason}`,
  turn_started: (e) => `Turn ${e.turn} begins`,
};

function hand(view) {
  if (!view.hand) return null;
  const cards = Object.entries(view.hand).filter(([, n]) => n > 0);
  return h("div", { class: "hand", "data-hand": cards.map(([c, n]) => `${c}:${n}`).join(" ") },
    h("p", {}, `Pool to deploy: ${view.pool_left}`),
    cards.length ? h("ul", {}, cards.map(([card, n]) => h("li", {}, `${card} × ${n}`))) : h("p", {}, "No cards."));
}

export default {
  ...generic,
  ...worded(orders, events),
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
  /** The pool as the orders issued since the last update leave it: deploys take from it, a reinforcement card adds
   * its units (the view's `pool_left` is as of the update). */
  withOrders(view, list) {
    if (!view.your_orders || list === view.your_orders || typeof view.pool_left !== "number") return view;
    const takes = (orders) => (orders || []).reduce((sum, o) => sum + (o.kind === "deploy" ? o.units
      : o.kind === "reinforce" ? -REINFORCEMENT : 0), 0);
    return { ...view, your_orders: list, pool_left: view.pool_left + takes(view.your_orders) - takes(list) };
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
