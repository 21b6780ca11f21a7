// Zoom and pan of an SVG board: the wheel and the buttons zoom about a point, two fingers pinch, a drag (a mouse
// or one finger) pans, and so do the arrow keys; "fit" shows the whole map. The map is never redrawn for it: only
// the SVG's viewBox moves, so a step costs the browser's repaint and whatever `onZoom` does (the labels, placed
// again for their new size on the map).
//
// A drag that moved less than a few pixels is a click (a territory picked); one that moved more swallows the click
// that follows. On a touch screen at the whole-map zoom a one-finger drag scrolls the page, as anywhere else; once
// zoomed in it pans the map.

const STEP = 1.5;
/** How long a gesture rests before what it shows is drawn afresh. */
const SETTLE_MS = 120;
const DRAG_PX = 5;
/** The largest a territory's circle grows to on screen, in pixels: the zoom stops there. */
const LARGEST_PX = 70;
const KEY_PAN = 0.2;
/** On a tall board (a phone's), neighbouring territories are first shown this far apart, in pixels: room for their
 * names, and for a finger. */
const READ_PX = 44;

export class Viewport {
  /** svg: the board's SVG element; onZoom(scale): the scale (screen pixels per map unit) changed; onPan(): moved. */
  constructor(svg, { onZoom = () => {}, onPan = () => {} } = {}) {
    this.svg = svg;
    this.onZoom = onZoom;
    this.onPan = onPan;
    this.content = [0, 0, 1, 1];
    this.unit = 1;
    this.zoom = 1;
    this.centre = [0.5, 0.5];
    this.size = [1, 1];
    this.shift = [0, 0, 1];
    this.pointers = new Map();
    this.gesture = null;
    this.swallowClick = false;
    this.listen();
  }

  /** The map's box in its own units (x, y, width, height), a territory's radius in the same units, and the
   * element's size on screen when it is known already (else it is measured, which lays the page out). `spacing`:
   * on a tall board (a phone's), the usual distance between neighbouring territories in map units: the map fits
   * the board by filling it, large enough to read (READ_PX between neighbours), rather than by showing it whole. */
  setContent(box, unit, size = null, spacing = 0) {
    this.content = box;
    this.unit = unit;
    this.spacing = spacing;
    if (size) this.size = size;
    else this.measure();
    this.fit();
  }

  /** The greatest zoom: a territory's circle at its largest on screen (never less than twice the whole map). */
  get most() {
    return Math.max(2, LARGEST_PX / (this.unit * (this.size[0] / this.fitBox()[2])));
  }

  /** The zoom at which a territory's circle is `px` pixels across, or the whole map if that is larger. */
  zoomFor(px) {
    return Math.min(this.most, Math.max(1, px / (2 * this.unit * (this.size[0] / this.fitBox()[2]))));
  }

  /** The SVG element's size on screen, read again (after a resize). */
  measure() {
    const [, , width, height] = this.rect();
    this.size = [Math.max(1, width), Math.max(1, height)];
  }

  /** Where the element is on screen (left, top, width, height), as laid out: without a gesture's transform. */
  rect() {
    const rect = this.svg.getBoundingClientRect();
    const [tx, ty, k] = this.shift;
    return [rect.left - tx, rect.top - ty, rect.width / k, rect.height / k];
  }

  /** The element changed size (a window resized, a phone turned, the screen shown): the same zoom on it. */
  resized() {
    const before = this.size;
    this.measure();
    if (Math.abs(before[0] - this.size[0]) > 0.5 || Math.abs(before[1] - this.size[1]) > 0.5) this.apply(true);
  }

  /** The content box widened to the element's shape: what the whole-map zoom shows. */
  fitBox() {
    const [x, y, w, h] = this.content;
    const [ew, eh] = this.size;
    const aspect = ew / eh;
    const fw = Math.max(w, h * aspect);
    const fh = fw / aspect;
    return [x + w / 2 - fw / 2, y + h / 2 - fh / 2, fw, fh];
  }

  /** Screen pixels per map unit at the current zoom. */
  get scale() {
    return (this.size[0] / this.fitBox()[2]) * this.zoom;
  }

  /** The box of the map shown now, in map units. */
  get box() {
    const [, , fw, fh] = this.fitBox();
    const w = fw / this.zoom;
    const h = fh / this.zoom;
    return [this.centre[0] - w / 2, this.centre[1] - h / 2, w, h];
  }

  /** The zoom at which the map fits the element: on a tall board, as far as it fills the board and its
   * neighbouring territories are READ_PX apart; 1 otherwise: the whole map. */
  get fillZoom() {
    if (!this.spacing) return 1;
    const [, , w, h] = this.content;
    const [, , fw, fh] = this.fitBox();
    const readable = READ_PX / (this.spacing * (this.size[0] / fw));
    return Math.min(this.most, Math.max(1, fw / w, fh / h, readable));
  }

