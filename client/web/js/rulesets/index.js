// The module of each rule set the page knows better than the generic way; any other rule set is shown the
// generic way (rulesets/generic.js) and plays all the same, since its orders come from the server.

import classic from "./classic.js";
import { generic } from "./generic.js";
import grid from "./grid.js";
import risc from "./risc.js";
import warzone from "./warzone.js";

const MODULES = new Map([["risc", risc], ["warzone", warzone], ["classic", classic], ["grid", grid]]);

export function rulesetModule(name) {
  return MODULES.get(name) || generic;
}
