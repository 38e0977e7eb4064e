import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { PGlite, type Transaction } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { CHANNEL_PATTERN, type Database, type Queryable } from './database';

function wrap(target: PGlite | Transaction): Queryable {
  return {
    async query(sql, params = []) {
      const result = await target.query(sql, params as unknown[]);
      const rows = result.rows as never[];
      return { rows, rowCount: result.affectedRows || rows.length };
    },
  };
}

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

/** The contrib extensions the schema uses (search's trigram index); PGlite loads each only when created. */
const extensions = { pg_trgm };

export async function openPglite(dataDir: string | null): Promise<Database> {
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
    db = await PGlite.create({ extensions });
  }
  const root = wrap(db);
  let closing: Promise<void> | undefined;
  return {
    kind: 'pglite',
    query: root.query,
    transaction: (work) => db.transaction((tx) => work(wrap(tx))),
    async listen(channel, onPayload) {
      if (!CHANNEL_PATTERN.test(channel)) throw new Error(`Not a channel name: ${channel}`);
      // PGlite lives in this process: its notifications cannot be lost while it is open.
      const unlisten = await db.listen(channel, onPayload);
      return () => unlisten().catch(() => {});
    },
    close() {
      closing ??= db.close().finally(unlock);
      return closing;
    },
  };
}
