import type { Database } from '../../../server/db/database';

export interface BusyDatabase {
  /** Ends every transaction held, and waits for them to end. */
  release(): Promise<void>;
}

/** Whether a trivial query is answered within `ms`. */
async function answersWithin(database: Database, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  const answered = database.query('SELECT 1').then(() => true);
  try {
    return await Promise.race([answered, late]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Holds open transactions until the database answers nothing more: one on PGlite, which runs one
 * transaction at a time, and every connection of the pool on PostgreSQL, as a burst of slow
 * requests would. What a request asks the database meanwhile waits until `release`.
 */
export async function occupyDatabase(database: Database): Promise<BusyDatabase> {
  let release = () => {};
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  const holders: Promise<void>[] = [];
  // A busy machine may take longer than a moment over a free connection: only a second question
  // left unanswered for a whole second says every connection is held.
  while ((await answersWithin(database, 200)) || (await answersWithin(database, 1_000))) {
    if (holders.length >= 100) throw new Error('The database still answers with 100 transactions open.');
    let started = () => {};
    const open = new Promise<void>((resolve) => {
      started = resolve;
    });
    holders.push(
      database.transaction(async () => {
        started();
        await released;
      }),
    );
    await Promise.race([open, holders.at(-1)]);
  }
  return {
    async release() {
      release();
      await Promise.all(holders);
    },
  };
}
