// Giving orders by pointing, for any rule set: the server's legal orders (legal_orders) are filtered by the
// territories picked on the board. A first territory shows the orders that name it alone and marks the
// territories an order could go on to; a second shows the orders that name both. The count of an order is chosen
// between the least the rules accept and what the server offered. Orders that name no territory (a card, a truce
// with a player, ending a phase) are buttons of their own, with their count where they have one (the armies that
// move in after a conquest). In a turn-by-turn game (classic Risk, the grid game) each order takes effect at once:
// there is no list of the turn's orders to withdraw from, and what is picked stays picked while it still fits (the
// next roll of an attack, the next armies placed). Nothing here knows a rule: whatever is offered came from the
// server, with its words (N standing for a count the player chooses) and what issuing it costs.

import { h, put } from "./dom.js";

/** What an offered order costs, as the server reckons it ("75 technology"; a gain as "+5 units to deploy"): for a
 * count the player chooses, what the most the offer allows would cost. */
function costNote(entry, counted = false) {
  const parts = Object.entries(entry.cost || {}).map(([what, n]) => (n < 0 ? `+${-n} ${what}` : `${n} ${what}`));
  if (!parts.length) return "";
  return ` (${counted ? "up to " : ""}${parts.join(", ")})`;
}

/** The territories an order names, in its fields' order. */
function placesOf(order, territories) {
  return Object.values(order).filter((value) => typeof value === "string" && territories.has(value));
}

export class OrderEntry {
  /**
   * panel: where the choices go; actions: { issue(order), withdraw(index), move(index, to): put an order at another
   * place, commit(), select(picked, targets), choosing(shown): whether what is picked offers choices now }.
   */
  constructor(panel, actions) {
    this.panel = panel;
    this.actions = actions;
    this.legal = [];
    this.picked = [];
    this.orders = [];
    this.texts = [];
    this.territories = new Set();
    this.enabled = false;
    this.simultaneous = true;
    this.note = "";
    this.keyboard = false;
  }

  /** Simultaneous turns (orders listed until committed) or turn by turn (each order takes effect at once). */
  setMode(simultaneous) {
    this.simultaneous = simultaneous;
  }

  setContext(territories) {
    this.territories = territories;
  }

  /** The legal orders just received (each {order, count_field, least}), and whether the player may act now. */
  setLegal(legal, enabled) {
    this.legal = legal.map((entry) => ({ ...entry, places: placesOf(entry.order, this.territories) }));
    this.enabled = enabled;
    // what is picked stays while it still fits (or while someone else plays: it may fit again on one's turn)
    if (enabled && this.picked.length && !this.candidates().length && !this.targets().length) this.picked = [];
    this.render();
  }

  /** The player's orders this turn, and each one's words as the server said them. */
  setOrders(orders, texts) {
    this.orders = orders;
    this.texts = texts;
    this.render();
  }

  clear() {
    this.picked = [];
    this.note = "";
    this.render();
  }

  /** A territory was picked on the board: with the keyboard (Enter or Space), the focus goes on to its count; with a
   * click or a tap it stays where it was (a phone would open its keyboard for a count box it focused). */
  pick(name, keyboard = false) {
    this.note = "";
    this.keyboard = keyboard;
    const [first] = this.picked;
    if (this.picked.length === 1 && first === name) {
      this.picked = [];
    } else if (this.picked.length === 1 && this.legal.some((e) => e.places.includes(first) && e.places.includes(name))) {
      this.picked = [first, name];
    } else {
      this.picked = [name];
      if (!this.legal.some((e) => e.places.includes(name))) {
        this.note = this.enabled ? `No order you can give now names ${name}.` : "";
      }
    }
    this.render();
  }

  /** The legal orders that fit what is picked, those in the picked order first. */
  candidates() {
    const [a, b] = this.picked;
    if (!a) return [];
    if (!b) return this.legal.filter((e) => e.places.length === 1 && e.places[0] === a);
    const both = this.legal.filter((e) => e.places.length === 2 && e.places.includes(a) && e.places.includes(b));
    return [...both.filter((e) => e.places[0] === a), ...both.filter((e) => e.places[0] !== a)];
  }

  /** Where an order could go on to from the one territory picked. */
  targets() {
    const [a] = this.picked;
    if (!a || this.picked.length !== 1) return [];
    const found = new Set();
    for (const entry of this.legal) {
      if (entry.places.length > 1 && entry.places.includes(a)) {
        for (const place of entry.places) if (place !== a) found.add(place);
      }
    }
    return [...found];
  }

