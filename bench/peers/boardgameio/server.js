// boardgame.io's own Server serving the bench's game (game.js): its lobby API and its socket.io transport on one
// port, the matches kept by its in-memory storage (`memory`) or its FlatFile storage in a directory (`flatfile`).
//
// node server.js memory|flatfile [DIR]   prints "PORT <n>" once it listens; SIGTERM stops it.

const { Server, FlatFile } = require('boardgame.io/server');
const { Risc } = require('./game');

async function main() {
  const [store, dir] = process.argv.slice(2);
  const db = store === 'flatfile' ? new FlatFile({ dir, logging: false }) : undefined; // undefined: InMemory
  if (store !== 'memory' && store !== 'flatfile') throw new Error(`unknown store ${store}`);
  const server = Server({ games: [Risc], db, origins: ['http://127.0.0.1'] });
  const { appServer } = await server.run({ port: 0 });
  console.log(`PORT ${appServer.address().port}`);
  process.on('SIGTERM', () => process.exit(0));
  process.on('SIGINT', () => process.exit(0));
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
