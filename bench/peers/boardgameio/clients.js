// A client process of the bench: boardgame.io's own client (Client with its SocketIO transport, LobbyClient to
// create and join) playing games of game.js as bench/server_load.py's clients play RISC: every player issues its
// orders one at a time, each awaited (the master's state showing it), then commits; all 3 players of a game live in
// this process, so one clock times a turn from its last commit to every player holding the result.
//
// node clients.js '{"port": P, "games": [0, 2, ...], "seconds": 20, "maxTurns": 60}'
// prints "READY" once its games are seated and connected, plays on a line "GO" read from stdin, prints its figures
// as one line of JSON, and leaves on a line "DONE" (its connections open until then, as the Python bench's are).

const readline = require('readline');
const { Client, LobbyClient } = require('boardgame.io/client');
const { SocketIO } = require('boardgame.io/multiplayer');
const { Risc, BORDERS, PLAYERS } = require('./game');

// ---- the all-out strategy of bench/players.py, on this game's view ------------------------------------------------

function placement(G, me) {
  const mine = Object.keys(G.territories).filter((n) => G.territories[n].owner === me);
  const front = mine.filter((n) => BORDERS[n].some((b) => G.territories[b].owner !== me));
  const where = (front.length ? front : mine)[0];
  const pool = G.players[me].pool;
  return pool && where ? [{ kind: 'place', territory: where, units: pool }] : [];
}

function allOut(G, me) {
  const T = G.territories;
  const mine = Object.keys(T).filter((n) => T[n].owner === me);
  const distance = {};
  const queue = [];
  for (const n of mine) {
    if (BORDERS[n].some((b) => T[b].owner !== me)) {
      distance[n] = 0;
      queue.push(n);
    }
  }
  while (queue.length) {
    const n = queue.shift();
    for (const b of BORDERS[n]) {
      if (T[b].owner === me && !(b in distance)) {
        distance[b] = distance[n] + 1;
        queue.push(b);
      }
    }
  }
  const moves = [];
  const attacks = [];
  const byKey = (f) => [f.units, f.name];
  const cmp = (a, b) => (a[0] - b[0]) || (a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0);
  for (const n of mine) {
    const units = T[n].units;
    if (units <= 0) continue;
    const foes = BORDERS[n].filter((b) => T[b].owner !== me).map((b) => ({ name: b, units: T[b].units }));
    if (foes.length) {
      const beaten = foes.filter((f) => f.units < units);
      const target = beaten.length
        ? beaten.reduce((best, f) => (cmp(byKey(f), byKey(best)) > 0 ? f : best))
        : foes.reduce((best, f) => (cmp(byKey(f), byKey(best)) < 0 ? f : best));
      if (units <= target.units && G.turn % 4) continue;
      attacks.push({ kind: 'attack', source: n, target: target.name, units });
    } else if (n in distance) {
      const closer = BORDERS[n].filter((b) => b in distance)
        .reduce((best, b) => (distance[b] < distance[best] ? b : best));
      moves.push({ kind: 'move', source: n, target: closer, units });
    }
  }
  return moves.concat(attacks);
}

function ordersFor(G, me) {
  if (G.players[me].out) return [];
  return G.phase === 'placement' ? placement(G, me) : allOut(G, me);
}

// ---- playing --------------------------------------------------------------------------------------------------------

const nowMs = () => Number(process.hrtime.bigint()) / 1e6;

class Tally {
  constructor() {
    this.frames = 0;
    this.last = 0;
    this.finished = 0;
    this.errors = 0;
  }
}

// Count every socket.io message each way (engine.io's packets of type "message": what a frame is on the wire).
function countFrames(client, tally) {
  const socket = client.transport.socket;
  const hook = () => {
    const engine = socket.io.engine;
    engine.on('packet', (packet) => {
      if (packet.type === 'message') {
        tally.frames += 1;
        tally.last = nowMs();
      }
    });
    engine.on('packetCreate', (packet) => {
      if (packet.type === 'message') tally.frames += 1;
    });
  };
  if (socket.io.engine) hook();
  else socket.io.once('open', hook);
}

class Seat {
  constructor(client, me, clock, tally, maxTurns) {
    Object.assign(this, { client, me, clock, tally, maxTurns });
    this.key = null;
    this.pending = [];
    this.sent = 0;
    this.waiting = false;
    this.done = false;
    this.deadline = Infinity;
    this.ended = new Promise((resolve) => { this.end = resolve; });
  }

  play(deadline) {
    this.deadline = deadline;
    this.client.subscribe((state) => this.take(state));
  }

  stop() {
    if (!this.done) {
      this.done = true;
      this.end();
    }
  }

