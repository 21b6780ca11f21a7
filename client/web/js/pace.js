// A game's pace as the page shows it: the time left this turn (in days and hours for games of days), and the
// player's bank of time, as the summary's seats say it (docs/protocol.md, "Time limits").

/** Seconds as a person reads them: "2 d 3 h", "5 h 20 min", "12:05". */
export function duration(seconds) {
  const whole = Math.max(0, Math.round(seconds));
  const days = Math.floor(whole / 86400);
  const hours = Math.floor((whole % 86400) / 3600);
  const minutes = Math.floor((whole % 3600) / 60);
  if (days) return hours ? `${days} d ${hours} h` : `${days} d`;
  if (hours) return minutes ? `${hours} h ${minutes} min` : `${hours} h`;
  return `${minutes}:${String(whole % 60).padStart(2, "0")}`;
}

/** The line under the board: the time left in the turn's limit, then the player's bank (drawn on once the limit is
 * over: `overrun` seconds past it). */
export function clockText(left, seat, overrun = 0) {
  const banked = seat && seat.bank !== null && seat.bank !== undefined;
  let text;
  if (left > 0 || !banked) text = `Time left this turn: ${duration(left)}` + (banked ? ` · your bank: ${duration(seat.bank)}` : "");
  else text = `The turn's limit is over: ${duration(Math.max(0, seat.bank - overrun))} left in your bank`;
  if (seat && seat.vacation_until) text += ` · on vacation until ${new Date(seat.vacation_until * 1000).toLocaleString()}`;
  return text;
}

/** A game's pace in its settings, for the lobby's list: "1 d a turn, 2 h bank, boot after 3". */
export function paceNotes(settings) {
  const notes = [];
  if (settings.turn_seconds) notes.push(`${duration(settings.turn_seconds)} a turn`);
  if (settings.bank_seconds) notes.push(`${duration(settings.bank_seconds)} bank`);
  if (settings.boot_after) notes.push(`boot after ${settings.boot_after}`);
  return notes;
}
