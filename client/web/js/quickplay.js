// Quick play: one button asks the server for a game by rules, number of players and pace; the wait shows the rating
// window (wider the longer one waits) and who is queued for what across the server, until the server seats the
// player in a game (then it comes on screen) or they stop waiting. Asking needs an account (signed in).

import { h, put } from "./dom.js";
import { RULESETS as RULES, titleOf } from "./ratings.js";

export class QuickPlayPanel {
  /** app: { link, playAccountSeat(gameId, player) }; root: the panel's section (built here). */
  constructor(app, root) {
    this.app = app;
    this.link = app.link;
    this.root = root;
    this.ruleset = h("select", { id: "quick-ruleset" }, ...RULES.map(([n, t]) => h("option", { value: n }, t)));
    this.players = h("input", { id: "quick-players", type: "number", min: 2, max: 8, value: 3 });
    this.pace = h("select", { id: "quick-pace" }, h("option", { value: "live" }, "live (minutes a turn)"),
      h("option", { value: "slow" }, "slow (hours a turn)"));
    this.computers = h("input", { id: "quick-computers", type: "number", min: 5, max: 3600, placeholder: "never" });
    this.wait = h("div", { id: "quick-wait", "aria-live": "polite" });
    this.note = h("p", { id: "quick-note", class: "note", role: "status" });
    this.stop = h("button", { type: "button", id: "quick-stop", hidden: true, onclick: () => this.leave() }, "Stop waiting");
    put(root,
      h("h2", { id: "quick-title" }, "Quick play"),
      h("p", { class: "hint" }, "A rated game with players of about your rating, as soon as there are enough."),
      h("form", { id: "quick-form", onsubmit: (event) => { event.preventDefault(); this.ask(); } },
        h("label", {}, "Rules ", this.ruleset), h("label", {}, "Players ", this.players),
        h("label", {}, "Pace ", this.pace),
        h("label", {}, "Computers fill it after (seconds; then not rated) ", this.computers),
        h("button", { type: "submit", id: "quick-go" }, "Find me a game")),
      this.stop, this.wait, this.note);
  }

  async ask() {
    const after = this.computers.value ? Number(this.computers.value) : null;
    const reply = await this.link.request({ type: "quick_play", ruleset: this.ruleset.value,
      players: Number(this.players.value), pace: this.pace.value, computers_after: after });
    if (reply.type === "error") {
      this.note.textContent = reply.message;
      return;
    }
    this.note.textContent = "";
    this.take(reply);
  }

  async leave() {
    await this.link.request({ type: "leave_quick_play" }).catch(() => {});
    put(this.wait);
    this.stop.hidden = true;
    this.note.textContent = "You stopped waiting.";
  }

  /** quick_play_waiting (the wait) or quick_play_found (seated: the game comes on screen). */
  take(message) {
    if (message.type === "quick_play_found") {
      put(this.wait);
      this.stop.hidden = true;
      this.note.textContent = `Seated in game ${message.game_id}${message.rated ? " (rated)" : ""}.`;
      this.app.playAccountSeat(message.game_id, message.player);
      return;
    }
    this.stop.hidden = false;
    const seconds = Math.round(message.waited);
    put(this.wait,
      h("p", { id: "quick-waiting" }, `Waiting ${seconds} s for a ${message.pace} game of ${message.players} `
        + `(${titleOf(message.ruleset)}), your rating ${message.rating}, players within ${message.window} of each other`
        + (message.computers_in !== null ? `; computers fill it in ${Math.ceil(message.computers_in)} s` : "") + "."),
      h("ul", { id: "quick-queued", class: "queued" }, ...message.queued.map((q) => h("li", {},
        `${titleOf(q.ruleset)}, ${q.players} players, ${q.pace}: ${q.names.join(", ")}`))));
  }
}
