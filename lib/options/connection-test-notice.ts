/** The options page's connection test: asking the background, and the words for what it found. */
import { t, tn } from '../i18n';
import { ask, type ConnectionProblem, type ConnectionTest } from '../messaging';
import { actionFailureText, type Notice } from './notice';

export function connectionTestText(result: ConnectionTest, apiBaseUrl: string): string {
  if (result.ok) return tn('options_test_ok', result.unreadCount);
  return connectionProblemText(result.problem, result.detail, apiBaseUrl);
}

/** The words for each problem are `options_test_<problem>`; all but one name the address tested. */
export function connectionProblemText(problem: ConnectionProblem, detail: string, apiBaseUrl: string): string {
  return t(`options_test_${problem}`, problem === 'permissionDenied' ? detail : apiBaseUrl);
}

/** Tests an address and token without saving them, once the person answered the permission prompt. */
export async function testConnectionNotice(apiBaseUrl: string, token: string, granting: Promise<boolean>) {
  await granting.catch(() => false);
  try {
    const result = await ask('connection.test', { apiBaseUrl, token: token.trim() || null });
    return { tone: result.ok ? 'info' : 'error', lines: [connectionTestText(result, apiBaseUrl)] } satisfies Notice;
  } catch (error) {
    return { tone: 'error', lines: [actionFailureText(error)] } satisfies Notice;
  }
}
