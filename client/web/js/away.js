// Being away from the board, on the account's screen (docs/notifications.md): how the account is told that a game
// waits for it (a mail address, a webhook with the key its deliveries are signed with, which events, the page and the
// text client), each channel paused and why, with the way to start it again or turn it off; and the account's
// vacation (days 1 to 10 from now, or ended), with until when and the days taken of those the server allows a year.
// Every refusal is the server's, in its words.

import { sentence } from "./account.js";
import { byId, h, put } from "./dom.js";

/** What an account may be told of, in the words of the form's checkboxes (the protocol's order). */
const EVENTS = [
  ["your_turn", "a turn waits for my orders"],
  ["game_started", "a game I am in starts"],
  ["game_ended", "a game I am in ends"],
  ["player_out", "a game I am in loses a player"],
  ["nudged", "someone nudges me"],
  ["named", "a game's chat names me"],
  ["challenge", "someone challenges me"],
];

/** A moment as this browser's clock reads it, with its weekday. */
function when(seconds) {
  return new Date(seconds * 1000).toLocaleString(undefined, { weekday: "short", day: "numeric", month: "short",
    hour: "2-digit", minute: "2-digit" });
}

/** Days as a person says them: 3, 2.5, 0.1. */
function days(count) {
  return String(Number(count.toFixed(1)));
}

export class AwayPanels {
  /** app: { link }. */
  constructor(app) {
    this.link = app.link;
    this.held = null; // the settings as the server last said them
    put(byId("notify-events"), h("legend", {}, "Tell me when"), ...EVENTS.map(([name, words]) =>
      h("label", { class: "check" }, h("input", { type: "checkbox", "data-event": name }), h("span", {}, words))));
    byId("notify-form").noValidate = true; // the server words what is wrong with an address, not the browser
    byId("notify-form").addEventListener("submit", (event) => {
      event.preventDefault();
      this.save();
    });
    byId("vacation-form").noValidate = true;
    byId("vacation-form").addEventListener("submit", (event) => {
      event.preventDefault();
      this.vacation(Number(byId("vacation-days").value), byId("vacation-days").value.trim());
    });
    byId("vacation-end").addEventListener("click", () => this.vacation(0, "0"));
  }

  async show() {
    for (const id of ["notify-note", "vacation-note"]) byId(id).textContent = "";
    await Promise.all([this.ask({ type: "notifications" }, "notify-note", (r) => this.settings(r)),
      this.ask({ type: "vacation", days: null }, "vacation-note", (r) => this.away(r))]);
  }

  /** One request; its answer shown by `shown`, a refusal in `note` (returned true when answered). */
  async ask(message, note, shown, done = "") {
    const reply = await this.link.request(message).catch((error) => ({ type: "error", message: error.message }));
    if (reply.type === "error") {
      byId(note).textContent = `${done ? "Nothing changed: " : ""}${sentence(reply.message)}`;
      return false;
    }
    shown(reply);
    byId(note).textContent = done;
    return true;
  }

  /** The account's channels as the server holds them. */
  settings(held) {
    this.held = held;
    byId("notify-mail").value = held.mail || "";
    byId("notify-webhook").value = held.webhook || "";
    this.channel("mail", held.mail, held.mail_paused, "Mail");
    this.channel("webhook", held.webhook, held.webhook_paused, "The webhook");
    byId("notify-secret-line").hidden = !held.webhook_secret;
    byId("notify-secret").textContent = held.webhook_secret || "";
    for (const box of document.querySelectorAll("#notify-events input[data-event]")) {
      box.checked = held.events.includes(box.dataset.event);
    }
    byId("notify-page").checked = held.page;
    byId("notify-terminal").checked = held.terminal;
  }

  /** A channel's state under its field: paused and why (set again to start it), or on (turned off with a button). */
  channel(name, value, paused, words) {
    const line = byId(`notify-${name}-state`);
    line.hidden = !value;
    line.dataset.paused = String(Boolean(paused));
    if (!value) return;
    put(line, paused ? `${words} is paused: ${sentence(paused)} ` : `${words} is on. `,
      paused ? h("button", { type: "button", class: "small", "data-restart": name,
        onclick: () => this.change({ [name]: value }, `${words} is on again.`) }, "Start it again") : null, " ",
      h("button", { type: "button", class: "small", "data-off": name,
        onclick: () => this.change({ [name]: null }, `${words} is off.`) }, "Turn it off"));
  }

  /** The form sent: the events and switches, and an address or URL only where it was changed (one set again starts
   * its channel afresh, with a new key for a webhook; one emptied turns it off). */
  save() {
    const held = this.held || {};
    const message = {
      events: [...document.querySelectorAll("#notify-events input[data-event]")].filter((b) => b.checked)
        .map((b) => b.dataset.event),
      page: byId("notify-page").checked,
      terminal: byId("notify-terminal").checked,
    };
    for (const name of ["mail", "webhook"]) {
      const typed = byId(`notify-${name}`).value.trim() || null;
      if (typed !== (held[name] || null)) message[name] = typed;
    }
    return this.change(message, "Saved.");
  }

  change(fields, done) {
    return this.ask({ type: "set_notifications", ...fields }, "notify-note", (r) => this.settings(r), done);
  }

  /** The vacation as the server says it: until when, and the days taken of the year's allowance. */
  away(status) {
    const taken = `${days(status.used_days)} of ${days(status.allowed_days)} days taken this year.`;
    byId("vacation-state").textContent = status.until === null ? `No vacation under way; ${taken}`
      : `On vacation until ${when(status.until)}; ${taken}`;
    byId("vacation-state").dataset.until = status.until === null ? "" : String(status.until);
    byId("vacation-end").hidden = status.until === null;
  }

  /** Start a vacation of `count` days (1 to 10), or end the one under way (0). */
  vacation(count, typed) {
    if (count !== 0 && !(typed && count >= 1 && count <= 10)) {
      byId("vacation-note").textContent = "A vacation lasts 1 to 10 days: write how many.";
      byId("vacation-days").focus();
      return Promise.resolve(false);
    }
    const done = count === 0 ? "Your vacation is over: your games time you out again." : "Have a good rest.";
    return this.ask({ type: "vacation", days: count }, "vacation-note", (r) => this.away(r), done);
  }
}
