import { expect, it } from 'vitest';
import { openableUrl } from '../../lib/links';

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
