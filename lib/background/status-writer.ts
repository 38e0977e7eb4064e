import { accountLabel } from '../account-addresses';
import type { Account } from '../accounts';
import { type BadgeRow, badgeAsTitle, badgeForAccounts, type PriorityCount } from '../badge';
import { drawsNoBadge, toolbarButton } from '../browser-api';
import { summaryLiveMode, summaryStatus } from '../connection-status';
import type { ConnectionStatus, LiveMode } from '../messaging';
import { oneAtATime } from '../one-at-a-time';
import { isPriority } from '../priority/model';
import {
  accountLiveModeItem,
  accountStatusItem,
  accountsItem,
  liveModeItem,
  priorityItem,
  statusItem,
  unreadSampleItem,
  workerMemory,
  workerSettings,
} from './stored-items';

/** What this worker last drew on the badge: a part that would stay the same is not drawn again. */
const drawn = workerMemory((): { text?: string; color?: string; title?: string } => ({}));

/** Whether the browser draws no badge, asked once while the worker keeps its memory. */
const badgeless = workerMemory(drawsNoBadge);

/**
 * Draws the accounts' badge (see `badgeForAccounts`), only the parts that change: a check that
 * confirms the count on show writes no text, a new count writes no colour. Where the browser
 * draws no badge, the title says the count instead (see `badgeAsTitle`).
 */
async function drawBadge(rows: readonly BadgeRow[]): Promise<void> {
  const badge = badgeForAccounts(rows);
  const { text, color } = badge;
  const title = (await badgeless()) ? badgeAsTitle(rows) : badge.title;
  const last = drawn();
  const button = toolbarButton();
  const drawing: Promise<unknown>[] = [];
  if (last.text !== text) drawing.push(button.setBadgeText({ text }));
  if (last.color !== color)
    drawing.push(button.setBadgeBackgroundColor({ color }), button.setBadgeTextColor?.({ color: '#ffffff' }));
  if (last.title !== title) drawing.push(button.setTitle({ title }));
  Object.assign(last, { text, color, title });
  try {
    await Promise.all(drawing);
  } catch (error) {
    // What the browser refused is drawn in full next time.
    for (const part of ['text', 'color', 'title'] as const) delete last[part];
    throw error;
  }
}

/** The priority notifications among the account's newest unread ones; null until they are read. */
async function priorityCount(accountId: string, now: number): Promise<PriorityCount | null> {
  const [model, sample] = await Promise.all([
    priorityItem(accountId).getValue(),
    unreadSampleItem(accountId).getValue(),
  ]);
  return (
    sample && {
      count: sample.about.filter(([actor, url]) => isPriority(model, actor, url, now)).length,
      looked: sample.about.length,
      complete: sample.complete,
    }
  );
}

/**
 * Shows every account on the badge: the sum of their unread counts (or of their priority ones, as
 * the person may choose), and each account's count and state in the tooltip. Writes the status
 * of all accounts together for the popup, beside the badge rather than before it. Renders run one
 * at a time (see `oneAtATime`): one that read an account's status before a change cannot land
 * after the one that read it after, leaving the badge on the older count.
 */
export const renderAccounts = oneAtATime(async (accounts?: readonly Account[]): Promise<void> => {
  const list = accounts ?? (await accountsItem.getValue()) ?? [];
  const { badgePriority } = await workerSettings();
  const now = Date.now();
  const rows = await Promise.all(
    list.map(
      async (account): Promise<BadgeRow> => ({
        label: accountLabel(account),
        status: await accountStatusItem(account.id).getValue(),
        live: await accountLiveModeItem(account.id).getValue(),
        priority: badgePriority ? await priorityCount(account.id, now) : undefined,
      }),
    ),
  );
  const summary = summaryStatus(rows.map((row) => row.status));
  const live = summaryLiveMode(rows.map((row) => row.live));
  await Promise.all([statusItem.setValue(summary), liveModeItem.setValue(live), drawBadge(rows)]);
});

export interface StatusWriter {
  get(): Promise<ConnectionStatus>;
  /** Records the account's connection status and shows it on the badge: the one way it changes. */
  set(status: ConnectionStatus): Promise<ConnectionStatus>;
  /** Records whether the account's count is live, and says so in the tooltip. */
  setLiveMode(mode: LiveMode): Promise<void>;
  getLiveMode(): Promise<LiveMode>;
  /** Shows a new unread count at once, as after a triage action, keeping the status otherwise; the same count writes nothing. */
  showCount(count: number): Promise<ConnectionStatus>;
  /** Shows a count the live channel brought, as `set` does, and counts it (see `liveCounts`). */
  showLiveCount(status: ConnectionStatus): Promise<ConnectionStatus>;
  /**
   * How many times this worker has written the account's status. A check that finds the number
   * moved while its request was out knows a newer count came meanwhile (a live frame, a triage
   * answer), and keeps it rather than its own.
   */
  writes(): number;
  /**
   * How many counts the live channel has shown for the account in this worker. The service
   * sends its count after every change: an action that finds the number moved while its request
   * was out knows the count on show may already hold the change.
   */
  liveCounts(): number;
  /** Forgets the account's status, as when it is removed. */
  clear(): Promise<void>;
}

const writesByAccount = new Map<string, number>();
const liveCountsByAccount = new Map<string, number>();

export function statusWriter(accountId: string): StatusWriter {
  const status = accountStatusItem(accountId);
  const liveMode = accountLiveModeItem(accountId);
  const writer: StatusWriter = {
    get: () => status.getValue(),
    async set(next) {
      writesByAccount.set(accountId, writer.writes() + 1);
      // The memory holds the status once the write starts: the badge shows it while it is stored.
      await Promise.all([status.setValue(next), renderAccounts()]);
      return next;
    },
    async setLiveMode(mode) {
      if ((await liveMode.getValue()) === mode) return;
      await liveMode.setValue(mode);
      await renderAccounts();
    },
    getLiveMode: () => liveMode.getValue(),
    writes: () => writesByAccount.get(accountId) ?? 0,
    liveCounts: () => liveCountsByAccount.get(accountId) ?? 0,
    async showCount(count) {
      const current = await status.getValue();
      const next = Math.max(0, count);
      if (current.kind !== 'ok' || current.count === next) return current;
      return writer.set({ ...current, count: next });
    },
    showLiveCount(next) {
      liveCountsByAccount.set(accountId, writer.liveCounts() + 1);
      return writer.set(next);
    },
    async clear() {
      await Promise.all([status.removeValue(), liveMode.removeValue()]);
      await renderAccounts();
    },
  };
  return writer;
}
