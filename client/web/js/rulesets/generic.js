// How the page shows any rule set's orders, events and views when it has no module of its own: an order or an
// event as "kind: field values", a territory an event names marked on the board, the view's fields beyond the
// board as a table. A rule set's module (risc.js, warzone.js) starts from this and says better where it can.

import { h } from "../dom.js";

export const BOARD_FIELDS = new Set(["kind", "phase", "turn", "territories", "players", "your_orders", "winner"]);

function words(value) {
  if (value === null || value === undefined) return "none";
  if (Array.isArray(value)) return value.map(words).join(", ");
  if (typeof value === "object") {
    return Object.entries(value).map(([k, v]) => `${k} ${words(v)}`).join(", ");
  }
  return String(value);
}

/** "kind: value value ..." for any order or event. */
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

export const generic = {
  describeOrder(order) {
    return plain(order);
  },
  describeEvent(event) {
    return plain(event);
  },
  /** Territories an event touched, with how: "battle", "conquest" or "change". */
  marks(event, ctx) {
    return territoriesNamed(event, ctx.territories).map((territory) => ({ territory, mark: "change" }));
  },
  /** Extra panels beside the board: the view's own fields beyond the board, as a table. */
  panels(view) {
    const rows = Object.entries(view).filter(([key]) => !BOARD_FIELDS.has(key))
      .map(([key, value]) => [key.replaceAll("_", " "), words(value)]);
    return rows.length ? [{ title: "More of the game", body: table(rows) }] : [];
  },
  /** The game's statistics over time when the view holds them (else the page's own samples are drawn). */
  history() {
    return null;
  },
  /** A word for the game's phase label. */
  phase(label) {
    return label;
  },
};

export { table, words };
