/**
 * The guard's rules (see `click-guard.ts`): whether a person's click on the buttons acts, from
 * what the browser says it sees of the frame, what the content script finds of how the page shows
 * it, and where the pointer has been. Plain functions of those, so each rule is tested as it is.
 */
import { type FrameWatch, RESTED_MS } from './click-guard';

/** How long a click waits for the content script to say how the page shows the frame now. */
const LOOK_MS = 1_000;

/**
 * How the page shows the buttons' frame, as the content script finds it: the page may style
 * everything around the frame, but it cannot change what the content script's own calls answer.
 */
export interface FrameFinding {
  /** The frame's box on screen, in the page's CSS pixels: x, y, width, height, rounded. */
  box: number[];
  /** The frame's own width and height, before any transform or zoom. */
  size: number[];
  /** The viewport's width and height. */
  viewport: number[];
  /**
   * The computed styles that reach the frame, the frame's own first, then each ancestor's up to
   * the top layer: `opacity`, `filter`, `transform`, `clip-path`, `mask-image`, `mix-blend-mode`
   * and `visibility` each, as the browser gives them.
   */
  styles: (string | undefined)[][];
  /** Whether the frame's place on the page is in sight (nothing of the page's over it there). */
  shown: boolean;
  /** The boxes of the page's dialogs, popovers and full-screen elements opened after the frame, as `box`. */
  covers: number[][];
}

/** Why a click from a pointer did not act. */
export type Refusal =
  /** The content script has not said how the page shows the frame. */
  | 'unseen'
  | 'hidden'
  | 'covered'
  /** Nearly transparent: less than 90 % opaque. */
  | 'faded'
  /** A filter that makes it hard to read (a blur, a wash, a colour shift of its own, an SVG filter). */
  | 'filtered'
  /** Turned, skewed or mirrored beyond reading. */
  | 'distorted'
  /** Shown smaller than 60 % of its size. */
  | 'shrunk'
  /** Less than half of it in the viewport, across or down. */
  | 'off-screen'
  /** Its buttons do not fit in it: the page squeezed it to less room than they need. */
  | 'cramped'
  /** It moved or changed less than `RESTED_MS` before the click. */
  | 'moved'
  /** The pointer came onto it less than `RESTED_MS` before the click. */
  | 'quick';

export type Verdict = { acts: true; why: 'key' | 'seen' | 'rested' | 'steady' } | { acts: false; why: Refusal };

/** Each filter that keeps the buttons legible, with the amounts that do; any other (a `url()`) may hide them. */
const LEGIBLE: Record<string, (amount: number) => boolean> = {
  'drop-shadow': () => true,
  grayscale: () => true,
  sepia: () => true,
  saturate: () => true,
  'hue-rotate': () => true,
  blur: (pixels) => pixels <= 1,
  brightness: (amount) => amount >= 0.6 && amount <= 1.6,
  contrast: (amount) => amount >= 0.6,
  invert: (amount) => Math.abs(amount - 0.5) >= 0.3,
};

/** The most a frame may be turned or skewed and still be read: 10 degrees. */
const MAX_TURN = Math.PI / 18;

/** One function of a computed `filter`: its name and what it is given (a colour may hold parentheses). */
const FILTER = /([a-z-]+)\(((?:[^()]|\([^()]*\))*)\)/g;

/**
 * A computed `transform` (`matrix()` or `matrix3d()`) applied after `[a, b, c, d]`, what the
 * elements inside it do: their linear parts together, which say how the frame is turned, skewed
 * and scaled, as `[a, b, c, d]` of `matrix()`.
 */
function transformed(transform: string, [a = 1, b = 0, c = 0, d = 1]: number[]): number[] {
  const numbers = transform
    .slice(transform.indexOf('(') + 1)
    .split(',')
    .map(Number);
  // matrix3d() lists its 16 numbers column by column: the plane's part is the top left of the first two.
  const [ta = 1, tb = 0, tc = 0, td = 1] =
    numbers.length > 6 ? [numbers[0], numbers[1], numbers[4], numbers[5]] : numbers;
  return [ta * a + tc * b, tb * a + td * b, ta * c + tc * d, tb * c + td * d];
}

