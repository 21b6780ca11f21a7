// RISC (docs/rules.md), Evolution 1 and Evolutions 2 and 3 (the `evolution` option): the board's marks after a
// turn, the placement pool; in the evolutions, each territory's units by level, its size and production, the
// player's food and technology and the maximum technology level of everyone; under fog of war (Evolution 3),
// territories out of sight drawn hatched, as last seen with the turn, or unknown.
//
// The page holds none of the rules: the words of orders and events, what each order costs and what the player's
// orders leave of their pool and stocks all come from the server.

import { h } from "../dom.js";
import { generic, plural, table } from "./generic.js";

function levelsText(levels) {
  const parts = (levels || []).map((n, level) => (n ? `${n} at level ${level}` : null)).filter(Boolean);
  return parts.join(", ") || "none";
}

/** "3 (2 L0, 1 L3)" where any unit is above level 0, else the count. */
function withLevels(levels) {
  const total = (levels || []).reduce((a, b) => a + b, 0);
  if (!(levels || []).slice(1).some(Boolean)) return String(total);
  return `${total} (${levels.map((n, level) => (n ? `${n} L${level}` : null)).filter(Boolean).join(", ")})`;
}

const evolved = (view) => view && view.kind === "risc-evolution";

function stocksPanel(view, you) {
  const me = view.players?.[you];
  if (!me || me.food === undefined || me.food === null) return null;
  const rows = [
    ["food", `${me.food}` + (view.food_left !== undefined && view.food_left !== me.food
      ? `, ${view.food_left} once this turn's orders are paid` : "")],
    ["technology", `${me.technology}` + (view.technology_left !== undefined && view.technology_left !== me.technology
      ? `, ${view.technology_left} once this turn's orders are paid` : "")],
    ["maximum technology level", String(me.tech_level)],
  ];
  if (me.cloaking !== undefined && me.cloaking !== null) rows.push(["cloaking", me.cloaking ? "learnt" : "not yet"]);
  return h("div", { class: "stocks", "data-food": String(me.food), "data-technology": String(me.technology),
    "data-food-left": String(view.food_left ?? ""), "data-technology-left": String(view.technology_left ?? ""),
    "data-tech-level": String(me.tech_level) }, table(rows));
}

/** Every territory's size, production and units by level, in the map's order, as far as the viewer knows them. */
function overview(view) {
  const rows = Object.entries(view.territories).map(([name, t]) => {
    const known = t.fog !== "unknown";
    return h("tr", { "data-territory-row": name, "data-fog": t.fog || "clear" },
      h("th", { scope: "row" }, name), h("td", {}, known ? t.owner || "nobody" : "?"), h("td", {}, String(t.size ?? 1)),
      h("td", {}, t.food !== undefined && t.food !== null ? `+${t.food} / +${t.technology}` : "?"),
      h("td", {}, known ? withLevels(t.levels) : "?"),
      h("td", {}, t.fog === "memory" ? `seen turn ${t.seen}` : t.fog === "unknown" ? "never seen" : ""));
  });
  return h("details", { class: "overview" }, h("summary", {}, "Every territory: size, production, units by level"),
    h("div", { class: "table-scroll" }, h("table", { class: "facts overview-table" },
      h("thead", {}, h("tr", {}, ["territory", "owner", "size", "food / tech", "units", ""].map((c) => h("th", {}, c)))),
      h("tbody", {}, rows))));
}

