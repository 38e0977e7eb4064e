import { renderBadge } from '../badge';
import { statusItem } from '../connection-status';
import type { ConnectionStatus } from '../messaging';

/** Records the connection status and shows it on the badge: the one way the status changes. */
export async function setStatus(status: ConnectionStatus): Promise<ConnectionStatus> {
  await statusItem.setValue(status);
  await renderBadge(status);
  return status;
}

export async function getStatus(): Promise<ConnectionStatus> {
  return statusItem.getValue();
}

/** Shows a new unread count at once, as after a triage action, keeping the status otherwise. */
export async function showCount(count: number): Promise<ConnectionStatus> {
  const status = await getStatus();
  if (status.kind !== 'ok') return status;
  return setStatus({ ...status, count: Math.max(0, count) });
}
