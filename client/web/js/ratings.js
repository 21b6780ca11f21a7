// The ladders: a rule set's leaderboard (place, name, rating with "provisional" while the model is unsure, games,
// wins, win rate) and a player's profile (a rating by rule set, the rating history of a rule set as a line chart,
// the last rated games). Its address is #ladder=RULESET, or #ladder=RULESET&profile=NAME for a profile too.

import { byId, h, put, s } from "./dom.js";

const W = 340;
const H = 170;
const PAD = { left: 40, right: 12, top: 12, bottom: 24 };
export const RULESETS = [["risc", "RISC"], ["warzone", "Warzone"], ["classic", "Classic Risk"], ["grid", "Grid Risk"]];

export function titleOf(ruleset) {
  return (RULESETS.find(([name]) => name === ruleset) || [ruleset, ruleset])[1];
}

function shownRating(entry) {
  return h("span", { class: entry.provisional ? "rating provisional" : "rating",
    title: entry.provisional ? "provisional: the rating is still unsure" : null },
  String(entry.rating), entry.provisional ? "?" : "");
}

/** A rating history as a line: the rating before the first game shown, then one point a rated game, oldest on the
 * left, the rating's range on the left axis. */
export function ratingChart(games) {
  const ratings = [games[0].rating - games[0].change, ...games.map((g) => g.rating)];
  const low = Math.min(...ratings);
  const high = Math.max(...ratings);
  const span = Math.max(1, high - low);
  const x = (i) => PAD.left + (i / (ratings.length - 1)) * (W - PAD.left - PAD.right);
  const y = (r) => H - PAD.bottom - ((r - low) / span) * (H - PAD.top - PAD.bottom);
  const points = ratings.map((r, i) => `${x(i).toFixed(1)},${y(r).toFixed(1)}`).join(" ");
  return s("svg", { class: "rating-chart", viewBox: `0 0 ${W} ${H}`, role: "img",
    "aria-label": `rating from ${ratings[0]} to ${ratings[ratings.length - 1]} over ${games.length} games` },
  s("line", { x1: PAD.left, y1: H - PAD.bottom, x2: W - PAD.right, y2: H - PAD.bottom, class: "axis" }),
  s("line", { x1: PAD.left, y1: PAD.top, x2: PAD.left, y2: H - PAD.bottom, class: "axis" }),
  s("text", { x: PAD.left - 4, y: y(high) + 4, "text-anchor": "end", class: "tick" }, String(high)),
  s("text", { x: PAD.left - 4, y: y(low) + 4, "text-anchor": "end", class: "tick" }, String(low)),
  s("text", { x: W - PAD.right, y: H - 6, "text-anchor": "end", class: "tick" },
    `${games.length} game${games.length === 1 ? "" : "s"}`),
  s("polyline", { points, class: "rating-line", fill: "none" }),
  ...games.map((g, i) => s("circle", { cx: x(i + 1), cy: y(g.rating), r: 2.5, class: g.change >= 0 ? "up" : "down" },
    s("title", {}, `${g.game_id}: ${g.place} of ${g.players}, ${g.rating} (${g.change >= 0 ? "+" : ""}${g.change})`))));
}

export class LaddersScreen {
  /** app: { link, account, challenge(name) }; root: the screen's element (built here). */
  constructor(app, root) {
    this.app = app;
    this.link = app.link;
    this.root = root;
    this.ruleset = "risc";
    this.select = h("select", { id: "ladder-ruleset", "aria-label": "Rules", onchange: () => this.show(this.select.value) },
      ...RULESETS.map(([name, title]) => h("option", { value: name }, title)));
    this.board = h("div", { id: "leaderboard", class: "table-scroll" });
    this.profile = h("section", { id: "profile", class: "panel", "aria-live": "polite", hidden: true });
    this.note = h("p", { class: "note", role: "status" });
    const find = h("form", { id: "profile-form", onsubmit: (event) => {
      event.preventDefault();
      const name = byId("profile-name").value.trim();
      if (name) this.showPlayer(name);
    } }, h("label", {}, "A player ", h("input", { id: "profile-name", maxlength: 40, placeholder: "name, or bot:NAME" })),
    h("button", { type: "submit", class: "small" }, "Profile"));
    put(root,
      h("section", { class: "panel", "aria-labelledby": "ladder-title" },
        h("h2", { id: "ladder-title" }, "Ladder ", this.select),
        h("p", { class: "hint" }, "Rated games of three to five: a rating marked ? is provisional (its first games)."),
        this.board, find, this.note),
      this.profile);
  }