  choice(entry, index, key = "issue") {
    const count = entry.count_field ? entry.order[entry.count_field] : null;
    const label = entry.text + costNote(entry);
    const attr = `data-${key}`;
    if (count === null || count === undefined) {
      return h("li", { class: "choice", "data-kind": entry.order.kind },
        h("button", { type: "button", [attr]: String(index), onclick: () => this.actions.issue(entry.order) },
          label));
    }
    const least = Math.min(entry.least ?? 1, count);
    const number = h("input", {
      type: "number", min: least, max: count, value: count, step: 1, "aria-label": `${entry.count_field} (${least} to ${count})`,
      [key === "issue" ? "data-count" : "data-loose-count"]: String(index),
    });
    const slider = h("input", { type: "range", min: least, max: count, value: count, step: 1, tabindex: "-1", "aria-hidden": "true" });
    slider.addEventListener("input", () => { number.value = slider.value; });
    number.addEventListener("input", () => { slider.value = number.value; });
    const issue = () => {
      const n = Math.round(Number(number.value));
      if (!Number.isFinite(n) || n < least || n > count) {
        this.note = `Choose from ${least} to ${count}.`;
        this.render();
        return;
      }
      this.actions.issue({ ...entry.order, [entry.count_field]: n });
    };
    number.addEventListener("keydown", (event) => {
      if (event.key === "Enter") {
        event.preventDefault();
        issue();
      }
    });
    return h("li", { class: "choice", "data-kind": entry.order.kind },
      h("label", {}, h("span", { class: "what" }, entry.text.replace(/\bN\b/, "…") + costNote(entry, true)), " ",
        number, slider),
      h("button", { type: "button", [attr]: String(index), onclick: issue }, key === "issue" ? "Issue" : "Go"));
  }

  render() {
    const targets = this.targets();
    this.actions.select(this.picked, targets);
    this.actions.choosing?.(this.enabled && this.picked.length > 0);
    const choices = this.candidates();
    const loose = this.legal.filter((e) => e.places.length === 0);
    const parts = [];
    if (!this.enabled) {
      parts.push(h("p", { class: "hint" }, "Nothing to do for now."));
    } else if (!this.picked.length) {
      // the map is where to start only while some order names a territory (a move-in's armies name none)
      if (this.legal.some((e) => e.places.length)) {
        parts.push(h("p", { class: "hint" }, "Pick a territory on the map (click it, or Tab to it and press Enter)."));
      } else if (!this.legal.length) parts.push(h("p", { class: "hint" }, "No order is open to you now."));
    } else {
      parts.push(h("p", { class: "picked", "data-picked": this.picked.join(" → ") },
        `Picked: ${this.picked.join(" → ")}`, " ",
        h("button", { type: "button", class: "small", onclick: () => this.clear() }, "Clear (Esc)")));
    }
    if (this.note) parts.push(h("p", { class: "note", role: "status" }, this.note));
    if (choices.length) {
      parts.push(h("ul", { class: "choices" }, choices.map((entry, i) => this.choice(entry, i))));
    }
    if (targets.length) {
      parts.push(h("p", { class: "hint" }, "Then pick one of the marked territories:"),
        h("div", { class: "targets" }, targets.map((name) =>
          h("button", { type: "button", class: "small", "data-target": name, onclick: () => this.pick(name) }, name))));
    }
    if (loose.length && this.enabled) {
      parts.push(h("ul", { class: "loose" }, loose.map((entry, i) => this.choice(entry, i, "loose"))));
    }
    if (!this.simultaneous) {
      put(this.panel, ...parts);
      this.keepFocus();
      return;
    }
    parts.push(h("h3", {}, "Your orders this turn"));
    const count = this.orders.length;
    // the orders are carried out in this order: each may go up or down one place (the server checks it again)
    const shift = (i, to, symbol, words) => (this.enabled && to >= 0 && to < count ? h("button", {
      type: "button", class: "small shift", "data-move": words, "aria-label": `${words}: ${this.texts[i] ?? ""}`,
      title: words, onclick: () => this.actions.move(i, to),
    }, symbol) : null);
    parts.push(count
      ? h("ol", { class: "orders" }, this.orders.map((order, i) => h("li", { "data-order-index": String(i) },
        h("span", {}, this.texts[i] ?? order.kind), " ",
        h("span", { class: "order-buttons" }, shift(i, i - 1, "↑", "move up"), shift(i, i + 1, "↓", "move down"),
          this.enabled ? h("button", {
            type: "button", class: "small", "aria-label": `withdraw ${this.texts[i] ?? order.kind}`,
            onclick: () => this.actions.withdraw(i),
          }, "Withdraw") : null))))
      : h("p", { class: "hint", "data-no-orders": "" }, "None yet."));
    if (count > 1 && this.enabled) {
      parts.push(h("p", { class: "hint" }, "Your orders are carried out in this order: ↑ and ↓ change it."));
    }
    put(this.panel, ...parts);
    this.keepFocus();
  }

  keepFocus() {
    const firstCount = this.panel.querySelector("[data-count]") || this.panel.querySelector("[data-issue]");
    if (firstCount && this.keyboard && this.picked.length && this.panel.contains(document.activeElement) === false
        && document.activeElement?.closest?.(".territory")) {
      // keep the keyboard flowing: after picking with Enter, the count is next
      firstCount.focus();
    }
  }
}
