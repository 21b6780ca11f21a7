// The grid game (docs/rules-grid.md): 3 to 5 players on a 5 x 5 board, one at a time: deployment, each turn's new
// troops, attacks with their dice, the move-in after taking a cell, and the one move that ends a turn. The board is
// drawn as the grid it is (cells named "row,col", rows and columns numbered along the edges); players' letters are
// the game's own A to E, in the order of the seats. The words of its actions and events come from the server.

import { h } from "../dom.js";
import { diceRoll, generic, table } from "./generic.js";

const PHASES = {
  deployment: "deployment",
  "new troops": "new troops",
  attack: "attacks and the move",
  "move-in": "move-in after taking a cell",
  finished: "finished",
};

function troops(n) {
  return `${n} ${n === 1 ? "troop" : "troops"}`;
}

export default {
  ...generic,
  marks(event, ctx) {
    if (event.kind === "battle") {
      return [{ territory: event.target, mark: "battle" }, { territory: event.source, mark: "change" }];
    }
    if (event.kind === "cell_taken") return [{ territory: event.cell, mark: "conquest" }];
    if (["turn_started", "turn_ended", "player_eliminated", "game_won"].includes(event.kind)) return [];
    return generic.marks(event, ctx);
  },
  roll(event) {
    return event.kind === "battle" ? diceRoll(event) : null;
  },
  territory(state) {
    return { owner: state.owner || "", units: state.troops ?? 0, fog: "clear", seen: null, note: "", badge: "",
      facts: [] };
  },
  playerFacts(p) {
    return { territories: p.territories, units: p.troops };
  },
  playerNote(p, name, ctx) {
    return ctx.view?.phase === "deployment" && p.to_deploy ? `${troops(p.to_deploy)} to deploy` : "";
  },
  boardShape() {
    return "cells";
  },
  phase(label) {
    return PHASES[label] || label;
  },
  prompt(view, ctx) {
    const active = ctx.active;
    if (!active) return "";
    if (!ctx.acting) return `${active} is playing: ${PHASES[view.phase] || view.phase}.`;
    const me = view.players?.[ctx.you] || {};
    switch (view.phase) {
      case "deployment":
        return `Deploy one troop (${me.to_deploy} left to deploy): pick one of your cells.`;
      case "new troops":
        return `Deploy your ${troops(view.new_troops)} all on one cell: pick one of yours.`;
      case "attack":
        return "Attack: pick a cell of yours with 2 troops or more, then a neighbouring enemy cell; or move troops " +
          "between your cells (this ends your turn), or end your turn.";
      case "move-in": {
        const c = view.conquest || {};
        return `You took ${c.target}: move ${c.least} to ${c.most} troops in from ${c.source}.`;
      }
      default:
        return "";
    }
  },
  panels(view) {
    const rows = [["whose turn", view.active || "nobody"], ["phase", PHASES[view.phase] || view.phase]];
    if (view.phase === "new troops") rows.push(["new troops", String(view.new_troops)]);
    if (view.phase === "deployment") rows.push(["each deploys", `${view.troops_each} troops in all`]);
    if (view.conquest) {
      rows.push(["move-in", `${view.conquest.source} → ${view.conquest.target}: ${view.conquest.least} to ` +
        `${view.conquest.most}`]);
    }
    const order = (view.seats || []).map((name) => `${view.players[name]?.letter || "?"} ${name}`).join(", ");
    rows.push(["turn order", order]);
    return [{ title: "The turn", key: "turn", body: h("div", { "data-active": view.active || "" }, table(rows)) }];
  },
};
