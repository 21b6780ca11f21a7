// One game on screen, played or watched: its map drawn once, its view kept whole and patched by each update, the
// players' state, the turn's timer, the orders by pointing, the log, and the end with its charts and rematch.
// Simultaneous games (RISC, Warzone) list the turn's orders until "Done with this turn"; turn-by-turn games (classic
// Risk, the grid game) have no commit: the active player's every order takes effect at once, and the page shows whose
// move it is, what the phase asks for and the dice as they fall. A seat whose player has been away may be voted over
// to the computer (hand_over); under fog of war a spectator or a player who is out may ask to see with a player's
// eyes (watch_game with follow), which the rule set allows or refuses. The game's chat has a panel of its own, and a
// player still in may resign (after a confirmation).

import { refusalWords, sentence } from "./account.js";
import { Board } from "./board.js";
import { clockText } from "./pace.js";
import { statisticsCharts } from "./chart.js";
import { ChatPanel, chatHeading } from "./chat.js";
import { byId, h, put } from "./dom.js";
import { boardLegend } from "./legend.js";
import { GameLog } from "./log.js";
import { OrderEntry } from "./orders.js";
import { playerStyles } from "./palette.js";
import { applyPatch, seatsKeyed, seatsListed } from "./patch.js";
import { rulesetModule } from "./rulesets/index.js";
import { generic, plural, showRollsIn, table } from "./rulesets/generic.js";
import { forgetSeat, lastName, nameBox, saveName, saveSeat } from "./seats.js";

/** Where the page is laid out for a phone (the stylesheet's own breakpoint). */
const NARROW = "(max-width: 760px)";

const FRAMEWORK = new Set(["game_created", "player_joined", "player_left", "game_started", "player_committed",
  "time_ran_out", "orders_revealed", "seat_handed_over", "seat_taken_back", "rematch_requested", "rematch_declined",
  "rematch_impossible", "rematch_started", "chat", "player_resigned", "standings"]);

/** A `resume` of a seat: the one `token` opens, or without one (null) the signed-in account's. */
export function resumeRequest(gameId, token, lastSeq) {
  const message = { type: "resume", game_id: gameId, last_seq: lastSeq };
  if (token) message.token = token;
  return message;
}

export class GameScreen {
  /** app: { link, account, showLobby(note), showFirst(note, left), showGame(gameId, player), seatFor(gameId, player),
   * join(gameId, name, group), watch(gameId) }. */
  constructor(app) {
    this.app = app;
    this.link = app.link;
    this.root = byId("game");
    this.board = new Board(byId("board"), {
      onPick: (name, keyboard) => { this.look(name); this.entry.pick(name, keyboard); },
      onLook: (name) => this.look(name),
    });
    this.log = new GameLog(byId("log"));
    this.entry = new OrderEntry(byId("order-entry"), {
      issue: (order) => this.issue(order),
      withdraw: (index) => this.withdraw(index),
      move: (index, to) => this.move(index, to),
      select: (picked, targets) => this.board.select(picked, targets),
      choosing: (shown) => this.choosing(shown),
    });
    this.chat = new ChatPanel(byId("game-chat"), (text, to, name) => this.link.request({
      type: "chat", game_id: this.gameId, text, to, name: this.player ? null : name }));
    byId("resign").addEventListener("click", () => this.askResign(true));
    byId("resign-no").addEventListener("click", () => this.askResign(false));
    byId("resign-yes").addEventListener("click", () => this.resign());
    byId("commit").addEventListener("click", () => this.commit());
    byId("rematch").addEventListener("click", () => this.rematch());
    byId("replay-this").addEventListener("click", () => this.app.showReplay(this.gameId, null));
    byId("to-lobby").addEventListener("click", () => this.app.showLobby());
    byId("leave").addEventListener("click", () => this.leave());
    byId("sit-form").addEventListener("submit", (event) => {
      event.preventDefault();
      this.sitDown();
    });
    byId("follow-form").addEventListener("submit", (event) => {
      event.preventDefault();
      this.follow(byId("follow-player").value);
    });
    byId("unfollow").addEventListener("click", () => this.unfollow());
    this.root.addEventListener("keydown", (event) => {
      if (event.key === "Escape") this.entry.clear();
    });
    setInterval(() => this.tick(), 500);
    this.reset(null, null);
  }

