import { onTestFinished } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { reviveError } from '../../lib/api';
import { createRuntimes } from '../../lib/background/account-runtime';
import type { Session } from '../../lib/background/api-session';
import { registerHandlers } from '../../lib/background/handlers';
import type { Poller } from '../../lib/background/poller';
import type { Sender } from '../../lib/background/sender';
import type { MessageReturn, MessageType } from '../../lib/messaging';
import { ACCOUNT } from './background';

export const EXTENSION_ID = fakeBrowser.runtime.id;
export const popupSender: Sender = { id: EXTENSION_ID, url: `chrome-extension://${EXTENSION_ID}/popup.html` };
export const optionsSender: Sender = {
  id: EXTENSION_ID,
  url: `chrome-extension://${EXTENSION_ID}/options.html`,
  tab: { id: 3, url: `chrome-extension://${EXTENSION_ID}/options.html` },
};
export const profileTabSender = (url = 'http://127.0.0.1:8787/@bob'): Sender => ({
  id: EXTENSION_ID,
  url,
  origin: new URL(url).origin,
  tab: { id: 7, url },
  frameId: 0,
});

/** The buttons' frame, an extension page framed into a tab that shows `url`. */
export const profileFrameSender = (url = 'http://127.0.0.1:8787/@bob'): Sender => ({
  id: EXTENSION_ID,
  url: `chrome-extension://${EXTENSION_ID}/profile-frame.html`,
  origin: `chrome-extension://${EXTENSION_ID}`,
  tab: { id: 7, url },
  frameId: 4,
});

/**
 * Delivers a message to the background's listeners exactly as the browser would, from the given
 * sender, and returns what the background answered: its value, or its error revived.
 */
export async function deliver<T extends MessageType>(
  type: T,
  data: unknown,
  sender: Sender,
): Promise<{ value?: MessageReturn<T>; error?: ReturnType<typeof reviveError>; raw: unknown }> {
  const raw = await new Promise<unknown>((resolve) => {
    const message = { id: 1, type, data, timestamp: Date.now() };
    void fakeBrowser.runtime.onMessage.trigger(message, sender as never, resolve);
  });
  const { res, err } = raw as { res?: MessageReturn<T>; err?: unknown };
  return err === undefined ? { value: res, raw } : { error: reviveError(err), raw };
}

/**
 * Makes `runtime.sendMessage` deliver from the given sender, as the browser does for a page of
 * the extension, so a UI under test talks to the real background handlers.
 */
export function sendMessagesAs(sender: Sender) {
  const runtime = fakeBrowser.runtime as unknown as {
    sendMessage: (message: unknown, callback?: (response: unknown) => void) => unknown;
  };
  runtime.sendMessage = (message, callback) => {
    const answered = new Promise<unknown>((resolve) => {
      void fakeBrowser.runtime.onMessage.trigger(message, sender as never, resolve);
    });
    if (typeof callback === 'function') {
      void answered.then(callback);
      return undefined;
    }
    return answered;
  };
}

/**
 * Keeps each answer given to it until it settles, and makes the test that called this end only
 * once every one has: an answer to a message a page sent as its test ended (a triage, opening
 * the settings) would otherwise land in the next test, which may be another file's in the worker.
 */
export function answersKeptForTheTest(): <T>(answer: Promise<T>) => Promise<T> {
  const answering = new Set<Promise<unknown>>();
  onTestFinished(() => Promise.allSettled(answering).then(() => undefined));
  return (answer) => {
    answering.add(answer);
    const done = () => answering.delete(answer);
    answer.then(done, done);
    return answer;
  };
}

/**
 * The background's message handlers over a given fetch, as the service worker wires them, so a
 * test can deliver messages to them. Retries are off unless asked for; the browser is online
 * unless `isOnline` says otherwise. `poller`, `session` and `notifier` are those of the account
 * `signedIn` adds (started on first use); `runtimes` reaches every account.
 */
export function answerMessages(
  fetch?: typeof globalThis.fetch,
  options: { retries?: number; isOnline?: () => boolean } = {},
) {
  // The background stops when the test that started it ends, in whichever file: what it left
  // under way (a change the outbox would keep, a timer, the items it keeps in memory) never
  // reaches the next test, which may be another file's in the same worker.
  const stop = new AbortController();
  onTestFinished(() => stop.abort());
  const runtimes = createRuntimes({
    fetch,
    retries: options.retries ?? 0,
    isOnline: options.isOnline ?? (() => true),
    signal: stop.signal,
  });
  const extension = { id: EXTENSION_ID, baseUrl: fakeBrowser.runtime.getURL('/') };
  registerHandlers({ runtimes, extension, fetch }, stop.signal);
  const runtime = async (id = ACCOUNT) => {
    await runtimes.sync();
    const found = runtimes.get(id);
    if (!found) throw new Error(`No account ${id} is running.`);
    return found;
  };
  const poller: Pick<Poller, 'poll' | 'reset'> = {
    poll: async () => (await runtime()).poller.poll(),
    reset: async () => (await runtime()).poller.reset(),
  };
  const session: Pick<Session, 'signIn' | 'signOut' | 'token'> = {
    signIn: async (token) => (await runtime()).session.signIn(token),
    signOut: async () => (await runtime()).session.signOut(),
    token: async () => (await runtime()).session.token(),
  };
  return { runtimes, runtime, poller, session };
}
