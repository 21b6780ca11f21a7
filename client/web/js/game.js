// One game on screen, played or watched: its map drawn once, its view kept whole and patched by each update, the
// players' state, the turn's timer, the orders by pointing, the log, and the end with its charts and rematch.

import { Board } from "./board.js";
import { statisticsCharts } from "./chart.js";
import { byId, h, put } from "./dom.js";
import { GameLog } from "./log.js";
import { OrderEntry } from "./orders.js";
import { playerStyles, continentTint } from "./palette.js";
import { applyPatch } from "./patch.js";
import { rulesetModule } from "./rulesets/index.js";
import { generic } from "./rulesets/generic.js";
import { forgetSeat, lastName, loadHistory, saveHistory, saveName, saveSeat } from "./seats.js";

const FRAMEWORK = new Set(["game_created", "player_joined", "player_left", "game_started", "player_committed",
  "time_ran_out", "orders_revealed", "seat_handed_over", "seat_taken_back", "rematch_requested", "rematch_declined",
  "rematch_impossible", "rematch_started"]);

export class GameScreen {
  /** app: { link, showLobby(note), showGame(gameId, player) }. */
  constructor(app) {
    this.app = app;
    this.link = app.link;
    this.root = byId("game");
    this.board = new Board(byId("board"), { onPick: (name) => this.entry.pick(name) });
    this.log = new GameLog(byId("log"));
    this.entry = new OrderEntry(byId("order-entry"), {
      issue: (order) => this.issue(order),
      withdraw: (index) => this.withdraw(index),
      select: (picked, targets) => this.board.select(picked, targets),
    });
    byId("commit").addEventListener("click", () => this.commit());
    byId("rematch").addEventListener("click", () => this.rematch());
    byId("to-lobby").addEventListener("click", () => this.app.showLobby());
    byId("leave").addEventListener("click", () => this.leave());
    byId("sit-form").addEventListener("submit", (event) => {
      event.preventDefault();
      this.sitDown();
    });
    this.root.addEventListener("keydown", (event) => {
      if (event.key === "Escape") this.entry.clear();
    });
    setInterval(() => this.tick(), 500);
    this.reset(null, null);
  }

  reset(gameId, player) {
    this.gameId = gameId;
    this.player = player;
    this.seq = 0;
    this.summary = null;
    this.map = null;
    this.view = null;
    this.module = generic;
    this.moduleName = null;
    this.deadline = null;
    this.styles = new Map();
    this.history = gameId ? loadHistory(gameId) : [];
    this.legalAsked = null;
    this.legalAgain = false;
    this.lastStep = null;
    this.territoryNames = new Set();
    this.log.clear();
    this.entry.legal = [];
    this.entry.orders = [];
    this.entry.picked = [];
    this.entry.enabled = false;
    put(byId("board"));
    put(byId("legend"));
    put(byId("extras"));
    byId("result").hidden = true;
    byId("order-note").textContent = "";
    this.root.dataset.gameId = gameId || "";
    this.root.dataset.you = player || "";
    for (const key of ["phase", "status", "winner"]) this.root.dataset[key] = "";
    this.root.dataset.turn = "0";
  }

  // ---- taking a seat or watching -----------------------------------------------------------------------------

  async join(gameId, name, group) {
    this.reset(gameId, name);
    const message = { type: "join_game", game_id: gameId, name };
    if (group !== null && group !== undefined) message.group = group;
    const reply = await this.link.request(message);
    if (reply.type !== "joined") {
      this.reset(null, null);
      return reply;
    }
    saveSeat(reply.game_id, reply.player, reply.token);
    this.player = reply.player;
    return reply;
  }

  async resume(gameId, player, token, lastSeq) {
    if (this.gameId !== gameId || this.player !== player) this.reset(gameId, player);
    const reply = await this.link.request({ type: "resume", game_id: gameId, token, last_seq: lastSeq });
    if (reply.type === "error" && (reply.code === "bad-token" || reply.code === "no-such-game")) {
      forgetSeat(gameId, player);
    }
    if (reply.type === "resumed") this.askOrders();
    return reply;
  }

  async watch(gameId, lastSeq = 0) {
    if (this.gameId !== gameId || this.player !== null) this.reset(gameId, null);
    return this.link.request({ type: "watch_game", game_id: gameId, last_seq: lastSeq });
  }

  /** Back on the link after it dropped: take the seat back, or watch again, with what was missed. */
  async reconnected(token) {
    if (!this.gameId) return;
    const reply = this.player ? await this.resume(this.gameId, this.player, token, this.seq)
      : await this.watch(this.gameId, this.seq);
    if (reply.type === "error") this.app.showLobby(`Could not return to game ${this.gameId}: ${reply.message}`);
  }

