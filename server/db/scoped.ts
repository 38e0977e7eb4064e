/**
 * A database whose statements go to the transaction the current request runs in, if any. An
 * idempotent request runs its handler inside the transaction that keeps its key, so the action
 * and the key commit together; the handlers and stores keep using the one `Database` they are
 * given. A transaction opened inside one becomes a savepoint of it.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { Database, Queryable } from './database';

interface Scope {
  tx: Queryable;
  /** False once the transaction has ended: work it left behind goes to the database again. */
  open: boolean;
}

const current = new AsyncLocalStorage<Scope>();
let savepoints = 0;

/** Runs `work` with every statement of `scoped(...)` databases going to `tx`. */
export async function inTransaction<T>(tx: Queryable, work: () => Promise<T>): Promise<T> {
  const scope: Scope = { tx, open: true };
  try {
    return await current.run(scope, work);
  } finally {
    scope.open = false;
  }
}

function openTransaction(): Queryable | undefined {
  const scope = current.getStore();
  return scope?.open ? scope.tx : undefined;
}

export function scoped(db: Database): Database {
  return {
    get kind() {
      return db.kind;
    },
    query: (sql, params, options) => (openTransaction() ?? db).query(sql, params, options),
    async transaction(work) {
      const tx = openTransaction();
      if (!tx) return db.transaction(work);
      const name = `nested_${++savepoints}`;
      await tx.query(`SAVEPOINT ${name}`);
      try {
        const result = await work(tx);
        await tx.query(`RELEASE SAVEPOINT ${name}`);
        return result;
      } catch (error) {
        await tx.query(`ROLLBACK TO SAVEPOINT ${name}`);
        throw error;
      }
    },
    listen: (channel, onPayload, onLost) => db.listen(channel, onPayload, onLost),
    close: () => db.close(),
  };
}
