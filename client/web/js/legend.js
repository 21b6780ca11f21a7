// What the board's tints and marks mean, under the board: each continent with its tint, its bonus where the rules
// have bonuses and who holds it whole, then the marks of the last turn (the game screen and the replay alike).

import { markLegend } from "./board.js";
import { h } from "./dom.js";
import { continentTint } from "./palette.js";

/** The legend of `map` as `view` stands (owners), the continents' bonuses as the rule set's `module` counts them. */
export function boardLegend(map, view, module) {
  const marks = [h("h3", {}, "Marks of the last turn"), markLegend()];
  if (!(map.continents || []).length) return marks;
  const owners = view ? view.territories : {};
  const members = new Map();
  for (const t of map.territories) {
    if (!t.continent) continue;
    if (!members.has(t.continent)) members.set(t.continent, []);
    members.get(t.continent).push(t.name);
  }
  const items = map.continents.map((continent, i) => {
    const names = members.get(continent.name) || [];
    const first = owners?.[names[0]]?.owner;
    const holder = first && names.every((n) => owners[n]?.owner === first) ? first : null;
    const bonus = module.continentBonus(view, continent);
    const swatch = h("span", { class: "tint", "aria-hidden": "true" });
    swatch.style.background = continentTint(i);
    return h("li", { "data-continent": continent.name, "data-holder": holder || "" }, swatch, " ", continent.name,
      bonus !== null && bonus !== undefined ? ` (+${bonus})` : "", holder ? ` — held by ${holder}` : "");
  });
  return [h("h3", {}, "Continents"), h("ul", {}, items), ...marks];
}
