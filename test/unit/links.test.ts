import { expect, it } from 'vitest';
import { foreignHost, openableUrl } from '../../lib/links';

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
