// The board as an SVG map: territories where the map places them, borders as lines (one-way ones with an
// arrow), each territory ringed with its continent's tint, filled with its owner's colour and letter, and showing
// its units. Drawn once per map; an update only touches the territories that changed.

import { s, clear } from "./dom.js";
import { NEUTRAL, continentTint } from "./palette.js";

function nearestDistances(points) {
  const found = [];
  for (let i = 0; i < points.length; i++) {
    let best = Infinity;
    for (let j = 0; j < points.length; j++) {
      if (i === j) continue;
      const d = Math.hypot(points[i].x - points[j].x, points[i].y - points[j].y);
      if (d > 0 && d < best) best = d;
    }
    if (best < Infinity) found.push(best);
  }
  found.sort((a, b) => a - b);
  return found;
}

export class Board {
  /** onPick(name): a territory was clicked, or chosen with Enter or Space. */
  constructor(holder, { onPick }) {
    this.holder = holder;
    this.onPick = onPick;
    this.nodes = new Map();
    this.marked = [];
    this.picked = [];
    this.targets = [];
    this.styles = new Map();
  }

  /** Draw `map` (a game_map message's map) afresh. `styles`: each player's colour and letter (palette.js). */
  draw(map, styles) {
    this.styles = styles;
    this.nodes.clear();
    this.marked = [];
    const points = map.territories.map((t, i) => ({
      name: t.name, continent: t.continent, x: t.x ?? (i % 10) * 100, y: t.y ?? Math.floor(i / 10) * 100,
    }));
    const gaps = nearestDistances(points);
    const median = gaps.length ? gaps[Math.floor(gaps.length / 2)] : 100;
    const xs = points.map((p) => p.x);
    const ys = points.map((p) => p.y);
    const span = Math.max(Math.max(...xs) - Math.min(...xs), Math.max(...ys) - Math.min(...ys), 1);
    const r = Math.max(span / 90, Math.min(median * 0.32, span / 12));
    this.r = r;
    const pad = r * 2.4;
    const box = [Math.min(...xs) - pad, Math.min(...ys) - pad, Math.max(...xs) - Math.min(...xs) + 2 * pad,
      Math.max(...ys) - Math.min(...ys) + 2 * pad];
    const tints = new Map((map.continents || []).map((c, i) => [c.name, continentTint(i)]));
    this.tints = tints;
    const at = new Map(points.map((p) => [p.name, p]));

    const svg = s("svg", {
      class: "board", viewBox: box.map((v) => v.toFixed(1)).join(" "), role: "group",
      "aria-label": `The map ${map.name}`, "data-map": map.name,
    });
    const arrow = s("marker", {
      id: "arrow", viewBox: "0 0 10 10", refX: "9", refY: "5", markerWidth: "5", markerHeight: "5",
      orient: "auto-start-reverse",
    }, s("path", { d: "M 0 0 L 10 5 L 0 10 z", class: "arrowhead" }));
    svg.append(s("defs", {}, arrow));

    const borders = s("g", { class: "borders" });
    const done = new Set();
    for (const [from, targets] of Object.entries(map.borders || {})) {
      for (const to of targets) {
        const key = [from, to].sort().join("\u0000");
        if (done.has(key) || !at.has(from) || !at.has(to)) continue;
        done.add(key);
        const back = (map.borders[to] || []).includes(from);
        const a = at.get(from);
        const b = at.get(to);
        const length = Math.hypot(b.x - a.x, b.y - a.y) || 1;
        const ux = (b.x - a.x) / length;
        const uy = (b.y - a.y) / length;
        const gap = back ? 0 : r * 1.25;
        borders.append(s("line", {
          x1: a.x.toFixed(1), y1: a.y.toFixed(1), x2: (b.x - ux * gap).toFixed(1), y2: (b.y - uy * gap).toFixed(1),
          class: back ? "border" : "border one-way", "marker-end": back ? null : "url(#arrow)",
          "data-from": from, "data-to": to,
        }));
      }
    }
    svg.append(borders);

    const layer = s("g", { class: "territories" });
    for (const p of points) {
      const body = s("circle", { class: "body", r: r.toFixed(1), fill: NEUTRAL });
      const units = s("text", { class: "units", y: (r * 0.32).toFixed(1), "font-size": (r * 0.9).toFixed(1) }, "0");
      const letter = s("text", {
        class: "letter", x: (r * 0.78).toFixed(1), y: (-r * 0.62).toFixed(1), "font-size": (r * 0.55).toFixed(1),
      }, "");
      const title = s("title", {}, p.name);
      const node = s("g", {
        class: "territory", transform: `translate(${p.x.toFixed(1)} ${p.y.toFixed(1)})`, tabindex: "0",
        role: "button", "data-territory": p.name, "data-owner": "", "data-units": "0",
        "data-continent": p.continent || "", "aria-label": p.name,
      },
      title,
      s("circle", { class: "ring", r: (r * 1.22).toFixed(1), fill: tints.get(p.continent) || "#eee" }),
      body, units, letter,
      s("text", { class: "name", y: (r * 1.95).toFixed(1), "font-size": (r * 0.52).toFixed(1) }, p.name));
      node.addEventListener("click", () => this.onPick(p.name));
      node.addEventListener("keydown", (event) => {
        if (event.key === "Enter" || event.key === " ") {
          event.preventDefault();
          this.onPick(p.name);
        }
      });
      this.nodes.set(p.name, { node, body, units, letter, title, continent: p.continent });
      layer.append(node);
    }
    svg.append(layer);
    clear(this.holder).append(svg);
    this.svg = svg;
  }

