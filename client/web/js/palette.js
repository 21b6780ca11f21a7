// Players' colours and letters: the Okabe-Ito palette, which people with the common colour-vision deficiencies
// tell apart, and a letter per player as a second cue that needs no colour at all.

export const COLOURS = ["#E69F00", "#56B4E9", "#009E73", "#F0E442", "#0072B2", "#D55E00", "#CC79A7", "#000000"];
export const NEUTRAL = "#d9d9d9";
/** The land of a territory nobody holds, on the board's map. */
export const LAND = "#ecebe4";
export const DASHES = ["", "6 3", "2 3", "8 3 2 3", "1 2", "10 4", "4 2 1 2", "12 2"];

/** Colour, letter, dash pattern and text colour of each player, in the order of the game's seats. */
export function playerStyles(names) {
  const styles = new Map();
  names.forEach((name, i) => {
    const colour = COLOURS[i % COLOURS.length];
    styles.set(name, {
      colour,
      letter: String.fromCharCode(65 + i),
      dash: DASHES[i % DASHES.length],
      ink: inkOn(colour),
    });
  });
  return styles;
}

/** A player's colour for their land on the map: the same hue, a third of the way to white, so that the disc on it
 * (in the colour itself) and its numbers stand out. */
export function landOf(colour) {
  const n = parseInt(colour.slice(1), 16);
  const paler = (shift) => Math.round(((n >> shift) & 255) + (255 - ((n >> shift) & 255)) * 0.35);
  return `#${[16, 8, 0].map((shift) => paler(shift).toString(16).padStart(2, "0")).join("")}`;
}

/** Black or white, whichever reads better on `colour`. */
export function inkOn(colour) {
  const n = parseInt(colour.slice(1), 16);
  const [r, g, b] = [(n >> 16) & 255, (n >> 8) & 255, n & 255];
  return 0.299 * r + 0.587 * g + 0.114 * b > 140 ? "#000" : "#fff";
}

/** Light tints for continents, told apart from players' colours by being pale (and from the turn's marks, which
 * are lines: none of them is red). */
const TINTS = ["#8dd3c7", "#ffffb3", "#bebada", "#e5c494", "#80b1d3", "#fdb462", "#b3de69", "#fccde5", "#bc80bd",
  "#ccebc5", "#ffed6f", "#a6cee3"];

export function continentTint(index) {
  return TINTS[index % TINTS.length];
}
