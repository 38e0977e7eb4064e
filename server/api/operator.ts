/**
 * The operator API: how other parts of a deployment put notifications into inboxes and take
 * users' tokens out. Only operator tokens pass; the demo activity uses the same delivery.
 */
import type { Context } from 'hono';
import { createFactory } from 'hono/factory';
import * as v from 'valibot';
import {
  LIMITS,
  NOTIFICATION_TYPES,
  type OperatorNotificationBody,
  OperatorNotificationBodySchema,
  OperatorRevokeBodySchema,
  type OperatorRevokeResult,
} from '../../lib/api/contract';
import { deliverNotification } from '../store/notifications';
import { revokeToken } from '../store/tokens';
import { operatorOnly } from './auth';
import type { ApiDeps } from './context';
import { ProblemError, userNotFound } from './problem';
import { jsonBody, validBody } from './request';
import { toWireNotification } from './wire';

const NOTIFICATION_SHAPE =
  `{ "username": "<user>", "type": ${NOTIFICATION_TYPES.map((t) => `"${t}"`).join(' | ')}, ` +
  `"text": "<1 to ${LIMITS.notificationTextMax} characters>", "actor": "<user>" | null, "url": "<http(s) URL>" | null }`;

async function notificationBody(c: Context): Promise<OperatorNotificationBody> {
  const result = v.safeParse(
    OperatorNotificationBodySchema,
    await jsonBody(c, 'invalid_notification', NOTIFICATION_SHAPE),
  );
  if (!result.success) {
    const field = v.getDotPath(result.issues[0]);
    throw new ProblemError(
      400,
      'invalid_notification',
      `${field ? `${field} is not valid. ` : ''}A notification is ${NOTIFICATION_SHAPE}.`,
    );
  }
  return result.output;
}

/** The path to keep: a URL on the service's own site stays a path, so it follows the site if it moves. */
export function storedPath(url: string | null, origin: string): string | null {
  if (url === null) return null;
  const parsed = new URL(url);
  return parsed.origin === origin ? `${parsed.pathname}${parsed.search}${parsed.hash}` : parsed.href;
}

export function operatorHandlers(deps: ApiDeps) {
  const { db } = deps;

  async function notify(c: Context) {
    const body = await notificationBody(c);
    const delivered = await deliverNotification(db, {
      username: body.username,
      type: body.type,
      text: body.text,
      actor: body.actor,
      path: storedPath(body.url, deps.origin()),
    });
    if ('missing' in delivered) throw userNotFound(delivered.missing);
    c.header('cache-control', 'no-store');
    return c.json(toWireNotification(delivered, deps.origin()), 201);
  }

  async function revoke(c: Context) {
    const shape = '{ "token": "<a user\'s token>" }';
    const { token } = await validBody(c, OperatorRevokeBodySchema, {
      code: 'invalid_body',
      shape,
      refusal: `The body must be ${shape}.`,
    });
    const answer: OperatorRevokeResult = { revoked: await revokeToken(db, token) };
    c.header('cache-control', 'no-store');
    return c.json(answer);
  }

  const { createHandlers } = createFactory();
  const operator = operatorOnly(db);
  return { notify: createHandlers(operator, notify), revoke: createHandlers(operator, revoke) };
}
