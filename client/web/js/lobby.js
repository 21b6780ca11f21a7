// The lobby: the server's games a page at a time (join, watch, return to a seat kept in this browser, or replay a
// finished game, listed or by its id), the lobby's chat, and a new game's form: the rules with their options, a map
// of the server's or a file, players, computer players and a time limit.

import { refusalWords } from "./account.js";
import { ChatPanel } from "./chat.js";
import { byId, h, put } from "./dom.js";
import { paceNotes } from "./pace.js";
import { lastName, nameBox, saveName, savedSeats } from "./seats.js";
import { SettingsFields, offered } from "./settings-form.js";

const PAGE = 15;
const MAX_UPLOAD = 30000;

/** What makes a game unlike another of its rule set, as the text client's game list says it: its options as the
 * server words them, its time limit, its computer players. */
export function settingsNotes(game) {
  const settings = game.settings;
  const notes = [...(game.notes || [])];
  notes.push(...paceNotes(settings));
  if (settings.bots) notes.push(`${settings.bots} computer player${settings.bots === 1 ? "" : "s"} (${settings.bot_strategy})`);
  return notes;
}

export class LobbyScreen {
  /** app: { link, account, join(gameId, name, group), watch(gameId), play(gameId, player), showReplay(gameId, sight),
   * showSignIn(made) }. */
  constructor(app) {
    this.app = app;
    this.link = app.link;
    this.offset = 0;
    this.total = 0;
    this.settings = new SettingsFields({ ruleset: byId("ruleset"), blurb: byId("ruleset-blurb"),
      mapChoice: byId("map-choice"), map: byId("map"), players: byId("players"), bots: byId("bots"),
      strategy: byId("strategy"), turnSeconds: byId("turn-seconds"), options: byId("options"), rated: byId("rated") });
    byId("name").value = lastName();
    byId("name").addEventListener("change", () => {
      if (!this.app.account.name) saveName(byId("name").value.trim());
    });
    byId("you-sign-up").addEventListener("click", () => this.app.showSignIn(true));
    byId("you-sign-in").addEventListener("click", () => this.app.showSignIn(false));
    byId("refresh").addEventListener("click", () => this.refresh());
    byId("newer").addEventListener("click", () => { this.offset = Math.max(0, this.offset - PAGE); this.refresh(); });
    byId("older").addEventListener("click", () => { this.offset += PAGE; this.refresh(); });
    byId("create").addEventListener("submit", (event) => { event.preventDefault(); this.create(); });
    byId("replay-form").addEventListener("submit", (event) => {
      event.preventDefault();
      const gameId = byId("replay-id").value.trim();
      if (gameId) this.app.showReplay(gameId, null);
    });
    this.chat = new ChatPanel(byId("lobby-chat"), (text) => {
      const name = this.name();
      if (!name) return Promise.resolve({ type: "error", message: "Write your name first: it is how the others will "
        + "know you." });
      return this.link.request({ type: "chat", game_id: null, text, name });
    });
  }

  /** The lobby goes off screen: the page stops watching it (its chat, the games created). */
  hide() {
    this.link.request({ type: "list_games", offset: 0, limit: 1, watch: false }).catch(() => {});
  }

  /** A word said in the lobby (to whoever has it on screen). */
  heard(said) {
    this.chat.add(said.player, said.text, { "data-from": said.player });
  }

  note(text) {
    byId("lobby-note").textContent = text || "";
  }

  /** A refusal in the server's words; where the server needs an account to play, how to make one. */
  refused(reply) {
    this.note(refusalWords(reply));
    if (reply.code === "account-needed") byId("you-sign-up").focus();
  }

  /** Signed in or out (or a server's accounts heard of): the name one plays under, and the way to an account. */
  accountChanged() {
    const account = this.app.account;
    nameBox(byId("name"), account.name);
    byId("you-account").hidden = !account.on;
    byId("you-sign-up").hidden = Boolean(account.name);
    byId("you-sign-in").hidden = Boolean(account.name);
    byId("you-account-text").textContent = account.name
      ? `You play as ${account.name}, your account's name: your games are in My games, on any device.`
      : account.mode === "required" ? "This server needs an account to create or join a game (watching needs none)."
        : "An account keeps your games on any device; a guest plays without one.";
  }

  name() {
    if (this.app.account.name) return this.app.account.name;
    const name = byId("name").value.trim();
    if (!name) {
      this.note("Write your name first.");
      byId("name").focus();
      return null;
    }
    saveName(name);
    return name;
  }

  async show(note) {
    this.note(note);
    try {
      if (!this.rulesets.length) await this.loadForm();
      await this.refresh();
    } catch (error) {
      this.note(error.message);
    }
  }

  /** The rule sets the new game form offers (none until it is filled). */
  get rulesets() {
    return this.settings.rulesets;
  }

  async loadForm() {
    this.settings.fill(await offered(this.link));
  }

