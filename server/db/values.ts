/** What `toIso` writes: ISO 8601 in UTC with milliseconds. */
const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/**
 * PGlite and node-postgres hand back timestamps as Date; text is accepted too, to be safe, and
 * text the database already wrote as this function does (see `isoText`) is kept as it is.
 */
export function toIso(value: unknown): string {
  if (typeof value === 'string' && ISO_MS.test(value)) return value;
  return (value instanceof Date ? value : new Date(String(value))).toISOString();
}

/**
 * SQL for a timestamp column as `toIso` writes it (milliseconds cut, as a Date does): the
 * database writing it costs less than the service parsing a Date out of every such column.
 */
export const isoText = (column: string) => `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
