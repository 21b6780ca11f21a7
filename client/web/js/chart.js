// A finished game's statistics as SVG charts, from the server's `statistics` (worked out once, in Python: the page
// only draws them): territories, units and income per player per turn as lines, each player in their colour and
// dash pattern with their letter at the end of the line; battles won and lost and cards played per player as bars,
// each with its figure; and who put whom out, in words. A replay marks the turn it shows on the lines.

import { h, s } from "./dom.js";
import { plural } from "./rulesets/generic.js";

/** The charts' own units: about a pixel each in the side panel, so their figures read at the page's small size. */
const W = 340;
const H = 190;
const PAD = { left: 34, right: 30, top: 12, bottom: 26 };
/** The least distance between two lines' letters at their ends, in the chart's units (a letter's height). */
const LETTER_GAP = 13;

/** Where each line's letter goes at its end: beside its last point, moved up or down as little as keeps it clear
 * of every other letter (two lines ending at the same figure show both letters, one over the other). */
function letterPlaces(ends) {
  const order = [...ends].sort((a, b) => a.y - b.y || a.x - b.x);
  const placed = [];
  for (const end of order) {
    let y = end.y;
    for (const other of placed) {
      if (Math.abs(other.x - end.x) < 20 && y < other.y + LETTER_GAP) y = other.y + LETTER_GAP;
    }
    placed.push({ ...end, y });
  }
  const low = Math.max(0, ...placed.map((p) => p.y)) - (H - PAD.bottom);
  return low > 0 ? placed.map((p) => ({ ...p, y: p.y - low })) : placed; // kept above the axis
}

function lineChart(turns, field, title, styles, current) {
  const numbers = turns.map((line) => line.turn);
  const players = [...styles.keys()];
  const value = (line, player) => line.players[player]?.[field];
  const most = Math.max(1, ...turns.flatMap((line) => players.map((p) => value(line, p) ?? 0)));
  const first = Math.min(...numbers);
  const last = Math.max(...numbers);
  const x = (turn) => PAD.left + (last === first ? 0.5 : (turn - first) / (last - first)) * (W - PAD.left - PAD.right);
  const y = (v) => H - PAD.bottom - (v / most) * (H - PAD.top - PAD.bottom);
  const svg = s("svg", { class: "chart", viewBox: `0 0 ${W} ${H}`, role: "img", "aria-label": `${title} per turn`,
    "data-chart": field });
  svg.append(s("line", { x1: PAD.left, y1: H - PAD.bottom, x2: W - PAD.right, y2: H - PAD.bottom, class: "axis" }));
  svg.append(s("line", { x1: PAD.left, y1: PAD.top, x2: PAD.left, y2: H - PAD.bottom, class: "axis" }));
  svg.append(s("text", { x: PAD.left - 4, y: PAD.top + 9, class: "tick", "text-anchor": "end" }, String(most)));
  svg.append(s("text", { x: PAD.left - 4, y: H - PAD.bottom, class: "tick", "text-anchor": "end" }, "0"));
  svg.append(s("text", { x: PAD.left, y: H - 6, class: "tick" }, `turn ${first}`));
  svg.append(s("text", { x: W - PAD.right, y: H - 6, class: "tick", "text-anchor": "end" }, `turn ${last}`));
  if (current !== null && current !== undefined && current >= first && current <= last) {
    svg.append(s("line", { x1: x(current).toFixed(1), y1: PAD.top, x2: x(current).toFixed(1), y2: H - PAD.bottom,
      class: "now", "data-turn": String(current) }));
  }
  const ends = [];
  for (const player of players) {
    const style = styles.get(player);
    // a turn without the figure (income on the turn a game ended before it came) is no point of the line
    const points = turns.filter((line) => typeof value(line, player) === "number")
      .map((line) => [x(line.turn), y(value(line, player))]);
    if (!points.length) continue;
    svg.append(s("polyline", {
      points: points.map(([px, py]) => `${px.toFixed(1)},${py.toFixed(1)}`).join(" "), class: "series",
      stroke: style.colour, "stroke-dasharray": style.dash || null, "data-player": player,
    }));
    const [lx, ly] = points[points.length - 1];
    ends.push({ player, x: lx, y: ly + 4, letter: style.letter });
  }
  for (const end of letterPlaces(ends)) {
    svg.append(s("text", { x: (end.x + 4).toFixed(1), y: end.y.toFixed(1), class: "series-letter",
      "data-player": end.player }, end.letter));
  }
  return h("figure", {}, h("figcaption", {}, title), svg);
}

/** One bar per player and figure (battles won and lost side by side), each with its number and the player's
 * letter under it. */
