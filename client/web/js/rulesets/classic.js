// Classic Risk (docs/rules-classic.md): one player at a time through startup placement, reinforcement, attack,
// the move-in after a conquest and fortification. The board's marks and the dice of the last roll, capitals, what
// the phase asks of the active player, the player's own cards and mission, and the table's cards, deck and what the
// next set is worth. The words of its actions and events come from the server.

import { h } from "../dom.js";
import { diceRoll, generic, table } from "./generic.js";

const PHASES = {
  startup: "startup placement",
  capital: "choosing capitals",
  reinforcement: "reinforcement",
  attack: "attack",
  "move-in": "move-in after a conquest",
  fortification: "fortification",
  finished: "finished",
};

function armies(n) {
  return `${n} ${n === 1 ? "army" : "armies"}`;
}

function card(c) {
  return c.symbol === "wildcard" || !c.country ? "wildcard" : `${c.symbol} (${c.country})`;
}

function capitalOf(name, view) {
  for (const [player, p] of Object.entries(view?.players || {})) if (p.capital === name) return player;
  return null;
}

export default {
  ...generic,
  marks(event, ctx) {
    if (event.kind === "dice_rolled") {
      return [{ territory: event.target, mark: "battle" }, { territory: event.source, mark: "change" }];
    }
    if (event.kind === "country_conquered") return [{ territory: event.country, mark: "conquest" }];
    if (event.kind === "cheated") return event.countries.map((territory) => ({ territory, mark: "change" }));
    if (["turn_started", "player_eliminated", "game_won", "card_drawn", "card_received", "deck_reshuffled",
      "cards_captured", "cards_handed_over", "mission_changed", "cards_traded", "cards_kept"].includes(event.kind)) {
      return [];
    }
    return generic.marks(event, ctx);
  },
  roll(event) {
    return event.kind === "dice_rolled" ? diceRoll(event) : null;
  },
  territory(state, name, ctx = {}) {
    const capital = capitalOf(name, ctx.view);
    return {
      owner: state.owner || "", units: state.armies ?? 0, fog: "clear", seen: null, note: "",
      badge: capital ? "★" : "", describe: capital ? `capital of ${capital}` : "",
      facts: capital ? [["capital of", capital]] : [],
    };
  },
  redrawOn(patch) {
    return Boolean(patch.players);
  },
  playerFacts(p) {
    return { territories: p.countries, units: p.armies };
  },
  playerNote(p, name, ctx) {
    const parts = [`${p.cards} card${p.cards === 1 ? "" : "s"}`];
    if (ctx.view?.phase === "startup" && p.unplaced) parts.push(`${p.unplaced} to place`);
    if (p.capital) parts.push(`capital ${p.capital}`);
    return parts.join(", ");
  },
  phase(label) {
    return PHASES[label] || label;
  },
  continentBonus(view, continent) {
    return continent.bonus;
  },
  prompt(view, ctx) {
    const active = ctx.active;
    if (!active) return "";
    if (!ctx.acting) return `${active} is playing: ${PHASES[view.phase] || view.phase}.`;
    const me = view.players?.[ctx.you] || {};
    switch (view.phase) {
      case "startup":
        return `Place your starting armies one at a time (${me.unplaced} left): pick one of your countries, ` +
          "or place them all at random.";
      case "capital":
        return "Choose your capital: pick one of your countries.";
      case "reinforcement":
        return (view.your_hand || []).length >= 5
          ? "You hold 5 cards or more: trade a set before you place your armies."
          : `Place ${armies(view.reinforcements)}: pick one of your countries (or trade a set of cards first).`;
      case "attack":
        return "Attack: pick one of your countries with 2 armies or more, then an enemy country next to it; " +
          "or end the attack phase.";
      case "move-in": {
        const c = view.conquest || {};
        return `You conquered ${c.target}: move ${c.least} to ${c.most} armies in from ${c.source}.`;
      }
      case "fortification":
        return "Fortify: pick a country to move armies from, then one of yours to move them to (this ends your " +
          "turn); or skip.";
      default:
        return "";
    }
  },
  panels(view, ctx) {
    const panels = [];
    const rows = [["whose turn", view.active || "nobody"], ["phase", PHASES[view.phase] || view.phase]];
    if (view.phase === "reinforcement") rows.push(["armies to place", String(view.reinforcements)]);
    if (view.conquest) {
      rows.push(["move-in", `${view.conquest.source} → ${view.conquest.target}: ${view.conquest.least} to ` +
        `${view.conquest.most}`]);
    }
    rows.push(["cards in the deck", String(view.deck)],
      ["next set", view.card_schedule === "fixed" ? "4, 6 or 8 three of a kind, 10 one of each"
        : `${armies(view.next_trade)} (${view.trades} traded so far)`]);
    if (view.mode !== "domination") rows.push(["wins", view.mode]);
    rows.push(["turn order", (view.seats || []).join(", ")]);
    panels.push({ title: "The turn", key: "turn", body: h("div", { "data-active": view.active || "",
      "data-reinforcements": String(view.reinforcements) }, table(rows)) });
    const me = ctx.you ? view.players?.[ctx.you] : null;
    if (me) {
      const hand = view.your_hand || [];
      panels.push({
        title: "Your cards",
        key: "hand",
        body: h("div", { class: "hand", "data-hand": hand.map(card).join("; ") },
          hand.length ? h("ol", {}, hand.map((c) => h("li", { "data-symbol": c.symbol }, card(c))))
            : h("p", { class: "hint" }, "No cards. Conquer a country in a turn to draw one at its end."),
          hand.length >= 3 ? h("p", { class: "hint" }, "Trade a set (three alike, one of each, or any with a " +
            "wildcard) at reinforcement: the sets you hold are offered as buttons then.") : null,
          me.mission_text ? h("p", { "data-mission": "" }, `Your mission: ${me.mission_text}.`) : null),
      });
    }
    return panels;
  },
};
