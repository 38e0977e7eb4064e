/**
 * The Priority view's lens on the inbox: which notifications of the accounts are priority, each
 * with its strongest reason in one short line. Read from each account's model (kept in this
 * browser by the background) as it is when the view is chosen; loaded with the view.
 */
import type { InboxItem } from '../messaging';
import { EMPTY_MODEL, isPriority, priorityKey } from '../priority/model';
import { whyPriority } from '../priority/reasons';
import { readStored } from '../stored';
import type { PriorityLens } from './inbox-state';

export async function priorityLens(accounts: readonly string[], now = Date.now()): Promise<PriorityLens> {
  const models = await readStored(...accounts.map(priorityKey));
  return {
    reason(item) {
      const model = models[accounts.indexOf((item as Partial<InboxItem>).account ?? '')] ?? EMPTY_MODEL;
      const actor = item.actor?.username ?? null;
      return isPriority(model, actor, item.url, now) ? whyPriority(model, actor, item.url, now) : null;
    },
  };
}
