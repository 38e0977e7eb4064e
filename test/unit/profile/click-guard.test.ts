// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { guardClicks, RESTED_MS } from '../../../lib/profile/click-guard';
import { type ClickFacts, type FrameFinding, findingProblem, judgeClick } from '../../../lib/profile/click-rules';

/**
 * The computed styles of an element the page leaves as it is: opacity, filter, transform,
 * clip-path, mask-image, mix-blend-mode, visibility.
 */
const UNSTYLED = ['1', 'none', 'none', 'none', 'none', 'normal', 'visible'];

/**
 * How the content script finds a frame on an ordinary page: in place, whole, upright, opaque;
 * the frame and its layer in the top layer, where nothing of the page's styles reaches them.
 */
const plain: FrameFinding = {
  box: [200, 150, 374, 40],
  size: [374, 40],
  viewport: [1000, 800],
  styles: [UNSTYLED, UNSTYLED],
  shown: true,
  covers: [],
};
const found = (change: Partial<FrameFinding>): FrameFinding => ({ ...plain, ...change });
/** A finding where the frame's ancestor (or the frame itself, with `own`) has these computed styles. */
const styled = (
  {
    opacity = '1',
    filter = 'none',
    transform = 'none',
    clip = 'none',
    mask = 'none',
    blend = 'normal',
    visibility = 'visible',
  },
  own = false,
): Partial<FrameFinding> => {
  const style = [opacity, filter, transform, clip, mask, blend, visibility];
  return { styles: own ? [style, UNSTYLED] : [UNSTYLED, UNSTYLED, style] };
};
/** The computed transform of `rotate(degrees)`, as the browser gives it. */
const turned = (degrees: number) => {
  const angle = (degrees * Math.PI) / 180;
  return `matrix(${Math.cos(angle)}, ${Math.sin(angle)}, ${-Math.sin(angle)}, ${Math.cos(angle)}, 0, 0)`;
};
const skewed = (degrees: number) => `matrix(1, 0, ${Math.tan((degrees * Math.PI) / 180)}, 1, 0, 0)`;

