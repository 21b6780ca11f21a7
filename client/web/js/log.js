// The game's log as sentences, every entry in the server's words (its `text`, as the reader reads it: "You place
// ..." to the player who did, the player's name to everyone else), the framework's entries and the rule set's
// events alike; a roll of dice shows its dice besides. Words of the chat have a panel of their own (js/chat.js), and
// each turn's standings are for the charts, so neither is in the log; an entry with nothing to read is left out.

import { h } from "./dom.js";
import { dice, plain } from "./rulesets/generic.js";

const MOST_SHOWN = 400;

const NOT_LOGGED = new Set(["chat", "standings"]);

/** An entry ({seq, event, text}) in words: as the server said them (else the event's fields, for a server that sent
 * no words); a roll of dice shows its dice besides. */
export function describeEntry({ event, text }, module) {
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
      if (NOT_LOGGED.has(event.kind) || entry.text === "") continue;
      const item = h("li", { "data-seq": String(seq), "data-kind": event.kind, class: fresh ? "fresh" : null },
        describeEntry(entry, module));
      this.list.append(item);
    }
    while (this.list.childElementCount > MOST_SHOWN) this.list.firstElementChild.remove();
    this.list.scrollTop = this.list.scrollHeight;
  }
}
