import type { Context } from 'hono';
import * as v from 'valibot';
import type { ErrorCode } from '../../lib/api/contract';
import { ProblemError } from './problem';

const parsedQueries = new WeakMap<object, Record<string, string[]>>();

/**
 * Every query parameter of the request, read from its address once: asking Hono for one name
 * reads the whole query again, and a page request asks for seven.
 */
function queriesOf(c: Context): Record<string, string[]> {
  let queries = parsedQueries.get(c.req);
  if (!queries) {
    queries = c.req.queries();
    parsedQueries.set(c.req, queries);
  }
  return queries;
}

/** A query parameter given at most once; a repeated one is refused with `code`. */
export function singleQuery(c: Context, name: string, code: ErrorCode): string | undefined {
  const values = queriesOf(c)[name];
  if (!values || values.length === 0) return undefined;
  if (values.length > 1) throw new ProblemError(400, code, `${name} may be given only once.`);
  return values[0];
}

/** The request body parsed as JSON; a missing or malformed one is refused with `code`. */
export async function jsonBody(c: Context, code: ErrorCode, shape: string): Promise<unknown> {
  const text = await c.req.text();
  if (text.trim() === '') throw new ProblemError(400, code, `The request needs a JSON body: ${shape}.`);
  try {
    return JSON.parse(text);
  } catch {
    throw new ProblemError(400, code, `The body is not valid JSON; expected ${shape}.`);
  }
}

/**
 * The request body as `schema` reads it; a missing or malformed body, or one the schema refuses,
 * is refused with `code`. `shape` shows a person what to send, `refusal` says what was wrong.
 */
export async function validBody<Schema extends v.GenericSchema>(
  c: Context,
  schema: Schema,
  { code, shape, refusal }: { code: ErrorCode; shape: string; refusal: string },
): Promise<v.InferOutput<Schema>> {
  const result = v.safeParse(schema, await jsonBody(c, code, shape));
  if (!result.success) throw new ProblemError(400, code, refusal);
  return result.output;
}