  /** The map fitted to the element: whole, or filling a tall board (zoom out for the whole of it). */
  fit() {
    const [x, y, w, h] = this.fitBox();
    this.zoom = this.fillZoom;
    this.centre = [x + w / 2, y + h / 2];
    this.apply(true);
  }

  /** Zoom by `factor` about a point of the screen (the element's centre when none is given); `gesture`: a step of
   * the wheel's or of a pinch (see apply). */
  zoomBy(factor, clientX, clientY, gesture = false) {
    const [left, top, width, height] = this.rect();
    const x = clientX === undefined ? left + width / 2 : clientX;
    const y = clientY === undefined ? top + height / 2 : clientY;
    this.move([x, y], [x, y], factor, gesture);
  }

  /** Zoom by `factor` and bring the point of the map that was under `from` (screen pixels) under `to`: a pinch's
   * step, the fingers having spread and moved at once. */
  move(from, to, factor, gesture = false) {
    const [left, top] = this.rect();
    const [bx, by, bw, bh] = this.box;
    const ux = bx + ((from[0] - left) / this.size[0]) * bw;
    const uy = by + ((from[1] - top) / this.size[1]) * bh;
    const zoom = Math.min(this.most, Math.max(1, this.zoom * factor));
    const zoomed = zoom !== this.zoom;
    if (!zoomed && from[0] === to[0] && from[1] === to[1]) return;
    this.zoom = zoom;
    const [, , w, h] = this.box;
    const px = (to[0] - left) / this.size[0];
    const py = (to[1] - top) / this.size[1];
    this.centre = [ux - px * w + w / 2, uy - py * h + h / 2];
    this.apply(zoomed, gesture);
  }

  /** Move the map by a number of screen pixels. */
  panBy(dx, dy, gesture = false) {
    const s = this.scale;
    this.centre = [this.centre[0] - dx / s, this.centre[1] - dy / s];
    this.apply(false, gesture);
  }

  /** Bring a point of the map to the middle, at least at `zoom`. */
  show(x, y, zoom = this.zoom) {
    const changed = zoom !== this.zoom;
    this.zoom = Math.min(this.most, Math.max(1, zoom));
    this.centre = [x, y];
    this.apply(changed);
  }

  /** Whether a point of the map is on screen, with `margin` map units to spare. */
  shows(x, y, margin = 0) {
    const [bx, by, bw, bh] = this.box;
    return x - margin >= bx && x + margin <= bx + bw && y - margin >= by && y + margin <= by + bh;
  }

  /**
   * Keep the view over the map, then show it. A step of a gesture (the wheel, a pinch, a drag) is shown at once by
   * a CSS transform of what is drawn, which costs the browser nothing but compositing; the viewBox follows when the
   * gesture rests (`SETTLE_MS` after its last step, or at once when it ends), and only then are the texts laid out
   * again at their new size. A discrete step (a button, a key, the search) sets the viewBox at once.
   */
  apply(zoomed, gesture = false) {
    const [fx, fy, fw, fh] = this.fitBox();
    const [, , w, h] = this.box;
    const clamp = (value, low, span, shown) => (shown >= span ? low + span / 2
      : Math.min(low + span - shown / 2, Math.max(low + shown / 2, value)));
    this.centre = [clamp(this.centre[0], fx, fw, w), clamp(this.centre[1], fy, fh, h)];
    this.pendingZoom = this.pendingZoom || zoomed;
    if (gesture && this.drawn) {
      const [cx, cy, cw] = this.drawn;
      const [bx, by, bw] = this.box;
      const scale = this.size[0] / bw;
      this.shift = [(cx - bx) * scale, (cy - by) * scale, cw / bw];
      this.svg.style.transform = `translate(${this.shift[0]}px, ${this.shift[1]}px) scale(${this.shift[2]})`;
      this.svg.dataset.settling = "";
      clearTimeout(this.settling);
      this.settling = setTimeout(() => this.settle(), zoomed || this.pendingZoom ? SETTLE_MS : 0);
      return;
    }
    this.settle();
  }

  /** Draw what is shown: the viewBox set, the transform of a gesture dropped, the texts laid out again. */
  settle() {
    clearTimeout(this.settling);
    this.drawn = this.box;
    const box = this.drawn.map((v) => v.toFixed(2)).join(" ");
    if (this.svg.getAttribute("viewBox") !== box) this.svg.setAttribute("viewBox", box);
    // at rest the transform is the identity rather than none: a transform coming and going would lay the board out
    const rest = "translate(0px, 0px) scale(1)";
    if (this.svg.style.transform !== rest) this.svg.style.transform = rest;
    this.shift = [0, 0, 1];
    this.svg.removeAttribute("data-settling");
    this.svg.dataset.zoom = this.zoom.toFixed(3);
    this.svg.classList.toggle("zoomed", this.zoom > 1.001);
    const zoomed = this.pendingZoom;
    this.pendingZoom = false;
    if (zoomed) this.onZoom(this.scale);
    else this.onPan();
  }

