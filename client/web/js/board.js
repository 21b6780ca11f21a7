// The board as an SVG map: each territory a region of land (regions.js) filled with its owner's colour, the
// continents outlined by their coasts with the sea between them, the borders between regions drawn as lines (a
// border across the sea as a route under the land, a one-way border as an arrow), and on each territory, where the
// map places it, a disc with its units and its owner's letter, ringed with its continent's tint. Under it, the map's
// own picture where the server has one (game_map's `picture`: the territories' positions are its pixels). A grid
// game's board is drawn as its grid: squares in rows and columns, numbered along the edges. Under fog of war a
// territory out of sight is hatched: grey with "?" when never seen, in its owner's colour as last seen (with the
// turn) otherwise. Drawn once per map; an update only touches the territories that changed.
//
// Real maps have up to 255 territories: the board zooms and pans (viewport.js), a search box brings a territory into
// view, and the names sit beside their circles at one size on screen whatever the zoom, none over another name or
// circle (labels.js): those that do not fit are shortened or hidden until one zooms in. The territory picked has
// its borders drawn bold and its neighbours outlined.

import { h, s, clear } from "./dom.js";
import { placeLabels } from "./labels.js";
import { LAND, NEUTRAL, continentTint, landOf } from "./palette.js";
import { polygonPath, regionsOf, segmentsPath } from "./regions.js";
import { Viewport } from "./viewport.js";

/** Names on the board: their size on screen in pixels, whatever the zoom. */
const LABEL_PX = 12;
/** A territory brought into view by the search is drawn at least this wide, in pixels. */
const FOUND_PX = 44;
/** A board narrower than this (a phone held upright)... */
const NARROW_PX = 600;
/** ...on which the territories of the whole map would be closer than this, in pixels, is made tall (TALL of the
 * screen's height), and first shows the map filling it rather than whole: large enough to read and to tap. */
const CROWDED_PX = 30;
const TALL = 0.52;

/** Each point's distance to its nearest other point (by name): a sweep along x, so large maps stay quick. */
function nearestDistances(points) {
  const order = [...points].sort((a, b) => a.x - b.x);
  const found = new Map();
  for (let i = 0; i < order.length; i++) {
    let best = Infinity;
    for (const step of [-1, 1]) {
      for (let j = i + step; j >= 0 && j < order.length; j += step) {
        const dx = Math.abs(order[j].x - order[i].x);
        if (dx >= best) break;
        const d = Math.hypot(dx, order[j].y - order[i].y);
        if (d > 0 && d < best) best = d;
      }
    }
    if (best < Infinity) found.set(order[i].name, best);
  }
  return found;
}

/** The size a map's board takes on screen, known without laying it out: the stage's width, and the height its
 * shape gives up to the stylesheet's greatest (`most`), or the height it was given (null where the stylesheet does
 * not say it in pixels). */
function shownSize(most, width, box, height) {
  if (height) return [width, height];
  if (!(width > 0) || !Number.isFinite(most)) return null;
  return [width, Math.min(most, (width * box[3]) / box[2])];
}

/** Two territories' names as one key, whichever comes first. */
function pairKey(a, b) {
  return a < b ? `${a}\u0000${b}` : `${b}\u0000${a}`;
}

