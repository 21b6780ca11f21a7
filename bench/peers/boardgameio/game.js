// The bench's game on boardgame.io: RISC Evolution 1 on the seed map, as bench/server_load.py plays it on RISC.
//
// 3 players; placement, then turns of moves and attacks. Every player issues its orders one by one (the `order`
// move, which the master checks against what the player's earlier orders of the turn left, as RISC's server does),
// then commits (`commit`). The last commit resolves the turn (moves, attacks fought with d20s from boardgame.io's
// random plugin, one new unit on every owned territory), and the master sends the new state to every player.
// Each player's view hides the other players' orders (RISC's view does the same).
//
// Every move is `client: false` (only the master runs it, as only RISC's server checks an order) and
// `ignoreStaleStateID: true` (the players of a simultaneous turn move at the same time: without it the master
// refuses a move made from a state another player's move has since replaced).

const { INVALID_MOVE, ActivePlayers } = require('boardgame.io/core');

const PLAYERS = 3;
const BORDERS = {
  Narnia: ['Elantris', 'Midkemia'],
  Midkemia: ['Narnia', 'Elantris', 'Scadrial', 'Oz'],
  Oz: ['Midkemia', 'Scadrial', 'Mordor', 'Gondor'],
  Elantris: ['Roshar', 'Scadrial', 'Midkemia', 'Narnia'],
  Roshar: ['Hogwarts', 'Scadrial', 'Elantris'],
  Scadrial: ['Elantris', 'Roshar', 'Hogwarts', 'Mordor', 'Oz', 'Midkemia'],
  Gondor: ['Oz', 'Mordor'],
  Mordor: ['Hogwarts', 'Gondor', 'Oz', 'Scadrial'],
  Hogwarts: ['Mordor', 'Scadrial', 'Roshar'],
};
const NAMES = Object.keys(BORDERS);
const GROUPS = [
  ['Narnia', 'Midkemia', 'Oz'],
  ['Elantris', 'Roshar', 'Scadrial'],
  ['Gondor', 'Mordor', 'Hogwarts'],
];
const POOL = 30;

function setup() {
  const territories = {};
  GROUPS.forEach((group, seat) => {
    for (const name of group) territories[name] = { owner: String(seat), units: 0 };
  });
  const players = {};
  for (let seat = 0; seat < PLAYERS; seat++) {
    players[String(seat)] = { pool: POOL, orders: [], left: {}, committed: false, out: false };
  }
  return { phase: 'placement', turn: 0, territories, players, events: [], winner: null };
}

function unitsLeft(G, me, name) {
  const left = G.players[me].left;
  return name in left ? left[name] : G.territories[name].units;
}

function reaches(G, me, source, target) {
  const seen = new Set([source]);
  const queue = [source];
  while (queue.length) {
    for (const next of BORDERS[queue.shift()]) {
      if (!seen.has(next) && G.territories[next].owner === me) {
        if (next === target) return true;
        seen.add(next);
        queue.push(next);
      }
    }
  }
  return false;
}

// The check of one order against the board and the player's earlier orders of the turn (R12-R15).
function refusal(G, me, order) {
  const player = G.players[me];
  if (player.committed || player.out) return 'not awaited';
  if (!Number.isInteger(order.units) || order.units < 1) return 'non-positive units';
  if (order.kind === 'place') {
    if (G.phase !== 'placement') return 'wrong phase';
    const where = G.territories[order.territory];
    if (!where || where.owner !== me) return 'not your territory';
    return order.units > player.pool ? 'pool exceeded' : null;
  }
  if (G.phase !== 'orders') return 'wrong phase';
  const source = G.territories[order.source];
  const target = G.territories[order.target];
  if (!source || !target) return 'unknown territory';
  if (source.owner !== me) return 'not your territory';
  if (order.source === order.target) return 'same territory';
  if (order.kind === 'move') {
    if (target.owner !== me) return 'target not yours';
    if (!reaches(G, me, order.source, order.target)) return 'no path';
  } else if (order.kind === 'attack') {
    if (target.owner === me) return 'attack on own territory';
    if (!BORDERS[order.source].includes(order.target)) return 'not adjacent';
  } else {
    return 'unknown kind';
  }
  return order.units > unitsLeft(G, me, order.source) ? 'not enough units' : null;
}

