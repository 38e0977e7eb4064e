// @vitest-environment happy-dom
import { beforeEach, describe, expect, it } from 'vitest';
import { attachBeside, findAnchor } from '../../../lib/profile/attach';

let host: HTMLElement;

/** The page changes a call makes, as the page's own MutationObserver would see them. */
function changesMadeBy(action: () => void): number {
  const observer = new MutationObserver(() => {});
  observer.observe(document, { childList: true, subtree: true });
  action();
  const records = observer.takeRecords();
  observer.disconnect();
  return records.length;
}

beforeEach(() => {
  document.body.innerHTML = '<header><h1>Bob</h1><div data-profile-actions></div><p>bio</p></header>';
  host = document.createElement('span');
});

describe('attachBeside', () => {
  it('puts the host right after the anchor', () => {
    expect(attachBeside(host, document, '[data-profile-actions]')).toBe(true);
    expect(document.querySelector('[data-profile-actions]')?.nextSibling).toBe(host);
    expect(host.hasAttribute('data-floating')).toBe(false);
  });

  it('changes nothing when the host already is in place, so watching the page settles', () => {
    attachBeside(host, document, '[data-profile-actions]');
    expect(changesMadeBy(() => expect(attachBeside(host, document, '[data-profile-actions]')).toBe(false))).toBe(0);
    document.querySelector('[data-profile-actions]')?.remove();
    attachBeside(host, document, '[data-profile-actions]');
    expect(changesMadeBy(() => expect(attachBeside(host, document, '[data-profile-actions]')).toBe(false))).toBe(0);
  });

  it('moves the one host rather than adding another', () => {
    attachBeside(host, document, '[data-profile-actions]');
    document.querySelector('header')?.insertAdjacentHTML('afterend', '<div data-profile-actions></div>');
    document.querySelector('[data-profile-actions]')?.remove();
    attachBeside(host, document, '[data-profile-actions]');
    expect(document.querySelectorAll('span')).toHaveLength(1);
    expect(document.querySelector('[data-profile-actions]')?.nextSibling).toBe(host);
  });

  it('floats at the end of the body without an anchor, and marks itself so', () => {
    expect(attachBeside(host, document, '.missing')).toBe(true);
    expect(document.body.lastChild).toBe(host);
    expect(host.hasAttribute('data-floating')).toBe(true);
  });
});

describe('findAnchor', () => {
  it('finds the configured element and nothing for a selector that is not CSS', () => {
    expect(findAnchor(document, 'h1')?.textContent).toBe('Bob');
    expect(findAnchor(document, '[[nonsense')).toBeNull();
    expect(findAnchor(document, 'html')).toBeNull();
  });
});
