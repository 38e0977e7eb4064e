/**
 * What the background does for priority: it keeps each account's model (`lib/priority/model.ts`)
 * in this browser's storage, and nowhere else, learning from what the person does here; and, while
 * the badge counts priority notifications only, the account's newest unread notifications to count
 * them in.
 */
import { LIMITS } from '../api';
import type { ConnectionStatus } from '../messaging';
import { oneAtATime } from '../one-at-a-time';
import { type About, following, learn, type PriorityModel, type Signal } from '../priority/model';
import type { Session } from './api-session';
import { renderAccounts } from './status-writer';
import { priorityItem, unreadSampleItem, workerSettings } from './stored-items';

/** Each account's change under way: the next waits for it, so two changes made at once both last. */
const changing = new Map<string, Promise<void>>();

/** Changes the account's model; the badge follows, as its count may depend on it. */
export function changeModel(accountId: string, change: (model: PriorityModel) => PriorityModel): Promise<void> {
  const item = priorityItem(accountId);
  const done = (changing.get(accountId) ?? Promise.resolve())
    .then(async () => item.setValue(change(await item.getValue())))
    .then(() => renderAccounts())
    .catch(() => undefined);
  changing.set(accountId, done);
  return done;
}

/** The person did `signal` to the notifications `about`, now. */
export const learnFrom = (accountId: string, signal: Signal, about: About[]) =>
  changeModel(accountId, (model) => learn(model, signal, about, Date.now()));

/** The buttons or the service said whether the person follows `username`. */
export const learnFollow = (accountId: string, username: string, followed: boolean) =>
  changeModel(accountId, (model) => following(model, username, followed));

/**
 * Reads the account's newest unread notifications again when the badge counts priority ones and
 * the unread count on show is not the one they were read at. The service counts only unread
 * notifications, so this is one page of at most 100 each time the count changes; priority ones
 * further down are not counted, which the tooltip says.
 */
export function sampleUnread(accountId: string, session: Session) {
  const sample = unreadSampleItem(accountId);
  return oneAtATime(async (status: ConnectionStatus): Promise<void> => {
    const { count } = status;
    // Turned off, nothing is kept: turned on again, the newest unread are read afresh.
    if (!(await workerSettings()).badgePriority) return sample.removeValue();
    if (status.kind !== 'ok' || count === null || (await sample.getValue())?.of === count) return;
    const { client } = await session.client();
    const page =
      count === 0
        ? { data: [], cursor: null }
        : await client.inbox.fetch({ unreadOnly: true, limit: LIMITS.pageSizeMax });
    await sample.setValue({
      of: count,
      about: page.data.map((item) => [item.actor?.username ?? null, item.url]),
      complete: page.cursor === null,
    });
    await renderAccounts();
  });
}