  take(state) {
    if (this.done || !state) return;
    const now = nowMs();
    const G = state.G;
    const key = `${G.phase}:${G.turn}`;
    if (key !== this.key) {
      if (this.key !== null) (this.clock.results[this.key] ||= []).push(now);
      this.key = key;
      if (state.ctx.gameover) {
        this.tally.finished += 1;
        return this.stop();
      }
      if (G.turn > this.maxTurns || nowMs() > this.deadline) return this.stop();
      if (G.players[this.me].out) return; // out of the game: it only watches
      this.pending = ordersFor(G, this.me).reverse();
      this.sent = 0;
      this.waiting = false;
      return this.next();
    }
    if (this.waiting && G.players[this.me].orders.length >= this.sent) {
      this.waiting = false;
      this.next();
    }
  }

  next() {
    if (this.pending.length) {
      this.sent += 1;
      this.waiting = true;
      this.client.moves.order(this.pending.pop());
    } else {
      (this.clock.commits[this.key] ||= []).push(nowMs());
      this.client.moves.commit();
    }
  }
}

function latencies(clock, pastFirst) {
  const keys = Object.keys(clock.commits);
  let first = null;
  if (pastFirst && keys.length) {
    first = keys.reduce((a, b) => (Math.min(...clock.commits[a]) <= Math.min(...clock.commits[b]) ? a : b));
  }
  return keys.filter((k) => (clock.results[k] || []).length === PLAYERS && k !== first)
    .map((k) => Math.max(...clock.results[k]) - Math.max(...clock.commits[k]));
}

async function seatGame(server, index, tally) {
  const lobby = new LobbyClient({ server });
  const { matchID } = await lobby.createMatch('risc', { numPlayers: PLAYERS });
  // Every seat joined before any player connects: the master writes a match's data when a player connects, and
  // a join whose write lands between that read and that write is lost (the player's credentials with it).
  const credentials = [];
  for (let seat = 0; seat < PLAYERS; seat++) {
    const joined = await lobby.joinMatch('risc', matchID, { playerID: String(seat), playerName: `g${index}p${seat}` });
    credentials.push(joined.playerCredentials);
  }
  const clients = [];
  for (let seat = 0; seat < PLAYERS; seat++) {
    const playerID = String(seat);
    const playerCredentials = credentials[seat];
    const client = Client({
      game: Risc, numPlayers: PLAYERS, matchID, playerID, credentials: playerCredentials, debug: false,
      multiplayer: SocketIO({ server, socketOpts: { transports: ['websocket'] } }),
    });
    client.start();
    countFrames(client, tally);
    clients.push(client);
  }
  // Seated once the master's state has come back to each (its sync, with the match's data). A sync that does not
  // come (the master refuses it while the match's data is still being written) is asked for again.
  const synced = (c) => c.matchData !== undefined && c.getState() && c.getState().isConnected;
  for (let tries = 0; clients.some((c) => !synced(c)); tries++) {
    if (tries && tries % 400 === 0) {
      if (tries >= 4000) throw new Error(`match ${matchID}: no sync from the master`);
      for (const c of clients.filter((c) => !synced(c))) c.transport.requestSync();
    }
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  return clients;
}

async function main() {
  const args = JSON.parse(process.argv[2]);
  const server = `http://127.0.0.1:${args.port}`;
  const tally = new Tally();
  const seated = [];
  for (const index of args.games) seated.push(await seatGame(server, index, tally));
  const lines = readline.createInterface({ input: process.stdin });
  const said = (word) => new Promise((resolve) => {
    const listen = (line) => {
      if (line.trim() === word) {
        lines.off('line', listen);
        resolve();
      }
    };
    lines.on('line', listen);
  });
  const go = said('GO');
  console.log('READY');
  await go;
  const start = nowMs();
  const cpu = process.cpuUsage();
  const frames = tally.frames;
  const deadline = start + args.seconds * 1000;
  const clocks = seated.map(() => ({ commits: {}, results: {} }));
  const seats = [];
  seated.forEach((clients, g) => clients.forEach((client, s) => {
    seats.push(new Seat(client, String(s), clocks[g], tally, args.maxTurns));
  }));
  for (const seat of seats) seat.play(deadline);
  await Promise.race([
    Promise.all(seats.map((s) => s.ended)),
    new Promise((resolve) => setTimeout(resolve, args.seconds * 1000 + 5000)),
  ]);
  for (const seat of seats) seat.stop();
  const used = process.cpuUsage(cpu);
  const elapsed = Math.max(tally.last - start, 1) / 1000;
  const all = clocks.flatMap((c) => latencies(c, false));
  console.log(JSON.stringify({
    elapsed, cpu: (used.user + used.system) / 1e6, frames: tally.frames - frames, errors: tally.errors,
    resolved: all.length, finished: Math.floor(tally.finished / PLAYERS), latencies: all,
    later: clocks.flatMap((c) => latencies(c, true)),
  }));
  await said('DONE');
  process.exit(0);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
