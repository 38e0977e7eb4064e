/**
 * Which transactions a read saw, from PostgreSQL's `pg_current_snapshot()` in its text form
 * `xmin:xmax:xip,...`: every transaction before `xmin` had ended, none from `xmax` on had, and
 * those listed between were still running. Transaction ids are 64-bit (`xid8`), so BigInt.
 */

export interface Snapshot {
  xmin: bigint;
  xmax: bigint;
  /** Transactions between xmin and xmax still running when the snapshot was taken. */
  running: ReadonlySet<bigint>;
}

const XID = /^\d{1,20}$/;
const SNAPSHOT = /^(\d{1,20}):(\d{1,20}):((?:\d{1,20}(?:,\d{1,20})*)?)$/;

/** A transaction id in its text form (`pg_current_xact_id()::text`), or null when it is none. */
export function parseXid(text: unknown): bigint | null {
  return typeof text === 'string' && XID.test(text) ? BigInt(text) : null;
}

/** A snapshot in its text form, or null when it is none. */
export function parseSnapshot(text: string): Snapshot | null {
  const match = SNAPSHOT.exec(text);
  if (!match) return null;
  const xmin = BigInt(match[1] as string);
  const xmax = BigInt(match[2] as string);
  const running = new Set(match[3] ? match[3].split(',').map(BigInt) : []);
  if (xmax < xmin) return null;
  for (const xid of running) if (xid < xmin || xid >= xmax) return null;
  return { xmin, xmax, running };
}

/** Whether a read with this snapshot saw what the transaction `xid` committed. */
export function sawTransaction(snapshot: Snapshot, xid: bigint): boolean {
  if (xid < snapshot.xmin) return true;
  return xid < snapshot.xmax && !snapshot.running.has(xid);
}
