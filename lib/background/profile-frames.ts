/**
 * Which frame of a tab is the buttons' frame that the content script placed there. With the
 * site's settings the content script gets a claim, a random string it hands to its own frame in
 * a message only that frame can read (posted to the extension's origin). The frame that brings
 * the claim is the tab's buttons' frame, and only it may act: a copy of the frame that the page
 * embeds itself never learns the claim. Kept in session storage, since the service worker may
 * stop between the frame's start and the person's click.
 */
import { storage } from 'wxt/utils/storage';

interface TabFrame {
  claim: string;
  /** The frame that brought the claim last; null until one has. */
  frameId: number | null;
  at: number;
}

const framesItem = storage.defineItem<Record<string, TabFrame>>('session:profileFrames', {
  fallback: {},
  version: 1,
});

/** A tab's claim is forgotten after a day without a new one. */
const KEEP_MS = 24 * 60 * 60 * 1000;

let queue: Promise<unknown> = Promise.resolve();
/** One change at a time, so that two tabs starting at once do not lose each other's claim. */
function change<T>(update: (frames: Record<string, TabFrame>) => T): Promise<T> {
  const next = queue.then(async () => {
    const frames = { ...(await framesItem.getValue()) };
    const result = update(frames);
    await framesItem.setValue(frames);
    return result;
  });
  queue = next.catch(() => undefined);
  return next;
}

const randomClaim = () =>
  Array.from(crypto.getRandomValues(new Uint8Array(16)), (byte) => byte.toString(16).padStart(2, '0')).join('');

/** A new claim for the tab's content script; the tab's earlier frame may no longer act. */
export function newClaim(tabId: number, now = Date.now()): Promise<string> {
  return change((frames) => {
    for (const [tab, frame] of Object.entries(frames)) if (now - frame.at > KEEP_MS) delete frames[tab];
    const claim = randomClaim();
    frames[tabId] = { claim, frameId: null, at: now };
    return claim;
  });
}

/** The frame brings the tab's claim: from now on it is the tab's buttons' frame. */
export function claimFrame(tabId: number, frameId: number, claim: string): Promise<boolean> {
  return change((frames) => {
    const frame = frames[tabId];
    if (!frame || frame.claim !== claim) return false;
    frames[tabId] = { ...frame, frameId };
    return true;
  });
}

/** Whether this frame is the one that brought the tab's claim last. */
export async function isClaimedFrame(tabId: number, frameId: number): Promise<boolean> {
  await queue;
  return (await framesItem.getValue())[tabId]?.frameId === frameId;
}
