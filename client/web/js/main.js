// The page: one link to its own server, the lobby and the game screens, the address (#game=ID&player=NAME) that
// brings a reload back to the same seat, and the games played off screen (one person may sit in several at once).

import { byId } from "./dom.js";
import { GameScreen } from "./game.js";
import { MyGames } from "./games.js";
import { Link } from "./link.js";
import { LobbyScreen } from "./lobby.js";
import { QuickPlayPanel } from "./quickplay.js";
import { LaddersScreen } from "./ratings.js";
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
    this.mine = new MyGames(byId("my-games"), (gameId, player) => this.route(gameId, player));
    this.replay = new ReplayScreen(this);
    this.ladders = new LaddersScreen(this, byId("ladders"));
    this.quick = new QuickPlayPanel(this, byId("quick-play"));
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
    else if (message.type === "lobby_chat") this.lobby.heard(message);
    else if (message.type === "quick_play_waiting" || message.type === "quick_play_found") this.quick.take(message);
    else if (message.type === "game_listed") {
      // A game was created (here or on another node of the server): the lobby on screen lists it.
      if (document.body.dataset.screen === "lobby") this.lobby.refresh().catch(() => {});
    } else if (message.game_id && message.game_id !== this.game.gameId && this.mine.has(message.game_id)) {
      this.mine.take(message);
    } else this.game.take(message);
  }

  /** Before another game (or the lobby) comes on screen: a game played goes on off screen, a game watched is left. */
  offScreen(next, left = false) {
    const game = this.game;
    if (!game.gameId || game.gameId === next) return;
    if (game.player && !game.following && !left) this.mine.keep(game.gameId, game.player, game.keptSummary, game.seq);
    else if (!game.player && !left) this.link.request({ type: "leave_game", game_id: game.gameId }).catch(() => {});
    if (left) this.mine.forget(game.gameId);
  }

  /** The game on screen changed: the bar of one's games says where it stands. */
  gameShown() {
    const game = this.game;
    this.mine.onScreen(game.gameId, game.player, game.summary);
  }

  screen(name) {
    if (document.body.dataset.screen === "lobby" && name !== "lobby") this.lobby.hide();
    document.body.dataset.screen = name;
    byId("lobby").hidden = name !== "lobby";
    byId("game").hidden = name !== "game";
    byId("replay").hidden = name !== "replay";
    byId("ladders").hidden = name !== "ladders";
    if (name !== "replay") this.replay.pause();
  }

  params() {
    return new URLSearchParams(location.hash.slice(1));
  }

  /** Put on screen what the address says (a replay, a game played or watched, the lobby), or the game named. */
  async route(gameId = null, player = null) {
    if (gameId === null) {
      const params = this.params();
      if (params.get("replay")) {
        await this.openReplay(params.get("replay"), params.get("sight"));
        return;
      }
      if (params.get("ladder") || params.get("profile")) {
        await this.showLadders(params.get("ladder"), params.get("profile"));
        return;
      }
      gameId = params.get("game");
      player = params.get("player");
    }
    if (!gameId) {
      this.showLobby();
      return;
    }
    if (player) await this.play(gameId, player);
    else await this.watch(gameId);
  }

  showLobby(note, left = false) {
    this.offScreen(null, left);
    if (location.hash) history.replaceState(null, "", location.pathname + location.search);
    this.game.reset(null, null);
    this.mine.onScreen(null, null, null);
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
    this.offScreen(null);
    this.game.reset(null, null);
    this.mine.onScreen(null, null, null);
    this.screen("replay");
    await this.replay.open(gameId, sight || null);
  }

  /** A rule set's ladder, and a player's profile when one is named (#ladder=RULESET, #profile=NAME). */
  async showLadders(ruleset, player) {
    this.offScreen(null);
    this.game.reset(null, null);
    this.mine.onScreen(null, null, null);
    this.screen("ladders");
    await this.ladders.show(ruleset);
    if (player) await this.ladders.showPlayer(player);
  }

  /** An account's seat (quick play, a challenge): taken back without a token, the account's session opens it. */
  async playAccountSeat(gameId, player) {
    this.offScreen(gameId);
    this.showGame(gameId, player);
    const reply = await this.game.resume(gameId, player, null, 0).catch((error) => ({ type: "error", message: error.message }));
    if (reply.type === "error") this.showLobby(`Could not take your seat in game ${gameId}: ${reply.message}`);
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
    this.offScreen(gameId);
    this.showGame(gameId, player);
    const reply = await this.game.resume(gameId, player, token, 0).catch((error) => ({ type: "error", message: error.message }));
    if (reply.type === "error") this.showLobby(`Could not return to game ${gameId}: ${reply.message}`);
  }

  async watch(gameId) {
    this.offScreen(gameId);
    this.showGame(gameId, null);
    const reply = await this.game.watch(gameId, 0).catch((error) => ({ type: "error", message: error.message }));
    if (reply.type === "error") this.showLobby(`Cannot watch game ${gameId}: ${reply.message}`);
  }

  async join(gameId, name, group) {
    this.offScreen(gameId);
    this.showGame(gameId, name);
    const reply = await this.game.join(gameId, name, group);
    if (reply.type === "joined") this.showGame(gameId, reply.player);
    else {
      history.replaceState(null, "", location.pathname + location.search);
      this.screen("lobby");
    }
    return reply;
  }

  /** The link is back (or moved to another node): take the seats back (the games off screen too, from where they
   * were), or watch again, or list the games again. */
  async reconnected() {
    for (const { gameId, player, seq } of this.mine.list()) {
      const token = seatToken(gameId, player);
      if (token) await this.link.request({ type: "resume", game_id: gameId, token, last_seq: seq }).catch(() => {});
    }
    if (this.game.gameId) return this.game.reconnected(seatToken(this.game.gameId, this.game.player));
    if (document.body.dataset.screen === "lobby") return this.lobby.refresh().catch(() => {});
    return undefined;
  }
}

const app = new App();
window.risc = app;
app.start();