  // ---- what the server sends -----------------------------------------------------------------------------------

  take(message) {
    if (message.type === "resumed" && !message.ref) {
      this.rematchStarted(message);
      return;
    }
    if (message.game_id !== this.gameId) return;
    if (message.type === "game_map") this.takeMap(message.map);
    else if (message.type === "update") this.takeUpdate(message);
    else if (message.type === "error") this.say(message.message);
  }

  takeMap(map) {
    this.map = map;
    this.territoryNames = new Set(map.territories.map((t) => t.name));
    this.board.draw(map, this.styles);
    if (this.view) this.board.update(this.view.territories);
    this.renderLegend();
  }

  takeUpdate(update) {
    const fresh = update.events.filter((entry) => entry.seq > this.seq);
    this.seq = Math.max(this.seq, update.seq);
    const before = this.summary;
    this.summary = update.game;
    if (update.you) this.player = update.you;
    if (this.moduleName !== update.game.settings.ruleset) {
      this.moduleName = update.game.settings.ruleset;
      this.module = rulesetModule(this.moduleName);
    }
    const names = update.game.seats.map((seat) => seat.name);
    if (names.join("\u0000") !== [...this.styles.keys()].join("\u0000")) {
      this.styles = playerStyles(names);
      this.board.styles = this.styles;
      if (this.view) this.board.update(this.view.territories);
    }
    let changed = null;
    if (update.view) {
      this.view = update.view;
      changed = update.view.territories;
    } else if (update.view_patch && this.view) {
      this.view = applyPatch(this.view, update.view_patch);
      changed = update.view_patch.territories;
    }
    if (update.game.status === "lobby") this.view = null;
    this.deadline = update.deadline_in === null ? null : performance.now() + update.deadline_in * 1000;
    if (changed && this.view) {
      // a patch names only the fields that changed: draw each such territory from the whole view
      const whole = this.view.territories || {};
      this.board.update(Object.fromEntries(Object.keys(changed).map((name) => [name, whole[name]])));
    }
    const told = fresh.filter((entry) => !FRAMEWORK.has(entry.event.kind));
    if (told.length) {
      const ctx = { territories: this.territoryNames };
      this.board.mark(told.flatMap((entry) => this.module.marks(entry.event, ctx)));
    }
    if (update.snapshot) this.log.note("(earlier entries were not sent: this is where the game stands)");
    this.log.add(fresh, this.module, true);
    this.sample();
    this.render(before);
  }

  sample() {
    const view = this.view;
    if (!view || !view.players || typeof view.turn !== "number") return;
    const players = {};
    for (const [name, p] of Object.entries(view.players)) {
      if (typeof p.territories === "number" && typeof p.units === "number") {
        players[name] = { territories: p.territories, units: p.units };
      }
    }
    if (!Object.keys(players).length) return;
    const last = this.history[this.history.length - 1];
    if (last && last.turn === view.turn) last.players = players;
    else this.history.push({ turn: view.turn, players });
    saveHistory(this.gameId, this.history);
  }

  // ---- showing -------------------------------------------------------------------------------------------------

  get playing() {
    return this.summary && this.summary.status === "playing";
  }

  seat(name) {
    return this.summary ? this.summary.seats.find((seat) => seat.name === name) : null;
  }

  render(before) {
    const game = this.summary;
    const root = this.root;
    root.dataset.phase = game.phase;
    root.dataset.status = game.status;
    root.dataset.turn = String(game.turn);
    root.dataset.winner = game.winner || "";
    root.dataset.you = this.player || "";
    root.dataset.step = String(game.step);
    const mine = this.seat(this.player);
    put(byId("game-title"), `Game ${game.game_id}: ${game.ruleset_title || game.settings.ruleset} on ${game.map_name}`);
    let state;
    if (game.status === "lobby") state = `Waiting for ${game.free} more player${game.free === 1 ? "" : "s"} to join`;
    else if (game.status === "finished") state = game.winner ? `${game.winner} won` : "The game ended in a draw";
    else state = `Turn ${game.turn}, ${this.module.phase(game.phase)}` + (mine && mine.awaited
      ? (game.simultaneous ? " — your orders" : " — your move") : mine && mine.committed ? " — waiting for the others" : "");
    put(byId("game-state"), state, this.player ? "" : " (watching)");
    this.renderPlayers();
    this.renderExtras();
    this.renderLegend();
    const acting = Boolean(this.playing && mine && mine.awaited && !mine.eliminated);
    byId("commit").hidden = !(acting && game.simultaneous);
    byId("order-section").hidden = !this.player;
    byId("leave").hidden = !(game.status !== "playing" || !this.player || (mine && mine.eliminated));
    if (!acting) this.entry.setLegal([], false);
    else if (!before || before.step !== game.step || before.turn !== game.turn || !this.entry.enabled) {
      if (before && (before.step !== game.step || before.turn !== game.turn)) {
        this.entry.picked = [];
        this.entry.orders = [];
        this.say("");
      }
      this.askLegal();
      if (before && before.step !== game.step) this.askOrders();
    }
    this.renderResult();
    this.renderSeat();
  }

