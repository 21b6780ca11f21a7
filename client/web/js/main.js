// The page: one link to its own server, its screens (the lobby, a game, a replay; signed in, the account's home
// first, and the account's own), the address (#game=ID&player=NAME) that brings a reload back to the same seat, and
// the games played off screen (one person may sit in several at once). A seat is opened by the token this browser
// kept for it, or, signed in, by the account whose seat it is (no token: any device of the account).

import { Account, sentence } from "./account.js";
import { byId } from "./dom.js";
import { GameScreen, resumeRequest } from "./game.js";
import { MyGames } from "./games.js";
import { HomeScreen } from "./home.js";
import { AccountScreen } from "./keeping.js";
import { Notices } from "./notices.js";
import { Link } from "./link.js";
import { LobbyScreen } from "./lobby.js";
import { QuickPlayPanel } from "./quickplay.js";
import { LaddersScreen } from "./ratings.js";
import { ReplayScreen } from "./replay.js";
import { seatToken } from "./seats.js";

/** The server's word, unasked, that another connection took a seat of this page's. */
function seatTakenNotice(message) {
  return message.type === "error" && message.code === "not-seated" && Boolean(message.game_id) && !message.ref;
}

/** Each screen, and the element that holds it. */
const SCREENS = { lobby: "lobby", game: "game", replay: "replay", home: "home-screen", "sign-in": "sign-in",
  account: "account", ladders: "ladders" };

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
      onWelcome: (welcome) => this.account.welcomed(welcome),
      onSessionEnded: () => this.account.sessionEnded(),
    });
    this.account = new Account(this);
    this.lobby = new LobbyScreen(this);
    this.game = new GameScreen(this);
    this.mine = new MyGames(byId("my-games"), (gameId, player) => this.route(gameId, player));
    this.replay = new ReplayScreen(this);
    this.home = new HomeScreen(this);
    this.keeping = new AccountScreen(this);
    this.notices = new Notices(this.link, () => this.game.gameId);
    this.ladders = new LaddersScreen(this, byId("ladders"));
    this.quick = new QuickPlayPanel(this, byId("quick-play"));
    byId("home").addEventListener("click", (event) => { event.preventDefault(); this.showFirst(); });
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
    if (message.type === "notice") {
      this.notices.take(message);
      // a challenge came while the home is on screen: listed at once, to answer
      if (message.kind === "challenge" && document.body.dataset.screen === "home") this.home.refresh();
    }
    else if (message.type === "shutting_down") this.linkState("closed", message.message);
    else if (message.type === "signed_out") this.account.signedOut();
    else if (seatTakenNotice(message)) this.seatTaken(message);
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

  /** A seat of this page's was taken by another connection: with its token (another tab, another browser), or, the
   * account's, from another device signed in to it. The game leaves this page, which says so. */
  seatTaken(notice) {
    const gameId = notice.game_id;
    const player = this.game.gameId === gameId ? this.game.player : this.mine.playerOf(gameId);
    const account = player && player === this.account.name && !seatToken(gameId, player);
    const note = account ? `Game ${gameId} is open on another device signed in to your account now: My games `
      + "brings it back here." : sentence(notice.message);
    if (this.game.gameId === gameId) {
      this.showFirst(note, true);
      return;
    }
    this.mine.forget(gameId);
    this.account.tell(note, "problem");
  }

  screen(name) {
    if (document.body.dataset.screen === "lobby" && name !== "lobby") this.lobby.hide();
    document.body.dataset.screen = name;
    for (const [screen, id] of Object.entries(SCREENS)) byId(id).hidden = name !== screen;
    if (name !== "replay") this.replay.pause();
  }

  /** The lobby or the home on screen, with the quick play panel: a signed-in player starts at the home. */
  startScreen(name) {
    if (name === "home") byId("home-screen").insertBefore(byId("quick-play"), byId("challenge-panel"));
    else byId("lobby").insertBefore(byId("quick-play"), byId("lobby-chat"));
    this.screen(name);
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
      this.showFirst();
      return;
    }
    if (player) await this.play(gameId, player);
    else await this.watch(gameId);
  }

  /** Another screen than a game's comes on: the game on screen goes on off screen (or is left, `left`). */
  noGameOnScreen(left = false) {
    this.offScreen(null, left);
    if (location.hash) history.replaceState(null, "", location.pathname + location.search);
    this.game.reset(null, null);
    this.mine.onScreen(null, null, null);
  }

  showLobby(note, left = false) {
    this.noGameOnScreen(left);
    this.startScreen("lobby");
    this.lobby.show(note);
  }

  /** The first screen: the account's home when signed in, else the lobby. */
  showFirst(note, left = false) {
    if (this.account.name) this.showHome(note, left);
    else this.showLobby(note, left);
  }

  showHome(note, left = false) {
    if (!this.account.name) {
      this.showLobby(note, left);
      return;
    }
    this.noGameOnScreen(left);
    this.startScreen("home");
    this.home.show(note);
  }

  /** The home's form to challenge `name` (a profile's Challenge button), signed in. */
  async challenge(name) {
    if (!this.account.name) return;
    this.noGameOnScreen();
    this.startScreen("home");
    await this.home.challenge(name);
  }

  showSignIn(made) {
    this.noGameOnScreen();
    this.account.form(made);
    this.screen("sign-in");
    byId("account-name-input").focus();
  }

  showAccount() {
    if (!this.account.name) return;
    this.noGameOnScreen();
    this.screen("account");
    this.keeping.show();
  }

  /** Signed in or out: what shows the player's name (the lobby's, a seat's), and the screens only an account has. */
  accountChanged() {
    this.lobby.accountChanged();
    this.game.accountChanged();
  }

  /** The account `name` was signed out of (here or elsewhere): its seats, which only its sessions open, leave the
   * page, on screen and off; its own screens too. The link, a guest's, comes back after. */
  accountGone(name) {
    for (const { gameId, player } of this.mine.list()) {
      if (player === name && !seatToken(gameId, player)) this.mine.forget(gameId);
    }
    const screen = document.body.dataset.screen;
    const onScreen = this.game.gameId && this.game.player === name && !seatToken(this.game.gameId, name);
    if (onScreen || screen === "home" || screen === "account") {
      this.noGameOnScreen(true);
      this.startScreen("lobby"); // listed once the link is back (reconnected)
    }
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
    this.notices.look();
    const hash = `#game=${encodeURIComponent(gameId)}` + (player ? `&player=${encodeURIComponent(player)}` : "");
    if (location.hash !== hash) history.replaceState(null, "", hash);
    this.screen("game");
  }

  /** How this page opens `player`'s seat in a game: {token} kept in this browser, {token: null} the account's (the
   * link signed in to it is enough), or null: it cannot. */
  seatFor(gameId, player) {
    const token = player ? seatToken(gameId, player) : null;
    if (token) return { token };
    return player && player === this.account.name ? { token: null } : null;
  }

  async play(gameId, player) {
    const seat = this.seatFor(gameId, player);
    if (!seat) {
      const how = this.account.on && !this.account.name ? " If it is your account's, sign in to play it." : "";
      this.showFirst(`This browser keeps no seat for ${player} in game ${gameId}.${how}`);
      return;
    }
    this.offScreen(gameId);
    this.showGame(gameId, player);
    const reply = await this.game.resume(gameId, player, seat.token, 0)
      .catch((error) => ({ type: "error", message: error.message }));
    if (reply.type === "error") this.showFirst(`Could not return to game ${gameId}: ${reply.message}`);
  }

  async watch(gameId) {
    this.offScreen(gameId);
    this.showGame(gameId, null);
    const reply = await this.game.watch(gameId, 0).catch((error) => ({ type: "error", message: error.message }));
    if (reply.type === "error") this.showFirst(`Cannot watch game ${gameId}: ${reply.message}`);
  }

  /** A finished game of the account's home: its end, watched (played, where this page still holds the seat); one the
   * server no longer holds, as a replay. */
  async seeFinished(gameId) {
    if (this.mine.has(gameId)) {
      await this.play(gameId, this.mine.playerOf(gameId));
      return;
    }
    this.offScreen(gameId);
    this.showGame(gameId, null);
    const reply = await this.game.watch(gameId, 0).catch((error) => ({ type: "error", message: error.message }));
    if (reply.type === "error" && reply.code === "no-such-game") this.showReplay(gameId, null);
    else if (reply.type === "error") this.showFirst(`Cannot watch game ${gameId}: ${reply.message}`);
  }

  async join(gameId, name, group) {
    this.offScreen(gameId);
    this.showGame(gameId, name);
    const reply = await this.game.join(gameId, name, group);
    if (reply.type === "joined") this.showGame(gameId, reply.player);
    else {
      history.replaceState(null, "", location.pathname + location.search);
      this.startScreen("lobby");
    }
    return reply;
  }

  /** The link is back (or moved to another node, or opened afresh signed in or out): take the seats back (the games
   * off screen too, from where they were), or watch again, or list the games again. */
  async reconnected() {
    this.notices.look(); // a new connection looks at every game it follows until told
    for (const { gameId, player, seq } of this.mine.list()) {
      const seat = this.seatFor(gameId, player);
      if (seat) await this.link.request(resumeRequest(gameId, seat.token, seq)).catch(() => {});
    }
    if (this.game.gameId) {
      const seat = this.seatFor(this.game.gameId, this.game.player);
      return this.game.reconnected(seat ? seat.token : null);
    }
    const screen = document.body.dataset.screen;
    if (screen === "lobby") return (this.lobby.rulesets.length ? this.lobby.refresh() : this.lobby.show()).catch(() => {});
    if (screen === "home") return this.home.refresh();
    if (screen === "account") return this.keeping.refresh();
    return undefined;
  }
}

const app = new App();
window.risc = app;
app.start();
