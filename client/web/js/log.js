// The game's log as sentences: the framework's entries (joins, commits, time running out, revealed orders,
// rematches) here, the rule set's events through its module.

import { h } from "./dom.js";

const MOST_SHOWN = 400;

const framework = {
  game_created: () => "The game was created",
  player_joined: (e) => `${e.player} joined`,
  player_left: (e) => `${e.player} left`,
  game_started: (e) => `The game started: ${e.players.join(", ")}`,
  player_committed: (e) => `${e.player} is done with turn ${e.turn}`,
  time_ran_out: (e) => `Time ran out on turn ${e.turn}` + (e.players.length ? ` for ${e.players.join(", ")}` : ""),
  seat_handed_over: (e) => `${e.player}'s seat is played by the computer (${e.strategy}) from now on`,
  rematch_requested: (e) => `${e.player} asks for a rematch`,
  seat_taken_back: (e) => `${e.player} is back and plays their own seat again`,
  rematch_declined: (e) => `${e.player} left instead of a rematch`,
  rematch_impossible: (e) => e.reason,
  rematch_started: (e) => `The rematch started as game ${e.game_id}`,
};

export function describeEntry(event, module) {
  if (Object.hasOwn(framework, event.kind)) return framework[event.kind](event);
  if (event.kind === "orders_revealed") {
    const parts = Object.entries(event.orders).map(([player, orders]) =>
      `${player}: ${orders.length ? orders.map((o) => module.describeOrder(o)).join("; ") : "nothing"}`);
    return `Orders of turn ${event.turn} — ${parts.join(" | ")}`;
  }
  return module.describeEvent(event);
}

export class GameLog {
  constructor(list) {
    this.list = list;
  }

  clear() {
    this.list.replaceChildren();
  }

  note(text) {
    this.list.append(h("li", { class: "hint" }, text));
  }

  /** Add entries ({seq, event}); `fresh` marks them as the latest turn's. */
  add(entries, module, fresh) {
    for (const old of this.list.querySelectorAll("li.fresh")) old.classList.remove("fresh");
    for (const { seq, event } of entries) {
      const item = h("li", { "data-seq": String(seq), "data-kind": event.kind, class: fresh ? "fresh" : null },
        describeEntry(event, module));
      this.list.append(item);
    }
    while (this.list.childElementCount > MOST_SHOWN) this.list.firstElementChild.remove();
    this.list.scrollTop = this.list.scrollHeight;
  }
}
