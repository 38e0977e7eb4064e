/**
 * Which frame of a tab is the buttons' frame that the content script placed there. With the
 * site's settings the content script gets a claim, a random string it hands to its own frame in
 * a message only that frame can read (posted to the extension's origin). The frame that brings
 * the claim is the tab's buttons' frame, and only it may act: a copy of the frame that the page
 * embeds itself never learns the claim. Kept in the worker's memory, so a profile page's first
 * messages wait for no storage, and in session storage, one key per tab, since the service
 * worker may stop between the frame's start and the person's click. Both forget a tab once it is
 * closed, as Firefox's background page, which never stops, would otherwise keep every tab's.
 */
import { browser } from 'wxt/browser';
import { workerMemory } from './stored-items';

interface TabFrame {
  claim: string;
  /** The account the content script's start chose for the buttons. */
  account: string | null;
  /** The frame that brought the claim last; null until one has. */
  frameId: number | null;
}

const keyOf = (tabId: number) => `profileFrame:${tabId}`;

/**
 * What this worker wrote, as it wrote it, for as long as the worker keeps its memory (see
 * `workerMemory`); a worker started since finds it in session storage.
 */
const kept = workerMemory(() => new Map<number, TabFrame>());
/** The writes in the order they were made, so a later one always lands last. */
let writing: Promise<unknown> = Promise.resolve();

async function read(tabId: number): Promise<TabFrame | undefined> {
  const known = kept().get(tabId);
  if (known) return known;
  // Not in memory: in session storage once the writes under way have landed.
  await writing;
  const key = keyOf(tabId);
  return (await browser.storage.session.get(key))[key] as TabFrame | undefined;
}

function write(tabId: number, frame: TabFrame): void {
  kept().set(tabId, frame);
  writing = writing.then(() => browser.storage.session.set({ [keyOf(tabId)]: frame })).catch(() => undefined);
}

/** A new claim for the tab's content script; the tab's earlier frame may no longer act. */
export function newClaim(tabId: number, account: string | null): string {
  const claim = Array.from(crypto.getRandomValues(new Uint8Array(16)), (byte) =>
    byte.toString(16).padStart(2, '0'),
  ).join('');
  write(tabId, { claim, account, frameId: null });
  return claim;
}

/**
 * The frame brings the tab's claim: from now on it is the tab's buttons' frame. Gives the account
 * the buttons act as, or undefined when the claim is not the tab's.
 */
export async function claimFrame(tabId: number, frameId: number, claim: string): Promise<string | null | undefined> {
  const frame = await read(tabId);
  if (frame?.claim !== claim) return undefined;
  write(tabId, { ...frame, frameId });
  return frame.account;
}

/** Whether this frame is the one that brought the tab's claim last. */
export async function isClaimedFrame(tabId: number, frameId: number): Promise<boolean> {
  return (await read(tabId))?.frameId === frameId;
}

/** Whether the tab's page has asked for a claim since the extension started, or is being given the script. */
export async function hasClaim(tabId: number): Promise<boolean> {
  return (await read(tabId)) !== undefined;
}

/** The tab is closed: its claim goes, from memory and from session storage. */
export function forgetTab(tabId: number): void {
  kept().delete(tabId);
  writing = writing.then(() => browser.storage.session.remove(keyOf(tabId))).catch(() => undefined);
}
