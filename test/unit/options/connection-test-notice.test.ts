import { beforeEach, describe, expect, it } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { testConnectionNotice } from '../../../lib/options/connection-test-notice';
import { problem } from '../../support/recording-fetch';
import { background, openOptionsPage, SOCIAL } from './options-background';

describe('the options page’s connection test', () => {
  beforeEach(openOptionsPage);

  it('tells the person to wait when the service turns a connection test away as too many requests', async () => {
    await fakeBrowser.permissions.request({ origins: ['https://api.example.social/*'] });
    background(problem(429, 'rate_limited', { 'retry-after': '30' }));
    const notice = await testConnectionNotice(SOCIAL.apiBaseUrl, 'tok', Promise.resolve(true));
    expect(notice.tone).toBe('error');
    expect(notice.lines[0]).toMatch(/busy/);
    expect(notice.lines[0]).not.toMatch(/not like the Inbox service/);
  });

  it('says the service has a problem of its own when it answers the test with a server error', async () => {
    await fakeBrowser.permissions.request({ origins: ['https://api.example.social/*'] });
    background(problem(503, 'service_unavailable', { 'retry-after': '5' }));
    const notice = await testConnectionNotice(SOCIAL.apiBaseUrl, 'tok', Promise.resolve(true));
    expect(notice.tone).toBe('error');
    expect(notice.lines[0]).toMatch(/has a problem of its own/);
    expect(notice.lines[0]).not.toMatch(/not like the Inbox service/);
  });
});