function order({ G, playerID }, given) {
  const me = playerID;
  if (refusal(G, me, given)) return INVALID_MOVE;
  const player = G.players[me];
  if (given.kind === 'place') {
    player.pool -= given.units;
  } else {
    player.left[given.source] = unitsLeft(G, me, given.source) - given.units;
    if (given.kind === 'move') player.left[given.target] = unitsLeft(G, me, given.target) + given.units;
  }
  player.orders.push(given);
}

function fight(attackers, defenders, random) {
  while (attackers > 0 && defenders > 0) {
    if (random.D20() > random.D20()) defenders -= 1;
    else attackers -= 1;
  }
  return [attackers, defenders];
}

function resolve(G, random) {
  const alive = Object.keys(G.players).filter((p) => !G.players[p].out);
  const events = [];
  if (G.phase === 'placement') {
    for (const p of alive) {
      for (const o of G.players[p].orders) G.territories[o.territory].units += o.units;
    }
    G.phase = 'orders';
  } else {
    for (const p of alive) {
      for (const o of G.players[p].orders) {
        if (o.kind !== 'move') continue;
        G.territories[o.source].units -= o.units;
        G.territories[o.target].units += o.units;
        events.push({ kind: 'units_moved', player: p, units: o.units, source: o.source, target: o.target });
      }
    }
    const forces = {};
    for (const p of alive) {
      for (const o of G.players[p].orders) {
        if (o.kind !== 'attack') continue;
        G.territories[o.source].units -= o.units;
        forces[o.target] = forces[o.target] || {};
        forces[o.target][p] = (forces[o.target][p] || 0) + o.units;
      }
    }
    for (const name of NAMES) {
      if (!(name in forces)) continue;
      const where = G.territories[name];
      for (const attacker of random.Shuffle(Object.keys(forces[name]))) {
        const attacking = forces[name][attacker];
        if (where.owner === attacker) {
          where.units += attacking;
          continue;
        }
        const defender = where.owner;
        const defending = where.units;
        const [a, d] = fight(attacking, defending, random);
        if (a > 0) where.owner = attacker;
        where.units = a > 0 ? a : d;
        events.push({ kind: 'combat', territory: name, attacker, defender, attacking, defending,
                      attacker_losses: attacking - a, defender_losses: defending - d, owner: where.owner });
      }
    }
  }
  const received = {};
  for (const name of NAMES) {
    const where = G.territories[name];
    if (where.owner === null) continue;
    where.units += 1;
    received[where.owner] = (received[where.owner] || 0) + 1;
  }
  for (const p of alive) {
    if (!received[p]) {
      G.players[p].out = true;
      events.push({ kind: 'player_eliminated', player: p });
    } else {
      events.push({ kind: 'units_received', player: p, units: received[p] });
    }
  }
  const owners = new Set(NAMES.map((n) => G.territories[n].owner));
  if (owners.size === 1 && !owners.has(null)) G.winner = [...owners][0];
  for (const p of Object.keys(G.players)) {
    Object.assign(G.players[p], { pool: 0, orders: [], left: {}, committed: false });
  }
  G.events = events;
  G.turn += 1;
}

function commit({ G, playerID, random }) {
  const player = G.players[playerID];
  if (player.committed || player.out) return INVALID_MOVE;
  if (G.phase === 'placement' && player.pool > 0) return INVALID_MOVE;
  player.committed = true;
  if (Object.values(G.players).every((p) => p.committed || p.out)) resolve(G, random);
}

// What one player sees: the board, its own orders, and of the others only whether they are still in.
function playerView({ G, playerID }) {
  const players = {};
  for (const [p, player] of Object.entries(G.players)) {
    players[p] = p === playerID ? player : { out: player.out };
  }
  return { ...G, players };
}

const Risc = {
  name: 'risc',
  minPlayers: PLAYERS,
  maxPlayers: PLAYERS,
  setup,
  turn: { activePlayers: ActivePlayers.ALL },
  moves: {
    order: { move: order, client: false, ignoreStaleStateID: true },
    commit: { move: commit, client: false, ignoreStaleStateID: true },
  },
  playerView,
  endIf: ({ G }) => (G.winner === null ? undefined : { winner: G.winner }),
};

module.exports = { Risc, BORDERS, PLAYERS };
