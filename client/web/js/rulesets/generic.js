// How the page shows any rule set's views when it has no module of its own: a territory an event names marked on the
// board, the view's fields beyond the board as a table. A rule set's module (risc.js, warzone.js, classic.js,
// grid.js) starts from this and says better where it can. The words of orders and events are the server's (each
// offered order, acceptance and log entry carries them): no module restates them.
//
// Every function that reads more than its first argument takes `ctx`: { view, you, map, territories (a Set of the
// map's names), summary (the game's summary), orders (the player's orders this turn as they stand) }.

import { h } from "../dom.js";

export const BOARD_FIELDS = new Set(["kind", "phase", "turn", "territories", "players", "your_orders", "winner"]);

/** The field a rule set counts a territory's or a player's forces in: units, armies (classic), troops (grid). */
const FORCES = ["units", "armies", "troops"];

function words(value) {
  if (value === null || value === undefined) return "none";
  if (Array.isArray(value)) return value.map(words).join(", ");
  if (typeof value === "object") {
    return Object.entries(value).map(([k, v]) => `${k} ${words(v)}`).join(", ");
  }
  return String(value);
}

/** "1 territory", "3 territories": a count with its noun. */
export function plural(n, one, many) {
  return `${n} ${n === 1 ? one : many}`;
}

/** "kind: field value, ..." for an order or event whose words the server did not send. */
export function plain(thing) {
  const rest = Object.entries(thing).filter(([key]) => key !== "kind").map(([key, value]) => `${key} ${words(value)}`);
  return rest.length ? `${thing.kind}: ${rest.join(", ")}` : String(thing.kind);
}

/** Every territory an object names among its string fields, in its fields' order. */
export function territoriesNamed(thing, territories) {
  const named = [];
  for (const value of Object.values(thing)) {
    if (typeof value === "string" && territories.has(value) && !named.includes(value)) named.push(value);
    if (Array.isArray(value)) {
      for (const item of value) {
        const name = Array.isArray(item) ? item[0] : item;
        if (typeof name === "string" && territories.has(name) && !named.includes(name)) named.push(name);
      }
    }
  }
  return named;
}

function table(rows) {
  return h("table", { class: "facts" }, rows.map(([key, value]) => h("tr", {}, h("th", {}, key), h("td", {}, value))));
}

/** The first of the usual force counts an object has (units, armies, troops), else 0. */
export function forces(thing) {
  for (const key of FORCES) if (typeof thing?.[key] === "number") return thing[key];
  return 0;
}

/** Dice as small boxes, each with its number (a roll reads the same without colour). */
export function dice(values, side) {
  return h("span", { class: `dice ${side}`, "data-dice": values.join(" "), "aria-label": values.join(", ") },
    values.map((v) => h("span", { class: "die", "aria-hidden": "true" }, String(v))));
}

/** A roll of Risk's dice as the page's dice panel shows it: who rolled where, both sides' dice, the losses. */
export function diceRoll(e) {
  return { player: e.player, defender: e.defender, source: e.source, target: e.target, attack: e.attack,
    defence: e.defence, result: `${e.player} lost ${e.attacker_losses}, ${e.defender} lost ${e.defender_losses}` };
}

/** The dice panel under the board: a roll (diceRoll's) in words with its dice, `lead` before it; null empties it. */
export function showRollIn(box, roll, lead = "") {
  box.replaceChildren();
  box.dataset.attack = roll ? roll.attack.join(" ") : "";
  box.dataset.defence = roll ? roll.defence.join(" ") : "";
  if (!roll) return;
  const die = (v, side) => h("span", { class: `die ${side}` }, String(v));
  box.append(h("span", { class: "roll-words" }, `${lead}${roll.player} attacked ${roll.target} from ${roll.source}: `),
    h("span", { class: "dice attack", "data-dice": roll.attack.join(" ") }, roll.attack.map((v) => die(v, "attack"))),
    " against ",
    h("span", { class: "dice defence", "data-dice": roll.defence.join(" ") }, roll.defence.map((v) => die(v, "defence"))),
    roll.result ? h("span", { class: "roll-words" }, ` — ${roll.result}`) : "");
}

