// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { guardClicks, RESTED_MS } from '../../../lib/profile/click-guard';

/**
 * The browser's IntersectionObserver as the frame sees it: Chrome's gives `isVisible` (v2), other
 * browsers give entries without it. The test says what the browser would see.
 */
function fakeObserver(tracksVisibility: boolean) {
  const observers: {
    callback: IntersectionObserverCallback;
    options?: IntersectionObserverInit;
    targets: Element[];
  }[] = [];
  class FakeIntersectionObserver {
    private readonly own: (typeof observers)[number];
    constructor(callback: IntersectionObserverCallback, options?: IntersectionObserverInit) {
      this.own = { callback, options, targets: [] };
      observers.push(this.own);
    }
    observe(target: Element) {
      this.own.targets.push(target);
    }
    disconnect() {
      this.own.targets = [];
    }
  }
  const original = window.IntersectionObserver;
  Object.assign(window, { IntersectionObserver: FakeIntersectionObserver });
  return {
    observers,
    /** The browser sees the frame's root whole (true) or covered, faded or distorted (false). */
    see(isVisible: boolean) {
      for (const { callback, targets } of observers) {
        const entries = targets.map((target) => ({
          target,
          isIntersecting: true,
          ...(tracksVisibility ? { isVisible } : {}),
        }));
        if (entries.length > 0) callback(entries as unknown as IntersectionObserverEntry[], {} as IntersectionObserver);
      }
    },
    restore: () => Object.assign(window, { IntersectionObserver: original }),
  };
}

let time = 0;
const now = () => time;
const wait = (ms: number) => {
  time += ms;
};
const pointerClick = () => new MouseEvent('click', { detail: 1 });
const keyboardClick = () => new MouseEvent('click', { detail: 0 });
const pointer = (type: 'pointerenter' | 'pointermove' | 'pointerdown' | 'pointerleave', target: EventTarget) =>
  target.dispatchEvent(new Event(type, { bubbles: type === 'pointermove' || type === 'pointerdown' }));

let stop: AbortController;
let observer: ReturnType<typeof fakeObserver> | null = null;

beforeEach(() => {
  time = 1_000;
  stop = new AbortController();
  document.body.innerHTML = '<div id="app"><button>Follow</button></div>';
});
afterEach(() => {
  stop.abort();
  observer?.restore();
  observer = null;
});

describe('where the browser tells whether the frame is seen (Chrome)', () => {
  beforeEach(() => {
    observer = fakeObserver(true);
  });

  it('watches the frame’s own root element for visibility, as often as the browser allows', () => {
    guardClicks({ document, now, signal: stop.signal });
    expect(observer?.observers).toHaveLength(1);
    expect(observer?.observers[0]?.targets).toEqual([document.documentElement]);
    expect(observer?.observers[0]?.options).toMatchObject({ trackVisibility: true, delay: 100 });
  });

  it('takes a click on a frame that has been seen whole for a moment', () => {
    const guard = guardClicks({ document, now, signal: stop.signal });
    observer?.see(true);
    expect(guard.allows(pointerClick())).toBe(false);
    wait(RESTED_MS);
    expect(guard.allows(pointerClick())).toBe(true);
  });

  it('refuses a click while the page covers the frame, fades it or distorts it, however long the pointer rested', () => {
    const guard = guardClicks({ document, now, signal: stop.signal });
    observer?.see(true);
    wait(RESTED_MS * 4);
    pointer('pointerenter', document.documentElement);
    wait(RESTED_MS * 2);
    observer?.see(false);
    expect(guard.allows(pointerClick())).toBe(false);
    wait(RESTED_MS * 4);
    expect(guard.allows(pointerClick())).toBe(false);
  });

  it('refuses a click on a frame the page uncovered just before it', () => {
    const guard = guardClicks({ document, now, signal: stop.signal });
    observer?.see(false);
    wait(RESTED_MS * 4);
    observer?.see(true);
    wait(RESTED_MS / 5);
    expect(guard.allows(pointerClick())).toBe(false);
    wait(RESTED_MS);
    expect(guard.allows(pointerClick())).toBe(true);
  });

  it('takes a click from the keyboard on a covered frame', () => {
    const guard = guardClicks({ document, now, signal: stop.signal });
    observer?.see(false);
    expect(guard.allows(keyboardClick())).toBe(true);
  });
});

describe('where the browser cannot tell (Firefox)', () => {
  beforeEach(() => {
    observer = fakeObserver(false);
  });

  it('takes a click only once the pointer has rested on the frame', () => {
    const guard = guardClicks({ document, now, signal: stop.signal });
    observer?.see(true);
    expect(guard.allows(pointerClick())).toBe(false);
    pointer('pointerenter', document.documentElement);
    wait(RESTED_MS - 1);
    expect(guard.allows(pointerClick())).toBe(false);
    pointer('pointermove', document.querySelector('button') as Element);
    wait(1);
    expect(guard.allows(pointerClick())).toBe(true);
  });

  it('counts the rest again each time the pointer comes back, as when the page slides the frame under it', () => {
    const guard = guardClicks({ document, now, signal: stop.signal });
    pointer('pointerenter', document.documentElement);
    wait(RESTED_MS * 2);
    pointer('pointerleave', document.documentElement);
    wait(RESTED_MS * 2);
    expect(guard.allows(pointerClick())).toBe(false);
    // The pointer is over the frame without having entered it: the first move counts.
    pointer('pointermove', document.querySelector('button') as Element);
    wait(RESTED_MS / 5);
    expect(guard.allows(pointerClick())).toBe(false);
    wait(RESTED_MS);
    expect(guard.allows(pointerClick())).toBe(true);
  });

  it('takes the second click on a frame placed under a pointer that has not moved, once it rested', () => {
    const guard = guardClicks({ document, now, signal: stop.signal });
    const button = document.querySelector('button') as Element;
    wait(RESTED_MS * 4);
    pointer('pointerdown', button);
    expect(guard.allows(pointerClick())).toBe(false);
    wait(RESTED_MS / 5);
    pointer('pointerdown', button);
    expect(guard.allows(pointerClick())).toBe(false);
    wait(RESTED_MS);
    pointer('pointerdown', button);
    expect(guard.allows(pointerClick())).toBe(true);
  });

  it('takes a click from the keyboard at once', () => {
    const guard = guardClicks({ document, now, signal: stop.signal });
    expect(guard.allows(keyboardClick())).toBe(true);
  });

  it('stops listening once the frame goes', () => {
    const guard = guardClicks({ document, now, signal: stop.signal });
    stop.abort();
    pointer('pointerenter', document.documentElement);
    wait(RESTED_MS * 2);
    expect(guard.allows(pointerClick())).toBe(false);
  });
});

it('falls back on the pointer’s rest where there is no IntersectionObserver at all', () => {
  const original = window.IntersectionObserver;
  Object.assign(window, { IntersectionObserver: undefined });
  try {
    const guard = guardClicks({ document, now, signal: stop.signal });
    pointer('pointerenter', document.documentElement);
    expect(guard.allows(pointerClick())).toBe(false);
    wait(RESTED_MS);
    expect(guard.allows(pointerClick())).toBe(true);
  } finally {
    Object.assign(window, { IntersectionObserver: original });
  }
});
