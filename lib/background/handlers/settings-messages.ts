/** The options page's own questions: whether an address and token work, and opening the page. */
import { browser } from 'wxt/browser';
import { testConnection } from '../connection-test';
import type { Handlers } from '../message-gate';
import type { HandlerContext } from './context';

export function settingsHandlers(ctx: HandlerContext): Pick<Handlers, 'connection.test' | 'options.open'> {
  return {
    'connection.test': ({ apiBaseUrl, token }) => testConnection({ apiBaseUrl, token, fetch: ctx.fetch }),
    async 'options.open'() {
      await browser.runtime.openOptionsPage();
    },
  };
}
