// RISC (docs/rules.md), Evolution 1 and Evolutions 2 and 3 (the `evolution` option): how its orders and events
// read, the board's marks after a turn, the placement pool; in the evolutions, each territory's units by level, its
// size and production, the player's food and technology and the maximum technology level of everyone; under fog of
// war (Evolution 3), territories out of sight drawn hatched, as last seen with the turn, or unknown.
//
// Between updates the view's pool and stocks are as of the last update; the page counts what the orders issued
// since then take from them, with the costs of the rules (E4-E6, E13, E14: display only, the server checks every
// order), as the text client does.

import { h } from "../dom.js";
import { generic, plural, table, worded } from "./generic.js";

/** E5: the technology a unit has cost to reach each level from level 0. */
const TOTAL = [0, 3, 11, 30, 55, 90, 140];
/** E6: technology to raise the maximum technology level from each level to the next. */
const RESEARCH = { 1: 50, 2: 75, 3: 125, 4: 200, 5: 300 };
const SPY_COST = 20;
const CLOAK_COST = 20;
const CLOAKING_RESEARCH_COST = 100;
const BONUS = [0, 1, 3, 5, 8, 11, 15];

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

const orders = {
  place: (o) => `place ${o.units} on ${o.territory}`,
  move: (o) => `move ${o.units} from ${o.source} to ${o.target}`,
  attack: (o) => `attack ${o.target} from ${o.source} with ${o.units}`,
  level_move: (o) => `move ${o.units} level-${o.level} from ${o.source} to ${o.target}`,
  level_attack: (o) => `attack ${o.target} from ${o.source} with ${o.units} level-${o.level}`,
  upgrade: (o) => `upgrade ${o.units} on ${o.territory} from level ${o.level} to ${o.to_level}`,
  research: (o, ctx) => {
    // an order of this turn names what it reaches; one in the log (ctx.now unset) was for its own turn's level
    const level = ctx.now ? ctx.view?.players?.[ctx.you]?.tech_level : null;
    return level ? `research technology level ${level + 1} (${RESEARCH[level]} technology)`
      : "research the next technology level";
  },
  spy: (o) => `train ${plural(o.units, "spy", "spies")} on ${o.territory}`,
  spy_move: (o) => `move ${plural(o.units, "spy", "spies")} from ${o.source} to ${o.target}`,
  research_cloaking: () => `research cloaking (${CLOAKING_RESEARCH_COST} technology)`,
  cloak: (o) => `cloak ${o.territory} for 3 turns (${CLOAK_COST} technology)`,
};

function combat(e) {
  const defender = e.defender ? e.defender : "nobody";
  const outcome = e.new_owner === e.attacker ? `${e.attacker} takes ${e.territory}` : `${e.territory} holds`;
  return `${e.attacker} attacked ${e.territory} (${defender}) with ${e.attacking_units} against ` +
    `${e.defending_units}: lost ${e.attacker_losses}, killed ${e.defender_losses}; ${outcome}`;
}

function battle(e) {
  const attacking = e.attacking.reduce((a, b) => a + b, 0);
  const seen = e.sources.reduce((a, [, n]) => a + n, 0);
  let came = e.sources.length ? ` from ${e.sources.map(([name, n]) => `${name} ${n}`).join(", ")}` : " from out of sight";
  if (e.sources.length && seen < attacking) came += ` and ${attacking - seen} from out of sight`;
  const lostA = attacking - e.attackers_left.reduce((a, b) => a + b, 0);
  const lostD = e.defending.reduce((a, b) => a + b, 0) - e.defenders_left.reduce((a, b) => a + b, 0);
  const outcome = e.new_owner === e.attacker ? `${e.attacker} takes ${e.territory}, ${withLevels(e.attackers_left)} left`
    : `${e.defender || "the neutral"} holds ${e.territory}, ${withLevels(e.defenders_left)} left`;
  return `${e.attacker} attacked ${e.territory} (${e.defender || "nobody"}) with ${withLevels(e.attacking)}${came} ` +
    `against ${withLevels(e.defending)}: lost ${lostA}, killed ${lostD}; ${outcome}`;
}

const events = {
  units_placed: (e) => `${e.player} placed ${e.units} on ${e.territory}`,
  units_moved: (e) => `${e.player} moved ${e.units} from ${e.source} to ${e.target}`,
  combat,
  units_received: (e) => `${e.player} received ${e.units} new unit${e.units === 1 ? "" : "s"}`,
  player_eliminated: (e) => `${e.player} is out of the game`,
  game_won: (e) => `${e.player} won the game`,
  turn_started: (e) => `Turn ${e.turn} begins`,
  level_moved: (e) => `${e.player} moved ${e.units} level-${e.level} from ${e.source} to ${e.target}`,
  battle,
  units_upgraded: (e) => `${e.player} upgraded ${e.units} on ${e.territory} from level ${e.level} to ${e.to_level}`,
  technology_researched: (e) => `${e.player} reached technology level ${e.tech_level}`,
  cloaking_researched: (e) => `${e.player} learnt cloaking`,
  territory_cloaked: (e) => `${e.territory} is cloaked to the end of turn ${e.until}`,
  spies_trained: (e) => `${plural(e.units, "spy", "spies")} trained on ${e.territory}`,
  spies_moved: (e) => `${plural(e.units, "spy", "spies")} moved from ${e.source} to ${e.target}`,
  stocks: (e) => `${e.player} spent ${e.spent_food} food and ${e.spent_technology} technology, produced ` +
    `${e.produced_food} food and ${e.produced_technology} technology, and holds ${e.food} food and ${e.technology} ` +
    "technology",
};

