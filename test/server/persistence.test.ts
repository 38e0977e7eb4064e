import { afterAll, describe, expect, it } from 'vitest';
import { LIMITS, RateLimitedError } from '../../lib/api';
import { MIGRATIONS } from '../../server/db/migrations';
import { BACKENDS, sharedStore, startTestService } from '../support/service';

describe.each(BACKENDS)('data across restarts on %s', (backend) => {
  const store = sharedStore(backend, 'restart');
  afterAll(() => store.cleanUp());

  it('keeps users, tokens, notifications, cursors and the report allowance, and seeds only once', async () => {
    const first = await startTestService({ backend, seed: true, ...store.options });
    expect(first.server.demoTokens).not.toBeNull();
    const user = await first.newUser('keeper');
    const target = await first.newUser('target');
    await first.fillInbox(user.username, 12);
    const { cursor } = await user.client.inbox.fetch({ limit: 5 });
    for (let i = 0; i < LIMITS.reportsPerHour; i++) await user.client.user(target.username).report('spam', `${i}`);
    const demoToken = first.server.demoTokens?.demo as string;
    const demoCount = await first.client(demoToken).inbox.count();
    await first.close();

    const second = await startTestService({ backend, seed: true, ...store.options, port: first.server.port });
    try {
      expect(second.origin).toBe(first.origin);
      expect(second.server.demoTokens).toBeNull();
      const again = second.client(user.token);
      expect(await again.inbox.count()).toBe(12);
      expect((await again.inbox.fetch({ limit: 100, cursor })).data).toHaveLength(7);
      await expect(again.user(target.username).report('spam', 'one more')).rejects.toBeInstanceOf(RateLimitedError);
      expect(await second.client(demoToken).inbox.count()).toBe(demoCount);
      const migrations = await second.server.database.query<{ count: number }>(
        'SELECT count(*)::int AS count FROM schema_migrations',
      );
      expect(migrations.rows[0]?.count).toBe(MIGRATIONS.length);
      const users = await second.server.database.query<{ count: number }>('SELECT count(*)::int AS count FROM users');
      expect(users.rows[0]?.count).toBe(Object.keys(first.server.demoTokens ?? {}).length + 2);
    } finally {
      await second.close();
    }
    // Two starts of a service on files, one of them seeding the demo data.
  }, 90_000);

  it.runIf(backend === 'pglite')('refuses to open a data folder another service has open', async () => {
    const { options, cleanUp } = sharedStore('pglite', 'restart');
    const running = await startTestService({ backend, ...options });
    try {
      await expect(startTestService({ backend, ...options })).rejects.toThrow(/in use by process/);
    } finally {
      await running.close();
      await cleanUp();
    }
  });
});
