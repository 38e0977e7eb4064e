/**
 * The service as one Hono app: the API under `/api`, the web site at `/` and `/@{username}`.
 * Every route of the table in `route-table.ts` is registered through `route`, which also answers
 * other methods on a known path with 405 and an Allow header, and refuses a body not labelled as
 * the route takes it (JSON unless the route says otherwise) with 415; unknown paths answer 404.
 */
import type { IncomingMessage } from 'node:http';
import { type Context, type Handler, Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { cors } from 'hono/cors';
import type { Result, Router } from 'hono/router';
import { RegExpRouter } from 'hono/router/reg-exp-router';
import { isPlainAnswer, SECURITY_HEADERS } from './api/answer';
import type { ApiDeps } from './api/context';
import { healthHandler } from './api/health';
import { idempotent } from './api/idempotency';
import { inboxHandlers } from './api/inbox';
import { liveHandlers } from './api/live';
import { JSON_MEDIA_TYPE, requireBodyType } from './api/media-type';
import { muteHandlers } from './api/mutes';
import { oauthHandlers } from './api/oauth';
import { operatorHandlers } from './api/operator';
import { ProblemError, problemResponse } from './api/problem';
import { userHandlers } from './api/users';
import { scoped } from './db/scoped';
import openApiDocument from './openapi.json' with { type: 'json' };
import { type Method, ROUTES, type Route, type RouteHandlers, type RouteMethod } from './route-table';
import { authorizeHandlers } from './site/authorize';
import { avatarHandlers } from './site/avatar';
import { discoveryDocument } from './site/discovery';
import { notFoundHtml, siteHandlers } from './site/routes';

export const API_PREFIX = '/api';
/** Far above any valid body (500 ids, or a 2000-character comment) and far below harm. */
export const MAX_BODY_BYTES = 64 * 1024;

export interface AppOptions extends ApiDeps {
  /** Called with one line per answered request. */
  log?: (line: string) => void;
  /** True once the service is shutting down: answers then close their connection. */
  closing?: () => boolean;
  /** Milliseconds the database has to answer the health check (`server/api/health.ts`). */
  healthTimeoutMs?: number;
  /** Told as each request's handling starts and ends, however it ends. */
  handling?: { started(): void; ended(): void };
}

/** An error that is not about the request: the database is gone or refuses connections. */
function isUnavailable(error: unknown): boolean {
  const code = (error as { code?: unknown })?.code;
  const message = error instanceof Error ? error.message : '';
  return (
    (typeof code === 'string' && /^(ECONNREFUSED|ECONNRESET|ETIMEDOUT|EPIPE|57P0[1-3]|53300|08\w{3})$/.test(code)) ||
    /Connection terminated|is not queryable|timeout exceeded when trying to connect|PGlite is closed|after calling end on the pool/i.test(
      message,
    )
  );
}

/** The first segment of a route's path, such as `inbox` of `/inbox/count` or `:handle{@[^/]*}`. */
const firstSegment = (path: string) => path.replace(/^\//, '').split('/')[0] ?? '';

/**
 * Hono's RegExpRouter, which matches every path in one regular expression, for the app's routes.
 * It cannot hold the profile pages' `/:handle{@[^/]*}` beside the static routes of the same
 * depth, and the router Hono picks by default then falls back to its trie for every request.
 * So the paths whose first segment starts with `@` have a router of their own: it holds every
 * route that can match such a path (the profile pages, and middleware or parameters at the
 * root), the other holds every route but the profile pages, which match nothing else.
 */
export class ProfileSplitRouter<T> implements Router<T> {
  name = 'ProfileSplitRouter';
  readonly #profiles = new RegExpRouter<T>();
  readonly #others = new RegExpRouter<T>();

  add(method: string, path: string, handler: T): void {
    const first = firstSegment(path);
    const onlyProfiles = first.startsWith('@') || /^:\w+\{@/.test(first);
    if (onlyProfiles || first.startsWith(':') || first.startsWith('*')) this.#profiles.add(method, path, handler);
    if (!onlyProfiles) this.#others.add(method, path, handler);
  }

  match(method: string, path: string): Result<T> {
    return path.charCodeAt(1) === 64 ? this.#profiles.match(method, path) : this.#others.match(method, path);
  }
}

/** Whether the request's body never arrived in full because its connection is gone. */
function clientGone(c: Context): boolean {
  const incoming = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming;
  return incoming !== undefined && !incoming.complete && (incoming.destroyed || incoming.socket?.destroyed === true);
}

/** PostgreSQL's class 22 (data exception) is always about a value the request carried. */
const isDataError = (error: unknown) => /^22\w{3}$/.test(String((error as { code?: unknown })?.code ?? ''));

function wantsHtml(c: Context): boolean {
  return !c.req.path.startsWith(`${API_PREFIX}/`) && (c.req.header('accept') ?? '').includes('text/html');
}

/** The security headers, and `Connection: close` while the service shuts down, on the answer's own headers. */
function secure(c: Context, closing: boolean) {
  // On the answer's own headers: `c.header()` after the answer copies it into a new Response,
  // which makes @hono/node-server build a whole fetch Response for every request.
  const headers: [string, string][] = Object.entries(SECURITY_HEADERS);
  if (closing) headers.push(['connection', 'close']);
  for (const [name, value] of headers) {
    try {
      c.res.headers.set(name, value);
    } catch {
      // An answer with immutable headers, such as a redirect made by Response.redirect().
      c.header(name, value);
    }
  }
}

export function createApp(appOptions: AppOptions) {
  const app = new Hono({ router: new ProfileSplitRouter() });
  const options = { ...appOptions, db: scoped(appOptions.db) };
  const log = options.log;
  const keyed = idempotent(options);

  app.use(async (c, next) => {
    const started = log ? performance.now() : 0;
    options.handling?.started();
    try {
      await next();
    } finally {
      options.handling?.ended();
    }
    const closing = options.closing?.() === true;
    // An answer made by `plainAnswer` has these already, in a plain object that stays one.
    if (closing || !isPlainAnswer(c.res)) secure(c, closing);
    if (log) {
      const ms = (performance.now() - started).toFixed(1);
      log(`${c.req.method} ${c.req.path} ${c.res.status} ${ms}ms`);
    }
  });

  const limitBody = bodyLimit({
    maxSize: MAX_BODY_BYTES,
    onError: () =>
      problemResponse(
        new ProblemError(413, 'payload_too_large', `A request body may have at most ${MAX_BODY_BYTES} bytes.`),
      ),
  });
  // No GET or HEAD handler reads a body. Asking for one makes @hono/node-server build a whole
  // fetch Request (an AbortController and a stream) on every request: a tenth of the time of
  // the polling requests, in a CPU profile under load.
  app.use((c, next) => (c.req.method === 'GET' || c.req.method === 'HEAD' ? next() : limitBody(c, next)));

  /**
   * Registers one route of the table with `handlers`. Every method but GET first checks that a
   * body, if any, is labelled as the route takes it; the API's JSON POST and DELETE routes take an
   * `Idempotency-Key` (the OAuth form endpoints follow OAuth, whose codes are single-use anyway).
   */
  function route({ path, site, bodyType = JSON_MEDIA_TYPE, methods }: Route, handlers: RouteHandlers) {
    const where = site ? path : `${API_PREFIX}${path}`;
    const checkBody = requireBodyType(bodyType);
    const entries = Object.entries(methods) as [Method, RouteMethod][];
    const allowed = entries.map(([method]) => method);
    for (const [method, { handle }] of entries) {
      const chain = [handle(handlers)].flat() as [Handler, ...Handler[]];
      const takesKey = !site && bodyType === JSON_MEDIA_TYPE && (method === 'POST' || method === 'DELETE');
      if (method === 'GET') app.on(method, where, ...chain);
      else if (takesKey) app.on(method, where, checkBody, keyed, ...chain);
      else app.on(method, where, checkBody, ...chain);
    }
    const allow = [...allowed, ...(allowed.includes('GET') ? ['HEAD'] : [])].join(', ');
    app.all(where, (c) => {
      throw new ProblemError(405, 'method_not_allowed', `${c.req.method} is not allowed here; use ${allow}.`, {
        allow,
      });
    });
  }

  const handlers: RouteHandlers = {
    inbox: inboxHandlers(options),
    mutes: muteHandlers(options),
    users: userHandlers(options),
    live: liveHandlers(options),
    operator: operatorHandlers(options),
    oauth: oauthHandlers(options),
    authorize: authorizeHandlers(options),
    site: siteHandlers(options.db, () => `${options.origin()}${API_PREFIX}`),
    avatars: avatarHandlers(options.db),
    discovery: (c) => {
      c.header('cache-control', 'no-cache');
      return c.json(discoveryDocument(options.origin(), `${options.origin()}${API_PREFIX}`));
    },
    health: healthHandler({ db: appOptions.db, closing: options.closing, timeoutMs: options.healthTimeoutMs }),
    openApiDocument: (c) => c.json(openApiDocument),
    anyOrigin: cors({ origin: '*' }),
  };
  for (const each of ROUTES) route(each, handlers);

  app.notFound((c) => {
    if (wantsHtml(c)) return notFoundHtml(c, 'There is no page at this address.');
    return problemResponse(new ProblemError(404, 'not_found', `There is nothing at ${c.req.path}.`));
  });

  app.onError((error, c) => {
    if (error instanceof ProblemError) return problemResponse(error);
    if (isDataError(error)) {
      return problemResponse(
        new ProblemError(400, 'invalid_parameter', 'The request carries a value the service cannot store.'),
      );
    }
    if (clientGone(c)) {
      // The body stopped arriving (the client hung up, or was cut off for being too slow): the
      // failure to read it is the client's, and nobody is left to answer.
      log?.(`${c.req.method} ${c.req.path}: client went away before its request arrived in full`);
      return problemResponse(new ProblemError(408, 'invalid_body', 'The request did not arrive in full.'));
    }
    if (isUnavailable(error)) {
      log?.(`${c.req.method} ${c.req.path}: database unavailable: ${(error as Error).message}`);
      return problemResponse(
        new ProblemError(503, 'service_unavailable', 'The service cannot reach its database; try again soon.', {
          'retry-after': '5',
        }),
      );
    }
    console.error(`${c.req.method} ${c.req.path} failed:`, error);
    return problemResponse(new ProblemError(500, 'internal_error', 'Something went wrong on the service.'));
  });

  return app;
}
