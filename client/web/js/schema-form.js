// A rule set's options as a form, made from their JSON Schema (list_rulesets): a number field for an integer or
// a number (left empty for null where the schema allows it), a checkbox for a boolean, a list for an enum. The
// server checks the options again; the form only saves typing.

import { h } from "./dom.js";

/** A schema with its `$ref` (to the schema's own `$defs`, as pydantic writes an enum) read in place. */
function resolved(spec, root) {
  if (!spec || !spec.$ref || !spec.$ref.startsWith("#/$defs/")) return spec;
  const found = (root.$defs || {})[spec.$ref.slice("#/$defs/".length)];
  return found ? { ...found, ...spec, $ref: undefined } : spec;
}

function kindOf(spec, root) {
  spec = resolved(spec, root);
  const variants = (spec.anyOf || spec.oneOf || [spec]).map((v) => resolved(v, root));
  const real = variants.find((v) => v.type && v.type !== "null") || variants[0] || {};
  const nullable = variants.some((v) => v.type === "null");
  return { ...real, nullable, enum: spec.enum || real.enum };
}

/**
 * An option's help as a person reads it in a form: the schema says what `null` means ("units each player places
 * (R9); null: 10 per starting territory"), and a form's null is an empty field ("...; left empty: 10 per starting
 * territory").
 */
export function formHelp(description) {
  const found = /(?:^|[;,.]\s*)null:\s*(.+)$/.exec(description || "");
  if (!found) return description || "";
  const before = description.slice(0, found.index).trim();
  return `${before}${before ? "; " : ""}left empty: ${found[1]}`;
}

/** Fill `fieldset` with one field per option (ids `prefix` and the option's key); returns a function that reads the
 * chosen options. */
export function optionsForm(fieldset, schema, prefix = "option-") {
  const legend = fieldset.querySelector("legend");
  fieldset.replaceChildren(...(legend ? [legend] : []));
  const readers = [];
  for (const [key, spec] of Object.entries(schema.properties || {})) {
    const kind = kindOf(spec, schema);
    // an option named by a list of choices has no title of its own in the schema: its name, as pydantic titles others
    const label = spec.title || key.split("_").map((word) => word.charAt(0).toUpperCase() + word.slice(1)).join(" ");
    const help = kind.nullable ? formHelp(spec.description) : spec.description || "";
    const id = `${prefix}${key}`;
    let input;
    let read;
    if (kind.enum) {
      input = h("select", { id, name: key }, kind.enum.map((value) =>
        h("option", { value: String(value), selected: value === spec.default }, String(value))));
      read = () => input.value;
    } else if (kind.type === "boolean") {
      input = h("input", { id, name: key, type: "checkbox", checked: spec.default === true });
      read = () => input.checked;
    } else if (kind.type === "integer" || kind.type === "number") {
      input = h("input", {
        id, name: key, type: "number", min: kind.minimum, max: kind.maximum,
        step: kind.type === "integer" ? 1 : "any", value: spec.default ?? "",
        placeholder: kind.nullable ? "default" : null,
      });
      read = () => {
        if (input.value === "") return kind.nullable ? null : undefined;
        return Number(input.value);
      };
    } else {
      input = h("input", { id, name: key, type: "text", value: spec.default ?? "" });
      read = () => (input.value === "" && kind.nullable ? null : input.value);
    }
    readers.push([key, read, spec.default]);
    fieldset.append(h("label", { class: kind.type === "boolean" ? "check" : null, title: help },
      kind.type === "boolean" ? input : null, `${label} `, kind.type === "boolean" ? null : input,
      help ? h("small", {}, help) : null));
  }
  return () => {
    const options = {};
    for (const [key, read, fallback] of readers) {
      const value = read();
      if (value !== undefined && value !== fallback) options[key] = value;
    }
    return options;
  };
}
