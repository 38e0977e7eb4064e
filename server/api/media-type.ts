/**
 * What a request body must be labelled. Every route gets the check from `route` in `app.ts`
 * without saying anything: a request that carries a body (a Content-Length above 0, or any
 * Transfer-Encoding) must label it `application/json` (UTF-8, the only charset JSON has), or
 * the media type the route declared instead, such as OAuth's form bodies. Requests without a
 * body pass, so endpoints that take none and a handler's own "the body is missing" answer are
 * unaffected.
 */
import type { MiddlewareHandler } from 'hono';
import { ProblemError } from './problem';

export const JSON_MEDIA_TYPE = 'application/json';

function carriesBody(headers: Headers): boolean {
  const length = headers.get('content-length');
  if (headers.has('transfer-encoding')) return true;
  return length !== null && length.trim() !== '0';
}

/** The media type's essence and whether its charset, if any, is UTF-8. */
function parseMediaType(value: string | null): { essence: string; utf8: boolean } | null {
  if (value === null) return null;
  const [essence = '', ...parameters] = value.split(';').map((part) => part.trim().toLowerCase());
  const charset = parameters.find((parameter) => parameter.startsWith('charset='))?.slice('charset='.length);
  return { essence, utf8: charset === undefined || charset.replace(/"/g, '') === 'utf-8' };
}

export function requireBodyType(accepted: string = JSON_MEDIA_TYPE): MiddlewareHandler {
  return async (c, next) => {
    if (!carriesBody(c.req.raw.headers)) return next();
    const type = parseMediaType(c.req.header('content-type') ?? null);
    if (type?.essence === accepted && type.utf8) return next();
    const given = type ? `"${type.essence}"` : 'no Content-Type';
    throw new ProblemError(415, 'unsupported_media_type', `Send the body as ${accepted} (UTF-8), not ${given}.`, {
      accept: accepted,
    });
  };
}
