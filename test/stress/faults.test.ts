import { randomBytes } from 'node:crypto';
import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Queryable } from '../../server/db/database';
import { progress } from './support/progress';
import {
  dropSchema,
  type ProcessData,
  type ServiceProcess,
  startServiceProcess,
  withData,
} from './support/service-process';

const INBOX = 100_000;
const BACKENDS = process.env.DATABASE_URL ? (['pglite', 'postgres'] as const) : (['pglite'] as const);

const OPERATIONS = [
  { name: 'mark-all-read', path: '/inbox/read', statement: 'UPDATE notifications SET read = true' },
  { name: 'delete-all', path: '/inbox/delete', statement: 'UPDATE notifications SET deleted_at' },
] as const;

interface Inbox {
  total: number;
  unread: number;
  /** The unread count the service keeps for the user, which must equal `unread`. */
  kept: number;
}

/** The user's inbox as the service shows it: deleted notifications waiting for their undo left out. */
async function inboxOf(db: Queryable, username: string): Promise<Inbox> {
  const { rows } = await db.query<Inbox>(
    `SELECT count(n.id)::int AS total, count(n.id) FILTER (WHERE NOT n.read)::int AS unread,
       coalesce((SELECT c.unread FROM unread_counts c WHERE c.user_id = u.id), 0) AS kept
     FROM users u LEFT JOIN notifications n ON n.user_id = u.id AND n.deleted_at IS NULL
     WHERE u.username = $1 GROUP BY u.id`,
    [username],
  );
  return rows[0] as Inbox;
}

/** Removes for good what a delete left waiting for its undo, as the clean-up would once it expired. */
async function forgetDeleted(db: Queryable): Promise<void> {
  await db.query('DELETE FROM notifications WHERE deleted_at IS NOT NULL');
  await db.query('DELETE FROM triage_operations');
}

/** Resolves once the service's bulk statement is doing its work, seen from outside the process. */
type Watch = (service: ServiceProcess, statement: string) => Promise<void>;

/** PGlite writes the statement's changes to its WAL as it goes: wait until the WAL has moved twice. */
function walWatch(dataDir: string): Watch {
  const walDir = join(dataDir, 'pglite', 'pg_wal');
  const look = async () => {
    const files = await readdir(walDir);
    const seen = await Promise.all(
      files.map(async (file) => {
        const info = await stat(join(walDir, file)).catch(() => null);
        return info ? `${file}:${info.size}:${info.mtimeMs}` : '';
      }),
    );
    return seen.sort().join('|');
  };
  return async () => {
    let last = await look();
    for (let moves = 0; moves < 2; ) {
      await new Promise((resolve) => setTimeout(resolve, 5));
      const now = await look();
      if (now !== last) moves += 1;
      last = now;
    }
  };
}

/** PostgreSQL shows the statement in pg_stat_activity under the service's application name. */
function activityWatch(databaseUrl: string, schema: string): Watch {
  return async (_service, statement) => {
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    try {
      for (;;) {
        const { rows } = await client.query(
          `SELECT 1 FROM pg_stat_activity WHERE application_name = $1 AND state = 'active' AND query LIKE $2`,
          [schema, `${statement}%`],
        );
        if (rows.length > 0) return;
        await new Promise((resolve) => setTimeout(resolve, 2));
      }
    } finally {
      await client.end();
    }
  };
}