describe('what the page may do to the frame and still have it legible (findingProblem)', () => {
  it.each<[string, Partial<FrameFinding>]>([
    ['an ordinary card', {}],
    ['a card with a drop shadow', styled({ filter: 'drop-shadow(rgba(0, 0, 0, 0.2) 0px 1px 2px)' })],
    ['a wrapper of opacity 0.95', styled({ opacity: '0.95' })],
    ['a wrapper of opacity 0.9', styled({ opacity: '0.9' })],
    ['a fade by filter to 95 %', styled({ filter: 'opacity(95%)' })],
    [
      'a slight blur, greyscale, sepia, a hue turn',
      styled({ filter: 'blur(1px) grayscale(1) sepia(0.4) hue-rotate(90deg)' }),
    ],
    ['a dark theme’s inversion', styled({ filter: 'invert(1) hue-rotate(180deg)' })],
    ['a slightly brighter or more contrasted card', styled({ filter: 'brightness(1.1) contrast(1.2) saturate(2)' })],
    ['a card turned by 0.01 degree', styled({ transform: turned(0.01) })],
    ['a card turned by 3 degrees', styled({ transform: turned(-3) })],
    ['a card skewed by 2 degrees', styled({ transform: skewed(2) })],
    ['translateZ(0)', styled({ transform: 'matrix3d(1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1)' })],
    ['scale(1.02)', { ...styled({ transform: 'matrix(1.02, 0, 0, 1.02, 0, 0)' }), box: [196, 150, 381, 41] }],
    ['CSS zoom 1.1', { box: [220, 165, 411, 44] }],
    ['a frame half scrolled out of the viewport', { box: [200, 780, 374, 40] }],
    // Chrome before 120 has no maskImage on a computed style.
    [
      'a browser that does not say what masks it',
      { styles: [['1', 'none', 'none', 'none', undefined, 'normal', 'visible']] },
    ],
    ['a popover of the page’s that opened after it, elsewhere on the page', { covers: [[600, 100, 300, 200]] }],
  ])('lets %s be', (_, change) => {
    expect(findingProblem(found(change))).toBeNull();
  });

  it.each<[string, Partial<FrameFinding>, string]>([
    ['whose place on the page is out of sight', { shown: false }, 'hidden'],
    ['made invisible', styled({ visibility: 'hidden' }, true), 'hidden'],
    ['clipped through its own element', styled({ clip: 'inset(45% 0px)' }, true), 'hidden'],
    ['masked', styled({ mask: 'linear-gradient(transparent, transparent)' }, true), 'hidden'],
    ['blended away', styled({ blend: 'screen' }, true), 'hidden'],
    ['under a popover or dialog the page opened after it', { covers: [[0, 0, 1000, 800]] }, 'covered'],
    ['partly under a popover the page opened after it', { covers: [[500, 170, 200, 100]] }, 'covered'],
    ['faded below 90 %', styled({ opacity: '0.89' }), 'faded'],
    ['made transparent', styled({ opacity: '0' }, true), 'faded'],
    ['faded by filter: opacity()', styled({ filter: 'opacity(0.3)' }), 'faded'],
    [
      'faded by opacity and by filter together',
      { styles: [['0.95', 'opacity(0.9)', 'none', 'none', 'none', 'normal', 'visible']] },
      'faded',
    ],
    ['blurred', styled({ filter: 'blur(3px)' }), 'filtered'],
    ['darkened to black', styled({ filter: 'brightness(0.2)' }), 'filtered'],
    ['washed to white', styled({ filter: 'brightness(4)' }), 'filtered'],
    ['washed out to grey', styled({ filter: 'contrast(0.3)' }), 'filtered'],
    ['half inverted to grey', styled({ filter: 'invert(0.5)' }), 'filtered'],
    ['drawn through an SVG filter of the page’s', styled({ filter: 'url("#hide")' }), 'filtered'],
    ['turned by 30 degrees', styled({ transform: turned(30) }), 'distorted'],
    ['turned upside down', styled({ transform: turned(180) }, true), 'distorted'],
    ['skewed by 20 degrees', styled({ transform: skewed(20) }), 'distorted'],
    ['mirrored', styled({ transform: 'matrix(-1, 0, 0, 1, 0, 0)' }), 'distorted'],
    ['flattened', styled({ transform: 'matrix(1, 0, 0, 0, 0, 0)' }), 'distorted'],
    [
      'turned on edge in 3D',
      styled({ transform: 'matrix3d(0, 0, -1, 0, 0, 1, 0, 0, 1, 0, 0, 0, 0, 0, 0, 1)' }),
      'distorted',
    ],
    [
      'turned by two ancestors that each turn it a little',
      {
        styles: [
          UNSTYLED,
          ['1', 'none', turned(8), 'none', 'none', 'normal'],
          ['1', 'none', turned(8), 'none', 'none', 'normal'],
        ],
      },
      'distorted',
    ],
    ['shrunk to half its width', { box: [200, 150, 187, 40] }, 'shrunk'],
    ['shrunk with the whole page', { box: [60, 45, 112, 12] }, 'shrunk'],
    ['pushed mostly out of the viewport', { box: [-300, 150, 374, 40] }, 'off-screen'],
    ['left as a sliver at the foot of the viewport', { box: [200, 795, 374, 40] }, 'off-screen'],
  ])('refuses a frame %s', (_, change, why) => {
    expect(findingProblem(found(change))).toBe(why);
  });
});

