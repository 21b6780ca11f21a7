// The game's log as sentences: the framework's entries (joins, commits, time running out, revealed orders,
// resignations, rematches) here, the rule set's events through its module. Words of the chat have a panel of their
// own (js/chat.js), and each turn's standings are for the charts, so neither is in the log.

import { h } from "./dom.js";
import { dice, plain } from "./rulesets/generic.js";

const MOST_SHOWN = 400;

const framework = {
  game_created: () => "The game was created",
  player_joined: (e) => `${e.player} joined`,
  player_left: (e) => `${e.player} left`,
  game_started: (e) => `The game started: ${e.players.join(", ")}`,
  player_committed: (e) => `${e.player} is done with turn ${e.turn}`,
  time_ran_out: (e) => `Time ran out on turn ${e.turn}` + (e.players.length ? ` for ${e.players.join(", ")}` : ""),
  seat_handed_over: (e) => `${e.player} has been away: the computer (${e.strategy}) plays their seat until they ` +
    `come back (asked by ${e.by.join(", ")})`,
  rematch_requested: (e) => `${e.player} asks for a rematch`,
  seat_taken_back: (e) => `${e.player} is back and plays their own seat again`,
  rematch_declined: (e) => `${e.player} left instead of a rematch`,
  rematch_impossible: (e) => e.reason,
  rematch_started: (e) => `The rematch started as game ${e.game_id}`,
  player_resigned: (e) => `${e.player} resigned`,
};

const NOT_LOGGED = new Set(["chat", "standings"]);

/** An entry ({seq, event, text}) in words: the framework's here, the rest as the server said them (else the
 * event's fields, for a server that sent no words); a roll of dice shows its dice besides. */
export function describeEntry({ event, text }, module) {
  if (Object.hasOwn(framework, event.kind)) return framework[event.kind](event);
  if (event.kind === "orders_revealed") return `Orders of turn ${event.turn} — ${text ?? plain(event)}`;
  const roll = module.roll(event);
  const words = text ?? plain(event);
  return roll ? [words, " ", dice(roll.attack, "attack"), " against ", dice(roll.defence, "defence")] : words;
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

  /** Add entries ({seq, event, text}); `fresh` marks them as the latest turn's (in a turn-by-turn game, `keep` leaves
   * the earlier ones of the same turn marked too). */
  add(entries, module, fresh, ctx = {}, keep = false) {
    if (!entries.length) return;
    if (!keep) for (const old of this.list.querySelectorAll("li.fresh")) old.classList.remove("fresh");
    for (const entry of entries) {
      const { seq, event } = entry;
      // in a turn-by-turn game each action is told by its events: the orders it carried out say it again
      if (event.kind === "orders_revealed" && ctx.summary && !ctx.summary.simultaneous) continue;
      if (NOT_LOGGED.has(event.kind)) continue;
      const item = h("li", { "data-seq": String(seq), "data-kind": event.kind, class: fresh ? "fresh" : null },
        describeEntry(entry, module));
      this.list.append(item);
    }
    while (this.list.childElementCount > MOST_SHOWN) this.list.firstElementChild.remove();
    this.list.scrollTop = this.list.scrollHeight;
  }
}