/** Text made safe to write into markup, in an attribute or between tags. */
function escaped(text) {
  return String(text).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** One territory's group as markup: its title, its ring (the continent's tint), its body, its units and its owner's
 * letter (and in a grid, its cell's name). The badge, the note and the fog's hatching are made when first needed. */
function territoryMarkup(p, own, cells, tint) {
  const n = (v) => v.toFixed(2);
  const shape = (cls, grow, fill) => (cells
    ? `<rect class="${cls}" x="${n(-own * grow)}" y="${n(-own * grow)}" width="${n(2 * own * grow)}" `
      + `height="${n(2 * own * grow)}" rx="${n(own * 0.12)}" fill="${fill}"/>`
    : `<circle class="${cls}" r="${n(own * grow)}" fill="${fill}"/>`);
  const name = escaped(p.name);
  return `<g class="territory" transform="translate(${n(p.x)} ${n(p.y)})" tabindex="0" role="button" `
    + `data-territory="${name}" data-owner="" data-units="0" data-fog="clear" `
    + `data-continent="${escaped(p.continent || "")}" data-size="${p.size}" aria-label="${name}">`
    + `<title>${name}</title>${shape("ring", cells ? 1.08 : RING, tint)}${shape("body", 1, NEUTRAL)}`
    + `<text class="units" y="${n(own * 0.3)}" font-size="${n(own * 0.85)}">0</text>`
    + `<text class="letter" x="${n(own * (cells ? 0.62 : 0.78))}" y="${n(-own * (cells ? 0.5 : 0.62))}" `
    + `font-size="${n(own * 0.5)}"></text>`
    + (cells ? `<text class="name cell-name" x="${n(-own * 0.85)}" y="${n(-own * 0.62)}" `
      + `font-size="${n(own * 0.3)}">${name}</text>` : "")
    + "</g>";
}

/** A territory's circle may take this share of the way to its nearest neighbour (both rings then stay apart). */
const ROOM = 0.4;
/** The ring of the continent's tint around a territory, as a multiple of the territory's radius. */
const RING = 1.16;

const RANK = { change: 1, battle: 2, conquest: 3 };

/** What the last turn's marks mean, each drawn as the board draws it (the line tells them apart, not only its
 * colour). */
const MARKS = [["conquest", "changed hands"], ["battle", "battle, the defender held"],
  ["change", "units placed or moved"]];

export function markLegend() {
  return h("ul", { class: "marks" }, MARKS.map(([mark, words]) => h("li", { "data-mark-sample": mark },
    s("svg", { class: "mark-sample", viewBox: "0 0 24 24", "aria-hidden": "true" }, s("g", { "data-mark": mark },
      s("circle", { class: "ring", cx: "12", cy: "12", r: "10" }),
      s("circle", { class: "body", cx: "12", cy: "12", r: "7" }))), words)));
}

export class Board {
  /** onPick(name, keyboard): a territory was clicked or tapped, or chosen with Enter or Space (`keyboard`: true);
   * onLook(name): hovered or focused. */
  constructor(holder, { onPick, onLook }) {
    this.holder = holder;
    this.onPick = onPick;
    this.onLook = onLook || (() => {});
    this.nodes = new Map();
    this.marked = [];
    this.picked = [];
    this.targets = [];
    this.near = [];
    this.found = null;
    this.styles = new Map();
    this.shape = "map";
    this.map = null;
    this.labelsDue = false;
    this.tools();
    this.stage = h("div", { class: "board-stage" });
    holder.append(this.stage);
    this.resizing = typeof ResizeObserver === "function"
      ? new ResizeObserver(() => this.viewport?.resized()) : null;
  }

  /** Above the board: a search box that brings a territory into view, and the zoom buttons. */
  tools() {
    this.names = h("datalist", { id: `${this.holder.id || "board"}-names` });
    this.search = h("input", { type: "search", class: "find", list: this.names.id, placeholder: "Find a territory",
      "aria-label": "Find a territory by name", autocomplete: "off" });
    this.searchNote = h("span", { class: "find-note", role: "status" });
    const find = () => {
      const query = this.search.value.trim();
      if (!query) return;
      const name = this.find(query);
      this.searchNote.textContent = name ? "" : `No territory is called "${query}".`;
      if (name) this.reveal(name);
    };
    this.search.addEventListener("keydown", (event) => {
      if (event.key === "Enter") {
        event.preventDefault();
        find();
      }
    });
    this.search.addEventListener("change", find);
    const button = (label, words, act) => h("button", { type: "button", class: "small zoom", "aria-label": words,
      title: words, "data-zoom": label, onclick: act }, label);
    this.toolbar = h("div", { class: "board-tools", hidden: true },
      h("label", { class: "find-label" }, this.search, this.names), this.searchNote,
      h("span", { class: "zoom-buttons" },
        button("+", "Zoom in (+)", () => this.viewport?.zoomIn()),
        button("−", "Zoom out (-)", () => this.viewport?.zoomOut()),
        button("Fit", "Fit the map to the board (0)", () => this.viewport?.fit())));
    this.holder.append(this.toolbar);
  }

  /** Forget the board drawn (a new game starts). */
  clear() {
    this.resizing?.disconnect();
    clear(this.stage);
    this.toolbar.hidden = true;
    this.svg = null;
    this.viewport = null;
    this.nodes.clear();
    this.map = null;
  }

  /**
   * Draw `map` (a game_map message's map) afresh. `styles`: each player's colour and letter (palette.js); `shape`:
   * "map", or "cells" for a board that is a grid of squares; `picture`: the picture the map is drawn over ({url,
   * width, height}: the territories' positions are its pixels), or null.
   */
  draw(map, styles, shape = "map", picture = null) {
    this.styles = styles;
    this.shape = shape;
    this.map = map;
    this.nodes.clear();
    this.marked = [];
    this.picked = [];
    this.targets = [];
    this.near = [];
    this.found = null;
    this.selectedKey = "";
    this.sides = null;
    this.regionNodes = new Map();
    this.regionMarks = null;
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
    const nearest = nearestDistances(points);
    const gaps = [...nearest.values()].sort((a, b) => a - b);
    const median = gaps.length ? gaps[Math.floor(gaps.length / 2)] : 100;
    const xs = points.map((p) => p.x);
    const ys = points.map((p) => p.y);
    const span = Math.max(Math.max(...xs) - Math.min(...xs), Math.max(...ys) - Math.min(...ys), 1);
    const r = cells ? median * 0.45 : Math.max(span / 90, Math.min(median * 0.28, span / 12));
    this.r = r;
    const sized = !cells && points.some((p) => p.size !== points[0].size);
    const pad = cells ? r * 2.6 : r * 2.4;
    const land = cells ? null : this.landFor(points, map);
    const pictured = !cells && picture && picture.width > 0 && picture.height > 0 ? picture : null;
    // the board shows every territory with room for its name, all the land, and the whole picture: its pixel (0, 0)
    // is the map's (0, 0)
    const edges = [[Math.min(...xs) - pad, Math.min(...ys) - pad], [Math.max(...xs) + pad, Math.max(...ys) + pad]];
    if (land && !pictured) for (const corner of land.regions.flat()) edges.push(corner);
    if (pictured) edges.push([0, 0], [pictured.width * scale, pictured.height * scale]);
    const [left, top] = [Math.min(...edges.map((e) => e[0])), Math.min(...edges.map((e) => e[1]))];
    const box = [left, top, Math.max(...edges.map((e) => e[0])) - left + (land ? r * 0.3 : 0),
      Math.max(...edges.map((e) => e[1])) - top + (land ? r * 0.3 : 0)];
    if (land) {
      box[0] -= r * 0.15;
      box[1] -= r * 0.15;
    }
    const tints = new Map((map.continents || []).map((c, i) => [c.name, continentTint(i)]));
    this.tints = tints;
    const at = new Map(points.map((p) => [p.name, p]));
    this.at = at;

    const svg = s("svg", {
      class: `board${cells ? " cells" : ""}${pictured ? " pictured" : ""}`,
      viewBox: box.map((v) => v.toFixed(2)).join(" "), role: "group",
      tabindex: "0", "aria-label": `The map ${map.name}: arrow keys move it, + and - zoom, 0 shows all of it`,
      "data-map": map.name, "data-shape": shape,
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
    else svg.append(this.drawLand(points, land, box, pictured ? { ...pictured, scale } : null));
    svg.append(this.drawBorders(map, at, r));

    const layer = s("g", { class: "territories" });
    const labels = s("g", { class: "labels", "aria-hidden": "true" });
    this.labelItems = [];
    // hundreds of territories: written as markup and read by the browser at once, rather than element by element
    const sizes = points.map((p) => {
      const own = sized ? r * (0.88 + 0.08 * Math.min(p.size, 4)) : r;
      // never so large that two rings meet: crowded territories are drawn smaller
      return !cells && nearest.has(p.name) ? Math.min(own, (ROOM * nearest.get(p.name)) / RING) : own;
    });
    layer.innerHTML = points.map((p, i) => territoryMarkup(p, sizes[i], cells,
      cells ? "#eee" : tints.get(p.continent) || "#eee")).join("");
    if (!cells) {
      labels.innerHTML = points.map((p) => `<text class="name" data-label-for="${escaped(p.name)}" data-label="full">`
        + `${escaped(p.name)}</text>`).join("");
    }
    points.forEach((p, i) => {
      const node = layer.children[i];
      const [title, , body, units, letter, cellName] = node.children;
      const label = cells ? cellName : labels.children[i];
      if (!cells) this.labelItems.push({ name: p.name, x: p.x, y: p.y, r: sizes[i] * RING, label, text: p.name });
      this.nodes.set(p.name, { node, body, units, letter, haze: null, badge: null, note: null, title, label,
        continent: p.continent, r: sizes[i], x: p.x, y: p.y });
    });
    this.listen(layer);
    svg.append(layer);
    this.labelLayer = cells ? null : labels;
    if (!cells) svg.append(labels);
    this.rollLayer = s("g", { class: "roll-layer" });
    svg.append(this.rollLayer);
    svg.addEventListener("keydown", (event) => {
      if (this.viewport && this.viewport.key(event)) event.preventDefault();
    });
    this.resizing?.disconnect();
    const width = this.stage.getBoundingClientRect().width; // before the board is in: the page's layout as it was
    const { most, font } = this.probe();
    this.font = font;
    clear(this.stage).append(svg);
    this.svg = svg;
    // on a phone, a crowded map gets a tall board, which it fills first
    const height = !cells && width > 0 && width < NARROW_PX && median * (width / box[2]) < CROWDED_PX
      ? Math.round(window.innerHeight * TALL) : 0;
    svg.classList.toggle("tall", height > 0);
    if (height) svg.style.height = `${height}px`;
    else svg.style.aspectRatio = `${box[2].toFixed(2)} / ${box[3].toFixed(2)}`;
    this.names.replaceChildren(...points.map((p) => h("option", { value: p.name })));
    this.search.value = "";
    this.searchNote.textContent = "";
    this.toolbar.hidden = false;
    this.measure = null;
    this.viewport = new Viewport(svg, { onZoom: () => this.placeLabels() });
    this.viewport.setContent(box, r * RING, cells ? null : shownSize(most, width, box, height), height ? median : 0);
    this.resizing?.observe(svg);
  }

  /** What the stylesheet says of a board, read from an empty one before the board is in (the board's thousands of
   * elements are not styled just to read two figures): its greatest height in pixels, and its names' font. */
  probe() {
    const text = s("text", { class: "name" });
    const empty = s("svg", { class: "board", "aria-hidden": "true" }, s("g", { class: "labels" }, text));
    this.stage.append(empty);
    const most = parseFloat(getComputedStyle(empty).maxHeight);
    const style = getComputedStyle(text);
    const font = `${style.fontStyle} ${style.fontWeight} ${LABEL_PX}px ${style.fontFamily}`;
    empty.remove();
    return { most, font };
  }

  /** The names' size on screen, read once per map in the page's own font: a line's height, where its baseline
   * sits, and each name's width, measured on a canvas in the font the names are drawn in (the same figures as the
   * SVG's own, without laying any text out). */
  metrics() {
    if (this.measure) return this.measure;
    const text = document.createElement("canvas").getContext("2d");
    text.font = this.font;
    const line = text.measureText("Hg");
    const ascent = line.fontBoundingBoxAscent ?? LABEL_PX * 0.95;
    const widths = new Map();
    this.measure = {
      height: ascent + (line.fontBoundingBoxDescent ?? LABEL_PX * 0.25),
      ascent,
      width(words) {
        let found = widths.get(words);
        if (found === undefined) {
          found = text.measureText(words).width;
          widths.set(words, found);
        }
        return found;
      },
    };
    return this.measure;
  }

  /** The names placed again for the current zoom: the territories picked, found and their neighbours first. */
  placeLabels() {
    if (!this.labelLayer || !this.viewport) return;
    const scale = this.viewport.scale;
    if (!(scale > 0) || this.viewport.size[0] <= 1) return;
    const metrics = this.metrics();
    const first = new Set([...this.picked, ...this.targets, ...this.near].map((node) => node.dataset.territory));
    if (this.found) first.add(this.found);
    const items = [...this.labelItems.filter((item) => first.has(item.name)),
      ...this.labelItems.filter((item) => !first.has(item.name))];
    const [bx, by, bw, bh] = this.viewport.fitBox();
    const placed = placeLabels(items, { scale, height: metrics.height, measure: metrics.width,
      bounds: [bx, by, bx + bw, by + bh] });
    this.labelLayer.setAttribute("font-size", (LABEL_PX / scale).toFixed(3));
    const pad = 1.5 / scale;
    items.forEach((item, i) => {
      const spot = placed[i];
      const label = item.label;
      if (!spot) {
        if (label.dataset.label !== "hidden") label.dataset.label = "hidden";
        return;
      }
      const [x0, y0, x1] = spot.box;
      label.setAttribute("x", ((x0 + x1) / 2).toFixed(2));
      label.setAttribute("y", (y0 + pad + metrics.ascent / scale).toFixed(2));
      if (item.text !== spot.text) {
        label.textContent = spot.text;
        item.text = spot.text;
      }
      const shown = spot.text === item.name ? "full" : "short";
      if (label.dataset.label !== shown) label.dataset.label = shown;
    });
    this.svg.dataset.labelsHidden = String(placed.filter((spot) => !spot).length);
  }

  /** Pan to a territory that is off screen (one reached with Tab). */
  bringIntoView(name) {
    const found = this.nodes.get(name);
    if (!found || !this.viewport || this.viewport.shows(found.x, found.y, found.r * 1.3)) return;
    this.viewport.show(found.x, found.y);
  }

  /** The territory a search names: the same name whatever the case, else the one whose name starts with it, else
   * the one whose name holds it; null when none or several do. */
  find(query) {
    const wanted = query.toLocaleLowerCase();
    const names = [...this.nodes.keys()];
    for (const test of [(n) => n === wanted, (n) => n.startsWith(wanted), (n) => n.includes(wanted)]) {
      const hits = names.filter((name) => test(name.toLocaleLowerCase()));
      if (hits.length === 1) return hits[0];
      if (hits.length > 1) return null;
    }
    return null;
  }

  /** Bring a territory into the middle, large enough to read, and point at it (its facts show beside the board). */
  reveal(name) {
    const found = this.nodes.get(name);
    if (!found) return;
    for (const node of this.svg.querySelectorAll("[data-found]")) node.removeAttribute("data-found");
    found.node.dataset.found = "";
    this.found = name;
    if (this.viewport) {
      const wanted = this.viewport.zoomFor((FOUND_PX * this.viewport.unit) / (found.r * RING));
      this.viewport.show(found.x, found.y, Math.max(this.viewport.zoom, wanted));
    }
    this.placeLabels();
    found.node.focus({ preventScroll: true });
  }

  /**
   * The land under the territories: the sea (or the map's picture), each territory's region, and the lines between
   * regions: coasts, which outline each continent, and walls, where two regions touch with no border between them.
   * The regions' sides that are borders of the map are drawn with the borders (drawBorders); `this.sides` keeps,
   * for each pair of territories whose regions share one, where it runs.
   */
  /** The regions of the map's territories (regions.js), with which borders of the map their shared sides are. */
  landFor(points, map) {
    const borders = new Map(Object.entries(map.borders || {}).map(([name, to]) => [name, new Set(to)]));
    const reaches = (a, b) => Boolean(borders.get(points[a].name)?.has(points[b].name));
    return regionsOf(points, (a, b) => Number(reaches(a, b)) + Number(reaches(b, a)));
  }

  drawLand(points, land, box, picture) {
    this.sides = new Map(land.shared.map(({ a, b, line }) => [pairKey(points[a].name, points[b].name), line]));
    const group = s("g", { class: "land", "data-pictured": picture ? "true" : "false" });
    const [x, y, w, h] = box;
    const regions = s("g", { class: "regions" });
    if (picture) { // the land's tints stay on the picture
      const [width, height] = [(picture.width * picture.scale).toFixed(2), (picture.height * picture.scale).toFixed(2)];
      const clip = `${this.holder.id || "board"}-picture-clip`;
      group.append(s("clipPath", { id: clip }, s("rect", { x: "0", y: "0", width, height })),
        s("image", { class: "picture", href: picture.url, x: "0", y: "0", width, height, preserveAspectRatio: "none",
          "data-width": String(picture.width), "data-height": String(picture.height) }));
      regions.setAttribute("clip-path", `url(#${clip})`);
    } else { // sea as far as the board may ever be moved
      group.append(s("rect", { class: "sea", x: (x - 2 * w).toFixed(0), y: (y - 2 * h).toFixed(0),
        width: (5 * w).toFixed(0), height: (5 * h).toFixed(0) }));
    }
    this.routeLayer = s("g", { class: "routes" });
    group.append(this.routeLayer);
    regions.innerHTML = points.map((p, i) => `<path class="region" data-region="${escaped(p.name)}" `
      + `data-fog="clear" d="${polygonPath(land.regions[i])}" fill="${LAND}"/>`).join("");
    this.regionNodes = new Map(points.map((p, i) => [p.name, regions.children[i]]));
    this.listen(regions, "[data-region]", "region");
    this.regionMarks = s("g", { class: "region-marks", "aria-hidden": "true" });
    group.append(regions, this.regionMarks,
      s("path", { class: "wall", d: segmentsPath(land.walls), "data-segments": String(land.walls.length) }),
      s("path", { class: "coast", d: segmentsPath(land.coasts) }));
    return group;
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
   * The borders: every two-way border a segment of one path (a large map has hundreds: one element draws them
   * all), each one-way border a line of its own with its arrow. On a map of regions, a two-way border whose
   * regions touch is the side they share; one whose regions do not (across the sea, between continents) is a route
   * from one territory to the other, under the land, so that it shows where it crosses the sea. `this.ways` keeps
   * each territory's borders (the neighbour and the segment between them) for the bold borders of the territory
   * picked.
   */
  drawBorders(map, at, r) {
    const group = s("g", { class: "borders" });
    this.ways = new Map([...at.keys()].map((name) => [name, []]));
    const both = [];
    const touching = [];
    const quiet = [];
    const done = new Set();
    for (const [from, targets] of Object.entries(map.borders || {})) {
      for (const to of targets) {
        const key = from < to ? `${from}\u0000${to}` : `${to}\u0000${from}`;
        if (done.has(key) || !at.has(from) || !at.has(to)) continue;
        done.add(key);
        const back = (map.borders[to] || []).includes(from);
        const a = at.get(from);
        const b = at.get(to);
        const length = Math.hypot(b.x - a.x, b.y - a.y) || 1;
        const gap = back ? 0 : r * (RING + 0.03);
        const [x2, y2] = [b.x - ((b.x - a.x) / length) * gap, b.y - ((b.y - a.y) / length) * gap];
        const segment = `M${a.x.toFixed(1)} ${a.y.toFixed(1)}L${x2.toFixed(1)} ${y2.toFixed(1)}`;
        const side = this.shape === "cells" ? null : this.sides?.get(pairKey(from, to));
        if (side) (back ? touching : quiet).push(side);
        if (back) {
          if (!side) both.push(segment);
        } else {
          group.append(s("line", { x1: a.x.toFixed(2), y1: a.y.toFixed(2), x2: x2.toFixed(2), y2: y2.toFixed(2),
            class: "border one-way", "marker-end": "url(#arrow)", "data-from": from, "data-to": to }));
        }
        this.ways.get(from).push([to, segment]);
        this.ways.get(to).push([from, segment]);
      }
    }
    if (this.shape === "cells") {
      group.prepend(s("path", { class: "border", d: both.join(""), "data-segments": String(both.length) }));
    } else {
      this.routeLayer.append(s("path", { class: "border route", d: both.join(""),
        "data-segments": String(both.length) }));
      group.prepend(s("path", { class: "border side", d: segmentsPath(touching),
        "data-segments": String(touching.length) }), s("path", { class: "side one-way-side", d: segmentsPath(quiet) }));
    }
    this.litPath = s("path", { class: "border lit", d: "", "data-segments": "0" });
    group.append(this.litPath);
    return group;
  }

  /** A territory's shape, circle or square, `grow` times its radius. */
  shapeOf(own) {
    return (cls, grow, fill) => (this.shape === "cells"
      ? s("rect", { class: cls, x: (-own * grow).toFixed(2), y: (-own * grow).toFixed(2),
        width: (2 * own * grow).toFixed(2), height: (2 * own * grow).toFixed(2), rx: (own * 0.12).toFixed(2), fill })
      : s("circle", { class: cls, r: (own * grow).toFixed(2), fill }));
  }

  /** One listener of each kind for every territory (a large map has hundreds): a click or Enter picks, pointing or
   * focus looks. `selector` and `key`: how a territory's element is found and names it (its disc, or its region). */
  listen(layer, selector = "g[data-territory]", key = "territory") {
    const territory = (event) => event.target.closest?.(selector)?.dataset[key];
    layer.addEventListener("click", (event) => {
      const name = territory(event);
      if (name) this.onPick(name, false);
    });
    layer.addEventListener("keydown", (event) => {
      const name = territory(event);
      if (name && (event.key === "Enter" || event.key === " ")) {
        event.preventDefault();
        this.onPick(name, true);
      }
    });
    layer.addEventListener("focusin", (event) => {
      const name = territory(event);
      if (!name) return;
      this.onLook(name);
      this.bringIntoView(name);
    });
    layer.addEventListener("mouseover", (event) => {
      const name = territory(event);
      if (name && name !== this.pointed) {
        this.pointed = name;
        this.onLook(name);
      }
    });
    layer.addEventListener("mouseleave", () => { this.pointed = null; });
  }

  /** A territory's region in its owner's colour (paler than its disc), hatched while out of sight. */
  landOf(name, style, owner, fog) {
    const region = this.regionNodes.get(name);
    if (!region) return;
    const fill = style ? landOf(style.colour) : LAND;
    if (region.getAttribute("fill") !== fill) region.setAttribute("fill", fill);
    region.dataset.owner = owner;
    region.dataset.fog = fog;
    if (fog !== "clear" && !region.nextSibling?.classList?.contains("region-haze")) {
      region.after(s("path", { class: "region-haze", d: region.getAttribute("d"), fill: "url(#fog-hatch)" }));
    }
    if (region.nextSibling?.classList?.contains("region-haze")) region.nextSibling.dataset.fog = fog;
  }

  /** The fog's hatching over a territory out of sight: made the first time the territory is. */
  haze(found, fog) {
    if (!found.haze) {
      if (fog === "clear") return;
      found.haze = this.shapeOf(found.r)("haze", 1, "url(#fog-hatch)");
      found.body.after(found.haze);
    }
  }

  /** A territory's badge (a capital's star, a spy) or note under its units ("L1×8", "seen t3"): made the first time
   * it has something to say, since most territories never do and every text on the board costs at each zoom. */
  extra(found, key, text) {
    if (!found[key]) {
      if (!text) return;
      const own = found.r;
      const cells = this.shape === "cells";
      found[key] = key === "badge"
        ? s("text", { class: "badge", x: (-own * 0.78).toFixed(2), y: (-own * 0.62).toFixed(2),
          "font-size": (own * 0.55).toFixed(2) })
        : s("text", { class: "note-line", y: (own * (cells ? 0.78 : 0.92)).toFixed(2),
          "font-size": (own * (cells ? 0.3 : 0.36)).toFixed(2) });
      found.letter.after(found[key]);
    }
    if (found[key].textContent !== text) found[key].textContent = text;
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
      this.landOf(name, style, owner, fog);
      found.units.textContent = units === null ? "?" : String(units);
      found.letter.textContent = style ? style.letter : "";
      this.haze(found, fog);
      this.extra(found, "badge", state.badge || "");
      this.extra(found, "note", state.note || "");
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

  /** The territories picked for an order, and those an order could go on to name; the first one picked has its
   * borders drawn bold and its neighbours outlined. */
  select(picked, targets) {
    for (const node of [...this.picked, ...this.targets, ...this.near]) {
      node.removeAttribute("data-picked");
      node.removeAttribute("data-target");
      node.removeAttribute("data-neighbour");
    }
    this.picked = picked.map((name) => this.nodes.get(name)?.node).filter(Boolean);
    this.targets = targets.map((name) => this.nodes.get(name)?.node).filter(Boolean);
    this.picked.forEach((node, i) => { node.dataset.picked = String(i + 1); });
    for (const node of this.targets) node.dataset.target = "";
    if (this.regionMarks) {
      const mark = (name, cls) => {
        const region = this.regionNodes.get(name);
        return region ? s("path", { class: `region-mark ${cls}`, d: region.getAttribute("d"), "data-for": name })
          : null;
      };
      this.regionMarks.replaceChildren(...[...targets.map((name) => mark(name, "target")),
        ...picked.map((name) => mark(name, "picked"))].filter(Boolean));
    }
    const first = picked.length ? picked[0] : null;
    const ways = first ? this.ways?.get(first) || [] : [];
    if (this.litPath) {
      this.litPath.setAttribute("d", ways.map(([, segment]) => segment).join(""));
      this.litPath.dataset.segments = String(ways.length);
    }
    this.near = ways.map(([name]) => this.nodes.get(name)?.node).filter(Boolean);
    for (const node of this.near) node.dataset.neighbour = "";
    const key = [...this.picked, ...this.targets, ...this.near].map((node) => node.dataset.territory).join("\u0000");
    if (key !== this.selectedKey) {
      this.selectedKey = key;
      this.placeLabels();
    }
  }

  focus(name) {
    this.nodes.get(name)?.node.focus();
  }
}
