import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { PGlite, type Transaction } from '@electric-sql/pglite';
import { btree_gin } from '@electric-sql/pglite/contrib/btree_gin';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { CHANNEL_PATTERN, type Database, type Queryable } from './database';

/** `target` as a Queryable; `changed` hears how many rows each statement inserted, updated or deleted. */
function wrap(target: PGlite | Transaction, changed?: (rows: number) => void): Queryable {
  return {
    async query(sql, params = []) {
      const result = await target.query(sql, params as unknown[]);
      const rows = result.rows as never[];
      if (changed && result.affectedRows) changed(result.affectedRows);
      return { rows, rowCount: result.affectedRows || rows.length };
    },
  };
}

/**
 * PGlite runs no autovacuum. A bulk triage takes up to a whole inbox's entries out of the listing
 * tables; left dead, they are what the next bulk change putting entries back checks one by one
 * (an undo of delete all of 100,000 spent about 150 ms more on them than vacuuming costs, 40 ms).
 * So a transaction that changed this many rows vacuums those tables once it has committed, as
 * autovacuum would soon after on a server; a clean table's vacuum is about half a millisecond.
 */
const VACUUM_AFTER_ROWS = 10_000;
const CHURNED_TABLES = 'inbox_listed, inbox_unread';

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export class DataFolderInUseError extends Error {
  constructor(
    readonly dir: string,
    readonly owner: number,
  ) {
    super(`The data folder ${dir} is in use by process ${owner}; stop that service first.`);
  }
}

/**
 * PGlite is one PostgreSQL instance inside this process: a second process (or a second service
 * in this one) opening the same folder would corrupt it. A lock file with the owner's pid keeps
 * that from happening; a lock left by a process that no longer runs is taken over.
 */
function lockDataDir(dir: string): () => void {
  const lockFile = join(dir, 'inbox-companion.lock');
  try {
    writeFileSync(lockFile, String(process.pid), { flag: 'wx' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    const owner = Number(readFileSync(lockFile, 'utf8'));
    if (Number.isInteger(owner) && owner > 0 && isRunning(owner)) {
      throw new DataFolderInUseError(dir, owner);
    }
    writeFileSync(lockFile, String(process.pid));
  }
  return () => rmSync(lockFile, { force: true });
}

/** PGlite's database, which can also write its data folder out whole. */
export interface PgliteDatabase extends Database {
  /** The data folder as one archive, which `openPglite(null, archive)` starts a copy from. */
  dumpDataDir(): Promise<Blob>;
}

/**
 * The contrib extensions the schema uses (search's index: each user's trigrams); PGlite loads each
 * only when created.
 */
const extensions = { btree_gin, pg_trgm };

/**
 * PGlite in `dataDir`, or in memory when it is null: an empty cluster, or a copy of the data folder
 * `from` holds (as `dumpDataDir` writes one).
 */
export async function openPglite(dataDir: string | null, from?: Blob): Promise<PgliteDatabase> {
  let unlock = () => {};
  let db: PGlite;
  if (dataDir) {
    const dir = resolve(dataDir);
    mkdirSync(dir, { recursive: true });
    unlock = lockDataDir(dir);
    try {
      db = await PGlite.create({ dataDir: join(dir, 'pglite'), extensions });
    } catch (error) {
      unlock();
      throw error;
    }
  } else {
    db = await PGlite.create({ extensions, loadDataDir: from });
  }
  const root = wrap(db);
  let closing: Promise<void> | undefined;
  return {
    kind: 'pglite',
    query: root.query,
    async transaction(work) {
      let changed = 0;
      const result = await db.transaction((tx) =>
        work(
          wrap(tx, (rows) => {
            changed += rows;
          }),
        ),
      );
      if (changed >= VACUUM_AFTER_ROWS) await db.query(`VACUUM ${CHURNED_TABLES}`);
      return result;
    },
    async listen(channel, onPayload) {
      if (!CHANNEL_PATTERN.test(channel)) throw new Error(`Not a channel name: ${channel}`);
      // PGlite lives in this process: its notifications cannot be lost while it is open.
      const unlisten = await db.listen(channel, onPayload);
      return () => unlisten().catch(() => {});
    },
    async dumpDataDir() {
      await db.query('CHECKPOINT');
      return db.dumpDataDir('none');
    },
    close() {
      closing ??= db.close().finally(unlock);
      return closing;
    },
  };
}
