import { expect, it } from 'vitest';
import { avatarSource, foreignHost, openableUrl } from '../../lib/links';

it('opens only http and https addresses', () => {
  expect(openableUrl('https://example.social/@bob')).toBe('https://example.social/@bob');
  expect(openableUrl('http://127.0.0.1:8787/@bob')).toBe('http://127.0.0.1:8787/@bob');
  for (const url of [
    'javascript:alert(1)',
    'JavaScript:alert(1)',
    'data:text/html,x',
    'file:///etc/passwd',
    'chrome://settings',
    '/relative',
    'not a url',
    '',
    null,
  ]) {
    expect(openableUrl(url)).toBeNull();
  }
});

it('names the host of a link only when it leads away from the site', () => {
  const site = 'https://example.social';
  expect(foreignHost('https://example.social/@bob', site)).toBeNull();
  expect(foreignHost('https://evil.test/@bob', site)).toBe('evil.test');
  expect(foreignHost('http://example.social/@bob', site)).toBe('example.social');
  expect(foreignHost('https://example.social:8443/', site)).toBe('example.social:8443');
  expect(foreignHost('https://example.social.evil.test/', site)).toBe('example.social.evil.test');
});

it('loads a picture only from https, or from plain http on this computer', () => {
  for (const url of [
    'https://example.social/avatars/bob.png',
    'http://127.0.0.1:8787/avatars/bob.svg',
    'http://127.1.2.3/a.png',
    'http://localhost:8787/a.png',
    'http://[::1]:8787/a.png',
  ]) {
    expect(avatarSource(url)).toBe(url);
  }
  for (const url of [
    'javascript:alert(1)',
    'data:image/svg+xml,<svg onload="alert(1)"/>',
    'http://example.social/avatars/bob.png',
    'http://127.0.0.1.evil.test/a.png',
    'http://localhost.evil.test/a.png',
    'file:///etc/passwd',
    'ftp://example.social/a.png',
    'chrome-extension://abc/icon.png',
    '/avatars/bob.png',
    'not a url',
    '',
    null,
    undefined,
  ]) {
    expect(avatarSource(url)).toBeNull();
  }
});