/** The dice panel for one action's rolls (an all-out attack rolls many): one roll as showRollIn shows it; several
 * each on a line of its own, in order, the last one's dice also on the board. */
export function showRollsIn(box, rolls) {
  if (rolls.length <= 1) {
    showRollIn(box, rolls[0] || null);
    box.dataset.rolls = String(rolls.length);
    return;
  }
  const last = rolls[rolls.length - 1];
  showRollIn(box, last);
  box.dataset.rolls = String(rolls.length);
  const die = (v, side) => h("span", { class: `die ${side}` }, String(v));
  box.replaceChildren(h("span", { class: "roll-words" },
    `${last.player} attacked ${last.target} from ${last.source}, ${rolls.length} rolls:`),
  h("ol", { class: "rolls" }, rolls.map((roll, i) => h("li", { "data-roll": String(i + 1) },
    h("span", { class: "dice attack", "data-dice": roll.attack.join(" ") }, roll.attack.map((v) => die(v, "attack"))),
    " against ",
    h("span", { class: "dice defence", "data-dice": roll.defence.join(" ") },
      roll.defence.map((v) => die(v, "defence"))),
    roll.result ? h("span", { class: "roll-words" }, ` — ${roll.result}`) : ""))));
}

export const generic = {
  /** Territories an event touched, with how: "battle", "conquest" or "change". */
  marks(event, ctx) {
    return territoriesNamed(event, ctx.territories).map((territory) => ({ territory, mark: "change" }));
  },
  /** A roll of dice an event tells, to show on the board: {player, source, target, attack, defence}, or null. */
  roll() {
    return null;
  },
  /** Whether an event starts a new player's turn (a turn-by-turn game clears the board's marks then). */
  startsTurn(event) {
    return event.kind === "turn_started";
  },
  /**
   * One territory of the view as the board draws it: owner, units, and what else the rule set shows.
   * fog: "clear", "memory" (as last seen, on turn `seen`) or "unknown" (never seen); note: a short line under the
   * units; badge: a mark beside the owner's letter (a capital); facts: [label, value] rows for the details panel.
   */
  territory(state) {
    const facts = Object.entries(state || {}).filter(([key]) => key !== "owner" && !FORCES.includes(key))
      .map(([key, value]) => [key.replaceAll("_", " "), words(value)]);
    return { owner: state?.owner ?? "", units: forces(state), fog: "clear", seen: null, note: "", badge: "", facts };
  },
  /** Whether a view patch changes how every territory is drawn (classic Risk's capitals live in its players). */
  redrawOn() {
    return false;
  },
  /** A player's territories and units as the view tells them, or null where it does not. */
  playerFacts(player) {
    const territories = player?.territories ?? player?.countries;
    if (typeof territories !== "number") return null;
    return { territories, units: forces(player) };
  },
  /** More about a player for the players' list (cards held, technology level...), or "". */
  playerNote() {
    return "";
  },
  /** A sentence on what the player should do now, or "". */
  prompt() {
    return "";
  },
  /** Extra panels beside the board: the view's own fields beyond the board, as a table. */
  panels(view) {
    const rows = Object.entries(view).filter(([key]) => !BOARD_FIELDS.has(key))
      .map(([key, value]) => [key.replaceAll("_", " "), words(value)]);
    return rows.length ? [{ title: "More of the game", body: table(rows) }] : [];
  },
  /** How the board is drawn: "map" (territories where the map places them) or "cells" (a grid of squares). */
  boardShape() {
    return "map";
  },
  /** A continent's bonus as the rules count it, or null where continents bring nothing. */
  continentBonus(view, continent) {
    return view && view.continents && view.continents[continent.name] ? view.continents[continent.name].bonus : null;
  },
  /** A word for the game's phase label. */
  phase(label) {
    return label;
  },
  /** Whether the view hides things from this viewer (fog of war): the page then offers to follow a player. */
  fogged() {
    return false;
  },
};

export { table, words };
