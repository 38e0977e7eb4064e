import { describe, expect, it } from 'vitest';
import { createClient } from '../../../lib/api';
import { notificationFixture } from '../../support/fixtures';
import { json, recordingFetch } from '../../support/recording-fetch';

/** Whatever a service says a face is, the page it comes on still arrives: the extension decides what it loads. */
describe('actor and profile pictures from the client library', () => {
  const baseUrl = 'http://api.test/api';
  const odd = [
    'https://pictures.example/ada.png',
    'http://127.0.0.1:8787/avatars/ada.svg?v=x',
    'javascript:alert(1)',
    'data:image/svg+xml,<svg onload=alert(1)>',
    '',
    'not a url at all',
    `https://pictures.example/${'x'.repeat(10_000)}`,
  ];

  it('takes any string, null or nothing as an actor’s avatarUrl, and keeps it as sent', async () => {
    const actors = [...odd, null, undefined].map((avatarUrl, n) => ({
      username: `user${n}`,
      displayName: `User ${n}`,
      ...(avatarUrl === undefined ? {} : { avatarUrl }),
    }));
    const data = actors.map((actor, n) => notificationFixture(n, { actor }));
    const wire = recordingFetch(json({ data, cursor: null }));
    const page = await createClient({ baseUrl, token: 't', fetch: wire.fetch, retries: 0 }).inbox.fetch();
    expect(page.data.map((item) => item.actor?.avatarUrl)).toEqual([...odd, null, undefined]);
  });

  it('takes any string or null as a profile’s avatarUrl', async () => {
    for (const avatarUrl of [...odd, null]) {
      const profile = {
        username: 'ada',
        displayName: 'Ada',
        bio: '',
        avatarUrl,
        followersCount: 0,
        followingCount: 0,
        createdAt: '2026-01-01T00:00:00.000Z',
      };
      const wire = recordingFetch(json(profile));
      const client = createClient({ baseUrl, token: 't', fetch: wire.fetch, retries: 0 });
      expect((await client.user('ada')).avatarUrl).toBe(avatarUrl);
    }
  });
});
