// A finished game told again: any finished game of the server, opened from its store (open_replay) and stepped
// through on a timeline, the game as set up then one point per turn. Each point (replay_turn) is the board after
// the turn, as a player's eyes saw it or as everyone may see it now the game is over, the turn's events in words
// with their dice, and the marks and the last roll on the board; the game's statistics are charted under it, the
// turn shown marked. Nothing here is a rule: the server plays the stored game again and says what each point shows.

import { Board } from "./board.js";
import { statisticsCharts } from "./chart.js";
import { byId, h, put } from "./dom.js";
import { boardLegend } from "./legend.js";
import { GameLog } from "./log.js";
import { playerStyles } from "./palette.js";
import { plural, showRollIn } from "./rulesets/generic.js";
import { rulesetModule } from "./rulesets/index.js";

/** How long each turn stays on screen while the replay plays. */
const PLAY_MS = 1400;

export class ReplayScreen {
  /** app: { link, showLobby(note), showReplay(gameId, sight) }. */
  constructor(app) {
    this.app = app;
    this.link = app.link;
    this.root = byId("replay");
    this.board = new Board(byId("replay-board"), {
      onPick: (name) => {
        // a territory picked shows its borders and neighbours, as in a game; picked again, it is let go
        this.picked = this.picked === name ? null : name;
        this.board.select(this.picked ? [this.picked] : [], []);
      },
      onLook: () => {},
    });
    this.log = new GameLog(byId("replay-events"));
    this.frames = new Map();
    this.timer = null;
    this.asked = 0;
    byId("replay-to-lobby").addEventListener("click", () => this.app.showLobby());
    byId("replay-first").addEventListener("click", () => this.show(0));
    byId("replay-back").addEventListener("click", () => this.show(this.index - 1));
    byId("replay-next").addEventListener("click", () => this.show(this.index + 1));
    byId("replay-last").addEventListener("click", () => this.show(this.last));
    byId("replay-play").addEventListener("click", () => (this.timer ? this.pause() : this.play()));
    byId("replay-slider").addEventListener("input", (event) => this.show(Number(event.target.value)));
    byId("replay-sight").addEventListener("change", (event) => this.app.showReplay(this.gameId,
      event.target.value || null));
    this.reset();
  }

  reset() {
    this.pause();
    this.gameId = null;
    this.sight = null;
    this.info = null;
    this.index = 0;
    this.last = 0;
    this.picked = null;
    this.frames.clear();
    this.statistics = null;
    this.board.clear();
    this.log.clear();
    for (const id of ["replay-players", "replay-legend", "replay-roll", "replay-charts", "replay-state"]) put(byId(id));
    this.root.dataset.gameId = "";
    this.root.dataset.index = "";
    this.root.dataset.sight = "";
  }

  /** Open a finished game's replay: its map and timeline, then its first point. */
  async open(gameId, sight) {
    this.reset();
    this.gameId = gameId;
    this.sight = sight;
    put(byId("replay-title"), `Replay of game ${gameId}`);
    put(byId("replay-state"), "Playing the stored game again…");
    const reply = await this.request({ type: "open_replay", game_id: gameId, sight });
    if (this.gameId !== gameId) return;
    if (reply.type !== "replay") {
      this.app.showLobby(`Cannot replay game ${gameId}: ${reply.message}`);
      return;
    }
    this.info = reply;
    this.module = rulesetModule(reply.ruleset);
    this.styles = playerStyles(reply.players);
    this.names = new Set(reply.map.territories.map((t) => t.name));
    this.last = reply.turns.length - 1;
    this.root.dataset.gameId = gameId;
    this.root.dataset.sight = sight || "";
    this.root.dataset.turns = String(reply.turns.length);
    const result = reply.winner ? `${reply.winner} won` : "a draw";
    put(byId("replay-title"), `Replay of game ${gameId}: ${reply.ruleset_title} on ${reply.map_name} — ${result}`);
    const slider = byId("replay-slider");
    slider.max = String(this.last);
    slider.value = "0";
    this.sights(reply);
    this.board.draw(reply.map, this.styles, this.module.boardShape(reply.map), reply.picture);
    byId("replay-note").textContent = reply.difference
      ? `The stored game and the rules part at ${reply.difference}: the replay stops there.` : "";
    this.askStatistics(gameId);
    await this.show(0);
  }

  /** Under fog of war the replay may be seen with a player's eyes, or everyone's (the game being over). */
  sights(reply) {
    const form = byId("replay-sight-form");
    form.hidden = !reply.fog;
    if (!reply.fog) return;
    put(byId("replay-sight"), h("option", { value: "" }, "everyone's (everything, the game being over)"),
      ...reply.players.map((name) => h("option", { value: name }, `${name}'s`)));
    byId("replay-sight").value = reply.sight || "";
  }

  async askStatistics(gameId) {
    const reply = await this.request({ type: "game_statistics", game_id: gameId });
    if (this.gameId !== gameId || reply.type !== "statistics") return;
    this.statistics = reply.statistics;
    this.renderCharts();
  }