  /** A watcher of a game still seating players may sit down in it from here. */
  renderSeat() {
    const game = this.summary;
    const open = !this.player && game.status === "lobby" && game.free > 0;
    byId("sit").hidden = !open;
    if (!open) return;
    const name = byId("sit-name");
    if (!name.value) name.value = lastName();
    const groups = game.groups || [];
    byId("sit-group-label").hidden = !groups.length;
    const select = byId("sit-group");
    if (select.options.length !== groups.length) {
      put(select, ...groups.map((group, i) => h("option", { value: String(i) }, `${i + 1}: ${group.join(", ")}`)));
    }
  }

  async sitDown() {
    const name = byId("sit-name").value.trim();
    if (!name) {
      byId("sit-note").textContent = "Write your name first.";
      return;
    }
    saveName(name);
    const groups = this.summary && this.summary.groups ? this.summary.groups : [];
    const reply = await this.app.join(this.gameId, name, groups.length ? Number(byId("sit-group").value) : null)
      .catch((error) => ({ type: "error", message: error.message }));
    if (reply.type === "error") {
      byId("sit-note").textContent = reply.message;
      this.app.watch(this.gameId);
    }
  }

  renderPlayers() {
    const players = this.view && this.view.players ? this.view.players : {};
    const items = this.summary.seats.map((seat) => {
      const style = this.styles.get(seat.name);
      const facts = players[seat.name] || {};
      const states = [];
      if (seat.eliminated) states.push("out");
      else if (this.summary.status === "playing") {
        if (seat.awaited) states.push(this.summary.simultaneous ? "deciding" : "to play");
        if (seat.committed) states.push("done");
      }
      states.push(seat.connected ? "connected" : "away");
      const counts = typeof facts.territories === "number" ? `${facts.territories} territories, ${facts.units} units` : "";
      const swatch = h("span", { class: "swatch", "aria-hidden": "true" }, style ? style.letter : "?");
      if (style) {
        swatch.style.background = style.colour;
        swatch.style.color = style.ink;
      }
      return h("li", {
        "data-player": seat.name, "data-connected": String(seat.connected), "data-committed": String(seat.committed),
        "data-eliminated": String(seat.eliminated), "data-awaited": String(seat.awaited),
        class: seat.name === this.player ? "you" : null,
      }, swatch, " ", h("strong", {}, seat.name), seat.name === this.player ? " (you)" : "", " ",
      h("span", { class: "states" }, states.join(", ")), counts ? h("span", { class: "counts" }, counts) : null);
    });
    if (this.summary.spectators) items.push(h("li", { class: "hint" }, `${this.summary.spectators} watching`));
    put(byId("player-list"), ...items);
  }

  renderExtras() {
    const panels = this.view ? this.module.panels(this.view, { you: this.player }) : [];
    put(byId("extras"), ...panels.map(({ title, body }) =>
      h("section", { class: "panel extra" }, h("h3", {}, title), body)));
  }

  renderLegend() {
    if (!this.map || !(this.map.continents || []).length) return;
    const owners = this.view ? this.view.territories : {};
    const members = new Map();
    for (const t of this.map.territories) {
      if (!t.continent) continue;
      if (!members.has(t.continent)) members.set(t.continent, []);
      members.get(t.continent).push(t.name);
    }
    const ruled = this.view && this.view.continents;
    const items = this.map.continents.map((continent, i) => {
      const names = members.get(continent.name) || [];
      const first = owners[names[0]]?.owner;
      const holder = first && names.every((n) => owners[n]?.owner === first) ? first : null;
      const bonus = ruled && ruled[continent.name] ? ruled[continent.name].bonus : null;
      const swatch = h("span", { class: "tint", "aria-hidden": "true" });
      swatch.style.background = continentTint(i);
      return h("li", { "data-continent": continent.name, "data-holder": holder || "" }, swatch, " ", continent.name,
        bonus !== null && bonus !== undefined ? ` (+${bonus})` : "", holder ? ` — held by ${holder}` : "");
    });
    put(byId("legend"), h("h3", {}, "Continents"), h("ul", {}, items));
  }

