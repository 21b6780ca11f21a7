// What the page keeps in the browser (localStorage): seat tokens per server, game and player, and the name last
// used. Nothing of an account: its session is a cookie the page cannot read, its password is never kept, and its
// seats need no token.

const PREFIX = "risc.";

function read(key, fallback) {
  try {
    const text = localStorage.getItem(PREFIX + key);
    return text === null ? fallback : JSON.parse(text);
  } catch {
    return fallback;
  }
}

function write(key, value) {
  try {
    if (value === null) localStorage.removeItem(PREFIX + key);
    else localStorage.setItem(PREFIX + key, JSON.stringify(value));
  } catch {
    // a full or forbidden storage only loses the convenience of coming back
  }
}

const server = () => location.host;

function seatKey(gameId, player) {
  return `seat.${server()}.${gameId}.${player}`;
}

export function saveSeat(gameId, player, token) {
  write(seatKey(gameId, player), { token, saved: Date.now() });
}

export function seatToken(gameId, player) {
  const seat = read(seatKey(gameId, player), null);
  return seat ? seat.token : null;
}

export function forgetSeat(gameId, player) {
  write(seatKey(gameId, player), null);
}

/** Every seat kept for this server: [{gameId, player, token}]. */
export function savedSeats() {
  const seats = [];
  const start = `${PREFIX}seat.${server()}.`;
  for (let i = 0; i < localStorage.length; i++) {
    const key = localStorage.key(i);
    if (!key || !key.startsWith(start)) continue;
    const rest = key.slice(start.length);
    const dot = rest.indexOf(".");
    if (dot < 0) continue;
    const seat = read(key.slice(PREFIX.length), null);
    if (seat) seats.push({ gameId: rest.slice(0, dot), player: rest.slice(dot + 1), token: seat.token });
  }
  return seats;
}

export function lastName() {
  return read("name", "");
}

export function saveName(name) {
  write("name", name);
}

/** A box for the name one sits under: the account's, fixed, when signed in; else a guest's own, the last used. */
export function nameBox(input, account) {
  if (account) {
    input.value = account;
    input.readOnly = true;
    input.dataset.account = "true";
  } else if (input.dataset.account) {
    input.readOnly = false;
    delete input.dataset.account;
    input.value = lastName();
  }
}
