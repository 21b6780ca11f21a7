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
