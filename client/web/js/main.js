// The page: one link to its own server, the lobby and the game screens, and the address (#game=ID&player=NAME)
// that brings a reload back to the same seat.

import { byId } from "./dom.js";
import { GameScreen } from "./game.js";
import { Link } from "./link.js";
import { LobbyScreen } from "./lobby.js";
import { ReplayScreen } from "./replay.js";
import { seatToken } from "./seats.js";

const LINK_WORDS = {
  connecting: "Connecting…",
  open: "Connected",
  reconnecting: "Connection lost: reconnecting…",
  closed: "Not connected",
  password: "This server needs a password",
};

class App {
  constructor() {
    this.link = new Link({
      onMessage: (message) => this.take(message),
      onState: (state, detail) => this.linkState(state, detail),
      onReconnect: () => this.reconnected(),
    });
    this.lobby = new LobbyScreen(this);
    this.game = new GameScreen(this);
    this.replay = new ReplayScreen(this);
    byId("home").addEventListener("click", (event) => { event.preventDefault(); this.showLobby(); });
    byId("password-form").addEventListener("submit", (event) => {
      event.preventDefault();
      this.link.usePassword(byId("password").value);
      byId("password-form").hidden = true;
      this.start();
    });
    window.addEventListener("hashchange", () => this.route());
  }

  async start() {
    try {
      await this.link.open();
    } catch {
      return;
    }
    this.route();
  }

  linkState(state, detail) {
    const shown = byId("link-state");
    shown.dataset.link = state;
    shown.textContent = LINK_WORDS[state] + (detail && state !== "open" ? ` (${detail})` : "");
    if (state === "password") byId("password-form").hidden = false;
  }

  take(message) {
    if (message.type === "shutting_down") this.linkState("closed", message.message);
    else if (message.type === "game_listed") {
      // A game was created (here or on another node of the server): the lobby on screen lists it.
      if (document.body.dataset.screen === "lobby") this.lobby.refresh().catch(() => {});
    } else this.game.take(message);
  }

  screen(name) {
    document.body.dataset.screen = name;
    byId("lobby").hidden = name !== "lobby";
    byId("game").hidden = name !== "game";
    byId("replay").hidden = name !== "replay";
    if (name !== "replay") this.replay.pause();
  }

  params() {
    return new URLSearchParams(location.hash.slice(1));
  }

  async route() {
    const params = this.params();
    if (params.get("replay")) {
      await this.openReplay(params.get("replay"), params.get("sight"));
      return;
    }
    const gameId = params.get("game");
    const player = params.get("player");
    if (!gameId) {
      this.showLobby();
      return;
    }
    if (player) await this.play(gameId, player);
    else await this.watch(gameId);
  }

  showLobby(note) {
    if (location.hash) history.replaceState(null, "", location.pathname + location.search);
    this.game.reset(null, null);
    this.screen("lobby");
    this.lobby.show(note);
  }

  /** A finished game told again (`sight`: a player's eyes, or null for everyone's), at an address of its own. */
  showReplay(gameId, sight) {
    const hash = `#replay=${encodeURIComponent(gameId)}` + (sight ? `&sight=${encodeURIComponent(sight)}` : "");
    if (location.hash !== hash) history.pushState(null, "", hash);
    this.openReplay(gameId, sight);
  }

  async openReplay(gameId, sight) {
    this.game.reset(null, null);
    this.screen("replay");
    await this.replay.open(gameId, sight || null);
  }

  showGame(gameId, player) {
    const hash = `#game=${encodeURIComponent(gameId)}` + (player ? `&player=${encodeURIComponent(player)}` : "");
    if (location.hash !== hash) history.replaceState(null, "", hash);
    this.screen("game");
  }

  tokenFor(gameId, player) {
    return seatToken(gameId, player);
  }

  async play(gameId, player) {
    const token = seatToken(gameId, player);
    if (!token) {
      this.showLobby(`This browser keeps no seat for ${player} in game ${gameId}.`);
      return;
    }
    this.showGame(gameId, player);
    const reply = await this.game.resume(gameId, player, token, 0).catch((error) => ({ type: "error", message: error.message }));
    if (reply.type === "error") this.showLobby(`Could not return to game ${gameId}: ${reply.message}`);
  }

  async watch(gameId) {
    this.showGame(gameId, null);
    const reply = await this.game.watch(gameId, 0).catch((error) => ({ type: "error", message: error.message }));
    if (reply.type === "error") this.showLobby(`Cannot watch game ${gameId}: ${reply.message}`);
  }

  async join(gameId, name, group) {
    this.showGame(gameId, name);
    const reply = await this.game.join(gameId, name, group);
    if (reply.type === "joined") this.showGame(gameId, reply.player);
    else {
      history.replaceState(null, "", location.pathname + location.search);
      this.screen("lobby");
    }
    return reply;
  }

  /** The link is back (or moved to another node): take the seat back, or watch again, or list the games again. */
  reconnected() {
    if (this.game.gameId) return this.game.reconnected(seatToken(this.game.gameId, this.game.player));
    if (document.body.dataset.screen === "lobby") return this.lobby.refresh().catch(() => {});
    return Promise.resolve();
  }
}

const app = new App();
window.risc = app;
app.start();