const evolved = (view) => view && view.kind === "risc-evolution";

/** E4: the cheapest total size of a path through the player's own territories (both ends counted). */
function pathCosts(view, map, you) {
  const sizes = Object.fromEntries(Object.entries(view.territories).map(([name, t]) => [name, t.size || 1]));
  const passable = (name) => view.territories[name]?.owner === you;
  const borders = map?.borders || {};
  const cache = new Map();
  const from = (source) => {
    if (cache.has(source)) return cache.get(source);
    const found = new Map([[source, sizes[source]]]);
    const queue = [[sizes[source], source]];
    while (queue.length) {
      queue.sort((a, b) => a[0] - b[0]);
      const [cost, here] = queue.shift();
      if (cost > found.get(here)) continue;
      for (const next of borders[here] || []) {
        if (!passable(next)) continue;
        const through = cost + sizes[next];
        if (!found.has(next) || through < found.get(next)) {
          found.set(next, through);
          queue.push([through, next]);
        }
      }
    }
    cache.set(source, found);
    return found;
  };
  return {
    cost: (source, target) => from(source).get(target) ?? 0,
    into(source, target) {
      if (passable(target)) return from(source).get(target) ?? 0;
      let best = null;
      for (const [here, cost] of from(source)) {
        if ((borders[here] || []).includes(target) && (best === null || cost < best)) best = cost;
      }
      return best === null ? 0 : best + sizes[target];
    },
  };
}

/** What a list of orders takes: [pool units, food, technology]. */
function spent(list, view, ctx) {
  let pool = 0;
  let food = 0;
  let technology = 0;
  const paths = evolved(view) && ctx.map ? pathCosts(view, ctx.map, ctx.you) : null;
  const level = view.players?.[ctx.you]?.tech_level ?? 1;
  for (const o of list || []) {
    if (o.kind === "place") pool += o.units;
    else if (o.kind === "level_move" && paths) food += o.units * paths.cost(o.source, o.target);
    else if (o.kind === "level_attack") food += o.units;
    else if (o.kind === "upgrade") technology += o.units * (TOTAL[o.to_level] - TOTAL[o.level]);
    else if (o.kind === "research") technology += RESEARCH[level] || 0;
    else if (o.kind === "spy") technology += SPY_COST * o.units;
    else if (o.kind === "spy_move" && paths) food += o.units * paths.into(o.source, o.target);
    else if (o.kind === "research_cloaking") technology += CLOAKING_RESEARCH_COST;
    else if (o.kind === "cloak") technology += CLOAK_COST;
  }
  return [pool, food, technology];
}

function stocksPanel(view, you) {
  const me = view.players?.[you];
  if (!me || me.food === undefined || me.food === null) return null;
  const next = RESEARCH[me.tech_level];
  const rows = [
    ["food", `${me.food}` + (view.food_left !== undefined && view.food_left !== me.food
      ? `, ${view.food_left} once this turn's orders are paid` : "")],
    ["technology", `${me.technology}` + (view.technology_left !== undefined && view.technology_left !== me.technology
      ? `, ${view.technology_left} once this turn's orders are paid` : "")],
    ["maximum technology level", String(me.tech_level) + (next ? ` (research to ${me.tech_level + 1}: ${next})`
      : " (the top)")],
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
  ...worded(orders, events),
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
    let note = "";
    if (fog === "memory") note = `seen t${state.seen}`;
    else if (fog === "clear" && high) {
      note = state.levels.map((n, level) => (n && level ? `L${level}×${n}` : null)).filter(Boolean).join(" ");
    }
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
  withOrders(view, list, ctx) {
    if (!ctx.you || !view.your_orders || list === view.your_orders) return view;
    const [pool0, food0, tech0] = spent(view.your_orders, view, ctx);
    const [pool1, food1, tech1] = spent(list, view, ctx);
    const shown = { ...view, your_orders: list };
    if (typeof view.pool_left === "number") shown.pool_left = view.pool_left + pool0 - pool1;
    if (typeof view.food_left === "number") shown.food_left = view.food_left + food0 - food1;
    if (typeof view.technology_left === "number") shown.technology_left = view.technology_left + tech0 - tech1;
    return shown;
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
        body: h("p", { class: "pool", "data-pool": view.pool_left },
          `Units left to place: ${view.pool_left}. Click one of your territories to place them.`),
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
        h("p", { class: "hint" }, `A unit of level 0 to 6 adds ${BONUS.join(", ")} to its d20 roll. Numbers under a ` +
          "territory's units count its units above level 0 (L3×2: two at level 3). Point at a territory for its " +
          "size, production and units by level."),
        this.fogged(view) ? h("p", { class: "hint fog-legend" }, "Hatched territories are out of sight: grey with ? " +
          "when never seen, in the owner's colour as last seen otherwise (\"seen t3\": on turn 3).") : null,
        view.following ? h("p", { "data-following": view.following }, `You see with ${view.following}'s eyes.`)
          : null, overview(view)) });
    return panels;
  },
};
