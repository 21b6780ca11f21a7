// Challenges (docs/ratings.md): the invitations waiting for the account, each with who challenged it and the game's
// rules, map and players, answered Accept (the account's seat comes on screen) or Decline; and a form that challenges
// an account by name to a new game of the settings chosen (the new game form's fields), the challenger seated in it.
// Both live on the account's home; a profile's Challenge button brings the form there with the name filled in.

import { sentence } from "./account.js";
import { h, put } from "./dom.js";
import { settingsNotes } from "./lobby.js";
import { titleOf } from "./ratings.js";
import { SettingsFields, offered } from "./settings-form.js";

/** A challenge's game in a few words: its rules and map, its players and free seats, what makes it unlike others. */
export function challengeGame(invitation) {
  const game = invitation.game;
  if (!game) return `game ${invitation.game_id}`; // another node plays it: accepting tells the rest
  const seated = game.seats.map((s) => s.name);
  const rules = game.ruleset_title || titleOf(game.settings.ruleset);
  const notes = settingsNotes(game);
  if (game.settings.rated) notes.unshift("rated");
  return `${rules} on ${game.map_name}, ${game.settings.players} players (${seated.join(", ") || "nobody"} seated, `
    + `${game.free} seat${game.free === 1 ? "" : "s"} free)` + (notes.length ? `; ${notes.join("; ")}` : "");
}

export class Challenges {
  /** app: { link, playAccountSeat(gameId, player) }; list, form: the home's elements for each (built here);
   * refresh: lists the home again. */
  constructor(app, list, form, refresh) {
    this.app = app;
    this.link = app.link;
    this.list = list;
    this.refresh = refresh;
    this.loaded = false;
    this.name = h("input", { id: "challenge-name", maxlength: 20, autocomplete: "off", autocapitalize: "none",
      spellcheck: "false", placeholder: "an account's name" });
    const number = (id, min, max, value) => h("input", { id, type: "number", min, max, value });
    const f = {
      ruleset: h("select", { id: "challenge-ruleset" }),
      blurb: h("p", { class: "hint" }),
      map: h("select", { id: "challenge-map" }),
      players: number("challenge-players", 2, 8, 2),
      bots: number("challenge-bots", 0, 7, 0),
      strategy: h("select", { id: "challenge-strategy" }),
      turnSeconds: h("input", { id: "challenge-turn-seconds", type: "number", min: 1, step: 1 }),
      options: h("fieldset", { id: "challenge-options" }, h("legend", {}, "Options of the rules")),
      rated: h("input", { id: "challenge-rated", type: "checkbox" }),
    };
    f.mapChoice = h("label", {}, "Map ", f.map);
    this.settings = new SettingsFields(f, "challenge-option-");
    this.note = h("p", { id: "challenge-note", class: "note", role: "status" });
    this.submit = h("button", { type: "submit", id: "challenge-send" }, "Challenge");
    put(form,
      h("h2", { id: "challenge-title" }, "Challenge someone"),
      h("p", { class: "hint" }, "A new game with you in its first seat: the account you name is told, and accepts or "
        + "declines from its home. Others may join its free seats meanwhile."),
      h("form", { id: "challenge-form", onsubmit: (event) => { event.preventDefault(); this.send(); } },
        h("label", {}, "Whom (an account's name) ", this.name),
        h("label", {}, "Rules ", f.ruleset), f.blurb, f.mapChoice,
        h("label", {}, "Players ", f.players),
        h("label", {}, "Turn time limit (seconds, empty: none) ", f.turnSeconds),
        h("label", { class: "check" }, f.rated, h("span", {}, "Rated (the result changes both ratings)")),
        h("details", { id: "challenge-more" }, h("summary", {}, "Computer players and the rules' options"),
          h("label", {}, "Computer players ", f.bots), h("label", {}, "How they play ", f.strategy), f.options),
        h("p", { class: "actions" }, this.submit)),
      this.note);
  }

  /** The form's choices, asked of the server once. */
  async load() {
    if (this.loaded) return;
    this.settings.fill(await offered(this.link));
    this.loaded = true;
  }

  /** The form, with a name filled in (a profile's Challenge), ready to send. */
  async prepare(name) {
    this.name.value = name;
    this.note.textContent = "";
    await this.load();
    this.name.closest("section")?.scrollIntoView({ block: "start" });
    this.submit.focus();
  }

  async send() {
    const name = this.name.value.trim();
    if (!name) {
      this.note.textContent = "Write the name of the account to challenge.";
      this.name.focus();
      return;
    }
    if (!this.settings.ruleset) return;
    this.submit.disabled = true;
    try {
      const reply = await this.link.request({ type: "challenge", name, settings: this.settings.read() })
        .catch((error) => ({ type: "error", message: error.message }));
      if (reply.type !== "challenge_sent") {
        this.note.textContent = `Nobody was challenged: ${sentence(reply.message)}`;
        return;
      }
      this.note.textContent = `You challenged ${reply.to}: game ${reply.game_id} waits for them.`;
      this.name.value = "";
      await this.app.playAccountSeat(reply.game_id, this.app.account.name);
    } finally {
      this.submit.disabled = false;
    }
  }

  /** The challenges waiting for the account (the home's `my_games.challenges`). */
  show(challenges) {
    this.list.hidden = !challenges.length;
    put(this.list, h("h2", { id: "challenges-title" }, "Challenges"),
      h("ul", { class: "challenges" }, ...challenges.map((c) => h("li", { "data-challenge": c.game_id },
        h("span", {}, h("strong", {}, c.by), ` challenges you: ${challengeGame(c)}.`),
        h("span", { class: "row-actions" },
          h("button", { type: "button", "data-accept": c.game_id, onclick: () => this.answer(c, true) }, "Accept"),
          h("button", { type: "button", class: "small", "data-decline": c.game_id, onclick: () => this.answer(c, false) },
            "Decline"))))),
      h("p", { id: "challenges-note", class: "note", role: "status" }));
  }

  async answer(invitation, accept) {
    const reply = await this.link.request({ type: "answer_challenge", game_id: invitation.game_id, accept })
      .catch((error) => ({ type: "error", message: error.message }));
    if (reply.type !== "challenge_answered") {
      this.list.querySelector("#challenges-note").textContent = sentence(reply.message);
      return;
    }
    if (accept) {
      await this.app.playAccountSeat(reply.game_id, reply.name);
      return;
    }
    await this.refresh(`You declined ${invitation.by}'s challenge (game ${invitation.game_id}).`);
  }
}