  reset(gameId, player) {
    this.gameId = gameId;
    this.player = player;
    this.following = null;
    this.seq = 0;
    this.summary = null;
    this.keptSummary = null; // the summary as the server's patches patch it (seats keyed by position)
    this.map = null;
    this.picture = null;
    this.view = null;
    this.left = null; // what the player's orders leave them, as the server's last acceptance or withdrawal said
    this.orders = [];
    this.orderTexts = [];
    this.module = generic;
    this.moduleName = null;
    this.deadline = null;
    this.styles = new Map();
    this.statistics = null;
    this.statisticsAsked = false;
    this.legalAsked = null;
    this.legalAgain = false;
    this.territoryNames = new Set();
    this.looked = null;
    this.awaySince = new Map();
    this.log.clear();
    this.chat.clear();
    byId("resign-confirm").hidden = true;
    byId("players-note").textContent = "";
    this.entry.legal = [];
    this.entry.orders = [];
    this.entry.texts = [];
    this.entry.picked = [];
    this.entry.enabled = false;
    this.board.clear();
    put(byId("legend"));
    put(byId("extras"));
    put(byId("roll"));
    put(byId("details"));
    byId("details").hidden = true;
    byId("result").hidden = true;
    byId("follow").hidden = true;
    byId("order-note").textContent = "";
    byId("follow-note").textContent = "";
    byId("prompt").textContent = "";
    this.root.dataset.gameId = gameId || "";
    this.root.dataset.you = player || "";
    this.root.dataset.following = "";
    for (const key of ["phase", "status", "winner", "active"]) this.root.dataset[key] = "";
    this.root.dataset.turn = "0";
  }

  /** What a rule set's module reads beside the event, order or state it is given. */
  ctx() {
    return {
      view: this.view, you: this.player, map: this.map, territories: this.territoryNames, summary: this.summary,
      orders: this.orders,
    };
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
    if (reply.token) saveSeat(reply.game_id, reply.player, reply.token); // an account's seat has none: it is the account's
    this.player = reply.player;
    return reply;
  }

  /** Back to a seat: the one `token` opens, or without one (null) the signed-in account's. */
  async resume(gameId, player, token, lastSeq) {
    if (this.gameId !== gameId || this.player !== player || this.following) this.reset(gameId, player);
    const reply = await this.link.request(resumeRequest(gameId, token, lastSeq));
    if (reply.type === "error" && (reply.code === "bad-token" || reply.code === "no-such-game")) {
      forgetSeat(gameId, player);
    }
    if (reply.type === "resumed") this.askOrders();
    return reply;
  }

  async watch(gameId, lastSeq = 0) {
    if (this.gameId !== gameId || this.player !== null || this.following) this.reset(gameId, null);
    return this.link.request({ type: "watch_game", game_id: gameId, last_seq: lastSeq });
  }

  /**
   * See with `name`'s eyes (under fog of war): the rule set says who may. A player who is out keeps their seat
   * (a reload, or "Back to my own view", takes it back) and watches as a spectator meanwhile.
   */
  async follow(name) {
    if (!name || !this.gameId) return;
    const note = byId("follow-note");
    note.textContent = "";
    const reply = await this.send({ type: "watch_game", game_id: this.gameId, last_seq: 0, follow: name });
    if (!reply) return;
    if (reply.type !== "watching") {
      note.textContent = reply.message;
      note.dataset.code = reply.code || "";
      return;
    }
    // the map and the followed sight come next: start from nothing, keeping the seat this page holds
    const player = this.player;
    this.reset(this.gameId, player);
    this.following = reply.follow;
    this.root.dataset.following = reply.follow || "";
  }

  async unfollow() {
    const gameId = this.gameId;
    const seat = this.player ? this.app.seatFor(gameId, this.player) : null;
    const reply = seat ? await this.resume(gameId, this.player, seat.token, 0).catch((e) => ({ type: "error", message: e.message }))
      : await this.watch(gameId, 0).catch((e) => ({ type: "error", message: e.message }));
    if (reply.type === "error") byId("follow-note").textContent = reply.message;
  }

