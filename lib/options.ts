/**
 * What the options page decides without a DOM: the permissions a set of settings needs, and
 * the words for each outcome of a connection test.
 */
import { originPattern } from './background/permissions';
import { t, tn } from './i18n';
import type { ConnectionTest } from './messaging';
import type { Settings } from './settings';

/** The host permissions the settings need: the API's origin and the site's. */
export function requiredOrigins(settings: Pick<Settings, 'apiBaseUrl' | 'siteOrigin'>): string[] {
  return [...new Set([originPattern(settings.apiBaseUrl), originPattern(settings.siteOrigin)])];
}

export function connectionTestText(result: ConnectionTest, apiBaseUrl: string): string {
  if (result.ok) return tn('options_test_ok', result.unreadCount);
  switch (result.problem) {
    case 'invalidAddress':
      return t('options_test_invalidAddress');
    case 'permissionDenied':
      return t('options_test_permissionDenied', result.detail);
    case 'unreachable':
      return t('options_test_unreachable', apiBaseUrl);
    case 'timeout':
      return t('options_test_timeout', apiBaseUrl);
    case 'noToken':
      return t('options_test_noToken');
    case 'unauthorized':
      return t('options_test_unauthorized');
    case 'notThisService':
      return t('options_test_notThisService', apiBaseUrl);
  }
}