  async show(ruleset) {
    this.ruleset = ruleset || this.ruleset;
    this.select.value = this.ruleset;
    const reply = await this.link.request({ type: "leaderboard", ruleset: this.ruleset, limit: 50 });
    if (reply.type === "error") {
      this.note.textContent = reply.message;
      return;
    }
    this.note.textContent = "";
    if (!reply.players.length) {
      put(this.board, h("p", { class: "hint" }, `Nobody has played a rated game of ${titleOf(this.ruleset)} lately.`));
      return;
    }
    put(this.board, h("table", { class: "games ladder" },
      h("thead", {}, h("tr", {}, ...["#", "Player", "Rating", "Games", "Wins", "Win rate"].map((t) => h("th", {}, t)))),
      h("tbody", {}, ...reply.players.map((p) => h("tr", { "data-name": p.name },
        h("td", {}, String(p.place)),
        h("td", {}, h("a", { href: `#ladder=${this.ruleset}&profile=${encodeURIComponent(p.name)}`, class: p.computer ? "computer" : null }, p.name)),
        h("td", { "data-label": "rating" }, shownRating(p)),
        h("td", { "data-label": "games" }, String(p.games)),
        h("td", { "data-label": "wins" }, String(p.wins)),
        h("td", { "data-label": "win rate" }, p.games ? `${Math.round((100 * p.wins) / p.games)}%` : "-"))))));
  }

  async showPlayer(name) {
    const reply = await this.link.request({ type: "profile", name });
    this.profile.hidden = false;
    if (reply.type === "error") {
      put(this.profile, h("p", { class: "note" }, reply.message));
      return;
    }
    const last = reply.games.length ? reply.games[reply.games.length - 1].ruleset : null;
    const history = reply.games.filter((g) => g.ruleset === last);
    const me = this.app.account.name;
    const challenge = me && !reply.computer && reply.name.toLowerCase() !== me.toLowerCase()
      ? h("button", { type: "button", class: "small", id: "profile-challenge", "aria-label": `Challenge ${reply.name}`,
        onclick: () => this.app.challenge(reply.name) }, "Challenge") : null;
    put(this.profile,
      h("h2", {}, h("span", { id: "profile-title" }, reply.name), reply.computer ? " (a computer strategy)" : "", " ",
        challenge),
      reply.ratings.length ? h("table", { class: "games results" },
        h("thead", {}, h("tr", {}, ...["Rules", "Rating", "Games", "Wins"].map((t) => h("th", {}, t)))),
        h("tbody", {}, ...reply.ratings.map((r) => h("tr", { "data-ruleset": r.ruleset },
          h("td", {}, titleOf(r.ruleset)), h("td", { "data-label": "rating" }, shownRating(r)),
          h("td", { "data-label": "games" }, String(r.games)), h("td", { "data-label": "wins" }, String(r.wins))))))
        : h("p", { class: "hint" }, "No rated game yet."),
      history.length ? h("h3", {}, `${titleOf(last)}: the rating game by game`) : null,
      history.length ? ratingChart(history) : null,
      reply.games.length ? h("h3", {}, "Last games") : null,
      reply.games.length ? h("ol", { class: "recent", reversed: true }, ...reply.games.slice(-10).reverse().map((g) =>
        h("li", {}, `${titleOf(g.ruleset)}, game ${g.game_id}: ${g.place} of ${g.players}, `, shownRating(g),
          ` (${g.change >= 0 ? "+" : ""}${g.change})`))) : null);
  }
}
