/**
 * Every route of the service, once: its path, the handler of each method, and the `operationId`
 * under which the OpenAPI document describes it (a method without one is left out of the document).
 * `server/app.ts` registers the routes from this table and `server/openapi.ts` builds its paths
 * from it, so the two cannot name different routes.
 */
import type { Handler, MiddlewareHandler } from 'hono';
import { DISCOVERY_PATH } from '../lib/api/oauth-contract';
import type { inboxHandlers } from './api/inbox';
import type { liveHandlers } from './api/live';
import type { muteHandlers } from './api/mutes';
import type { oauthHandlers } from './api/oauth';
import type { operatorHandlers } from './api/operator';
import type { userHandlers } from './api/users';
import type { authorizeHandlers } from './site/authorize';
import { AVATAR_PATH, type avatarHandlers } from './site/avatar';
import { AUTHORIZE_PATH } from './site/discovery';
import type { siteHandlers } from './site/routes';

export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

/** What the table's routes are served by, made once per app from its dependencies. */
export interface RouteHandlers {
  inbox: ReturnType<typeof inboxHandlers>;
  mutes: ReturnType<typeof muteHandlers>;
  users: ReturnType<typeof userHandlers>;
  live: ReturnType<typeof liveHandlers>;
  operator: ReturnType<typeof operatorHandlers>;
  oauth: ReturnType<typeof oauthHandlers>;
  authorize: ReturnType<typeof authorizeHandlers>;
  site: ReturnType<typeof siteHandlers>;
  avatars: ReturnType<typeof avatarHandlers>;
  discovery: Handler;
  health: Handler;
  openApiDocument: Handler;
  /**
   * For what a client reads before it signs in, or with no credentials but what it sends: any
   * page may read it. A form body is a simple request, so no preflight is needed.
   */
  anyOrigin: MiddlewareHandler;
}

export interface RouteMethod {
  /** The operation's name in the OpenAPI document; without one the method is not documented. */
  operationId?: string;
  /** The handler, or its middleware (such as CORS) and handler in order. */
  handle: (handlers: RouteHandlers) => Handler | readonly Handler[];
}

export interface Route {
  /** Relative to the API base URL, or on the site origin when `site` is true; `:name` is a parameter. */
  path: string;
  site?: boolean;
  /** The media type a request body must be labelled with; JSON when left out. */
  bodyType?: string;
  methods: Partial<Record<Method, RouteMethod>>;
}

const form = 'application/x-www-form-urlencoded';

export const ROUTES = [
  { path: '/inbox/fetch', methods: { GET: { operationId: 'fetchInbox', handle: (h) => h.inbox.fetchPage } } },
  { path: '/inbox/count', methods: { GET: { operationId: 'countUnread', handle: (h) => h.inbox.count } } },
  { path: '/inbox/read', methods: { POST: { operationId: 'markRead', handle: (h) => h.inbox.markRead } } },
  {
    path: '/inbox/delete',
    methods: { POST: { operationId: 'deleteNotifications', handle: (h) => h.inbox.delete } },
  },
  { path: '/inbox/unread', methods: { POST: { operationId: 'markUnread', handle: (h) => h.inbox.markUnread } } },
  {
    path: '/inbox/snooze',
    methods: { POST: { operationId: 'snoozeNotifications', handle: (h) => h.inbox.snooze } },
  },
  {
    path: '/inbox/unsnooze',
    methods: { POST: { operationId: 'unsnoozeNotifications', handle: (h) => h.inbox.unsnooze } },
  },
  { path: '/inbox/undo', methods: { POST: { operationId: 'undoTriage', handle: (h) => h.inbox.undo } } },
  {
    path: '/inbox/mutes',
    methods: {
      GET: { operationId: 'listMutes', handle: (h) => h.mutes.list },
      POST: { operationId: 'addMute', handle: (h) => h.mutes.add },
    },
  },
  {
    path: '/inbox/mutes/:id',
    methods: { DELETE: { operationId: 'removeMute', handle: (h) => h.mutes.remove } },
  },
  {
    path: '/inbox/policy',
    methods: {
      GET: { operationId: 'getInboxPolicy', handle: (h) => h.mutes.policy },
      PUT: { operationId: 'setInboxPolicy', handle: (h) => h.mutes.setPolicy },
    },
  },
  {
    path: '/inbox/live/ticket',
    methods: { POST: { operationId: 'issueLiveTicket', handle: (h) => h.live.ticket } },
  },
  {
    path: '/inbox/live',
    methods: { GET: { operationId: 'openLiveChannel', handle: (h) => h.live.withoutUpgrade } },
  },
  {
    path: '/operator/notifications',
    methods: { POST: { operationId: 'deliverNotification', handle: (h) => h.operator.notify } },
  },
  {
    path: '/operator/tokens/revoke',
    methods: { POST: { operationId: 'revokeUserToken', handle: (h) => h.operator.revoke } },
  },
  {
    path: '/oauth/token',
    bodyType: form,
    methods: { POST: { operationId: 'exchangeAuthorizationCode', handle: (h) => [h.anyOrigin, h.oauth.token] } },
  },
  {
    path: '/oauth/revoke',
    bodyType: form,
    methods: { POST: { operationId: 'revokeToken', handle: (h) => [h.anyOrigin, h.oauth.revoke] } },
  },
  { path: '/me', methods: { GET: { operationId: 'getMe', handle: (h) => h.users.me } } },
  { path: '/user/:username', methods: { GET: { operationId: 'getProfile', handle: (h) => h.users.profile } } },
  {
    path: '/user/:username/follow',
    methods: {
      POST: { operationId: 'followUser', handle: (h) => h.users.follow },
      DELETE: { operationId: 'unfollowUser', handle: (h) => h.users.unfollow },
    },
  },
  {
    path: '/user/:username/report',
    methods: { POST: { operationId: 'reportUser', handle: (h) => h.users.report } },
  },
  {
    path: DISCOVERY_PATH,
    site: true,
    methods: { GET: { operationId: 'discoverService', handle: (h) => [h.anyOrigin, h.discovery] } },
  },
  {
    path: '/openapi.json',
    methods: { GET: { operationId: 'getOpenApiDocument', handle: (h) => h.openApiDocument } },
  },
  {
    path: AUTHORIZE_PATH,
    site: true,
    bodyType: form,
    methods: { GET: { handle: (h) => h.authorize.show }, POST: { handle: (h) => h.authorize.decide } },
  },
  { path: '/health', site: true, methods: { GET: { operationId: 'checkHealth', handle: (h) => h.health } } },
  { path: '/', site: true, methods: { GET: { handle: (h) => h.site.home } } },
  { path: '/gallery', site: true, methods: { GET: { handle: (h) => h.site.gallery } } },
  { path: AVATAR_PATH, site: true, methods: { GET: { handle: (h) => h.avatars.picture } } },
  { path: '/:handle{@[^/]*}', site: true, methods: { GET: { handle: (h) => h.site.profile } } },
  {
    path: '/:handle{@[^/]*}/posts/:post{[1-9][0-9]{0,2}}',
    site: true,
    methods: { GET: { handle: (h) => h.site.post } },
  },
] as const satisfies readonly Route[];

type OperationIdsOf<R> = R extends { methods: infer M }
  ? { [K in keyof M]: M[K] extends { operationId: infer Id extends string } ? Id : never }[keyof M]
  : never;

/** The name of every documented operation: the OpenAPI document describes each, and nothing else. */
export type OperationId = OperationIdsOf<(typeof ROUTES)[number]>;
