// The account's home, "My games": the page's first screen when signed in. Every game the account sits in on the
// server, whichever node plays it, as the server lists them (`my_games`): those waiting for the player's orders first,
// then running, waiting for players, and the most recently finished. One click opens each: the account's seat taken
// back (no token: the signed-in link is enough, on any device), or a finished game's end. Above them, the challenges
// waiting for an answer and the channels of notification that are paused; below, a form to challenge someone.

import { sentence } from "./account.js";
import { Challenges } from "./challenge.js";
import { byId, h, put } from "./dom.js";
import { settingsNotes } from "./lobby.js";

/** Where a game stands for the account, in the home's words (the server's `stands`). */
const STANDS = { "your-turn": "Your turn", running: "Running", waiting: "Waiting for players", finished: "Finished" };

/** How a game of the home stands, in a few words, as the text client's home says it. */
export function whereItStands(home) {
  const game = home.game;
  if (game.status === "lobby") return `${game.free} of ${game.settings.players} seats free`;
  if (game.status === "finished") {
    if (game.winner === home.player) return "you won";
    return game.winner ? `${game.winner} won` : game.draw ? "a draw" : "over";
  }
  const seat = game.seats.find((s) => s.name === home.player);
  return `${game.phase}, turn ${game.turn}` + (seat && seat.eliminated ? ", you are out" : "");
}

export class HomeScreen {
  /** app: { link, account, play(gameId, player), playAccountSeat(gameId, player), seeFinished(gameId),
   * showReplay(gameId, sight), showLobby(), showAccount() }. */
  constructor(app) {
    this.app = app;
    this.link = app.link;
    this.games = [];
    this.challenges = new Challenges(app, byId("home-challenges"), byId("challenge-panel"), async (note) => {
      await this.refresh();
      this.note(note);
    });
    byId("home-refresh").addEventListener("click", () => this.refresh());
    byId("home-to-lobby").addEventListener("click", () => this.app.showLobby());
  }

  /** The ids of the account's games, as the home last listed them. */
  has(gameId) {
    return this.games.some((g) => g.game.game_id === gameId);
  }

  note(text) {
    byId("home-note").textContent = text || "";
  }

  async show(note) {
    this.note(note);
    const name = this.app.account.name;
    byId("home-title-text").textContent = name ? `${name}'s games` : "My games";
    this.challenges.note.textContent = ""; // what the form said last time is over
    await Promise.all([this.refresh(), this.challenges.load().catch(() => {})]);
  }

  /** The home with the challenge form ready for `name` (a profile's Challenge). */
  async challenge(name) {
    this.challenges.name.value = name; // at once: whom the form challenges shows while the home and its choices load
    await this.show("");
    await this.challenges.prepare(name);
  }

  async refresh() {
    const screen = byId("home-screen");
    screen.dataset.state = "asking"; // until the server's answer is listed
    let reply;
    try {
      reply = await this.link.request({ type: "my_games" });
    } catch (error) {
      reply = { type: "error", message: error.message };
    }
    screen.dataset.state = "listed";
    if (reply.type !== "my_games") {
      this.note(sentence(reply.message));
      return;
    }
    this.games = reply.games;
    this.challenges.show(reply.challenges || []);
    this.problems(reply.problems || []);
    const rows = this.games.map((home) => this.row(home));
    put(byId("home-games").tBodies[0], ...(rows.length ? rows : [h("tr", {}, h("td", { colspan: "6", class: "hint" },
      "None on this server yet: create or join one in the lobby (All games), and it comes here."))]));
  }

  /** The channels of notification that are paused, and why: set again on the account's screen. */
  problems(problems) {
    const shown = byId("home-problems");
    shown.hidden = !problems.length;
    put(shown, ...problems.map((p) => h("p", { "data-problem": p.channel },
      `${p.channel === "mail" ? "Mail to you" : "Your webhook"} is paused: ${sentence(p.why)} `,
      h("button", { type: "button", class: "small", onclick: () => this.app.showAccount() },
        `Set it again on the account's screen`))));
  }

  row(home) {
    const game = home.game;
    const others = game.seats.map((s) => s.name).filter((name) => name !== home.player);
    const notes = settingsNotes(game);
    const actions = h("td", { class: "row-actions" });
    if (home.stands === "finished") {
      actions.append(h("button", { type: "button", "data-open": game.game_id,
        onclick: () => this.app.seeFinished(game.game_id) }, "See the end"),
      h("button", { type: "button", class: "small", "data-replay": game.game_id,
        onclick: () => this.app.showReplay(game.game_id, null) }, "Replay"));
    } else {
      actions.append(h("button", { type: "button", "data-open": game.game_id,
        onclick: () => this.app.play(game.game_id, home.player) },
      home.stands === "your-turn" ? "Play your turn" : "Open"));
    }
    return h("tr", { "data-game-id": game.game_id, "data-stands": home.stands },
      h("td", { class: "stands" }, STANDS[home.stands]),
      h("td", {}, game.game_id),
      h("td", {}, `${game.ruleset_title || game.settings.ruleset} on ${game.map_name}`,
        notes.length ? h("small", { "data-notes": "" }, ` ${notes.join("; ")}`) : null),
      h("td", {}, others.length ? `with ${others.join(", ")}` : "nobody else yet"),
      h("td", {}, whereItStands(home)), actions);
  }
}
