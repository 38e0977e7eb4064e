import { describe, expect, it } from 'vitest';
import { type Sender, senderKind } from '../../../lib/background/sender';

const ID = 'abcdefghijklmnop';
const extension = { id: ID, baseUrl: `chrome-extension://${ID}/` };
const sites = [{ siteOrigin: 'http://127.0.0.1:8787' }];
const page = (name: string) => `chrome-extension://${ID}/${name}`;
const kind = (sender: Omit<Sender, 'id'>) => senderKind({ id: ID, ...sender }, extension, sites);

describe('which extension page sent a message', () => {
  it('trusts the popup, which has no tab', () => {
    expect(kind({ url: page('popup.html') })).toBe('extension');
  });

  it('trusts the options page as the top frame of a tab of its own, with or without the tab’s address', () => {
    expect(kind({ url: page('options.html'), tab: { id: 3, url: page('options.html') }, frameId: 0 })).toBe(
      'extension',
    );
    expect(kind({ url: page('options.html'), tab: { id: 3 }, frameId: 0 })).toBe('extension');
  });

  it('never trusts a framed extension page as the popup, when the browser leaves out its tab’s address', () => {
    for (const name of ['popup.html', 'options.html', 'profile-frame.html']) {
      expect(kind({ url: page(name), tab: { id: 7 }, frameId: 2 })).toBeNull();
    }
  });

  it('takes a framed page only as the buttons’ frame, and only in a tab of an account’s site', () => {
    const onSite = { id: 7, url: 'http://127.0.0.1:8787/@bob' };
    expect(kind({ url: page('profile-frame.html'), tab: onSite, frameId: 2 })).toBe('frame');
    expect(kind({ url: page('popup.html'), tab: onSite, frameId: 2 })).toBeNull();
    expect(kind({ url: page('options.html'), tab: { id: 7, url: page('options.html') }, frameId: 1 })).toBeNull();
    expect(
      kind({ url: page('profile-frame.html'), tab: { id: 7, url: 'https://evil.test/@bob' }, frameId: 2 }),
    ).toBeNull();
  });

  it('refuses an extension page in a tab that shows a web page', () => {
    expect(kind({ url: page('popup.html'), tab: { id: 7, url: 'http://127.0.0.1:8787/@bob' }, frameId: 0 })).toBeNull();
  });
});