describe('which clicks act (judgeClick)', () => {
  const facts = (change: Partial<ClickFacts>): ClickFacts => ({
    input: 'mouse',
    now: 10_000,
    seenSince: undefined,
    pointerSince: 9_000,
    finding: plain,
    steadySince: 5_000,
    ...change,
  });

  it('acts on a key at once, whatever the page does or the content script said', () => {
    expect(judgeClick(facts({ input: 'key', finding: null, pointerSince: null }))).toEqual({ acts: true, why: 'key' });
    expect(
      judgeClick(facts({ input: 'key', finding: found(styled({ opacity: '0' }, true)), steadySince: 10_000 })),
    ).toEqual({
      acts: true,
      why: 'key',
    });
  });

  it('acts at once where the browser has seen the frame whole for a moment, and it has not changed', () => {
    expect(judgeClick(facts({ seenSince: 10_000 - RESTED_MS, pointerSince: 9_990 }))).toEqual({
      acts: true,
      why: 'seen',
    });
    expect(judgeClick(facts({ seenSince: 9_900, pointerSince: 9_990 }))).toEqual({ acts: false, why: 'quick' });
  });

  it('falls back on the pointer’s rest where the browser says the frame is not seen whole but the page does nothing that hides it', () => {
    expect(judgeClick(facts({ seenSince: null, pointerSince: 10_000 - RESTED_MS }))).toEqual({
      acts: true,
      why: 'rested',
    });
    expect(judgeClick(facts({ seenSince: null, pointerSince: 9_700 }))).toEqual({ acts: false, why: 'quick' });
  });

  it('takes the pointer’s rest where the browser cannot tell (Firefox)', () => {
    expect(judgeClick(facts({ pointerSince: 9_000 }))).toEqual({ acts: true, why: 'rested' });
    expect(judgeClick(facts({ pointerSince: null }))).toEqual({ acts: false, why: 'quick' });
  });

  it('refuses a frame the page hides or disguises, however long it was seen or rested on, and says why', () => {
    expect(judgeClick(facts({ seenSince: 0, pointerSince: 0, finding: found(styled({ opacity: '0.5' })) }))).toEqual({
      acts: false,
      why: 'faded',
    });
    expect(judgeClick(facts({ seenSince: 0, finding: found({ covers: [[0, 0, 1000, 800]] }) }))).toEqual({
      acts: false,
      why: 'covered',
    });
  });

  it('refuses a frame whose own buttons do not fit in it, as when the page squeezes it', () => {
    expect(judgeClick(facts({ seenSince: 0, cramped: true }))).toEqual({ acts: false, why: 'cramped' });
    expect(judgeClick(facts({ input: 'key', cramped: true }))).toEqual({ acts: true, why: 'key' });
  });

  it('refuses until the content script has said how the page shows the frame', () => {
    expect(judgeClick(facts({ seenSince: 0, finding: null }))).toEqual({ acts: false, why: 'unseen' });
  });

  it('refuses a frame that moved or changed less than a rest before the click, as one slid under the pointer', () => {
    expect(judgeClick(facts({ seenSince: 0, pointerSince: 0, steadySince: 9_600 }))).toEqual({
      acts: false,
      why: 'moved',
    });
    expect(judgeClick(facts({ seenSince: 0, steadySince: 10_000 - RESTED_MS }))).toEqual({ acts: true, why: 'seen' });
  });

  it('acts on a tap on a frame in place and unchanged for a rest before the finger came down', () => {
    const tap = (change: Partial<ClickFacts>) => judgeClick(facts({ input: 'touch', pointerSince: 9_950, ...change }));
    expect(tap({ steadySince: 9_950 - RESTED_MS })).toEqual({ acts: true, why: 'steady' });
    expect(tap({ steadySince: 9_600 })).toEqual({ acts: false, why: 'moved' });
    // The page moved it while the finger was down.
    expect(tap({ steadySince: 9_980 })).toEqual({ acts: false, why: 'moved' });
    expect(tap({ finding: found(styled({ filter: 'opacity(0)' })) })).toEqual({ acts: false, why: 'faded' });
  });
});

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

