/** The reference service in this process, with one user whose inbox can be filled in bulk. */
import { type Client, createClient } from '../../lib/api';
import { type RunningServer, startServer } from '../../server/index';
import { type Backend, benchDatabase } from './backends';

export const BENCH_USERNAME = 'bench';

export interface BenchService {
  server: RunningServer;
  /** A client signed in as the bench user, with no retries and a patient timeout. */
  client: Client;
  userId: number;
  /** Puts `count` unread notifications into the bench user's inbox and refreshes the planner's statistics. */
  fill(count: number): Promise<void>;
  close(): Promise<void>;
}

export async function startBenchService(backend: Backend): Promise<BenchService> {
  const server = await startServer({ port: 0, database: benchDatabase(backend), seed: false });
  // PGlite runs in this thread and holds the event loop for seconds on a bulk statement; the
  // delayed keep-alive timer would then close a connection just as the client reuses it.
  server.httpServer.keepAliveTimeout = 60_000;
  const user = await server.admin.createUser({ username: BENCH_USERNAME, displayName: 'Bench' });
  const token = await server.admin.issueToken(BENCH_USERNAME);
  return {
    server,
    client: createClient({ baseUrl: server.apiBaseUrl, token, retries: 0, timeout: 120_000 }),
    userId: user.id,
    async fill(count) {
      await server.admin.fillInbox(BENCH_USERNAME, count);
      // What autovacuum does soon after a bulk insert on a real server; PGlite has no autovacuum.
      await server.database.query('VACUUM ANALYZE notifications');
    },
    close: () => server.close(),
  };
}