/** What in the page's way of showing the frame would hide or disguise it; null when nothing does. */
export function findingProblem({ box, size, viewport, styles, shown, covers }: FrameFinding): Refusal | null {
  let opacity = 1;
  let legible = true;
  let matrix = [1, 0, 0, 1];
  let masked = false;
  for (const [alpha = '1', filter = 'none', transform = 'none', clip, mask, blend] of styles) {
    opacity *= Number(alpha);
    for (const [, name = '', text = ''] of filter.matchAll(FILTER)) {
      const amount = Number.parseFloat(text) / (text.endsWith('%') ? 100 : 1);
      if (name === 'opacity') opacity *= amount;
      else legible &&= LEGIBLE[name]?.(amount) === true;
    }
    if (transform !== 'none') matrix = transformed(transform, matrix);
    // Only the page puts a clip, a mask or a blend mode on the frame's own elements.
    masked ||= (clip ?? 'none') !== 'none' || (mask ?? 'none') !== 'none' || (blend ?? 'normal') !== 'normal';
  }
  const [x = 0, y = 0, width = 0, height = 0] = box;
  // Visibility is inherited: the frame's own says whether it is drawn.
  if (!shown || masked || (styles[0]?.[6] ?? 'visible') !== 'visible') return 'hidden';
  if (
    covers.some(
      ([left = 0, top = 0, across = 0, down = 0]) =>
        left < x + width && x < left + across && top < y + height && y < top + down,
    )
  ) {
    return 'covered';
  }
  if (!(opacity >= 0.9)) return 'faded';
  if (!legible) return 'filtered';
  const [a = 1, b = 0, c = 0, d = 1] = matrix;
  const determinant = a * d - b * c;
  if (
    !(determinant > 0) ||
    Math.abs(Math.atan2(b, a)) > MAX_TURN ||
    Math.abs(Math.atan((a * c + b * d) / determinant)) > MAX_TURN
  ) {
    return 'distorted';
  }
  if (width < (size[0] ?? 0) * 0.6 || height < (size[1] ?? 0) * 0.6) return 'shrunk';
  const across = Math.min(x + width, viewport[0] ?? 0) - Math.max(x, 0);
  const down = Math.min(y + height, viewport[1] ?? 0) - Math.max(y, 0);
  return across < width / 2 || down < height / 2 ? 'off-screen' : null;
}

export interface ClickFacts {
  /** What made the click: a key, a mouse or pen, or a touch. */
  input: 'key' | 'mouse' | 'touch';
  now: number;
  /** Since when the browser has seen the frame whole: null while it does not, undefined where it cannot tell. */
  seenSince: number | null | undefined;
  /** Since when the pointer has been over the frame; for a touch, when the finger came down. */
  pointerSince: number | null;
  /** The content script's latest finding; null before the first. */
  finding: FrameFinding | null;
  /** Since when the finding has been what it is. */
  steadySince: number;
  /** Whether the frame's own buttons do not fit in it: the page gave it less room than they need. */
  cramped?: boolean;
}

/** Whether a person's click acts, and why: the guard's rules, on what the browser and the content script said. */
export function judgeClick({
  input,
  now,
  seenSince,
  pointerSince,
  finding,
  steadySince,
  cramped,
}: ClickFacts): Verdict {
  // A click the keyboard made has no pointer position to be tricked about.
  if (input === 'key') return { acts: true, why: 'key' };
  const problem = finding ? findingProblem(finding) : 'unseen';
  if (problem) return { acts: false, why: problem };
  if (cramped) return { acts: false, why: 'cramped' };
  const from = input === 'touch' ? (pointerSince ?? now) : now;
  if (from - steadySince < RESTED_MS) return { acts: false, why: 'moved' };
  if (seenSince != null && now - seenSince >= RESTED_MS) return { acts: true, why: 'seen' };
  // A finger cannot rest before it touches: the frame's stillness before the tap is the rest.
  if (input === 'touch') return { acts: true, why: 'steady' };
  return pointerSince !== null && now - pointerSince >= RESTED_MS
    ? { acts: true, why: 'rested' }
    : { acts: false, why: 'quick' };
}

/**
 * Whether a click from a pointer acts: the content script looks again, since the page may have
 * changed the frame after it last looked, and the rules judge what it says. No answer within a
 * second refuses.
 */
export function allowsClick(event: MouseEvent, watch: FrameWatch): Promise<boolean> {
  const touch = (event as PointerEvent).pointerType === 'touch';
  // The frame's own document: a page that squeezes the frame makes its buttons overflow it.
  const root = event.view?.document.documentElement;
  const cramped = !!root && (root.scrollWidth > root.clientWidth + 1 || root.scrollHeight > root.clientHeight + 1);
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), LOOK_MS);
    watch.waiting.push(() => {
      clearTimeout(timer);
      const { now, seenSince, pointerSince, pressedAt, finding, steadySince } = watch;
      resolve(
        judgeClick({
          input: touch ? 'touch' : 'mouse',
          now: now(),
          seenSince,
          pointerSince: touch ? pressedAt : pointerSince,
          finding,
          steadySince,
          cramped,
        }).acts,
      );
    });
    watch.look();
  });
}
