// The games this page plays besides the one on screen. One person may sit in several games at once: a game put off
// screen (the lobby, another game) goes on, its link still following it, and the bar at the top says where each
// stands (whether it waits for you) and brings it back on screen with a click.

import { h, put } from "./dom.js";
import { applyPatch, seatsKeyed, seatsListed } from "./patch.js";

/** Where a game stands for the player who sits in it, in a few words, and whether it waits for them. */
export function standing(summary, player) {
  if (!summary) return { words: "", waits: false };
  if (summary.status === "lobby") return { words: `waiting for ${summary.free} more`, waits: false };
  if (summary.status === "finished") return { words: summary.winner ? `${summary.winner} won` : "a draw", waits: false };
  const seat = summary.seats.find((s) => s.name === player);
  if (!seat) return { words: `turn ${summary.turn} (watching)`, waits: false };
  if (seat.eliminated) return { words: `turn ${summary.turn}, you are out`, waits: false };
  const when = summary.turn ? `turn ${summary.turn}` : summary.phase;
  if (seat.awaited && !seat.committed) {
    return { words: `${when}, ${summary.simultaneous ? "your orders" : "your move"}`, waits: true };
  }
  const acting = summary.seats.filter((s) => s.awaited && !s.committed).map((s) => s.name);
  return { words: `${when}, waiting for ${acting.join(", ") || "the others"}`, waits: false };
}

export class MyGames {
  /** root: the bar (a nav holding a list); open(gameId, player): put that game on screen. */
  constructor(root, open) {
    this.root = root;
    this.open = open;
    this.games = new Map(); // gameId -> {player, kept (the summary as patched: seats keyed), summary, seq}
    this.current = null; // {gameId, player, summary} of the game on screen
  }

  has(gameId) {
    return this.games.has(gameId);
  }

  /** The player this page sits as in a game kept off screen, or null. */
  playerOf(gameId) {
    const game = this.games.get(gameId);
    return game ? game.player : null;
  }

  /** Every game kept off screen: [{gameId, player, seq}]. */
  list() {
    return [...this.games.entries()].map(([gameId, g]) => ({ gameId, player: g.player, seq: g.seq }));
  }

  /** A game goes off screen: its summary as last patched (the base of the next patch the server sends). */
  keep(gameId, player, kept, seq) {
    if (!kept) return;
    this.games.set(gameId, { player, kept, summary: seatsListed(kept), seq });
    this.render();
  }

  forget(gameId) {
    this.games.delete(gameId);
    this.render();
  }

  /** The game on screen (its summary for the bar), which is not kept off screen meanwhile. */
  onScreen(gameId, player, summary) {
    this.games.delete(gameId);
    this.current = gameId ? { gameId, player, summary } : null;
    this.render();
  }

  /** An update about a game off screen: only where it stands matters here. */
  take(update) {
    const game = this.games.get(update.game_id);
    if (!game || update.type !== "update") return;
    game.seq = Math.max(game.seq, update.seq);
    if (update.game) game.kept = seatsKeyed(update.game);
    else if (update.game_patch) game.kept = applyPatch(game.kept, update.game_patch);
    else return;
    game.summary = seatsListed(game.kept);
    this.render();
  }

  render() {
    const items = [];
    const entry = (gameId, player, summary, current) => {
      const { words, waits } = standing(summary, player);
      const label = `${gameId}${player ? ` as ${player}` : ""}`;
      return h("li", { "data-game-id": gameId, "data-waits": String(waits) },
        current ? h("strong", { "aria-current": "true" }, `${label} (on screen)`)
          : h("button", { type: "button", class: "small", onclick: () => this.open(gameId, player) }, label),
        " ", h("span", { class: "game-standing" }, words));
    };
    if (this.current) items.push(entry(this.current.gameId, this.current.player, this.current.summary, true));
    for (const [gameId, game] of this.games) items.push(entry(gameId, game.player, game.summary, false));
    this.root.hidden = this.games.size === 0;
    put(this.root.querySelector("ul"), ...items);
  }
}