  /** Back on the link after it dropped: take the seat back, or watch again, with what was missed. */
  async reconnected(token) {
    if (!this.gameId) return;
    let reply;
    if (this.following) {
      reply = await this.link.request({ type: "watch_game", game_id: this.gameId, last_seq: this.seq,
        follow: this.following });
    } else {
      reply = this.player ? await this.resume(this.gameId, this.player, token, this.seq)
        : await this.watch(this.gameId, this.seq);
    }
    if (reply.type === "error") this.app.showFirst(`Could not return to game ${this.gameId}: ${reply.message}`);
  }

  // ---- what the server sends -----------------------------------------------------------------------------------

  take(message) {
    if (message.type === "resumed" && !message.ref) {
      this.rematchStarted(message);
      return;
    }
    if (message.game_id !== this.gameId) return;
    if (message.type === "game_map") this.takeMap(message.map, message.picture);
    else if (message.type === "update") this.takeUpdate(message);
    else if (message.type === "error") this.say(message.message);
  }

  takeMap(map, picture = null) {
    this.map = map;
    this.picture = picture || null;
    this.territoryNames = new Set(map.territories.map((t) => t.name));
    this.drawBoard();
  }

  drawBoard() {
    if (!this.map) return;
    this.board.draw(this.map, this.styles, this.module.boardShape(this.map), this.picture);
    this.showTerritories(null);
    this.renderLegend();
  }

  /** Draw the territories named (all of them when `names` is null) as the module reads the view. */
  showTerritories(names) {
    if (!this.view || !this.view.territories) return;
    const whole = this.view.territories;
    const ctx = this.ctx();
    const shown = {};
    for (const name of names || Object.keys(whole)) {
      if (whole[name]) shown[name] = this.module.territory(whole[name], name, ctx);
    }
    this.board.update(shown);
  }

  takeUpdate(update) {
    const fresh = update.events.filter((entry) => entry.seq > this.seq);
    this.seq = Math.max(this.seq, update.seq);
    const before = this.summary;
    // the summary comes whole to a new follower, then as patches of the one last sent (null: unchanged)
    if (update.game) this.keptSummary = seatsKeyed(update.game);
    else if (update.game_patch && this.keptSummary) {
      this.keptSummary = applyPatch(this.keptSummary, update.game_patch);
    }
    if (!this.keptSummary) return;
    if (update.game || update.game_patch || !this.summary) this.summary = seatsListed(this.keptSummary);
    const game = this.summary;
    if (update.you) this.player = update.you;
    let redraw = false;
    if (this.moduleName !== game.settings.ruleset) {
      this.moduleName = game.settings.ruleset;
      this.module = rulesetModule(this.moduleName);
      this.entry.setMode(game.simultaneous);
      redraw = this.map && this.module.boardShape(this.map) !== this.board.shape;
    }
    const names = game.seats.map((seat) => seat.name);
    let all = false;
    if (names.join("\u0000") !== [...this.styles.keys()].join("\u0000")) {
      this.styles = playerStyles(names);
      this.board.styles = this.styles;
      all = true;
    }
    let changed = null;
    if (update.view || update.view_patch) this.left = null; // the server's view says it all again
    if (update.view) {
      this.view = update.view;
      all = true;
    } else if (update.view_patch && this.view) {
      this.view = applyPatch(this.view, update.view_patch);
      changed = update.view_patch.territories || null;
      if (this.module.redrawOn(update.view_patch)) all = true;
    }
    if (game.status === "lobby") this.view = null;
    // the view's orders are the player's as of this update (their words come with list_orders); order replies keep
    // them between updates
    if (this.view && (update.view || (update.view_patch && "your_orders" in update.view_patch))) {
      this.orders = this.view.your_orders || [];
      if (!this.orders.length) this.orderTexts = [];
      else if (this.orderTexts.length !== this.orders.length) this.askOrders();
    }
    this.deadline = update.deadline_in === null ? null : performance.now() + update.deadline_in * 1000;
    if (redraw) this.drawBoard();
    else if (all) this.showTerritories(null);
    else if (changed) this.showTerritories(Object.keys(changed));
    const ctx = this.ctx();
    const told = fresh.filter((entry) => !FRAMEWORK.has(entry.event.kind));
    const turnByTurn = !game.simultaneous;
    if (told.length) {
      // a turn-by-turn game marks the active player's whole turn, action by action, from its start
      let from = 0;
      told.forEach((entry, i) => { if (this.module.startsTurn(entry.event)) from = i; });
      const restart = told.some((entry) => this.module.startsTurn(entry.event));
      const marks = told.slice(turnByTurn ? from : 0).flatMap((entry) => this.module.marks(entry.event, ctx));
      this.board.mark(marks, turnByTurn && !restart);
      // every roll of the action (an all-out attack rolls many), the last one's dice on the board
      const rolls = told.map((entry) => this.module.roll(entry.event)).filter(Boolean);
      if (rolls.length) this.showRoll(rolls);
      else if (restart) this.showRoll([]);
    }
    if (update.snapshot) this.log.note("(earlier entries were not sent: this is where the game stands)");
    for (const { seq, event } of fresh) {
      if (event.kind !== "chat") continue;
      this.chat.add(chatHeading(event, this.player), event.text, { "data-seq": String(seq), "data-from": event.player,
        "data-to": event.to || "", "data-watchers": String(event.watchers) });
    }
    const restarted = fresh.some((entry) => this.module.startsTurn(entry.event));
    this.log.add(fresh, this.module, true, ctx, turnByTurn && !restarted && fresh.length > 0);
    this.render(before);
  }