/** Waits until no connection of the killed service is still running a statement. */
async function settled(data: ProcessData): Promise<void> {
  if ('dataDir' in data) return;
  const client = new pg.Client({ connectionString: data.databaseUrl });
  await client.connect();
  try {
    for (;;) {
      const { rows } = await client.query(
        `SELECT 1 FROM pg_stat_activity WHERE application_name = $1 AND state = 'active'`,
        [data.schema],
      );
      if (rows.length === 0) return;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  } finally {
    await client.end();
  }
}

/** Starts the service again on the data and asks it for the unread count, as the extension would. */
async function countAfterRestart(data: ProcessData, auth: Record<string, string>): Promise<number> {
  const restarted = await startServiceProcess(data);
  try {
    const counted = await fetch(`${restarted.apiBaseUrl}/inbox/count`, { headers: auth });
    expect(counted.status, restarted.output()).toBe(200);
    return ((await counted.json()) as { count: number }).count;
  } finally {
    await restarted.stop();
  }
}

/**
 * The service is killed with SIGKILL while it changes a 100,000-notification inbox in one
 * statement, and started again on the same data: the change must be there whole or not at all,
 * the kept unread count must match, and nobody else's data may have moved.
 */
describe.each(BACKENDS)('SIGKILL in the middle of a bulk change, on %s', (backend) => {
  let data: ProcessData;
  let watch: Watch;
  let token: string;
  const outcomes: string[] = [];

  beforeAll(async () => {
    if (backend === 'pglite') {
      const dataDir = await mkdtemp(join(tmpdir(), 'inbox-fault-'));
      data = { dataDir };
      watch = walWatch(dataDir);
    } else {
      const databaseUrl = process.env.DATABASE_URL as string;
      const schema = `fault_${randomBytes(5).toString('hex')}`;
      data = { databaseUrl, schema };
      watch = activityWatch(databaseUrl, schema);
    }
    progress(`Faults on ${backend}: filling an inbox with ${INBOX} notifications`);
    token = await withData(data, async (admin) => {
      for (const username of ['victim', 'bystander']) await admin.createUser({ username });
      await admin.fillInbox('victim', INBOX);
      await admin.fillInbox('bystander', 40);
      await admin.fillInbox('bystander', 10, { read: true, newest: '2026-01-01T00:00:00.000Z' });
      return admin.issueToken('victim');
    });
  });

  afterAll(async () => {
    console.log(`SIGKILL faults on ${backend}: ${outcomes.join('; ')}`);
    if (!data) return;
    if ('dataDir' in data) await rm(data.dataDir, { recursive: true, force: true });
    else await dropSchema(data);
  });

  it('keeps every change it acknowledged before a SIGKILL', async () => {
    const { writer, ids } = await withData(data, async (admin, db) => {
      await admin.createUser({ username: 'writer' });
      await admin.createUser({ username: 'followed' });
      await admin.fillInbox('writer', 30);
      const { rows } = await db.query<{ id: string }>(
        'SELECT n.id FROM notifications n JOIN users u ON u.id = n.user_id WHERE u.username = $1 ORDER BY n.id',
        ['writer'],
      );
      return { writer: await admin.issueToken('writer'), ids: rows.map((row) => row.id) };
    });
    progress(`Faults on ${backend}: four writes, then SIGKILL`);
    const service = await startServiceProcess(data);
    const send = (method: string, path: string, body?: unknown) =>
      fetch(`${service.apiBaseUrl}${path}`, {
        method,
        headers: { authorization: `Bearer ${writer}`, 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    expect((await send('POST', '/inbox/read', { ids: ids.slice(0, 10) })).status).toBe(200);
    expect((await send('POST', '/inbox/delete', { ids: ids.slice(10, 15) })).status).toBe(200);
    expect((await send('POST', '/user/followed/follow')).status).toBe(204);
    expect((await send('POST', '/user/followed/report', { reason: 'spam', comment: 'kept' })).status).toBe(201);
    service.process.kill('SIGKILL');
    await service.exited;

    const kept = await withData(data, async (_, db) => ({
      writer: await inboxOf(db, 'writer'),
      followed: await inboxOf(db, 'followed'),
      reports: (await db.query('SELECT 1 FROM reports WHERE comment = $1', ['kept'])).rowCount,
    }));
    expect(kept).toEqual({
      writer: { total: 25, unread: 15, kept: 15 },
      followed: { total: 1, unread: 1, kept: 1 },
      reports: 1,
    });
    outcomes.push('4 acknowledged writes, then SIGKILL: all 4 kept');
  });

  it.each(OPERATIONS)('$name: all of it or none, and nothing else touched', async ({ name, path, statement }) => {
    const before = await withData(data, async (_, db) => ({
      victim: await inboxOf(db, 'victim'),
      bystander: await inboxOf(db, 'bystander'),
    }));
    expect(before.victim).toEqual({ total: INBOX, unread: INBOX, kept: INBOX });

    progress(`Faults on ${backend}: SIGKILL during ${name}`);
    const service = await startServiceProcess(data);
    const auth = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    expect((await fetch(`${service.apiBaseUrl}/inbox/count`, { headers: auth })).status).toBe(200);
    const answer = fetch(`${service.apiBaseUrl}${path}`, { method: 'POST', headers: auth, body: '{"ids":"all"}' }).then(
      (response) => `answered ${response.status}`,
      () => 'no answer',
    );
    await watch(service, statement);
    service.process.kill('SIGKILL');
    expect(await service.exited).toBe('SIGKILL');
    expect(await answer).toBe('no answer');
    await settled(data);

    progress(`Faults on ${backend}: restarting after ${name}`);
    const count = await countAfterRestart(data, auth);

    const after = await withData(data, async (_, db) => ({
      victim: await inboxOf(db, 'victim'),
      bystander: await inboxOf(db, 'bystander'),
    }));
    const applied = name === 'mark-all-read' ? after.victim.unread === 0 : after.victim.total === 0;
    const expected = applied
      ? { total: name === 'delete-all' ? 0 : INBOX, unread: 0, kept: 0 }
      : { total: INBOX, unread: INBOX, kept: INBOX };
    expect(after.victim).toEqual(expected);
    expect(count).toBe(expected.unread);
    expect(after.bystander).toEqual(before.bystander);
    outcomes.push(`${name} killed mid-statement, ${applied ? 'all' : 'none'} of it after restart`);

    // Back to 100,000 unread for the next fault.
    await withData(data, async (admin, db) => {
      if (name === 'mark-all-read') {
        await db.query(
          'UPDATE notifications SET read = false WHERE user_id = (SELECT id FROM users WHERE username = $1)',
          ['victim'],
        );
      } else if (applied) {
        await forgetDeleted(db);
        await admin.fillInbox('victim', INBOX);
      }
    });
  });

  it('undo of a delete-all: all of it back or none, and nothing else touched', async () => {
    const before = await withData(data, async (_, db) => ({
      victim: await inboxOf(db, 'victim'),
      bystander: await inboxOf(db, 'bystander'),
      operations: (await db.query<{ id: string }>('SELECT id FROM triage_operations')).rows.map((row) => row.id),
    }));
    expect(before.victim).toEqual({ total: INBOX, unread: INBOX, kept: INBOX });

    const service = await startServiceProcess(data);
    const auth = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    const post = (path: string, body: unknown) =>
      fetch(`${service.apiBaseUrl}${path}`, { method: 'POST', headers: auth, body: JSON.stringify(body) });
    const deleted = await post('/inbox/delete', { ids: 'all' });
    expect(deleted.status, service.output()).toBe(200);
    const { count: gone, undo } = (await deleted.json()) as { count: number; undo: string };
    expect(gone).toBe(INBOX);
    const answer = post('/inbox/undo', { undo }).then(
      (response) => `answered ${response.status}`,
      () => 'no answer',
    );
    await watch(service, 'UPDATE notifications SET deleted_at = NULL');
    service.process.kill('SIGKILL');
    expect(await service.exited).toBe('SIGKILL');
    expect(await answer).toBe('no answer');
    await settled(data);

    const count = await countAfterRestart(data, auth);

    const after = await withData(data, async (_, db) => ({
      victim: await inboxOf(db, 'victim'),
      bystander: await inboxOf(db, 'bystander'),
      operations: (await db.query<{ id: string }>('SELECT id FROM triage_operations')).rows.map((row) => row.id),
    }));
    const applied = after.victim.total === INBOX;
    const expected = applied ? { total: INBOX, unread: INBOX, kept: INBOX } : { total: 0, unread: 0, kept: 0 };
    expect(after.victim).toEqual(expected);
    expect(count).toBe(expected.unread);
    // Rolled back, the delete keeps its record, so its undo still works within the minute.
    // Earlier tests' records may expire meanwhile; only the delete's own record is counted.
    expect(after.operations.filter((id) => !before.operations.includes(id))).toHaveLength(applied ? 0 : 1);
    expect(after.bystander).toEqual(before.bystander);
    outcomes.push(`undo of delete-all killed mid-statement, ${applied ? 'all' : 'none'} of it after restart`);
  });
});
