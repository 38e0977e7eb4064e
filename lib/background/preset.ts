/**
 * A build for the local reference service (`npm start`) carries its address and the demo
 * user's token, so the extension works with no typing. Store builds carry none of these.
 */
import { updateSettings } from '../settings';
import type { Session } from './api-session';

export interface Preset {
  apiBaseUrl?: string;
  siteOrigin?: string;
  token?: string;
}

// A production build never carries a preset, whatever the environment it was built in held.
export const buildPreset: Preset =
  import.meta.env.MODE === 'production'
    ? {}
    : {
        apiBaseUrl: import.meta.env.WXT_PRESET_API_BASE_URL,
        siteOrigin: import.meta.env.WXT_PRESET_SITE_ORIGIN,
        token: import.meta.env.WXT_PRESET_TOKEN,
      };

/** Applies a preset on first install; true when it signed the person in. */
export async function applyPreset(preset: Preset, session: Session): Promise<boolean> {
  const change = {
    ...(preset.apiBaseUrl ? { apiBaseUrl: preset.apiBaseUrl } : {}),
    ...(preset.siteOrigin ? { siteOrigin: preset.siteOrigin } : {}),
  };
  if (Object.keys(change).length) await updateSettings(change);
  if (!preset.token) return false;
  await session.signIn(preset.token);
  return true;
}