  // ---- gestures --------------------------------------------------------------------------------------------------

  listen() {
    const svg = this.svg;
    svg.addEventListener("wheel", (event) => {
      event.preventDefault();
      const lines = event.deltaMode === 1 ? 16 : event.deltaMode === 2 ? 400 : 1;
      const delta = Math.max(-200, Math.min(200, event.deltaY * lines));
      this.zoomBy(Math.exp(-delta * 0.002), event.clientX, event.clientY, true);
    }, { passive: false });
    svg.addEventListener("pointerdown", (event) => {
      if (event.pointerType === "mouse" && event.button !== 0) return;
      this.pointers.set(event.pointerId, [event.clientX, event.clientY]);
      this.swallowClick = false;
      this.startGesture();
    });
    svg.addEventListener("pointermove", (event) => {
      if (!this.pointers.has(event.pointerId)) return;
      this.pointers.set(event.pointerId, [event.clientX, event.clientY]);
      this.moveGesture(event);
    });
    const end = (event) => {
      if (!this.pointers.delete(event.pointerId)) return;
      if (this.gesture && this.gesture.moved) this.swallowClick = true;
      this.startGesture();
      if (!this.pointers.size && this.svg.hasAttribute("data-settling")) this.settle();
    };
    svg.addEventListener("pointerup", end);
    svg.addEventListener("pointercancel", end);
    // a drag that moved the map is not a click on the territory it started on
    svg.addEventListener("click", (event) => {
      if (!this.swallowClick) return;
      this.swallowClick = false;
      event.stopPropagation();
      event.preventDefault();
    }, true);
  }

  /** A gesture starts afresh whenever a finger comes or goes: a drag with one pointer, a pinch with two. */
  startGesture() {
    const points = [...this.pointers.values()];
    const moved = Boolean(this.gesture && this.gesture.moved);
    if (!points.length) {
      this.gesture = null;
      return;
    }
    if (points.length === 1) this.gesture = { kind: "drag", last: points[0], start: points[0], moved };
    else {
      const [a, b] = points;
      this.gesture = { kind: "pinch", distance: Math.hypot(a[0] - b[0], a[1] - b[1]) || 1,
        middle: [(a[0] + b[0]) / 2, (a[1] + b[1]) / 2], moved: true };
    }
  }

  moveGesture(event) {
    const gesture = this.gesture;
    if (!gesture) return;
    const points = [...this.pointers.values()];
    if (gesture.kind === "drag") {
      const [x, y] = points[0];
      if (!gesture.moved && Math.hypot(x - gesture.start[0], y - gesture.start[1]) < DRAG_PX) return;
      // at the whole map, a finger scrolls the page (touch-action: pan-y there); a mouse has nothing to pan
      if (!gesture.moved && this.zoom <= 1.001) return;
      if (!gesture.moved && event.pointerType !== "mouse") this.svg.setPointerCapture?.(event.pointerId);
      gesture.moved = true;
      this.panBy(x - gesture.last[0], y - gesture.last[1], true);
      gesture.last = [x, y];
      return;
    }
    const [a, b] = points;
    const distance = Math.hypot(a[0] - b[0], a[1] - b[1]) || 1;
    const middle = [(a[0] + b[0]) / 2, (a[1] + b[1]) / 2];
    this.move(gesture.middle, middle, distance / gesture.distance, true);
    gesture.distance = distance;
    gesture.middle = middle;
  }

  /** The keys of a focused board: arrows pan, + and - zoom, 0 fits. Returns whether the key was taken. */
  key(event) {
    if (event.altKey || event.ctrlKey || event.metaKey) return false;
    const [w, h] = this.size;
    const moves = { ArrowLeft: [w * KEY_PAN, 0], ArrowRight: [-w * KEY_PAN, 0], ArrowUp: [0, h * KEY_PAN],
      ArrowDown: [0, -h * KEY_PAN] };
    if (moves[event.key]) {
      if (this.zoom <= 1.001) return false;
      this.panBy(...moves[event.key]);
    } else if (event.key === "+" || event.key === "=") this.zoomBy(STEP);
    else if (event.key === "-" || event.key === "_") this.zoomBy(1 / STEP);
    else if (event.key === "0") this.fit();
    else return false;
    return true;
  }

  zoomIn() {
    this.zoomBy(STEP);
  }

  zoomOut() {
    this.zoomBy(1 / STEP);
  }
}
