import { renderBadge } from '../badge';
import { liveModeItem, statusItem } from '../connection-status';
import type { ConnectionStatus, LiveMode } from '../messaging';

/** Records the connection status and shows it on the badge: the one way the status changes. */
export async function setStatus(status: ConnectionStatus): Promise<ConnectionStatus> {
  await statusItem.setValue(status);
  await renderBadge(status, await liveModeItem.getValue());
  return status;
}

export async function getStatus(): Promise<ConnectionStatus> {
  return statusItem.getValue();
}

/** Records whether the badge is live, and says so in its tooltip. */
export async function setLiveMode(mode: LiveMode): Promise<void> {
  if ((await liveModeItem.getValue()) === mode) return;
  await liveModeItem.setValue(mode);
  await renderBadge(await getStatus(), mode);
}

/** Shows a new unread count at once, as after a triage action, keeping the status otherwise. */
export async function showCount(count: number): Promise<ConnectionStatus> {
  const status = await getStatus();
  if (status.kind !== 'ok') return status;
  return setStatus({ ...status, count: Math.max(0, count) });
}