  /**
   * What was picked offers orders (or no longer does). On a phone the orders then sit at the foot of the screen,
   * over the page (the stylesheet's `data-sheet`), and the board is brought up above them: the map and the orders it
   * offers are on screen together, with no scrolling back and forth.
   */
  choosing(shown) {
    const section = byId("order-section");
    const sheet = String(Boolean(shown));
    if (section.dataset.sheet === sheet) return;
    section.dataset.sheet = sheet;
    if (!shown || !window.matchMedia(NARROW).matches) return;
    const board = byId("board-holder").getBoundingClientRect();
    const top = section.getBoundingClientRect().top;
    if (board.top < 0 || board.bottom > top) window.scrollBy(0, board.top);
  }

  showRoll(rolls) {
    this.board.showRoll(rolls.length ? rolls[rolls.length - 1] : null);
    showRollsIn(byId("roll"), rolls);
  }

  // ---- showing -------------------------------------------------------------------------------------------------

  get playing() {
    return this.summary && this.summary.status === "playing";
  }

  seat(name) {
    return this.summary ? this.summary.seats.find((seat) => seat.name === name) : null;
  }

  /** The player the game waits for in a turn-by-turn game. */
  active() {
    if (!this.summary || this.summary.simultaneous || !this.playing) return null;
    const seat = this.summary.seats.find((s) => s.awaited);
    return seat ? seat.name : null;
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
    root.dataset.simultaneous = String(game.simultaneous);
    const active = this.active();
    root.dataset.active = active || "";
    const mine = this.seat(this.player);
    const notes = (game.notes || []).length ? ` (${game.notes.join("; ")})` : ""; // "Evolution 2: ...", as the server words them
    put(byId("game-title"),
      `Game ${game.game_id}: ${game.ruleset_title || game.settings.ruleset} on ${game.map_name}${notes}`);
    let state;
    if (game.status === "lobby") state = `Waiting for ${game.free} more player${game.free === 1 ? "" : "s"} to join`;
    else if (game.status === "finished") state = game.winner ? `${game.winner} won` : "The game ended in a draw";
    else if (!game.simultaneous) {
      state = `Turn ${game.turn}, ${this.module.phase(game.phase)}` + (active === this.player && active
        ? " — your move" : active ? ` — ${active} to play` : "");
    } else {
      state = `Turn ${game.turn}, ${this.module.phase(game.phase)}` + (mine && mine.awaited ? " — your orders"
        : mine && mine.committed ? " — waiting for the others" : "");
    }
    const watching = this.following ? ` (seeing with ${this.following}'s eyes)` : this.player ? "" : " (watching)";
    put(byId("game-state"), state, watching);
    const acting = Boolean(this.playing && mine && mine.awaited && !mine.eliminated && !this.following);
    byId("prompt").textContent = this.playing && this.view ? this.module.prompt(this.shownView(), { ...this.ctx(),
      acting, active }) : "";
    this.renderPlayers();
    this.renderExtras();
    this.renderLegend();
    this.renderFollow();
    byId("commit").hidden = !(acting && game.simultaneous);
    // orders are for a game under way: once it is over, none are offered or listed, and no note of a commit stays
    byId("order-section").hidden = !this.player || Boolean(this.following) || game.status !== "playing";
    const turned = before && before.turn !== game.turn && game.simultaneous;
    if (game.status !== "playing" || turned) this.say("");
    byId("leave").hidden = !(game.status !== "playing" || !this.player || (mine && mine.eliminated));
    const mayResign = Boolean(this.playing && mine && !mine.eliminated && !this.following);
    byId("resign").hidden = !mayResign;
    if (!mayResign) byId("resign-confirm").hidden = true;
    this.renderChat();
    if (!acting) this.entry.setLegal([], false);
    else if (!before || before.step !== game.step || before.turn !== game.turn || !this.entry.enabled) {
      if (before && (before.step !== game.step || before.turn !== game.turn)) {
        // a simultaneous game's new turn starts afresh; a turn-by-turn game keeps what still fits (the next roll)
        if (game.simultaneous) this.entry.picked = [];
        this.entry.orders = [];
        this.entry.texts = [];
        if (game.simultaneous) this.say("");
      }
      this.askLegal();
      if (before && before.step !== game.step && game.simultaneous) this.askOrders();
    }
    this.renderDetails();
    this.renderResult();
    this.renderSeat();
    if (this.app.gameShown) this.app.gameShown();
  }

