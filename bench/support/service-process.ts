/**
 * The reference service in a process of its own, so the load a benchmark generates does not
 * share the service's event loop. Prints one JSON line, `{ apiBaseUrl, token }`, once it
 * serves, and stops when its standard input closes or it is told to terminate.
 *
 *   node --import tsx bench/support/service-process.ts pglite|postgres [notifications]
 */
import { startServer } from '../../server/index';
import { type Backend, benchDatabase } from './backends';

const backend = (process.argv[2] ?? 'pglite') as Backend;
const notifications = Number(process.argv[3] ?? 1000);

// The load generator is one address with as many connections as it is told to open.
const server = await startServer({
  port: 0,
  database: benchDatabase(backend),
  seed: false,
  connections: { maxConnectionsPerClient: 10_000 },
});
await server.admin.createUser({ username: 'bench', displayName: 'Bench' });
await server.admin.fillInbox('bench', notifications);
const token = await server.admin.issueToken('bench');
process.stdout.write(`${JSON.stringify({ apiBaseUrl: server.apiBaseUrl, token })}\n`);

let stopping = false;
async function stop() {
  if (stopping) return;
  stopping = true;
  await server.close();
  process.exit(0);
}
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
process.stdin.on('end', stop);
process.stdin.resume();
