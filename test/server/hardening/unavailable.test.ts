import { describe, expect, it } from 'vitest';
import { createCursors } from '../../../server/api/cursor';
import { createUndoTokens } from '../../../server/api/undo-token';
import { createApp } from '../../../server/app';
import { TRUST_NO_PROXY } from '../../../server/client-address';
import type { Database } from '../../../server/db/database';
import { createFormTokens } from '../../../server/oauth/form-token';

/**
 * What the service answers when its database fails in the ways a PostgreSQL restart or a lost
 * connection makes node-postgres fail: 503 with Retry-After, so clients back off and come
 * back, and never a 500. Anything else stays a 500.
 */
function failingWith(error: Error & { code?: string }): Database {
  const fail = async () => {
    throw error;
  };
  return { kind: 'postgres', query: fail, transaction: fail, listen: fail, close: async () => {} };
}

const withCode = (message: string, code: string) => Object.assign(new Error(message), { code });

/** The service's app on `db`, with no live channels. */
function appOn(db: Database) {
  return createApp({
    db,
    cursors: createCursors(Buffer.alloc(32)),
    undoTokens: createUndoTokens(Buffer.alloc(32)),
    formTokens: createFormTokens(Buffer.alloc(32)),
    now: Date.now,
    origin: () => 'http://127.0.0.1',
    pollIntervalSeconds: 30,
    trustProxy: TRUST_NO_PROXY,
  });
}

describe('a database that fails', () => {
  it.each([
    ['the server ending the connection', withCode('terminating connection due to administrator command', '57P01')],
    ['the server shutting down', withCode('the database system is shutting down', '57P03')],
    ['a refused connection', withCode('connect ECONNREFUSED 127.0.0.1:5432', 'ECONNREFUSED')],
    ['a connection failure', withCode('could not receive data from client', '08006')],
    ['a connection that ended', new Error('Connection terminated unexpectedly')],
    ['a client whose connection broke', new Error('Client has encountered a connection error and is not queryable')],
    ['a client that was closed', new Error('Client was closed and is not queryable')],
    ['no connection in time', new Error('timeout exceeded when trying to connect')],
    ['a connection attempt that timed out', new Error('Connection terminated due to connection timeout')],
  ])('answers 503 with Retry-After for %s', async (_, error) => {
    const app = appOn(failingWith(error));
    const response = await app.request('/api/inbox/count', {
      headers: { authorization: 'Bearer aaaaaaaaaaaa.bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb' },
    });
    expect(response.status).toBe(503);
    expect(response.headers.get('retry-after')).toBe('5');
    expect(await response.json()).toMatchObject({ code: 'service_unavailable' });
  });

  it('answers 500 for a failure that is not about reaching the database', async () => {
    const app = appOn(failingWith(new TypeError('x is not a function')));
    const errors: unknown[] = [];
    const original = console.error;
    console.error = (...args: unknown[]) => errors.push(args);
    try {
      const response = await app.request('/api/user/bob');
      expect(response.status).toBe(500);
      expect(await response.json()).toMatchObject({ code: 'internal_error' });
    } finally {
      console.error = original;
    }
    expect(errors).toHaveLength(1);
  });
});