  /** Whom a word may be for, as the server lets it be said: a player still in speaks to everyone or to one player;
   * while the game runs, those who watch (spectators, players who are out) speak among themselves or to a player who
   * is out. A spectator speaks under a name of their choosing. */
  renderChat() {
    const game = this.summary;
    const mine = this.seat(this.player);
    const others = game.seats.filter((s) => s.name !== this.player);
    const watcher = game.status === "playing" && (!mine || mine.eliminated || Boolean(this.following));
    const to = watcher ? [["", "those who watch"], ...others.filter((s) => s.eliminated).map((s) => [s.name, s.name])]
      : [["", "everyone"], ...others.map((s) => [s.name, s.name])];
    this.chat.offer(to);
    const label = byId("game-chat").querySelector(".chat-name-label");
    label.hidden = Boolean(this.player) || Boolean(this.app.account.name); // signed in: the account's name
    const name = label.querySelector(".chat-name");
    if (!this.player && !name.value) name.value = lastName();
  }

  /** The view as the player's orders issued since the last update leave it (the pool left, stocks): the server
   * says what they leave with each acceptance and withdrawal. */
  shownView() {
    return this.view && this.left ? { ...this.view, ...this.left } : this.view;
  }

  /** Signed in or out: a seat is taken under the account's name (fixed), a guest's under a name of their choosing. */
  accountChanged() {
    nameBox(byId("sit-name"), this.app.account.name);
    if (this.summary) this.renderChat();
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
    if (!this.app.account.name) saveName(name);
    const groups = this.summary && this.summary.groups ? this.summary.groups : [];
    const reply = await this.app.join(this.gameId, name, groups.length ? Number(byId("sit-group").value) : null)
      .catch((error) => ({ type: "error", message: error.message }));
    if (reply.type === "error") {
      byId("sit-note").textContent = refusalWords(reply);
      this.app.watch(this.gameId);
    }
  }

  /** Whether this page may ask for `seat` to be handed over: a player still in, voting about another who is away. */
  mayHandOver(seat) {
    const game = this.summary;
    const mine = this.seat(this.player);
    return Boolean(this.playing && mine && !mine.eliminated && !this.following && game.settings.turn_seconds === null
      && seat.name !== this.player && !seat.connected && !seat.computer && !seat.eliminated);
  }

  /** A player still in, whose turn is done (or not theirs), may nudge a person the game waits for: the server lets
   * each do so once a day in a game, and says so when it is too soon. */
  mayNudge(seat) {
    const mine = this.seat(this.player);
    return Boolean(this.playing && mine && !mine.eliminated && !this.following && this.summary.status === "playing"
      && (!mine.awaited || mine.committed) && seat.name !== this.player && seat.awaited && !seat.committed
      && !seat.computer && !seat.eliminated);
  }