describe('the guard in the frame (guardClicks)', () => {
  let time = 0;
  const now = () => time;
  const wait = (ms: number) => {
    time += ms;
  };
  const click = (pointerType = 'mouse') => Object.assign(new MouseEvent('click', { detail: 1 }), { pointerType });
  const keyboardClick = () => new MouseEvent('click', { detail: 0 });
  const pointer = (type: 'pointerenter' | 'pointermove' | 'pointerdown' | 'pointerleave', target: EventTarget) =>
    target.dispatchEvent(new Event(type, { bubbles: type === 'pointermove' || type === 'pointerdown' }));

  let stop: AbortController;
  let observer: ReturnType<typeof fakeObserver>;
  /** What the content script answers when the frame asks; null: it does not answer. */
  let answer: FrameFinding | null;
  let looks: number;

  function guard() {
    const made = guardClicks({
      document,
      now,
      signal: stop.signal,
      look: () => {
        looks++;
        if (answer) made.see?.(answer);
      },
    });
    return made;
  }

  beforeEach(() => {
    time = 1_000;
    answer = plain;
    looks = 0;
    stop = new AbortController();
    document.body.innerHTML = '<div id="app"><button>Follow</button></div>';
    observer = fakeObserver(true);
  });
  afterEach(() => {
    stop.abort();
    observer.restore();
    vi.useRealTimers();
  });

  it('watches the frame’s own root element for visibility, as often as the browser allows', () => {
    guard();
    expect(observer.observers).toHaveLength(1);
    expect(observer.observers[0]?.targets).toEqual([document.documentElement]);
    expect(observer.observers[0]?.options).toMatchObject({ trackVisibility: true, delay: 100 });
  });

  it('asks the content script how the page shows the frame at each pointer click, and decides on its answer', async () => {
    const frame = guard();
    frame.see?.(plain);
    observer.see(true);
    wait(RESTED_MS);
    expect(await frame.allows(click())).toBe(true);
    expect(looks).toBe(1);
    answer = found(styled({ opacity: '0.2' }, true));
    expect(await frame.allows(click())).toBe(false);
  });

  it('takes a key press at once, without asking', async () => {
    const frame = guard();
    answer = null;
    expect(await frame.allows(keyboardClick())).toBe(true);
    expect(looks).toBe(0);
  });

  it('refuses a click when the content script does not answer within a second', async () => {
    vi.useFakeTimers();
    const frame = guard();
    frame.see?.(plain);
    observer.see(true);
    wait(RESTED_MS);
    answer = null;
    const allowed = frame.allows(click());
    await vi.advanceTimersByTimeAsync(1_000);
    expect(await allowed).toBe(false);
  });

  it('counts the frame as changed from the moment the content script finds it different', async () => {
    const frame = guard();
    frame.see?.(plain);
    observer.see(true);
    wait(RESTED_MS * 4);
    answer = found({ box: [260, 150, 374, 40] });
    expect(await frame.allows(click())).toBe(false);
    wait(RESTED_MS);
    expect(await frame.allows(click())).toBe(true);
  });

  it('where the browser cannot tell, counts the rest again each time the pointer comes back', async () => {
    observer.restore();
    observer = fakeObserver(false);
    const frame = guard();
    frame.see?.(plain);
    observer.see(true);
    pointer('pointerenter', document.documentElement);
    wait(RESTED_MS - 1);
    expect(await frame.allows(click())).toBe(false);
    wait(1);
    expect(await frame.allows(click())).toBe(true);
    pointer('pointerleave', document.documentElement);
    wait(RESTED_MS * 2);
    // The pointer is over the frame without having entered it: the first move counts.
    pointer('pointermove', document.querySelector('button') as Element);
    wait(RESTED_MS / 5);
    expect(await frame.allows(click())).toBe(false);
    wait(RESTED_MS);
    expect(await frame.allows(click())).toBe(true);
  });

  it('takes the second click on a frame placed under a pointer that has not moved, once it rested', async () => {
    observer.restore();
    observer = fakeObserver(false);
    const frame = guard();
    frame.see?.(plain);
    const button = document.querySelector('button') as Element;
    wait(RESTED_MS * 4);
    pointer('pointerdown', button);
    expect(await frame.allows(click())).toBe(false);
    wait(RESTED_MS);
    pointer('pointerdown', button);
    expect(await frame.allows(click())).toBe(true);
  });

  it('takes a tap on a frame that was unchanged for a rest before the finger came down', async () => {
    observer.restore();
    observer = fakeObserver(false);
    const frame = guard();
    frame.see?.(plain);
    const button = document.querySelector('button') as Element;
    wait(RESTED_MS / 2);
    pointer('pointerdown', button);
    expect(await frame.allows(click('touch'))).toBe(false);
    wait(RESTED_MS);
    pointer('pointerdown', button);
    wait(50);
    expect(await frame.allows(click('touch'))).toBe(true);
  });

  it('stops listening once the frame goes', async () => {
    observer.restore();
    observer = fakeObserver(false);
    const frame = guard();
    frame.see?.(plain);
    stop.abort();
    pointer('pointerenter', document.documentElement);
    wait(RESTED_MS * 2);
    expect(await frame.allows(click())).toBe(false);
  });
});