export default {
  ...generic,
  marks(event, ctx) {
    if (event.kind === "combat" || event.kind === "battle") {
      return [{ territory: event.territory, mark: event.new_owner === event.attacker ? "conquest" : "battle" }];
    }
    if (["units_received", "turn_started", "stocks", "technology_researched", "cloaking_researched",
      "player_eliminated", "game_won"].includes(event.kind)) return [];
    return generic.marks(event, ctx);
  },
  territory(state, name, ctx = {}) {
    const view = ctx.view;
    if (!evolved(view)) {
      return { owner: state.owner || "", units: state.units ?? 0, fog: "clear", seen: null, note: "", badge: "",
        facts: [] };
    }
    const fog = state.fog || "clear";
    const facts = [["size", String(state.size ?? 1)]];
    if (state.food !== undefined && state.food !== null) {
      facts.push(["production", `${state.food} food, ${state.technology} technology a turn`]);
    } else if (fog !== "clear") facts.push(["production", "not known until seen"]);
    if (fog !== "unknown") facts.push(["units by level", levelsText(state.levels)]);
    if (state.spies) facts.push(["your spies", String(state.spies)]);
    if (state.cloaked_until !== undefined && state.cloaked_until !== null) {
      facts.push(["cloaked", `to the end of turn ${state.cloaked_until}`]);
    }
    const high = (state.levels || []).slice(1).some(Boolean);
    const notes = [];
    if (fog === "memory") notes.push(`seen t${state.seen}`);
    else if (fog === "clear" && high) {
      notes.push(state.levels.map((n, level) => (n && level ? `L${level}×${n}` : null)).filter(Boolean).join(" "));
    }
    // one's own spies, in words under the units: only their owner sees them (E13)
    if (state.spies) notes.push(plural(state.spies, "spy", "spies"));
    const note = notes.join(" · ");
    const describe = [`size ${state.size ?? 1}`];
    if (state.food !== undefined && state.food !== null) describe.push(`+${state.food} food +${state.technology} tech`);
    if (fog !== "unknown") describe.push(`units ${levelsText(state.levels)}`);
    if (state.spies) describe.push(`${plural(state.spies, "spy", "spies")} of yours`);
    if (state.cloaked_until !== undefined && state.cloaked_until !== null) describe.push(`cloaked to turn ${state.cloaked_until}`);
    return {
      owner: fog === "unknown" ? "" : state.owner || "", units: fog === "unknown" ? null : state.units ?? 0, fog,
      seen: state.seen ?? null, note, badge: state.spies ? "◉" : state.cloaked_until ? "◌" : "",
      describe: describe.join(", "), facts,
    };
  },
  playerFacts(p) {
    if (typeof p.territories !== "number" || typeof p.units !== "number") return null;
    return { territories: p.territories, units: p.units };
  },
  playerNote(p) {
    return p.tech_level ? `technology level ${p.tech_level}` : "";
  },
  fogged(view) {
    return evolved(view) && view.evolution >= 3 && view.phase !== "finished";
  },
  prompt(view, ctx) {
    if (!ctx.acting) return "";
    if (view.phase === "placement") {
      return view.pool_left > 0 ? `Place your ${view.pool_left} units: pick one of your territories.`
        : "Every unit is placed: \"Done with this turn\" when you are ready.";
    }
    if (!evolved(view)) return "Pick one of your territories to move or attack from; \"Done with this turn\" when ready.";
    return "Pick one of your territories: upgrade its units, or pick a second territory to move or attack with " +
      "units of one level. Research is a button of its own.";
  },
  panels(view, ctx = {}) {
    const panels = [];
    if (view.phase === "placement" && view.pool_left !== undefined && ctx.you) {
      panels.push({
        title: "Placement",
        key: "placement",
        body: h("p", { class: "pool", "data-pool": view.pool_left }, view.pool_left > 0
          ? `Units left to place: ${view.pool_left}. Click one of your territories to place them.`
          : "Every unit is placed."),
      });
    }
    if (!evolved(view)) return panels;
    const stocks = stocksPanel(view, ctx.you);
    if (stocks) panels.push({ title: "Your food and technology", key: "stocks", body: stocks });
    const rows = Object.entries(view.players || {}).map(([name, p]) => [name,
      `technology level ${p.tech_level}` + (typeof p.territories === "number"
        ? `, ${plural(p.territories, "territory", "territories")}, ${plural(p.units, "unit", "units")}` : "")
      + (p.eliminated ? ", out" : "")]);
    panels.push({ title: view.evolution >= 3 ? "Evolution 3: levels, fog of war" : "Evolution 2: levels",
      key: "evolution", body: h("div", {}, table(rows),
        h("p", { class: "hint" }, "The higher a unit's level, the more it adds to its d20 roll. Numbers under a " +
          "territory's units count its units above level 0 (L3×2: two at level 3). Point at a territory for its " +
          "size, production and units by level."),
        this.fogged(view) ? h("p", { class: "hint fog-legend" }, "Hatched territories are out of sight: grey with ? " +
          "when never seen, in the owner's colour as last seen otherwise (\"seen t3\": on turn 3). ◉ and \"1 spy\" " +
          "under a territory's units: your spies there, which only you see.") : null,
        view.following ? h("p", { "data-following": view.following }, `You see with ${view.following}'s eyes.`)
          : null, overview(view)) });
    return panels;
  },
};
