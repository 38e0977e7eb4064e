/** PGlite and node-postgres hand back timestamps as Date; text is accepted too, to be safe. */
export function toIso(value: unknown): string {
  return (value instanceof Date ? value : new Date(String(value))).toISOString();
}
