import { Window } from 'happy-dom';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '../../lib/api';
import { BACKENDS, startTestService, type TestService, uniqueUsername } from '../support/service';

describe.each(BACKENDS)('avatars on %s', (backend) => {
  let service: TestService;

  beforeAll(async () => {
    service = await startTestService({ backend });
  });
  afterAll(() => service?.close());

  it('gives every actor and profile a picture the service serves: the same address in both', async () => {
    const ada = await service.newUser('ada', { displayName: 'Ada Lovelace' });
    const reader = await service.newUser('reader');
    await service.deliver({
      username: reader.username,
      type: 'mention',
      text: 'Ada mentioned you',
      actor: ada.username,
    });
    const [notification] = (await reader.client.inbox.fetch()).data;
    const fromInbox = notification?.actor?.avatarUrl;
    expect(fromInbox).toMatch(new RegExp(`^${service.origin}/avatars/${ada.username}\\.svg\\?v=[\\w-]+$`));
    expect((await reader.client.user(ada.username)).avatarUrl).toBe(fromInbox);
    expect((await ada.client.me()).avatarUrl).toBe(fromInbox);

    const response = await fetch(fromInbox as string);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('image/svg+xml');
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('cache-control')).toMatch(/max-age=31536000.*immutable/);
    const csp = response.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("default-src 'none'");
    expect(csp).not.toMatch(/script-src/);
    const { document } = new Window();
    document.body.innerHTML = await response.text();
    expect(document.querySelector('svg text')?.textContent).toBe('AL');
    expect(document.querySelector('svg rect')?.getAttribute('fill')).toMatch(/^hsl\(/);
  });

  it('answers a repeat with 304 for its strong ETag, and a new display name gets a new address', async () => {
    const user = await service.newUser('etag', { displayName: 'Grace Hopper' });
    const url = (await user.client.me()).avatarUrl as string;
    const first = await fetch(url);
    const etag = first.headers.get('etag') ?? '';
    expect(etag).toMatch(/^"[^"]+"$/);
    const again = await fetch(url, { headers: { 'if-none-match': `"other", ${etag}` } });
    expect(again.status).toBe(304);
    expect(again.headers.get('etag')).toBe(etag);
    expect(await again.text()).toBe('');
    expect((await fetch(url, { headers: { 'if-none-match': `W/${etag}` } })).status).toBe(200);

    const renamed = uniqueUsername('renamed');
    await service.server.admin.createUser({ username: renamed, displayName: 'Grace Brewster Hopper' });
    const other = await service.newUser('viewer');
    const theirs = (await other.client.user(renamed)).avatarUrl as string;
    expect(new URL(theirs).searchParams.get('v')).not.toBe(new URL(url).searchParams.get('v'));
    // An address without the current digest is only good for now: the picture may change under it.
    const stale = await fetch(`${service.origin}/avatars/${user.username}.svg?v=old`);
    expect(stale.status).toBe(200);
    expect(stale.headers.get('cache-control')).toContain('no-cache');
  });

  it('draws only the letters of whatever a display name holds, and gives a person’s own picture as it is', async () => {
    const sly = await service.newUser('sly', { displayName: '<script>alert(1)</script> &amp' });
    const svg = await (await fetch((await sly.client.me()).avatarUrl as string)).text();
    expect(svg).not.toContain('<script');
    const { document } = new Window();
    document.body.innerHTML = svg;
    expect([...document.body.querySelectorAll('*')].map((element) => element.localName)).toEqual([
      'svg',
      'rect',
      'text',
    ]);
    expect(document.querySelector('text')?.textContent).toBe('SA');

    const own = uniqueUsername('own');
    await service.server.admin.createUser({ username: own, avatarUrl: 'https://pictures.example/own.png' });
    expect((await service.client().user(own)).avatarUrl).toBe('https://pictures.example/own.png');
  });

  it('answers 404 for no such user or a name that is not one', async () => {
    for (const path of ['/avatars/nobody_here.svg', '/avatars/bad-name.svg', '/avatars/x.png', '/avatars/.svg']) {
      expect((await fetch(`${service.origin}${path}`)).status, path).toBe(404);
    }
  });

  it('builds the address on the public origin behind a proxy', async () => {
    const behind = await startTestService({ backend, publicOrigin: 'https://inbox.example' });
    try {
      const user = await behind.newUser('proxied');
      const baseUrl = `http://127.0.0.1:${behind.server.port}/api`;
      const client = createClient({ baseUrl, token: user.token, retries: 0 });
      expect((await client.me()).avatarUrl).toMatch(/^https:\/\/inbox\.example\/avatars\/proxied_\w+\.svg\?v=/);
    } finally {
      await behind.close();
    }
  });
});