  async nudge(name) {
    const reply = await this.send({ type: "nudge", game_id: this.gameId, player: name });
    if (!reply) return;
    byId("players-note").textContent = reply.type === "nudged"
      ? `${reply.player} is told that the game waits for them.` : `No nudge: ${sentence(reply.message)}`;
  }

  renderPlayers() {
    const players = this.view && this.view.players ? this.view.players : {};
    const ctx = this.ctx();
    const now = performance.now();
    for (const seat of this.summary.seats) {
      if (seat.connected || seat.computer) this.awaySince.delete(seat.name);
      else if (!this.awaySince.has(seat.name)) this.awaySince.set(seat.name, now);
    }
    const items = this.summary.seats.map((seat) => {
      const style = this.styles.get(seat.name);
      const facts = players[seat.name] ? this.module.playerFacts(players[seat.name], seat.name, ctx) : null;
      const states = [];
      if (seat.eliminated) states.push("out");
      else if (this.summary.status === "playing") {
        if (seat.awaited) states.push(this.summary.simultaneous ? "deciding" : "to play");
        if (seat.committed) states.push("done");
      }
      if (seat.computer) states.push(seat.name.startsWith("bot-") ? "computer player" : "played by the computer");
      else states.push(seat.connected ? "connected" : "away");
      const counts = facts ? `${plural(facts.territories, "territory", "territories")}, `
        + `${plural(facts.units, "unit", "units")}` : "";
      const note = players[seat.name] ? this.module.playerNote(players[seat.name], seat.name, ctx) : "";
      const swatch = h("span", { class: "swatch", "aria-hidden": "true" }, style ? style.letter : "?");
      if (style) {
        swatch.style.background = style.colour;
        swatch.style.color = style.ink;
      }
      let handOver = null;
      if (this.mayHandOver(seat)) {
        const since = this.awaySince.get(seat.name);
        const away = since === undefined ? 0 : Math.round((now - since) / 1000);
        handOver = h("span", { class: "hand-over" }, h("span", { class: "hint", "data-away": String(away) },
          `away for ${away} s`), " ", h("button", {
          type: "button", class: "small", "data-hand-over": seat.name,
          "aria-label": `Vote to have the computer play ${seat.name}'s seat while they are away`,
          onclick: () => this.handOver(seat.name),
        }, "Hand over to the computer"));
      }
      const nudge = this.mayNudge(seat) ? h("button", { type: "button", class: "small", "data-nudge": seat.name,
        "aria-label": `Remind ${seat.name} that the game waits for them`, onclick: () => this.nudge(seat.name) },
      "Nudge") : null;
      return h("li", {
        "data-player": seat.name, "data-connected": String(seat.connected), "data-committed": String(seat.committed),
        "data-eliminated": String(seat.eliminated), "data-awaited": String(seat.awaited),
        "data-computer": String(Boolean(seat.computer)), class: seat.name === this.player ? "you" : null,
      }, swatch, " ", h("strong", {}, seat.name), seat.name === this.player ? " (you)" : "", " ",
      h("span", { class: "states" }, states.join(", ")), nudge, counts || note
        ? h("span", { class: "counts" }, [counts, note].filter(Boolean).join("; ")) : null, handOver);
    });
    if (this.summary.spectators) items.push(h("li", { class: "hint" }, `${this.summary.spectators} watching`));
    put(byId("player-list"), ...items);
  }

  renderExtras() {
    const view = this.shownView();
    const panels = view ? this.module.panels(view, this.ctx()) : [];
    put(byId("extras"), ...panels.map(({ title, body, key }) =>
      h("section", { class: "panel extra", "data-panel": key || null }, h("h3", {}, title), body)));
  }

  /** Under fog of war, a spectator or a player who is out may ask to see with a player's eyes. */
  renderFollow() {
    const game = this.summary;
    const mine = this.seat(this.player);
    const fogged = Boolean(this.view && this.module.fogged(this.view));
    const may = this.playing && (fogged || this.following) && (!this.player || (mine && mine.eliminated));
    byId("follow").hidden = !may;
    if (!may) return;
    const select = byId("follow-player");
    const candidates = game.seats.filter((s) => !s.eliminated).map((s) => s.name);
    if ([...select.options].map((o) => o.value).join("\u0000") !== candidates.join("\u0000")) {
      put(select, ...candidates.map((name) => h("option", { value: name }, name)));
    }
    byId("unfollow").hidden = !this.following;
    put(byId("follow-state"), this.following ? `You see with ${this.following}'s eyes.`
      : "The fog hides much of the board from spectators and players who are out.");
  }

