import { randomBytes } from 'node:crypto';
import type { Queryable } from '../db/database';

/**
 * A secret key of the service, made at random the first time it is asked for and kept in the
 * database, so that what it signed stays valid across restarts and between services sharing data.
 */
export async function serviceKey(db: Queryable, name: string): Promise<Buffer> {
  await db.query('INSERT INTO service_keys (name, value) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING', [
    name,
    randomBytes(32).toString('hex'),
  ]);
  const result = await db.query<{ value: string }>('SELECT value FROM service_keys WHERE name = $1', [name]);
  return Buffer.from(result.rows[0]?.value ?? '', 'hex');
}
