/**
 * The background's answer to every message of the protocol, one group of handlers per area it
 * serves. Each message passes the gate (`message-gate.ts`) before its handler runs.
 */
import { messaging } from '../../messaging';
import { answer, type Handlers, MESSAGE_TYPES } from '../message-gate';
import { accountHandlers } from './account-messages';
import type { HandlerContext } from './context';
import { inboxHandlers } from './inbox-messages';
import { muteHandlers } from './mute-messages';
import { priorityHandlers } from './priority-messages';
import { profileHandlers } from './profile-messages';
import { settingsHandlers } from './settings-messages';

export type { HandlerContext };

export function createHandlers(ctx: HandlerContext): Handlers {
  return {
    ...inboxHandlers(ctx),
    ...muteHandlers(ctx),
    ...accountHandlers(ctx),
    ...settingsHandlers(ctx),
    ...profileHandlers(ctx),
    ...priorityHandlers(ctx),
  };
}

/** Answers every message of the protocol until `signal` aborts; the handlers, for the background's own use. */
export function registerHandlers(ctx: HandlerContext, signal?: AbortSignal): Handlers {
  const handlers = createHandlers(ctx);
  for (const type of MESSAGE_TYPES) {
    const remove = messaging.onMessage(type, (message) =>
      answer(handlers, ctx.extension, type, message.data, message.sender),
    );
    signal?.addEventListener('abort', remove, { once: true });
  }
  return handlers;
}