  renderCharts() {
    if (!this.statistics) return;
    const frame = this.frames.get(this.index);
    put(byId("replay-charts"), statisticsCharts(this.statistics, this.styles, this.index ? frame?.turn : null));
  }

  /** One point of the timeline (fetched once, then kept), shown; the next one is fetched ahead. */
  async show(index) {
    if (!this.info) return;
    const wanted = Math.max(0, Math.min(this.last, index));
    this.index = wanted;
    byId("replay-slider").value = String(wanted);
    const asked = ++this.asked;
    const frame = await this.frame(wanted);
    if (asked !== this.asked || !frame) return;
    this.render(frame);
    if (wanted < this.last) this.frame(wanted + 1);
  }

  async frame(index) {
    const found = this.frames.get(index);
    if (found) return found;
    const pending = this.request({ type: "replay_turn", game_id: this.gameId, sight: this.sight, index })
      .then((reply) => {
        if (reply.type !== "replayed_turn") {
          this.frames.delete(index);
          byId("replay-note").textContent = reply.message;
          return null;
        }
        this.frames.set(index, reply);
        return reply;
      });
    this.frames.set(index, pending);
    return pending;
  }

  render(frame) {
    const view = frame.view;
    const ctx = { view, you: this.sight, map: this.info.map, territories: this.names,
      summary: { simultaneous: this.info.simultaneous }, orders: [] };
    const shown = {};
    for (const [name, state] of Object.entries(view.territories || {})) {
      shown[name] = this.module.territory(state, name, ctx);
    }
    this.board.update(shown);
    const events = frame.events;
    this.board.mark(events.flatMap((event) => this.module.marks(event, ctx)));
    const rolls = events.map((event) => this.module.roll(event)).filter(Boolean);
    this.roll(rolls.length ? rolls[rolls.length - 1] : null);
    this.log.clear();
    this.log.add(events.map((event, i) => ({ seq: i + 1, event, text: frame.texts?.[i] })), this.module, false, ctx);
    byId("replay-events").scrollTop = 0; // a turn reads from its start
    if (!events.length) this.log.note(frame.index ? "Nothing happened this turn." : "The game as it was set up.");
    const point = this.info.turns[frame.index];
    const where = frame.index === 0 ? "The game as set up" : `Turn ${frame.turn} (${this.module.phase(frame.phase)})`;
    // the same count above the board and over the events: a turn played action by action says both
    const counted = (point.steps > 1 ? `${plural(point.steps, "action", "actions")}, ` : "")
      + plural(events.length, "event", "events");
    put(byId("replay-state"), `${where}: ${counted}` + (this.sight ? `, as ${this.sight} saw it` : ""));
    put(byId("replay-where"), `${frame.index} of ${this.last}`);
    put(byId("replay-events-title"), frame.index === 0 ? "The start" : `Turn ${frame.turn}: ${counted}`);
    this.root.dataset.index = String(frame.index);
    this.root.dataset.turn = String(frame.turn);
    for (const [id, off] of [["replay-first", frame.index === 0], ["replay-back", frame.index === 0],
      ["replay-next", frame.index === this.last], ["replay-last", frame.index === this.last]]) {
      byId(id).disabled = off;
    }
    this.renderPlayers(view, ctx);
    put(byId("replay-legend"), ...boardLegend(this.info.map, view, this.module));
    this.renderCharts();
  }

  roll(roll) {
    this.board.showRoll(roll);
    showRollIn(byId("replay-roll"), roll, "The last roll: ");
  }

  renderPlayers(view, ctx) {
    const players = view.players || {};
    put(byId("replay-players"), ...this.info.players.map((name) => {
      const style = this.styles.get(name);
      const swatch = h("span", { class: "swatch", "aria-hidden": "true" }, style.letter);
      swatch.style.background = style.colour;
      swatch.style.color = style.ink;
      const state = players[name];
      const facts = state ? this.module.playerFacts(state, name, ctx) : null;
      const out = Boolean(state && state.eliminated);
      const counts = facts && typeof facts.territories === "number" && typeof facts.units === "number"
        ? `${plural(facts.territories, "territory", "territories")}, ${plural(facts.units, "unit", "units")}` : "";
      const note = state ? this.module.playerNote(state, name, ctx) : "";
      return h("li", { "data-player": name, "data-eliminated": String(out) }, swatch, " ", h("strong", {}, name),
        name === this.info.winner && this.index === this.last ? " (won)" : "", out ? h("span", { class: "states" }, " out") : null,
        counts || note ? h("span", { class: "counts" }, [counts, note].filter(Boolean).join("; ")) : null);
    }));
  }

  play() {
    if (this.index >= this.last) this.show(0);
    byId("replay-play").textContent = "Pause";
    this.root.dataset.playing = "true";
    this.timer = setInterval(() => {
      if (this.index >= this.last) this.pause();
      else this.show(this.index + 1);
    }, PLAY_MS);
  }

  pause() {
    clearInterval(this.timer);
    this.timer = null;
    const button = byId("replay-play");
    if (button) button.textContent = "Play";
    if (this.root) this.root.dataset.playing = "false";
  }

  async request(message) {
    try {
      return await this.link.request(message);
    } catch (error) {
      return { type: "error", message: error.message };
    }
  }
}
