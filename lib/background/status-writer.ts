import { accountLabel } from '../account-addresses';
import { type Account, listAccounts } from '../accounts';
import { renderBadge } from '../badge';
import { summaryLiveMode, summaryStatus } from '../connection-status';
import type { ConnectionStatus, LiveMode } from '../messaging';
import { accountLiveModeItem, accountStatusItem, liveModeItem, statusItem } from './stored-items';

/**
 * Shows every account on the badge: the sum of their unread counts, and each account's count
 * and state in the tooltip. Writes the status of all accounts together for the popup.
 */
export async function renderAccounts(accounts?: readonly Account[]): Promise<void> {
  const list = accounts ?? (await listAccounts());
  const rows = await Promise.all(
    list.map(async (account) => ({
      label: accountLabel(account),
      status: await accountStatusItem(account.id).getValue(),
      live: await accountLiveModeItem(account.id).getValue(),
    })),
  );
  const summary = summaryStatus(rows.map((row) => row.status));
  const live = summaryLiveMode(rows.map((row) => row.live));
  await Promise.all([statusItem.setValue(summary), liveModeItem.setValue(live)]);
  await renderBadge(rows);
}

export interface StatusWriter {
  get(): Promise<ConnectionStatus>;
  /** Records the account's connection status and shows it on the badge: the one way it changes. */
  set(status: ConnectionStatus): Promise<ConnectionStatus>;
  /** Records whether the account's count is live, and says so in the tooltip. */
  setLiveMode(mode: LiveMode): Promise<void>;
  getLiveMode(): Promise<LiveMode>;
  /** Shows a new unread count at once, as after a triage action, keeping the status otherwise. */
  showCount(count: number): Promise<ConnectionStatus>;
  /** Forgets the account's status, as when it is removed. */
  clear(): Promise<void>;
}

export function statusWriter(accountId: string): StatusWriter {
  const status = accountStatusItem(accountId);
  const liveMode = accountLiveModeItem(accountId);
  const writer: StatusWriter = {
    get: () => status.getValue(),
    async set(next) {
      await status.setValue(next);
      await renderAccounts();
      return next;
    },
    async setLiveMode(mode) {
      if ((await liveMode.getValue()) === mode) return;
      await liveMode.setValue(mode);
      await renderAccounts();
    },
    getLiveMode: () => liveMode.getValue(),
    async showCount(count) {
      const current = await status.getValue();
      if (current.kind !== 'ok') return current;
      return writer.set({ ...current, count: Math.max(0, count) });
    },
    async clear() {
      await Promise.all([status.removeValue(), liveMode.removeValue()]);
      await renderAccounts();
    },
  };
  return writer;
}
