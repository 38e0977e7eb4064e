/**
 * Answers whose headers are a plain object from the start. @hono/node-server writes such an
 * answer's headers as they are; an answer whose headers were touched as a `Headers` (`c.header`,
 * or `c.res.headers` in a middleware) makes it build one and copy it out again on every request.
 */

/** What every answer of the service carries; `createApp`'s first middleware adds them to the others. */
export const SECURITY_HEADERS = { 'x-content-type-options': 'nosniff', 'referrer-policy': 'same-origin' } as const;

/** On an answer from `plainAnswer`: a property rather than a WeakSet, which would cost every collection. */
const PLAIN = Symbol('plain answer');

/**
 * An answer with `headers` (which it takes as its own) and the security headers, which the first
 * middleware then leaves alone.
 */
export function plainAnswer(body: string | null, status: number, headers: Record<string, string>): Response {
  headers['x-content-type-options'] = SECURITY_HEADERS['x-content-type-options'];
  headers['referrer-policy'] = SECURITY_HEADERS['referrer-policy'];
  const response = new Response(body, { status, headers });
  (response as { [PLAIN]?: true })[PLAIN] = true;
  return response;
}

/** Whether `response` came from `plainAnswer`, and so has every header an answer needs. */
export const isPlainAnswer = (response: Response): boolean => (response as { [PLAIN]?: true })[PLAIN] === true;

/** A JSON answer as `plainAnswer` makes it. */
export function jsonAnswer(body: string, headers: Record<string, string>, status = 200): Response {
  headers['content-type'] = 'application/json';
  return plainAnswer(body, status, headers);
}