function barChart(totals, fields, title, styles, key) {
  const players = [...styles.keys()];
  const most = Math.max(1, ...players.flatMap((p) => fields.map(([field]) => totals[p]?.[field] ?? 0)));
  const group = (W - PAD.left - PAD.right) / Math.max(1, players.length);
  const bar = Math.min(28, (group * 0.8) / fields.length);
  const y = (value) => H - PAD.bottom - (value / most) * (H - PAD.top - PAD.bottom - 10);
  const svg = s("svg", { class: "chart bars", viewBox: `0 0 ${W} ${H}`, role: "img",
    "aria-label": `${title}: ${players.map((p) => `${p} ${fields.map(([f, w]) => `${totals[p]?.[f] ?? 0} ${w}`)
      .join(", ")}`).join("; ")}`, "data-chart": key });
  svg.append(s("line", { x1: PAD.left, y1: H - PAD.bottom, x2: W - PAD.right, y2: H - PAD.bottom, class: "axis" }));
  players.forEach((player, i) => {
    const style = styles.get(player);
    const left = PAD.left + i * group + (group - bar * fields.length) / 2;
    fields.forEach(([field, words, hollow], j) => {
      const value = totals[player]?.[field] ?? 0;
      const x = left + j * bar;
      svg.append(s("rect", { x: x.toFixed(1), y: y(value).toFixed(1), width: (bar - 3).toFixed(1),
        height: (H - PAD.bottom - y(value)).toFixed(1), class: hollow ? "bar hollow" : "bar", stroke: style.colour,
        fill: hollow ? "none" : style.colour, "data-player": player, "data-field": field, "data-value": String(value) },
      s("title", {}, `${player}: ${value} ${words}`)));
      svg.append(s("text", { x: (x + (bar - 3) / 2).toFixed(1), y: (y(value) - 3).toFixed(1), class: "tick",
        "text-anchor": "middle" }, String(value)));
    });
    svg.append(s("text", { x: (left + (bar * fields.length) / 2).toFixed(1), y: H - 8, class: "series-letter",
      "text-anchor": "middle" }, style.letter));
  });
  const keyItems = fields.length > 1 ? h("p", { class: "hint bar-key" }, fields.map(([, words, hollow]) =>
    `${hollow ? "outlined" : "filled"}: ${words}`).join("; ")) : null;
  return h("figure", {}, h("figcaption", {}, title), svg, keyItems);
}

function legend(styles) {
  const list = h("ul", { class: "legend" });
  for (const [name, style] of styles) {
    const swatch = h("span", { class: "swatch", "data-letter": style.letter }, style.letter);
    swatch.style.background = style.colour;
    swatch.style.color = style.ink;
    list.append(h("li", {}, swatch, ` ${name}`));
  }
  return list;
}

/** Who put whom out (or who resigned), turn by turn, in words. */
function eliminations(statistics) {
  if (!statistics.eliminations.length) return null;
  const how = (e) => (e.resigned ? `${e.player} resigned` : e.by ? `${e.by} put ${e.player} out`
    : `${e.player} went out`);
  return h("ul", { class: "eliminations" }, statistics.eliminations.map((e) => h("li", {
    "data-eliminated": e.player, "data-by": e.by || "", "data-resigned": String(Boolean(e.resigned)) },
  `Turn ${e.turn}: ${how(e)}`)));
}

/** Every chart of a finished game's statistics, with the legend; `current`: the turn a replay shows, marked. */
export function statisticsCharts(statistics, styles, current = null) {
  if (!statistics || !statistics.turns.length) return h("p", { class: "hint" }, "No turn was played.");
  const turns = statistics.turns;
  const cards = Object.values(statistics.totals).some((t) => t.cards_played > 0);
  // the turn the game ended on: a setup played as turn 0 (RISC's placement, classic Risk's startup) is not one more
  const turnsPlayed = plural(turns[turns.length - 1].turn, "turn", "turns");
  return h("div", { class: "charts", "data-turns": String(turns.length) },
    h("p", { class: "hint" }, `${turnsPlayed}, as the server counted them.`),
    lineChart(turns, "territories", "Territories", styles, current),
    lineChart(turns, "units", "Units", styles, current),
    lineChart(turns, "income", "Income (units received)", styles, current),
    barChart(statistics.totals, [["battles_won", "battles won"], ["battles_lost", "battles lost", true]],
      "Battles won and lost", styles, "battles"),
    cards ? barChart(statistics.totals, [["cards_played", "cards played"]], "Cards played", styles, "cards") : null,
    eliminations(statistics), legend(styles));
}
