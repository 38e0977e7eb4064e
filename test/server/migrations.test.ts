import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Queryable } from '../../server/db/database';
import { MIGRATIONS, migrate } from '../../server/db/migrations';
import { BACKENDS } from '../support/service';
import { emptyDatabases, migrateAsReleased } from './support/released-migrations';

interface ShippedMigration {
  version: number;
  name: string;
  statements: string[];
}

/** Migrations 1 to 8 as the last release shipped them, read from the fixture's blocks. */
function shippedMigrations(): ShippedMigration[] {
  const text = readFileSync(new URL('./fixtures/migrations-1-8.sql', import.meta.url), 'utf8');
  const migrations: ShippedMigration[] = [];
  let lines: string[] = [];
  for (const line of text.split('\n')) {
    const start = /^-- migration (\d+): (.*)$/.exec(line);
    if (start) {
      migrations.push({ version: Number(start[1]), name: start[2] as string, statements: [] });
      lines = [];
    } else if (line === ';') {
      migrations.at(-1)?.statements.push(lines.join('\n'));
      lines = [];
    } else if (migrations.length > 0) lines.push(line);
  }
  return migrations;
}

const SHIPPED = shippedMigrations();

/**
 * The schema as PostgreSQL's catalog holds it, in the current schema only, with that schema's name
 * left out of the definitions so that two schemas of one database compare.
 */
async function schemaOf(db: Queryable) {
  const rows = async (sql: string) => (await db.query(sql)).rows;
  const unqualified = (column: string) => `replace(${column}, quote_ident(current_schema()) || '.', '')`;
  const inSchema = 'n.nspname = current_schema()';
  return {
    columns: await rows(`
      SELECT c.relname AS table, a.attname AS column, format_type(a.atttypid, a.atttypmod) AS type,
        a.attnotnull AS not_null, a.attidentity AS identity, a.attgenerated AS generated,
        pg_get_expr(d.adbin, d.adrelid) AS default
      FROM pg_attribute a
      JOIN pg_class c ON c.oid = a.attrelid JOIN pg_namespace n ON n.oid = c.relnamespace
      LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
      WHERE ${inSchema} AND c.relkind = 'r' AND a.attnum > 0 AND NOT a.attisdropped
      ORDER BY c.relname, a.attnum`),
    constraints: await rows(`
      SELECT c.relname AS table, k.conname AS name, ${unqualified('pg_get_constraintdef(k.oid)')} AS definition
      FROM pg_constraint k JOIN pg_class c ON c.oid = k.conrelid JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE ${inSchema} ORDER BY c.relname, k.conname`),
    indexes: await rows(`
      SELECT tablename AS table, indexname AS name, ${unqualified('indexdef')} AS definition
      FROM pg_indexes WHERE schemaname = current_schema() ORDER BY tablename, indexname`),
    functions: await rows(`
      SELECT p.proname AS name, pg_get_function_identity_arguments(p.oid) AS arguments,
        pg_get_function_result(p.oid) AS result, p.prosrc AS body, p.provolatile AS volatility
      FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
      WHERE ${inSchema} ORDER BY p.proname`),
    triggers: await rows(`
      SELECT c.relname AS table, t.tgname AS name, ${unqualified('pg_get_triggerdef(t.oid)')} AS definition
      FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE ${inSchema} AND NOT t.tgisinternal ORDER BY c.relname, t.tgname`),
    migrations: await rows('SELECT version, name FROM schema_migrations ORDER BY version'),
  };
}

describe('the shipped migrations', () => {
  it('are the statements the last release shipped, to the letter', () => {
    expect(SHIPPED.map(({ version }) => version)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    const current = MIGRATIONS.filter(({ version }) => version <= 8).map(({ version, name, statements }) => ({
      version,
      name,
      statements: [...statements],
    }));
    expect(current).toEqual(SHIPPED);
  });
});

describe.each(BACKENDS)('a database migrated by the last release, on %s', (backend) => {
  const open = emptyDatabases(backend);

  it('has, once migrated now, the schema of a database migrated from empty', async () => {
    const upgraded = await open();
    await migrateAsReleased(upgraded, SHIPPED);
    const applied = await migrate(upgraded);
    expect(applied).toEqual(MIGRATIONS.filter(({ version }) => version > 8).map(({ version }) => version));

    const fresh = await open();
    await migrate(fresh);

    const fromEmpty = await schemaOf(fresh);
    expect(fromEmpty.columns.length).toBeGreaterThan(0);
    expect(fromEmpty.functions.length).toBeGreaterThan(0);
    expect(fromEmpty.triggers.length).toBeGreaterThan(0);
    expect(await schemaOf(upgraded)).toEqual(fromEmpty);
  }, 60_000);
});
