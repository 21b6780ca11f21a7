// The game's statistics over time as SVG line charts: territories and units per player per turn, each player in
// their colour and dash pattern, with their letter at the end of the line.

import { h, s } from "./dom.js";

const W = 420;
const H = 200;
const PAD = { left: 40, right: 24, top: 12, bottom: 28 };

function chart(history, field, title, styles) {
  const turns = history.map((row) => row.turn);
  const players = [...styles.keys()];
  const most = Math.max(1, ...history.flatMap((row) => players.map((p) => row.players[p]?.[field] ?? 0)));
  const first = Math.min(...turns);
  const last = Math.max(...turns);
  const x = (turn) => PAD.left + (last === first ? 0.5 : (turn - first) / (last - first)) * (W - PAD.left - PAD.right);
  const y = (value) => H - PAD.bottom - (value / most) * (H - PAD.top - PAD.bottom);
  const svg = s("svg", { class: "chart", viewBox: `0 0 ${W} ${H}`, role: "img", "aria-label": `${title} per turn`,
    "data-chart": field });
  svg.append(s("line", { x1: PAD.left, y1: H - PAD.bottom, x2: W - PAD.right, y2: H - PAD.bottom, class: "axis" }));
  svg.append(s("line", { x1: PAD.left, y1: PAD.top, x2: PAD.left, y2: H - PAD.bottom, class: "axis" }));
  svg.append(s("text", { x: PAD.left - 6, y: PAD.top + 8, class: "tick", "text-anchor": "end" }, String(most)));
  svg.append(s("text", { x: PAD.left - 6, y: H - PAD.bottom, class: "tick", "text-anchor": "end" }, "0"));
  svg.append(s("text", { x: PAD.left, y: H - 8, class: "tick" }, `turn ${first}`));
  svg.append(s("text", { x: W - PAD.right, y: H - 8, class: "tick", "text-anchor": "end" }, `turn ${last}`));
  for (const player of players) {
    const style = styles.get(player);
    const points = history.filter((row) => row.players[player]).map((row) => [x(row.turn), y(row.players[player][field])]);
    if (!points.length) continue;
    svg.append(s("polyline", {
      points: points.map(([px, py]) => `${px.toFixed(1)},${py.toFixed(1)}`).join(" "), class: "series",
      stroke: style.colour, "stroke-dasharray": style.dash || null, "data-player": player,
    }));
    const [lx, ly] = points[points.length - 1];
    svg.append(s("text", { x: (lx + 4).toFixed(1), y: (ly + 4).toFixed(1), class: "series-letter" }, style.letter));
  }
  return h("figure", {}, h("figcaption", {}, title), svg);
}

/** Both charts with their legend, or a sentence when there is nothing to draw yet. */
export function statisticsCharts(history, styles) {
  if (!history.length) return h("p", { class: "hint" }, "No statistics were gathered for this game.");
  const legend = h("ul", { class: "legend" }, [...styles].map(([name, style]) => h("li", {},
    h("span", { class: "swatch", "data-letter": style.letter }, style.letter), ` ${name}`)));
  for (const [i, item] of [...legend.children].entries()) {
    const style = [...styles.values()][i];
    item.firstChild.style.background = style.colour;
    item.firstChild.style.color = style.ink;
  }
  return h("div", { class: "charts" }, chart(history, "territories", "Territories", styles),
    chart(history, "units", "Units", styles), legend);
}
