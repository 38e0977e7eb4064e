/**
 * The connection status the background keeps: what the badge shows and what the popup and
 * options page read to choose their state. Only the background writes it.
 */
import { storage } from 'wxt/utils/storage';
import type { ConnectionStatus, LiveMode } from './messaging';

export const SIGNED_OUT: ConnectionStatus = Object.freeze({
  kind: 'signedOut',
  count: null,
  checkedAt: null,
  nextCheckAt: null,
  detail: null,
});

/** Whether the badge is live; the tooltip says so. */
export const liveModeItem = storage.defineItem<LiveMode>('local:liveMode', { fallback: 'off', version: 1 });

export const statusItem = storage.defineItem<ConnectionStatus>('local:connectionStatus', {
  fallback: SIGNED_OUT,
  version: 1,
});