  /** Owners and units of the territories given (a view's `territories`, whole or only what changed). */
  update(territories) {
    for (const [name, state] of Object.entries(territories || {})) {
      const found = this.nodes.get(name);
      if (!found || !state) continue;
      const owner = state.owner ?? "";
      const units = state.units ?? 0;
      const style = this.styles.get(owner);
      found.node.dataset.owner = owner;
      found.node.dataset.units = String(units);
      found.body.setAttribute("fill", style ? style.colour : NEUTRAL);
      found.units.setAttribute("fill", style ? style.ink : "#000");
      found.units.textContent = String(units);
      found.letter.textContent = style ? style.letter : "";
      const who = owner ? `${owner} (${style ? style.letter : "?"})` : "nobody";
      const label = `${name}${found.continent ? `, ${found.continent}` : ""}: ${who}, ${units} units`;
      found.node.setAttribute("aria-label", label);
      found.title.textContent = label;
    }
  }

  /** Mark what the last turn did: [{territory, mark}] with mark "battle", "conquest" or "change". */
  mark(marks) {
    for (const node of this.marked) node.removeAttribute("data-mark");
    this.marked = [];
    const rank = { change: 1, battle: 2, conquest: 3 };
    for (const { territory, mark } of marks) {
      const found = this.nodes.get(territory);
      if (!found) continue;
      const before = found.node.dataset.mark;
      if (!before || rank[mark] > rank[before]) found.node.dataset.mark = mark;
      this.marked.push(found.node);
    }
  }

  /** The territories picked for an order, and those an order could go on to name. */
  select(picked, targets) {
    for (const node of [...this.picked, ...this.targets]) {
      node.removeAttribute("data-picked");
      node.removeAttribute("data-target");
    }
    this.picked = picked.map((name) => this.nodes.get(name)?.node).filter(Boolean);
    this.targets = targets.map((name) => this.nodes.get(name)?.node).filter(Boolean);
    this.picked.forEach((node, i) => { node.dataset.picked = String(i + 1); });
    for (const node of this.targets) node.dataset.target = "";
  }

  focus(name) {
    this.nodes.get(name)?.node.focus();
  }
}