  /** The facts of the territory last pointed at, as the module reads them. */
  look(name) {
    this.looked = name;
    this.renderDetails();
  }

  renderDetails() {
    const box = byId("details");
    const state = this.view && this.view.territories && this.looked ? this.view.territories[this.looked] : null;
    if (!state) {
      box.hidden = true;
      return;
    }
    const shown = this.module.territory(state, this.looked, this.ctx());
    const rows = [];
    if (shown.fog === "unknown") rows.push(["seen", "never: nothing is known of it"]);
    else {
      rows.push(["owner", shown.owner || "nobody"], ["units", String(shown.units)]);
      if (shown.fog === "memory") rows.push(["seen", `on turn ${shown.seen} (out of sight now)`]);
    }
    rows.push(...(shown.facts || []));
    const neighbours = this.map ? (this.map.borders[this.looked] || []) : [];
    if (neighbours.length) rows.push(["borders", neighbours.join(", ")]);
    box.hidden = false;
    box.dataset.territory = this.looked;
    put(box, h("h3", {}, this.looked), table(rows));
  }

  renderLegend() {
    if (this.map) put(byId("legend"), ...boardLegend(this.map, this.view, this.module));
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
    this.askStatistics();
    put(byId("charts"), this.statistics ? statisticsCharts(this.statistics, this.styles)
      : h("p", { class: "hint" }, "Counting the game's statistics…"));
    byId("replay-this").dataset.gameId = game.game_id;
    const asked = game.rematch.includes(this.player);
    byId("rematch").hidden = !this.player || asked || Boolean(game.rematch_game) || Boolean(this.following);
    const waiting = game.seats.map((s) => s.name).filter((n) => !game.rematch.includes(n) && !game.rematch_declined.includes(n));
    put(byId("rematch-state"), game.rematch.length ? `Rematch asked by ${game.rematch.join(", ")}` +
      (waiting.length && !game.rematch_game ? `; waiting for ${waiting.join(", ")}` : "") : "");
  }

  /** The finished game's statistics, asked of the server once (it works them out from the stored game). */
  async askStatistics() {
    if (this.statisticsAsked) return;
    this.statisticsAsked = true;
    const gameId = this.gameId;
    const reply = await this.send({ type: "game_statistics", game_id: gameId });
    if (!reply || this.gameId !== gameId) return;
    if (reply.type === "statistics") {
      this.statistics = reply.statistics;
      put(byId("charts"), statisticsCharts(this.statistics, this.styles));
    } else put(byId("charts"), h("p", { class: "note" }, reply.message));
  }

  tick() {
    const timer = byId("timer");
    if (this.deadline === null || !this.playing) {
      timer.textContent = "";
      timer.dataset.seconds = "";
    } else {
      const left = Math.max(0, Math.round((this.deadline - performance.now()) / 1000));
      timer.dataset.seconds = String(left);
      const overrun = Math.max(0, (performance.now() - this.deadline) / 1000);
      timer.textContent = clockText(left, this.seat(this.player), overrun);
      timer.classList.toggle("short", left <= 10);
    }
    const now = performance.now();
    for (const shown of document.querySelectorAll("[data-away]")) {
      const name = shown.closest("[data-player]")?.dataset.player;
      const since = this.awaySince.get(name);
      if (since === undefined) continue;
      const away = Math.round((now - since) / 1000);
      shown.dataset.away = String(away);
      shown.textContent = `away for ${away} s`;
    }
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
        this.entry.setContext(this.territoryNames);
        const mine = this.seat(this.player);
        this.entry.setLegal(reply.orders, Boolean(this.playing && mine && mine.awaited && !this.following
          && reply.turn === this.summary.turn));
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
    if (!this.player || (this.summary && !this.summary.simultaneous)) return;
    try {
      const reply = await this.link.request({ type: "list_orders", game_id: this.gameId });
      if (reply.type === "orders" && reply.game_id === this.gameId) this.ordersAre(reply.orders, reply.texts);
    } catch {
      // a game not started yet has no orders to list
    }
  }

