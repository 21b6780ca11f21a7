// The board as an SVG map: territories where the map places them, borders as lines (one-way ones with an
// arrow), each territory ringed with its continent's tint, filled with its owner's colour and letter, and showing
// its units. A grid game's board is drawn as its grid: squares in rows and columns, numbered along the edges.
// Under fog of war a territory out of sight is hatched: grey with "?" when never seen, in its owner's colour as last
// seen (with the turn) otherwise. Drawn once per map; an update only touches the territories that changed.

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

const RANK = { change: 1, battle: 2, conquest: 3 };

export class Board {
  /** onPick(name): a territory was clicked, or chosen with Enter or Space; onLook(name): hovered or focused. */
  constructor(holder, { onPick, onLook }) {
    this.holder = holder;
    this.onPick = onPick;
    this.onLook = onLook || (() => {});
    this.nodes = new Map();
    this.marked = [];
    this.picked = [];
    this.targets = [];
    this.styles = new Map();
    this.shape = "map";
  }

  /**
   * Draw `map` (a game_map message's map) afresh. `styles`: each player's colour and letter (palette.js); `shape`:
   * "map", or "cells" for a board that is a grid of squares.
   */
  draw(map, styles, shape = "map") {
    this.styles = styles;
    this.shape = shape;
    this.nodes.clear();
    this.marked = [];
    const cells = shape === "cells";
    const raw = map.territories.map((t, i) => ({
      name: t.name, continent: t.continent, size: t.size || 1,
      x: t.x ?? (i % 10) * 100, y: t.y ?? Math.floor(i / 10) * 100,
    }));
    // every map in the same span of units (a grid's cells are 1 apart), so strokes and text read alike on all
    const wide = Math.max(...raw.map((p) => p.x)) - Math.min(...raw.map((p) => p.x));
    const tall = Math.max(...raw.map((p) => p.y)) - Math.min(...raw.map((p) => p.y));
    const scale = 1000 / Math.max(wide, tall, 1e-9);
    const points = raw.map((p) => ({ ...p, x: p.x * scale, y: p.y * scale, column: p.x, row: p.y }));
    const gaps = nearestDistances(points);
    const median = gaps.length ? gaps[Math.floor(gaps.length / 2)] : 100;
    const xs = points.map((p) => p.x);
    const ys = points.map((p) => p.y);
    const span = Math.max(Math.max(...xs) - Math.min(...xs), Math.max(...ys) - Math.min(...ys), 1);
    const r = cells ? median * 0.45 : Math.max(span / 90, Math.min(median * 0.32, span / 12));
    this.r = r;
    const sized = !cells && points.some((p) => p.size !== points[0].size);
    const pad = cells ? r * 2.6 : r * 2.4;
    const box = [Math.min(...xs) - pad, Math.min(...ys) - pad, Math.max(...xs) - Math.min(...xs) + 2 * pad,
      Math.max(...ys) - Math.min(...ys) + 2 * pad];
    const tints = new Map((map.continents || []).map((c, i) => [c.name, continentTint(i)]));
    this.tints = tints;
    const at = new Map(points.map((p) => [p.name, p]));
    this.at = at;

    const svg = s("svg", {
      class: `board${cells ? " cells" : ""}`, viewBox: box.map((v) => v.toFixed(2)).join(" "), role: "group",
      "aria-label": `The map ${map.name}`, "data-map": map.name, "data-shape": shape,
    });
    const arrow = s("marker", {
      id: "arrow", viewBox: "0 0 10 10", refX: "9", refY: "5", markerWidth: "5", markerHeight: "5",
      orient: "auto-start-reverse",
    }, s("path", { d: "M 0 0 L 10 5 L 0 10 z", class: "arrowhead" }));
    const step = (r * 0.35).toFixed(2);
    const hatch = s("pattern", { id: "fog-hatch", patternUnits: "userSpaceOnUse", width: step, height: step,
      patternTransform: "rotate(45)" }, s("rect", { width: step, height: step, class: "fog-ground" }),
    s("line", { x1: "0", y1: "0", x2: "0", y2: step, class: "fog-line" }));
    svg.append(s("defs", {}, arrow, hatch));

    if (cells) svg.append(this.axes(points, r));
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
          x1: a.x.toFixed(2), y1: a.y.toFixed(2), x2: (b.x - ux * gap).toFixed(2), y2: (b.y - uy * gap).toFixed(2),
          class: back ? "border" : "border one-way", "marker-end": back ? null : "url(#arrow)",
          "data-from": from, "data-to": to,
        }));
      }
    }
    svg.append(borders);

    const layer = s("g", { class: "territories" });
    for (const p of points) {
      const own = sized ? r * (0.88 + 0.08 * Math.min(p.size, 4)) : r;
      const shapeOf = (cls, grow, fill) => (cells
        ? s("rect", { class: cls, x: (-own * grow).toFixed(2), y: (-own * grow).toFixed(2), width: (2 * own * grow).toFixed(2),
          height: (2 * own * grow).toFixed(2), rx: (own * 0.12).toFixed(2), fill })
        : s("circle", { class: cls, r: (own * grow).toFixed(2), fill }));
      const body = shapeOf("body", 1, NEUTRAL);
      const haze = shapeOf("haze", 1, "url(#fog-hatch)");
      const units = s("text", { class: "units", y: (own * 0.3).toFixed(2), "font-size": (own * 0.85).toFixed(2) }, "0");
      const letter = s("text", {
        class: "letter", x: (own * (cells ? 0.62 : 0.78)).toFixed(2), y: (-own * (cells ? 0.5 : 0.62)).toFixed(2),
        "font-size": (own * 0.5).toFixed(2),
      }, "");
      const badge = s("text", {
        class: "badge", x: (-own * 0.78).toFixed(2), y: (-own * 0.62).toFixed(2), "font-size": (own * 0.55).toFixed(2),
      }, "");
      const note = s("text", { class: "note-line", y: (own * (cells ? 0.78 : 0.92)).toFixed(2),
        "font-size": (own * (cells ? 0.3 : 0.36)).toFixed(2) }, "");
      const title = s("title", {}, p.name);
      const label = cells
        ? s("text", { class: "name cell-name", x: (-own * 0.85).toFixed(2), y: (-own * 0.62).toFixed(2),
          "font-size": (own * 0.3).toFixed(2) }, p.name)
        : s("text", { class: "name", y: (own * 1.95).toFixed(2), "font-size": (r * 0.52).toFixed(2) }, p.name);
      const node = s("g", {
        class: "territory", transform: `translate(${p.x.toFixed(2)} ${p.y.toFixed(2)})`, tabindex: "0",
        role: "button", "data-territory": p.name, "data-owner": "", "data-units": "0", "data-fog": "clear",
        "data-continent": p.continent || "", "data-size": String(p.size), "aria-label": p.name,
      },
      title,
      cells ? null : s("circle", { class: "ring", r: (own * 1.22).toFixed(2), fill: tints.get(p.continent) || "#eee" }),
      cells ? shapeOf("ring", 1.08, "#eee") : null,
      body, haze, units, letter, badge, note, label);
      node.addEventListener("click", () => this.onPick(p.name));
      node.addEventListener("keydown", (event) => {
        if (event.key === "Enter" || event.key === " ") {
          event.preventDefault();
          this.onPick(p.name);
        }
      });
      node.addEventListener("focus", () => this.onLook(p.name));
      node.addEventListener("mouseenter", () => this.onLook(p.name));
      this.nodes.set(p.name, { node, body, units, letter, badge, note, title, continent: p.continent, r: own });
      layer.append(node);
    }
    svg.append(layer);
    this.rollLayer = s("g", { class: "roll-layer" });
    svg.append(this.rollLayer);
    clear(this.holder).append(svg);
    this.svg = svg;
  }

  /** The numbers along a grid's edges: columns above, rows to the left. */
  axes(points, r) {
    const group = s("g", { class: "axes", "aria-hidden": "true" });
    const columns = new Map(points.map((p) => [p.column, p.x]));
    const rows = new Map(points.map((p) => [p.row, p.y]));
    const top = Math.min(...rows.values());
    const left = Math.min(...columns.values());
    for (const [column, x] of [...columns].sort((a, b) => a[0] - b[0])) {
      group.append(s("text", { class: "axis-label", x: x.toFixed(2), y: (top - r * 1.55).toFixed(2),
        "font-size": (r * 0.5).toFixed(2), "data-column": String(column) }, String(column)));
    }
    for (const [row, y] of [...rows].sort((a, b) => a[0] - b[0])) {
      group.append(s("text", { class: "axis-label", x: (left - r * 1.6).toFixed(2), y: (y + r * 0.18).toFixed(2),
        "font-size": (r * 0.5).toFixed(2), "data-row": String(row) }, String(row)));
    }
    return group;
  }

  /**
   * Draw the territories given, each as the rule set's module reads it ({owner, units, fog, seen, note, badge}).
   */
  update(territories) {
    for (const [name, state] of Object.entries(territories || {})) {
      const found = this.nodes.get(name);
      if (!found || !state) continue;
      const fog = state.fog || "clear";
      const owner = fog === "unknown" ? "" : state.owner || "";
      const units = fog === "unknown" ? null : state.units ?? 0;
      const style = this.styles.get(owner);
      found.node.dataset.owner = owner;
      found.node.dataset.units = units === null ? "" : String(units);
      found.node.dataset.fog = fog;
      if (state.seen !== null && state.seen !== undefined) found.node.dataset.seen = String(state.seen);
      else found.node.removeAttribute("data-seen");
      found.body.setAttribute("fill", style ? style.colour : NEUTRAL);
      found.units.setAttribute("fill", style ? style.ink : "#000");
      found.units.textContent = units === null ? "?" : String(units);
      found.letter.textContent = style ? style.letter : "";
      found.badge.textContent = state.badge || "";
      found.note.textContent = state.note || "";
      const who = owner ? `${owner} (${style ? style.letter : "?"})` : "nobody";
      let label;
      if (fog === "unknown") label = `${name}: never seen`;
      else {
        label = `${name}${found.continent ? `, ${found.continent}` : ""}: ${who}, ${units} units`;
        if (fog === "memory") label += `, as seen on turn ${state.seen}`;
      }
      if (state.describe) label += `; ${state.describe}`;
      found.node.setAttribute("aria-label", label);
      found.title.textContent = label;
    }
  }

  /**
   * Mark what the last turn did: [{territory, mark}] with mark "battle", "conquest" or "change". With `keep`, the
   * marks already there stay (a turn-by-turn game marks a player's whole turn, action by action).
   */
  mark(marks, keep = false) {
    if (!keep) {
      for (const node of this.marked) node.removeAttribute("data-mark");
      this.marked = [];
    }
    for (const { territory, mark } of marks) {
      const found = this.nodes.get(territory);
      if (!found) continue;
      const before = found.node.dataset.mark;
      if (!before || RANK[mark] > RANK[before]) found.node.dataset.mark = mark;
      this.marked.push(found.node);
    }
  }

  /** Show a roll of dice on the board: the attacker's dice along the foot of the attacking territory, the
   * defender's along the foot of the one attacked; null clears it. */
  showRoll(roll) {
    if (!this.rollLayer) return;
    clear(this.rollLayer);
    if (!roll) return;
    const a = this.at.get(roll.source);
    const b = this.at.get(roll.target);
    if (!a || !b) return;
    const side = this.r * (this.shape === "cells" ? 0.3 : 0.4);
    const gap = side * 0.2;
    const row = (values, at, cls) => values.map((value, i) => {
      const x = at.x - ((values.length * (side + gap) - gap) / 2) + i * (side + gap);
      const y = at.y + this.r * (this.shape === "cells" ? 0.5 : 0.38);
      return s("g", { class: `die ${cls}`, transform: `translate(${x.toFixed(2)} ${y.toFixed(2)})` },
        s("rect", { width: side.toFixed(2), height: side.toFixed(2), rx: (side * 0.18).toFixed(2) }),
        s("text", { x: (side / 2).toFixed(2), y: (side * 0.76).toFixed(2), "font-size": (side * 0.72).toFixed(2) },
          String(value)));
    });
    const words = `${roll.player} rolled ${roll.attack.join(", ")} from ${roll.source}; ${roll.target} rolled ` +
      `${roll.defence.join(", ")}`;
    this.rollLayer.append(s("g", {
      class: "roll", role: "img", "aria-label": words, "data-attack": roll.attack.join(" "),
      "data-defence": roll.defence.join(" "), "data-source": roll.source, "data-target": roll.target,
    }, s("title", {}, words), ...row(roll.attack, a, "attack"), ...row(roll.defence, b, "defence")));
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
