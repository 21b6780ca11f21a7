// Where each territory's name goes: beside its circle, never over another name or another territory's circle, at
// the same size on screen whatever the zoom. Each name tries the places around its circle in turn (below, above,
// right, left, then the corners); where none is free it tries a shortened form ("Snowspr…"), and where even that
// does not fit it is hidden until one zooms in. Greedy, one name at a time in a given order (the territory picked
// and its neighbours first), with a grid of buckets so each try looks at what is near only: a few milliseconds for
// 255 names, so it runs again at every step of a zoom.

const GAP_PX = 2;
const ELLIPSIS = "…";

/** Shorter forms of a name to try when the whole does not fit: about two thirds of it, then its first four letters. */
export function shortForms(name) {
  const forms = [];
  const letters = [...name];
  for (const keep of [Math.ceil(letters.length * 0.65), 4]) {
    if (keep >= 3 && keep < letters.length - 1) {
      const form = letters.slice(0, keep).join("").trimEnd() + ELLIPSIS;
      if (!forms.includes(form)) forms.push(form);
    }
  }
  return forms;
}

/** Things with boxes, kept in square buckets so that what is near a box is found without looking at the rest. */
class Buckets {
  constructor(size) {
    this.size = size;
    this.cells = new Map();
  }

  * keys([x0, y0, x1, y1]) {
    const size = this.size;
    for (let i = Math.floor(x0 / size); i <= Math.floor(x1 / size); i++) {
      for (let j = Math.floor(y0 / size); j <= Math.floor(y1 / size); j++) yield i * 100003 + j;
    }
  }

  add(box, thing) {
    for (const key of this.keys(box)) {
      const cell = this.cells.get(key);
      if (cell) cell.push(thing);
      else this.cells.set(key, [thing]);
    }
  }

  /** Whether any thing near `box` meets it by `meets(box, thing)`. */
  any(box, meets) {
    for (const key of this.keys(box)) {
      for (const thing of this.cells.get(key) || []) if (meets(box, thing)) return true;
    }
    return false;
  }
}

function boxesMeet(a, b) {
  return a[0] < b[2] && b[0] < a[2] && a[1] < b[3] && b[1] < a[3];
}

function boxMeetsCircle(box, circle) {
  const nx = Math.max(box[0], Math.min(circle.x, box[2]));
  const ny = Math.max(box[1], Math.min(circle.y, box[3]));
  return (nx - circle.x) ** 2 + (ny - circle.y) ** 2 < circle.r * circle.r;
}

/** The boxes a name of `w` by `h` may take around a circle at (x, y) of radius r, in order of preference: under
 * it, over it, beside it, then at its corners, then under or over it but leaning to one side. */
function places(x, y, r, w, h, gap) {
  const d = (r + gap) * Math.SQRT1_2;
  const lean = Math.min(w / 2, r) * 0.8;
  return [
    [x - w / 2, y + r + gap],
    [x - w / 2, y - r - gap - h],
    [x + r + gap, y - h / 2],
    [x - r - gap - w, y - h / 2],
    [x + d, y + d],
    [x - d - w, y + d],
    [x + d, y - d - h],
    [x - d - w, y - d - h],
    [x - w / 2 + lean, y + r + gap],
    [x - w / 2 - lean, y + r + gap],
    [x - w / 2 + lean, y - r - gap - h],
    [x - w / 2 - lean, y - r - gap - h],
  ].map(([left, top]) => [left, top, left + w, top + h]);
}

/**
 * Place every name. `items`: [{name, x, y, r}] in map units (r: the circle's outer radius), in the order they are
 * served; `scale`: screen pixels per map unit; `height`: a line's height in pixels; `measure(text)`: its width in
 * pixels; `bounds`: the box (x0, y0, x1, y1) a name must stay inside. Returns, per item, {text, box} (the box in map
 * units) or null where it is hidden.
 */
export function placeLabels(items, { scale, height, measure, bounds }) {
  const gap = GAP_PX / scale;
  const pad = 1.5 / scale; // the white halo around the letters
  const h = height / scale + 2 * pad;
  const largest = Math.max(h * 4, ...items.map((item) => item.r * 2));
  const circles = new Buckets(largest);
  for (const item of items) {
    const circle = { x: item.x, y: item.y, r: item.r + pad };
    circles.add([item.x - circle.r, item.y - circle.r, item.x + circle.r, item.y + circle.r], circle);
  }
  const placed = new Buckets(largest);
  const inside = (box) => box[0] >= bounds[0] && box[1] >= bounds[1] && box[2] <= bounds[2] && box[3] <= bounds[3];
  const free = (box) => {
    return inside(box) && !circles.any(box, boxMeetsCircle) && !placed.any(box, boxesMeet);
  };
  return items.map((item) => {
    for (const text of [item.name, ...shortForms(item.name)]) {
      const w = measure(text) / scale + 2 * pad;
      for (const box of places(item.x, item.y, item.r + pad, w, h, gap)) {
        if (free(box)) {
          placed.add(box, box);
          return { text, box };
        }
      }
    }
    return null;
  });
}
