// JSON merge patches (RFC 7386): how an update carries only what changed in a view (shared/protocol/patch.py).

function isObject(value) {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/** `target` with `patch` applied; `target` itself is left as it was. */
export function applyPatch(target, patch) {
  const result = { ...target };
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete result[key];
    else if (isObject(value) && isObject(result[key])) result[key] = applyPatch(result[key], value);
    else result[key] = value;
  }
  return result;
}

/** A game summary in the form its `game_patch` patches: `seats` an object keyed by position ("0", "1", ...), so a
 * patch names the seat that changed (shared/protocol/patch.py `seats_keyed`). */
export function seatsKeyed(summary) {
  if (!Array.isArray(summary.seats)) return summary;
  return { ...summary, seats: Object.fromEntries(summary.seats.map((seat, i) => [String(i), seat])) };
}

/** The summary back from `seatsKeyed`'s form: its seats a list again, by position. */
export function seatsListed(keyed) {
  if (!isObject(keyed.seats)) return keyed;
  const seats = Object.entries(keyed.seats).sort(([a], [b]) => Number(a) - Number(b)).map(([, seat]) => seat);
  return { ...keyed, seats };
}
