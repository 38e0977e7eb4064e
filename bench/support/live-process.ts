/**
 * The reference service in a process of its own for the live figures, with `users` users and
 * their tokens. Prints one JSON line, `{ apiBaseUrl, operatorToken, tokens }`, once it serves;
 * then answers one JSON line per command on standard input:
 *   `memory`    → `{ rss, heap, channels }` after garbage collection (run with --expose-gc);
 *                 `heap` is the JS heap in use plus memory outside it (buffers, sockets' data)
 *   `broadcast` → `{ users }`: one system notification for every user, in one statement
 * It stops when its standard input closes.
 *
 *   node --expose-gc --import tsx bench/support/live-process.ts pglite|postgres USERS
 */
import { createInterface } from 'node:readline';
import { startServer } from '../../server/index';
import { type Backend, benchDatabase } from './backends';

const backend = (process.argv[2] ?? 'pglite') as Backend;
const users = Number(process.argv[3] ?? 1000);

// Every idle channel the bench opens is a connection, all from one address: more than a
// service allows by default.
const server = await startServer({
  port: 0,
  database: benchDatabase(backend),
  seed: false,
  connections: { maxConnections: 100_000, maxConnectionsPerClient: 100_000 },
  // The bench's users each hold several channels, opened in a burst.
  live: { maxChannelsPerUser: 100_000, ticketsPerMinute: 100_000 },
});
const db = server.database;
await db.query(
  `INSERT INTO users (username, display_name) SELECT 'live_' || g, 'Live ' || g FROM generate_series(1, $1) AS g`,
  [users],
);
const tokens: string[] = [];
for (let i = 1; i <= users; i++) tokens.push(await server.admin.issueToken(`live_${i}`));
const operatorToken = await server.admin.issueOperatorToken();
const say = (value: unknown) => process.stdout.write(`${JSON.stringify(value)}\n`);
say({ apiBaseUrl: server.apiBaseUrl, operatorToken, tokens });

const gc = (globalThis as { gc?: () => void }).gc;
createInterface({ input: process.stdin }).on('line', async (command) => {
  if (command === 'memory') {
    // Several collections a while apart, so V8 has shrunk its heap back to what is in use.
    for (let i = 0; i < 4; i++) {
      gc?.();
      await new Promise((resolve) => setTimeout(resolve, 300));
    }
    const usage = process.memoryUsage();
    say({ rss: usage.rss, heap: usage.heapUsed + usage.external, channels: server.live.channels });
  } else if (command === 'broadcast') {
    const result = await db.query(
      "INSERT INTO notifications (user_id, type, text) SELECT id, 'system', 'News for everyone' FROM users",
    );
    say({ users: result.rowCount });
  }
});
process.stdin.on('end', async () => {
  await server.close();
  process.exit(0);
});
