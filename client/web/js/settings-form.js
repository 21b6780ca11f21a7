// A new game's settings as a form: the rules with their blurb and options, a map of the server's (for rules that
// play on one), players, computer players and how they play, a time limit, rated. The lobby's new game form and a
// challenge's are each one of these over their own fields.

import { h, put } from "./dom.js";
import { optionsForm } from "./schema-form.js";

/** The rule sets and the maps the server offers, asked together. */
export async function offered(link) {
  const [rulesets, maps] = await Promise.all([link.request({ type: "list_rulesets" }),
    link.request({ type: "list_maps" })]);
  return { rulesets: rulesets.type === "rulesets" ? rulesets.rulesets : [], maps: maps.type === "maps" ? maps.maps : [] };
}

export class SettingsFields {
  /** fields: the form's elements { ruleset, blurb, mapChoice, map, players, bots, strategy, turnSeconds, options,
   * rated }; prefix: the start of the options' ids (each form's its own). */
  constructor(fields, prefix = "option-") {
    this.fields = fields;
    this.prefix = prefix;
    this.rulesets = [];
    this.readOptions = () => ({});
    fields.ruleset.addEventListener("change", () => this.choose());
  }

  /** The rule set chosen, as the server described it. */
  get ruleset() {
    return this.rulesets.find((r) => r.name === this.fields.ruleset.value) || null;
  }

  /** The choices, as the server offers them: RISC on Cataract unless the player chooses otherwise. */
  fill({ rulesets, maps }) {
    const { ruleset, map } = this.fields;
    this.rulesets = rulesets;
    put(ruleset, ...rulesets.map((r) => h("option", { value: r.name }, r.title)));
    if (rulesets.some((r) => r.name === "risc")) ruleset.value = "risc"; // the game's own, as elsewhere
    put(map, ...maps.map((m) => h("option", { value: m.id, "data-territories": m.territories },
      `${m.name} (${m.territories} territories)`)));
    if (maps.some((m) => m.id === "cataract")) map.value = "cataract";
    this.choose();
  }

  /** Another rule set chosen: its blurb, whether it needs a map, its computer players and its options. */
  choose() {
    const ruleset = this.ruleset;
    if (!ruleset) return;
    const { blurb, mapChoice, strategy, options } = this.fields;
    blurb.textContent = `${ruleset.blurb} (${ruleset.players[0]} to ${ruleset.players[1]} players)`;
    mapChoice.hidden = ruleset.own_map;
    put(strategy, ...ruleset.strategies.map((name) =>
      h("option", { value: name, selected: name === ruleset.default_strategy }, name)));
    this.readOptions = optionsForm(options, ruleset.options, this.prefix);
  }

  /** The settings as the protocol's `create_game` and `challenge` carry them (the server checks them again). */
  read() {
    const ruleset = this.ruleset;
    const f = this.fields;
    const seconds = f.turnSeconds.value;
    return {
      ruleset: ruleset.name,
      players: Number(f.players.value),
      bots: Number(f.bots.value),
      bot_strategy: f.strategy.value || null,
      turn_seconds: seconds === "" ? null : Number(seconds),
      options: this.readOptions(),
      map: ruleset.own_map ? null : f.map.value || null,
      rated: f.rated.checked,
    };
  }
}