  async refresh() {
    // watching the lobby: told of new games, and hearing its chat even while games go on off screen
    const reply = await this.link.request({ type: "list_games", offset: this.offset, limit: PAGE, watch: true });
    if (reply.type !== "games") {
      this.note(reply.message);
      return;
    }
    this.total = reply.total;
    const mine = savedSeats();
    const account = this.app.account.name;
    const rows = reply.games.map((game) => {
      const seats = mine.filter((s) => s.gameId === game.game_id);
      // the account's seat, opened by the account on any device (the server says so if it is not the account's)
      if (account && !seats.some((s) => s.player === account) && game.seats.some((s) => s.name === account)) {
        seats.push({ gameId: game.game_id, player: account });
      }
      return this.row(game, seats);
    });
    put(byId("games").tBodies[0], ...(rows.length ? rows
      : [h("tr", {}, h("td", { colspan: "6", class: "hint" }, "No games yet: create one below."))]));
    const last = Math.min(this.total, this.offset + reply.games.length);
    byId("page-info").textContent = this.total ? `${this.offset + 1}–${last} of ${this.total}` : "";
    byId("newer").disabled = this.offset === 0;
    byId("older").disabled = last >= this.total;
  }

  row(game, seats) {
    const names = game.seats.map((s) => s.name).join(", ");
    const state = game.status === "lobby" ? `waiting (${game.free} free)`
      : game.status === "finished" ? (game.winner ? `${game.winner} won` : "draw") : `turn ${game.turn}, ${game.phase}`;
    const actions = h("td", { class: "row-actions" });
    for (const seat of seats) {
      actions.append(h("button", { type: "button", "data-return": seat.player,
        onclick: () => this.app.play(game.game_id, seat.player) }, `Return as ${seat.player}`));
    }
    const account = this.app.account.name;
    // signed in, one sits once (under the account's name): a game the account sits in offers no second seat
    if (game.status === "lobby" && game.free > 0 && !(account && seats.some((s) => s.player === account))) {
      actions.append(h("button", { type: "button", "data-join": game.game_id,
        onclick: () => this.join(game, actions) }, "Join"));
    }
    actions.append(h("button", { type: "button", class: "small", "data-watch": game.game_id,
      onclick: () => this.app.watch(game.game_id) }, "Watch"));
    if (game.status === "finished") {
      actions.append(h("button", { type: "button", class: "small", "data-replay": game.game_id,
        onclick: () => this.app.showReplay(game.game_id, null) }, "Replay"));
    }
    const notes = settingsNotes(game);
    return h("tr", { "data-game-id": game.game_id, "data-status": game.status },
      h("td", {}, game.game_id),
      h("td", {}, game.ruleset_title || game.settings.ruleset,
        notes.length ? h("small", { "data-notes": "" }, ` ${notes.join("; ")}`) : null),
      h("td", {}, game.map_name),
      h("td", {}, `${game.seats.length}/${game.settings.players}`, names ? h("small", {}, ` ${names}`) : null),
      h("td", {}, state), actions);
  }

  async join(game, cell) {
    const name = this.name();
    if (!name) return;
    if (game.groups && game.groups.length) {
      const choice = h("select", { "aria-label": "your starting group", "data-group-choice": "" },
        game.groups.map((group, i) => h("option", { value: String(i) }, `${i + 1}: ${group.join(", ")}`)));
      put(cell, choice, h("button", { type: "button", onclick: () => this.sitDown(game.game_id, name, Number(choice.value)) },
        "Sit down"));
      choice.focus();
      return;
    }
    await this.sitDown(game.game_id, name, null);
  }

  async sitDown(gameId, name, group) {
    try {
      const reply = await this.app.join(gameId, name, group);
      if (reply.type === "error") this.refused(reply);
    } catch (error) {
      this.note(error.message);
    }
  }

  async create() {
    const ruleset = this.settings.ruleset;
    if (!ruleset) return;
    const sit = byId("sit-down").checked;
    const name = sit ? this.name() : null;
    if (sit && !name) return;
    const settings = this.settings.read();
    const message = { type: "create_game", settings };
    const file = byId("map-file").files[0];
    if (!ruleset.own_map && file) {
      const text = await file.text();
      if (text.length > MAX_UPLOAD) {
        this.note(`That map file is too large (${text.length} characters; at most ${MAX_UPLOAD}).`);
        return;
      }
      message.map_upload = { name: file.name.slice(0, 64), text };
      settings.map = null;
    }
    try {
      const reply = await this.link.request(message);
      if (reply.type !== "game_created") {
        this.refused(reply);
        return;
      }
      byId("map-file").value = "";
      const game = reply.game;
      if (game.settings.bots >= game.settings.players) { // no seat left for a person: the game is there to watch
        this.note(`Every seat of game ${game.game_id} is a computer's: you watch it.`);
        await this.app.watch(game.game_id);
      } else if (sit) await this.sitDown(game.game_id, name, game.groups && game.groups.length ? 0 : null);
      else {
        this.note(`Game ${reply.game.game_id} created.`);
        await this.refresh();
      }
    } catch (error) {
      this.note(error.message);
    }
  }
}