  renderResult() {
    const game = this.summary;
    const result = byId("result");
    if (game.status !== "finished") {
      result.hidden = true;
      return;
    }
    result.hidden = false;
    put(byId("result-title"), game.winner ? (game.winner === this.player ? "You won!" : `${game.winner} won`)
      : "A draw");
    const history = (this.view && this.module.history(this.view)) || this.history;
    put(byId("charts"), statisticsCharts(history, this.styles));
    const asked = game.rematch.includes(this.player);
    byId("rematch").hidden = !this.player || asked || Boolean(game.rematch_game);
    const waiting = game.seats.map((s) => s.name).filter((n) => !game.rematch.includes(n) && !game.rematch_declined.includes(n));
    put(byId("rematch-state"), game.rematch.length ? `Rematch asked by ${game.rematch.join(", ")}` +
      (waiting.length && !game.rematch_game ? `; waiting for ${waiting.join(", ")}` : "") : "");
  }

  tick() {
    const timer = byId("timer");
    if (this.deadline === null || !this.playing) {
      timer.textContent = "";
      timer.dataset.seconds = "";
      return;
    }
    const left = Math.max(0, Math.round((this.deadline - performance.now()) / 1000));
    timer.dataset.seconds = String(left);
    timer.textContent = `Time left this turn: ${Math.floor(left / 60)}:${String(left % 60).padStart(2, "0")}`;
    timer.classList.toggle("short", left <= 10);
  }

  say(text) {
    byId("order-note").textContent = text;
  }

  // ---- acting --------------------------------------------------------------------------------------------------

  async askLegal() {
    if (this.legalAsked) {
      this.legalAgain = true;
      return;
    }
    const gameId = this.gameId;
    this.legalAsked = this.link.request({ type: "legal_orders", game_id: gameId });
    try {
      const reply = await this.legalAsked;
      if (reply.type === "legal" && reply.game_id === this.gameId) {
        this.entry.setContext(this.territoryNames, (order) => this.module.describeOrder(order));
        const mine = this.seat(this.player);
        this.entry.setLegal(reply.orders, Boolean(this.playing && mine && mine.awaited && reply.turn === this.summary.turn));
      }
    } catch (error) {
      this.say(error.message);
    } finally {
      this.legalAsked = null;
    }
    if (this.legalAgain) {
      this.legalAgain = false;
      this.askLegal();
    }
  }

  async askOrders() {
    if (!this.player) return;
    try {
      const reply = await this.link.request({ type: "list_orders", game_id: this.gameId });
      if (reply.type === "orders" && reply.game_id === this.gameId) this.entry.setOrders(reply.orders);
    } catch {
      // a game not started yet has no orders to list
    }
  }

  async issue(order) {
    this.say("");
    const reply = await this.send({ type: "issue_order", game_id: this.gameId, turn: this.summary.turn, order });
    if (!reply) return;
    if (reply.type === "order_accepted") {
      this.entry.picked = [];
      this.entry.setOrders(reply.orders);
      this.say(`Issued: ${this.module.describeOrder(reply.order)}`);
      this.askLegal();
    } else this.say(reply.message);
  }

  async withdraw(index) {
    const reply = await this.send({ type: "withdraw_order", game_id: this.gameId, turn: this.summary.turn, index });
    if (!reply) return;
    if (reply.type === "order_withdrawn") {
      this.entry.setOrders(reply.orders);
      this.say("Order withdrawn.");
      this.askLegal();
    } else this.say(reply.message);
  }

  async commit() {
    const reply = await this.send({ type: "commit", game_id: this.gameId, turn: this.summary.turn });
    if (reply) this.say(reply.type === "commit_accepted" ? "Done: waiting for the others." : reply.message);
  }

  async rematch() {
    const reply = await this.send({ type: "rematch", game_id: this.gameId });
    if (reply && reply.type === "error") this.say(reply.message);
    else byId("rematch").hidden = true;
  }

  async leave() {
    const reply = await this.send({ type: "leave_game", game_id: this.gameId });
    if (reply && reply.type === "left") {
      if (this.player && (!this.summary || this.summary.status !== "playing" || this.seat(this.player)?.eliminated)) {
        forgetSeat(this.gameId, this.player);
      }
      this.app.showLobby(`You left game ${this.gameId}.`);
    } else if (reply) this.say(reply.message);
  }

  async send(message) {
    try {
      return await this.link.request(message);
    } catch (error) {
      this.say(error.message);
      return null;
    }
  }

  /** Everyone asked for a rematch: the server seated this page in the new game with the same token. */
  rematchStarted(message) {
    const previous = this.gameId;
    if (!previous || message.player !== this.player) return;
    const token = this.app.tokenFor(previous, this.player);
    if (token) saveSeat(message.game_id, message.player, token);
    forgetSeat(previous, this.player);
    this.reset(message.game_id, message.player);
    this.app.showGame(message.game_id, message.player, true);
    this.askOrders();
  }
}
