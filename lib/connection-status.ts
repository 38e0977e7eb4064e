/**
 * The connection status the background keeps, per account and in sum: what the badge shows and
 * what the popup and options page read to choose their state. Only the background writes it.
 */
import { perAccountKey } from './accounts';
import type { ConnectionStatus, LiveMode } from './messaging';
import { storedKey } from './stored';

export const SIGNED_OUT: ConnectionStatus = Object.freeze({
  kind: 'signedOut',
  count: null,
  checkedAt: null,
  nextCheckAt: null,
  detail: null,
});

/** Whether the badge is live, in sum over the accounts; the tooltip says so. */
export const LIVE_MODE = storedKey<LiveMode>('local:liveMode', 'off');

/**
 * The status of all accounts together: with one account, its status; with several, signed in
 * when any is, counting the unread notifications of all that answer.
 */
export const STATUS = storedKey<ConnectionStatus>('local:connectionStatus', SIGNED_OUT);

/** One account's status. */
export const accountStatusKey = perAccountKey<ConnectionStatus>('connectionStatus', SIGNED_OUT);
/** Whether one account's count comes over its live channel. */
export const accountLiveModeKey = perAccountKey<LiveMode>('liveMode', 'off');

/** The status of all accounts together, from each account's own. */
export function summaryStatus(statuses: readonly ConnectionStatus[]): ConnectionStatus {
  if (statuses.length <= 1) return statuses[0] ?? SIGNED_OUT;
  const answering = statuses.filter((status) => status.kind === 'ok');
  if (answering.length === 0) return statuses.find((status) => status.kind !== 'signedOut') ?? SIGNED_OUT;
  const times = (key: 'checkedAt' | 'nextCheckAt') =>
    answering.map((status) => status[key]).filter((time): time is number => time !== null);
  return {
    kind: 'ok',
    count: answering.reduce((sum, status) => sum + (status.count ?? 0), 0),
    checkedAt: times('checkedAt').length ? Math.max(...times('checkedAt')) : null,
    nextCheckAt: times('nextCheckAt').length ? Math.min(...times('nextCheckAt')) : null,
    detail: null,
  };
}

/** The live mode of all accounts together: live only when every account that answers is. */
export function summaryLiveMode(modes: readonly LiveMode[]): LiveMode {
  const on = modes.filter((mode) => mode !== 'off');
  if (on.includes('reconnecting')) return 'reconnecting';
  return on.find((mode) => mode !== 'live') ?? on[0] ?? 'off';
}
