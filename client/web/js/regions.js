// Each territory's region on the board: the part of the map nearer its own position than any other's (a Voronoi
// cell), bounded around the territory so that land ends in a coast where no other territory is near, and set back
// from another continent's land so that the sea between continents stays sea. Pure geometry, no drawing: the board
// (board.js) fills each region with its owner's colour and draws the lines found here.
//
// A region is convex: a polygon round the territory (its coast), cut by the line halfway to each territory near it.
// Each side of the polygon remembers what cut it, so the sides two regions share are known, and each is told apart:
// a border of the map between two territories of one continent, a side where two regions touch that the map gives
// no border (a wall: no way across), or a coast. A border of the map between regions that do not touch (across the
// sea, or between continents) is a route: a line from one territory to the other, drawn under the land. Work grows
// with the territories and their near ones only (a grid of buckets): a few milliseconds for 255.

/** The corners of a territory's coast: a polygon this fine reads as round. */
const SIDES = 20;
/** How far land reaches from a territory where nothing is near, as a share of the distance to its third nearest. */
const REACH = 0.72;
/** However alone a territory is, its land reaches no further than this many times the map's usual spacing. */
const MOST_REACH = 1.05;
/** How far a region stays back from another continent's, as a share of the distance between the two territories
 * (each side keeps this much: the strait between them is twice as wide). */
const STRAIT = 0.07;

/** Points kept in square buckets, so that what is near a point is found without looking at the rest. */
function bucketed(points, size) {
  const cells = new Map();
  points.forEach((p, i) => {
    const key = `${Math.floor(p.x / size)},${Math.floor(p.y / size)}`;
    const cell = cells.get(key);
    if (cell) cell.push(i);
    else cells.set(key, [i]);
  });
  return {
    * near(x, y, reach) {
      const [i0, i1] = [Math.floor((x - reach) / size), Math.floor((x + reach) / size)];
      const [j0, j1] = [Math.floor((y - reach) / size), Math.floor((y + reach) / size)];
      for (let i = i0; i <= i1; i++) for (let j = j0; j <= j1; j++) yield* cells.get(`${i},${j}`) || [];
    },
  };
}

/** Each point's distances to its three nearest others (Infinity where it has fewer), by a sweep along x. */
function nearestThree(points) {
  const order = points.map((p, i) => i).sort((a, b) => points[a].x - points[b].x);
  return order.reduce((found, i, at) => {
    const best = [Infinity, Infinity, Infinity];
    for (const step of [-1, 1]) {
      for (let k = at + step; k >= 0 && k < order.length; k += step) {
        const q = points[order[k]];
        const dx = Math.abs(q.x - points[i].x);
        if (dx >= best[2]) break;
        const d = Math.hypot(dx, q.y - points[i].y);
        if (d > 0 && d < best[2]) {
          best[2] = d;
          best.sort((a, b) => a - b);
        }
      }
    }
    found[i] = best;
    return found;
  }, new Array(points.length));
}

/** The polygon in `from` (`count` corners, flat: x, y and the tag of the side that starts there) cut by the
 * half-plane nx * x + ny * y <= c into `to`; the new side is tagged `tag`. Returns the corners kept. Flat arrays
 * reused from cut to cut: hundreds of regions are cut thousands of times, and small arrays would each be garbage. */
function cut(from, count, to, nx, ny, c, tag) {
  let kept = 0;
  for (let k = 0; k < count; k++) {
    const p = 3 * k;
    const q = 3 * ((k + 1) % count);
    const dp = nx * from[p] + ny * from[p + 1] - c;
    const dq = nx * from[q] + ny * from[q + 1] - c;
    if (dp <= 0) {
      to[3 * kept] = from[p];
      to[3 * kept + 1] = from[p + 1];
      to[3 * kept + 2] = from[p + 2];
      kept += 1;
    }
    if ((dp <= 0) !== (dq <= 0)) {
      const t = dp / (dp - dq);
      to[3 * kept] = from[p] + (from[q] - from[p]) * t;
      to[3 * kept + 1] = from[p + 1] + (from[q + 1] - from[p + 1]) * t;
      to[3 * kept + 2] = dp <= 0 ? tag : from[p + 2];
      kept += 1;
    }
  }
  return kept;
}

/** Room for a region's corners while it is cut: each cut adds one corner at most. */
const MOST_CORNERS = 4 * SIDES + 64;

/** Where two sides on one line overlap: the part of side a (its ends) that side b also covers, or null. */
function overlap([ax, ay, bx, by], [cx, cy, dx, dy]) {
  const ux = bx - ax;
  const uy = by - ay;
  const length = ux * ux + uy * uy;
  if (!(length > 0)) return null;
  const along = (x, y) => ((x - ax) * ux + (y - ay) * uy) / length;
  const [s, t] = [along(cx, cy), along(dx, dy)].sort((p, q) => p - q);
  const from = Math.max(0, s);
  const to = Math.min(1, t);
  if (to - from < 1e-6) return null;
  return [[from, to], [ax + ux * from, ay + uy * from, ax + ux * to, ay + uy * to]];
}

