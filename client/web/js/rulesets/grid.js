// The grid game (docs/rules-grid.md): 3 to 5 players on a 5 x 5 board, one at a time: deployment, each turn's new
// troops, attacks with their dice, the move-in after taking a cell, and the one move that ends a turn. The board is
// drawn as the grid it is (cells named "row,col", rows and columns numbered along the edges); players' letters are
// the game's own A to E, in the order of the seats.

import { h } from "../dom.js";
import { diceRoll, generic, rollLine, table, worded } from "./generic.js";

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

const orders = {
  deploy: (o, ctx) => (ctx.view?.phase === "new troops"
    ? `deploy your ${troops(ctx.view.new_troops)} on ${o.cell}` : `deploy a troop on ${o.cell}`),
  attack: (o) => `attack ${o.target} from ${o.source} with ${o.troops} troops, a die each`,
  movein: (o, ctx) => `move ${o.troops} into ${ctx.view?.conquest?.target || "the cell taken"}`,
  move: (o) => `move ${o.troops} from ${o.source} to ${o.target} (ends your turn)`,
  end: () => "end your turn without a move",
};

function battle(e) {
  return rollLine(e, e.source_troops, e.target_troops);
}

const events = {
  troop_deployed: (e) => `${e.player} deploys a troop on ${e.cell} (${e.deployed} deployed)`,
  turn_started: (e) => `Turn ${e.turn}: ${e.player} has ${troops(e.new_troops)} to deploy (${e.territories} ` +
    "territories)",
  new_troops_deployed: (e) => `${e.player} deploys ${troops(e.troops)} on ${e.cell}`,
  battle,
  cell_taken: (e) => `${e.player} takes ${e.cell} from ${e.defender}: ` +
    (e.least === e.most ? `${troops(e.least)} move in` : `${e.least} to ${e.most} troops may move in`),
  troops_moved_in: (e) => `${e.player} moves ${troops(e.troops)} from ${e.source} into ${e.target}` +
    (e.automatic ? " (the only choice)" : ""),
  troops_moved: (e) => `${e.player} moves ${troops(e.troops)} from ${e.source} to ${e.target}`,
  turn_ended: (e) => `${e.player} ends their turn${e.automatic ? " (nothing left to do)" : ""}`,
  player_eliminated: (e) => `${e.player} is out of the game (taken by ${e.by})`,
  game_won: (e) => `${e.player} wins the game`,
};

export default {
  ...generic,
  ...worded(orders, events),
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
