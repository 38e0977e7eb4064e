/** The databases the service figures are taken on: PGlite always, PostgreSQL when DATABASE_URL is set. */
import { randomBytes } from 'node:crypto';
import type { DatabaseOption } from '../../server/index';

export type Backend = 'pglite' | 'postgres';

export const BACKEND_NAMES: Record<Backend, string> = { pglite: 'PGlite', postgres: 'PostgreSQL' };

export function benchBackends(): Backend[] {
  return process.env.DATABASE_URL ? ['pglite', 'postgres'] : ['pglite'];
}

/** A fresh database: PGlite in memory, or a PostgreSQL schema of its own that is dropped on close. */
export function benchDatabase(backend: Backend): DatabaseOption {
  if (backend === 'pglite') return { memory: true };
  const url = process.env.DATABASE_URL;
  if (!url) throw new Error('The PostgreSQL figures need DATABASE_URL.');
  return { url, schema: `bench_${randomBytes(6).toString('hex')}`, dropSchemaOnClose: true };
}
