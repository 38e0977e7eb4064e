import type { Database } from '../../../server/db/database';

export interface HeldLock {
  /** Ends the transaction that holds the lock, and waits for it to end. */
  release(): Promise<void>;
}

/**
 * Holds a lock on a table in a transaction of its own until released, so a request that needs
 * the table waits in the middle of its work: the moment a test wants to look at from outside.
 */
export async function holdTableLock(database: Database, table: string, mode: string): Promise<HeldLock> {
  let release = () => {};
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  let locked = () => {};
  const isLocked = new Promise<void>((resolve) => {
    locked = resolve;
  });
  const holder = database.transaction(async (tx) => {
    await tx.query(`LOCK TABLE ${table} IN ${mode} MODE`);
    locked();
    await released;
  });
  await Promise.race([isLocked, holder]);
  return {
    async release() {
      release();
      await holder;
    },
  };
}
