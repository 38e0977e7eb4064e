/** What the options page says after an action, and why an action failed. */
import { ApiError } from '../api/errors';
import { failureCode } from '../failure';
import { t } from '../i18n';

/** What the page says after an action, one sentence a line. */
export interface Notice {
  tone: 'info' | 'error';
  lines: string[];
}

/**
 * Why saving, signing in or out failed. The extension's own errors already speak the person's
 * language (a setting that cannot be saved); any other failure is named by its code.
 */
export function actionFailureText(error: unknown): string {
  if (error instanceof Error && !(error instanceof ApiError)) return error.message;
  return t('options_failed', failureCode(error));
}