/**
 * The regions of `points` ([{x, y, continent}] in the board's units), with `ways(i, j)`: 2 where the map has a
 * border both ways between points i and j, 1 where one way only, 0 where none. Returns {regions, shared, coasts,
 * walls}: each region a polygon ([[x, y], ...], convex, in order round it); `shared`: the sides two regions of one
 * continent share, each {a, b, line: [x1, y1, x2, y2]} once; `coasts` and `walls`: segments [x1, y1, x2, y2].
 */
export function regionsOf(points, ways) {
  const count = points.length;
  if (!count) return { regions: [], shared: [], coasts: [], walls: [] };
  const nearest = nearestThree(points);
  const spacings = nearest.map((d) => d[0]).filter(Number.isFinite).sort((a, b) => a - b);
  const usual = spacings.length ? spacings[Math.floor(spacings.length / 2)] : 100;
  const reach = nearest.map((d) => {
    const third = Number.isFinite(d[2]) ? d[2] : Number.isFinite(d[0]) ? d[0] * 1.5 : usual;
    return Math.max(Math.min(REACH * third, MOST_REACH * usual), 0.55 * Math.min(d[0], usual));
  });
  const farthest = Math.max(...reach);
  const buckets = bucketed(points, Math.max(farthest, 1e-9));
  let from = new Float64Array(3 * MOST_CORNERS);
  let to = new Float64Array(3 * MOST_CORNERS);
  const tagged = points.map((p, i) => {
    const rim = reach[i] / Math.cos(Math.PI / SIDES); // the polygon's sides, not its corners, at `reach`
    let count = SIDES;
    for (let k = 0; k < SIDES; k++) {
      const angle = (2 * Math.PI * k) / SIDES;
      from[3 * k] = p.x + rim * Math.cos(angle);
      from[3 * k + 1] = p.y + rim * Math.sin(angle);
      from[3 * k + 2] = -1;
    }
    for (const j of buckets.near(p.x, p.y, reach[i] + farthest)) {
      if (j === i) continue;
      const q = points[j];
      const dx = q.x - p.x;
      const dy = q.y - p.y;
      const d = Math.hypot(dx, dy);
      if (!(d > 0) || d / 2 > reach[i] + reach[j] || count + 1 >= MOST_CORNERS) continue;
      const back = (p.continent || "") === (q.continent || "") ? 0 : STRAIT * d;
      // halfway to the other territory, less the strait's share where it is in another continent
      const c = dx * (p.x + dx / 2) + dy * (p.y + dy / 2) - back * d;
      count = cut(from, count, to, dx, dy, c, j);
      [from, to] = [to, from];
      if (!count) break;
    }
    const corners = [];
    for (let k = 0; k < count; k++) corners.push([from[3 * k], from[3 * k + 1], from[3 * k + 2]]);
    return corners;
  });
  const sides = (i) => tagged[i].map((p, k) => {
    const q = tagged[i][(k + 1) % tagged[i].length];
    return { tag: p[2], line: [p[0], p[1], q[0], q[1]] };
  });
  const all = tagged.map((_, i) => sides(i));
  const shared = [];
  const coasts = [];
  const walls = [];
  all.forEach((list, i) => {
    for (const { tag: j, line } of list) {
      if (j < 0 || (points[i].continent || "") !== (points[j].continent || "")) {
        coasts.push(line);
        continue;
      }
      const facing = all[j].find((side) => side.tag === i);
      const common = facing ? overlap(line, facing.line) : null;
      if (!common) {
        coasts.push(line);
        continue;
      }
      const [[from, to], inner] = common;
      // what of this side the other region does not reach is coast
      const [ax, ay, bx, by] = line;
      if (from > 1e-6) coasts.push([ax, ay, ax + (bx - ax) * from, ay + (by - ay) * from]);
      if (to < 1 - 1e-6) coasts.push([ax + (bx - ax) * to, ay + (by - ay) * to, bx, by]);
      if (i > j) continue; // the side both share, once
      if (ways(i, j)) shared.push({ a: i, b: j, line: inner });
      else walls.push(inner);
    }
  });
  return { regions: tagged.map((corners) => corners.map(([x, y]) => [x, y])), shared, coasts, walls };
}

/** A polygon as an SVG path's data. */
export function polygonPath(corners) {
  return corners.length ? `M${corners.map(([x, y]) => `${x.toFixed(1)} ${y.toFixed(1)}`).join("L")}Z` : "";
}

/** Segments as an SVG path's data, one "M...L..." each. */
export function segmentsPath(lines) {
  return lines.map(([x1, y1, x2, y2]) => `M${x1.toFixed(1)} ${y1.toFixed(1)}L${x2.toFixed(1)} ${y2.toFixed(1)}`)
    .join("");
}