  /** The player's orders this turn as they stand, with their words: listed, and the panels that count them. */
  ordersAre(orders, texts) {
    this.orders = orders;
    this.orderTexts = texts;
    this.entry.setOrders(orders, texts);
    if (this.summary && this.view) {
      this.renderExtras();
      byId("prompt").textContent = this.playing ? this.module.prompt(this.shownView(), { ...this.ctx(),
        acting: Boolean(this.seat(this.player)?.awaited), active: this.active() }) : "";
    }
  }

  async issue(order) {
    this.say("");
    const reply = await this.send({ type: "issue_order", game_id: this.gameId, turn: this.summary.turn, order });
    if (!reply) return;
    if (reply.type === "order_accepted") {
      if (this.summary.simultaneous) {
        this.entry.picked = [];
        // the reply names the new order only: the list is kept here (unless the turn moved on meanwhile)
        if (reply.turn === this.summary.turn) {
          if (reply.left) this.left = reply.left;
          this.ordersAre([...this.orders.slice(0, reply.index), reply.order],
            [...this.orderTexts.slice(0, reply.index), reply.text]);
        }
        this.say(`Issued: ${reply.text}`);
        this.askLegal();
      } else this.say(`Done: ${reply.text}`);
    } else this.say(reply.message);
  }

  async withdraw(index) {
    const reply = await this.send({ type: "withdraw_order", game_id: this.gameId, turn: this.summary.turn, index });
    if (!reply) return;
    if (reply.type === "order_withdrawn") {
      if (reply.turn === this.summary.turn) {
        if (reply.left) this.left = reply.left;
        this.ordersAre(this.orders.filter((_, i) => i !== reply.index),
          this.orderTexts.filter((_, i) => i !== reply.index));
      }
      this.say("Order withdrawn.");
      this.askLegal();
    } else this.say(reply.message);
  }

  /** Put an order at another place of the turn's list: the server checks the orders again in their new order. */
  async move(index, to) {
    const reply = await this.send({ type: "move_order", game_id: this.gameId, turn: this.summary.turn, index, to });
    if (!reply) return;
    if (reply.type === "order_moved") {
      if (reply.turn === this.summary.turn) {
        if (reply.left) this.left = reply.left;
        const moved = (list) => {
          const rest = list.filter((_, i) => i !== reply.index);
          rest.splice(reply.to, 0, list[reply.index]);
          return rest;
        };
        this.ordersAre(moved(this.orders), moved(this.orderTexts));
      }
      this.say(`Order ${reply.index + 1} is number ${reply.to + 1} now.`);
      this.askLegal();
    } else this.say(reply.message);
  }

  async commit() {
    const reply = await this.send({ type: "commit", game_id: this.gameId, turn: this.summary.turn });
    if (reply) this.say(reply.type === "commit_accepted" ? "Done: waiting for the others." : reply.message);
  }

  /** A vote to have the server's computer player take the seat of a player who has been away. */
  async handOver(name) {
    const reply = await this.send({ type: "hand_over", game_id: this.gameId, player: name });
    if (!reply) return;
    if (reply.type === "hand_over_pending") {
      this.say(reply.needed.length ? `Your vote to hand ${name}'s seat over counts; still to agree: ` +
        `${reply.needed.join(", ")}.` : `${name}'s seat goes to the computer until they come back.`);
    } else this.say(reply.message);
  }

  /** The confirmation before resigning (shown, or put away). */
  askResign(shown) {
    byId("resign-confirm").hidden = !shown;
    if (shown) byId("resign-no").focus();
    else byId("resign").focus();
  }

  async resign() {
    byId("resign-confirm").hidden = true;
    const reply = await this.send({ type: "resign", game_id: this.gameId });
    if (!reply) return;
    this.say(reply.type === "resigned" ? "You resigned: you are out, and may watch the game to its end, or leave."
      : reply.message);
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
      this.app.showFirst(`You left game ${this.gameId}.`, true);
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
    const seat = this.app.seatFor(previous, this.player);
    if (seat && seat.token) saveSeat(message.game_id, message.player, seat.token); // an account's needs none
    forgetSeat(previous, this.player);
    this.reset(message.game_id, message.player);
    this.app.showGame(message.game_id, message.player, true);
    this.askOrders();
  }
}
