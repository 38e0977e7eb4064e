/**
 * A build for the local reference service (`npm start`) carries its address and the demo
 * user's token, so the extension works with no typing. Store builds carry none of these.
 */
import { DEFAULT_ADDRESSES } from '../account-addresses';
import { accounts, addAccount } from './account-store';

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

/** Applies a preset on first install, as the first account; true when it signed the person in. */
export async function applyPreset(preset: Preset): Promise<boolean> {
  if (!preset.token || (await accounts()).length > 0) return false;
  await addAccount(
    {
      ...DEFAULT_ADDRESSES,
      ...(preset.apiBaseUrl ? { apiBaseUrl: preset.apiBaseUrl } : {}),
      ...(preset.siteOrigin ? { siteOrigin: preset.siteOrigin } : {}),
    },
    preset.token,
  );
  return true;
}
