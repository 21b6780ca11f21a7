// RISC: how its orders and events read, the board's marks after a turn, and the placement pool.

import { h } from "../dom.js";
import { generic } from "./generic.js";

const orders = {
  place: (o) => `place ${o.units} on ${o.territory}`,
  move: (o) => `move ${o.units} from ${o.source} to ${o.target}`,
  attack: (o) => `attack ${o.target} from ${o.source} with ${o.units}`,
};

function combat(e) {
  const defender = e.defender ? e.defender : "nobody";
  const outcome = e.new_owner === e.attacker ? `${e.attacker} takes ${e.territory}` : `${e.territory} holds`;
  return `${e.attacker} attacked ${e.territory} (${defender}) with ${e.attacking_units} against ` +
    `${e.defending_units}: lost ${e.attacker_losses}, killed ${e.defender_losses}; ${outcome}`;
}

const events = {
  units_placed: (e) => `${e.player} placed ${e.units} on ${e.territory}`,
  units_moved: (e) => `${e.player} moved ${e.units} from ${e.source} to ${e.target}`,
  combat,
  units_received: (e) => `${e.player} received ${e.units} new unit${e.units === 1 ? "" : "s"}`,
  player_eliminated: (e) => `${e.player} is out of the game`,
  game_won: (e) => `${e.player} won the game`,
  turn_started: (e) => `Turn ${e.turn} begins`,
};

export default {
  ...generic,
  describeOrder(order) {
    return (orders[order.kind] || generic.describeOrder)(order);
  },
  describeEvent(event) {
    return (events[event.kind] || generic.describeEvent)(event);
  },
  marks(event, ctx) {
    if (event.kind === "combat") {
      return [{ territory: event.territory, mark: event.new_owner === event.attacker ? "conquest" : "battle" }];
    }
    if (event.kind === "units_received" || event.kind === "turn_started") return [];
    return generic.marks(event, ctx);
  },
  panels(view) {
    if (view.phase !== "placement" || view.pool_left === undefined) return [];
    return [{
      title: "Placement",
      body: h("p", { class: "pool", "data-pool": view.pool_left },
        `Units left to place: ${view.pool_left}. Click one of your territories to place them.`),
    }];
  },
};
