import { describe, expect, it } from 'vitest';
import { isSiteUrl, siteMatchPattern, usernameFromUrl } from '../../../lib/profile-url';

const site = { siteOrigin: 'http://127.0.0.1:8787', profilePath: '/@:username' };

describe('usernameFromUrl', () => {
  it('reads the username from a profile page of the site', () => {
    expect(usernameFromUrl('http://127.0.0.1:8787/@bob', site)).toBe('bob');
    expect(usernameFromUrl(new URL('http://127.0.0.1:8787/@Bob_99'), site)).toBe('Bob_99');
    expect(usernameFromUrl('http://127.0.0.1:8787/@bob/', site)).toBe('bob');
    expect(usernameFromUrl('http://127.0.0.1:8787/@bob?tab=posts#top', site)).toBe('bob');
  });

  it('refuses pages that are not profile pages of the site', () => {
    for (const url of [
      'http://127.0.0.1:8787/',
      'http://127.0.0.1:8787/@',
      'http://127.0.0.1:8787/bob',
      'http://127.0.0.1:8787/@bob/followers',
      'http://127.0.0.1:8787/x/@bob',
      'http://127.0.0.1:8788/@bob',
      'https://127.0.0.1:8787/@bob',
      'http://evil.test/@bob',
      'not a url',
    ]) {
      expect(usernameFromUrl(url, site), url).toBeNull();
    }
  });

  it('accepts only usernames of the contract’s pattern', () => {
    expect(usernameFromUrl(`http://127.0.0.1:8787/@${'a'.repeat(30)}`, site)).toBe('a'.repeat(30));
    for (const name of ['a'.repeat(31), 'bob.smith', 'b%C3%B6b', '%2Fetc', '%E0%A4%A', 'bob%20', '..']) {
      expect(usernameFromUrl(`http://127.0.0.1:8787/@${name}`, site), name).toBeNull();
    }
    expect(usernameFromUrl('http://127.0.0.1:8787/@b%6Fb', site)).toBe('bob');
  });

  it('follows the configured pattern, whatever characters surround the username', () => {
    const other = { siteOrigin: 'https://example.social', profilePath: '/users/:username/profile' };
    expect(usernameFromUrl('https://example.social/users/ann/profile', other)).toBe('ann');
    expect(usernameFromUrl('https://example.social/users/ann', other)).toBeNull();
    const dotted = { siteOrigin: 'https://example.social', profilePath: '/u/:username.html' };
    expect(usernameFromUrl('https://example.social/u/ann.html', dotted)).toBe('ann');
    expect(usernameFromUrl('https://example.social/u/annxhtml', dotted)).toBeNull();
    const slash = { siteOrigin: 'https://example.social', profilePath: '/p/:username/' };
    expect(usernameFromUrl('https://example.social/p/ann', slash)).toBe('ann');
    expect(usernameFromUrl('https://example.social/p/ann/', slash)).toBe('ann');
  });

  it('reads nothing with a broken configuration instead of throwing', () => {
    expect(usernameFromUrl('http://127.0.0.1:8787/@bob', { ...site, siteOrigin: 'nonsense' })).toBeNull();
    expect(usernameFromUrl('http://127.0.0.1:8787/@bob', { ...site, profilePath: '/@user' })).toBeNull();
    expect(usernameFromUrl('http://127.0.0.1:8787/a/b', { ...site, profilePath: '/:username/:username' })).toBeNull();
  });
});

describe('isSiteUrl and siteMatchPattern', () => {
  it('tells the site’s pages from others', () => {
    expect(isSiteUrl('http://127.0.0.1:8787/anything', site)).toBe(true);
    expect(isSiteUrl('http://127.0.0.1:9999/', site)).toBe(false);
    expect(isSiteUrl(undefined, site)).toBe(false);
    expect(isSiteUrl('http://127.0.0.1:8787/', { siteOrigin: 'nonsense' })).toBe(false);
  });

  it('covers the host on any port', () => {
    expect(siteMatchPattern(site)).toBe('http://127.0.0.1/*');
    expect(siteMatchPattern({ siteOrigin: 'https://example.social' })).toBe('https://example.social/*');
  });
});
