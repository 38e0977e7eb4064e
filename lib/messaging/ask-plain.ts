/**
 * How the in-page buttons (the content script and the buttons' frame) ask the background. They
 * show on every profile page the person opens, so they go without @webext-core/messaging's
 * sender and its error serializer, which were in each of the two scripts: 1,837 B gzip saved
 * between them (the content script 4,877 → 3,968 B, the frame the rest). This sends the very
 * message its `sendMessage` sends and reads the answer the same way, so the background's
 * `messaging.onMessage` handlers answer it unchanged (`test/unit/messaging/ask-plain.test.ts`
 * holds the two to one shape). A failure arrives as it crossed: an Error with the typed error's fields but not
 * its class, which `lib/failure.ts` classifies as well.
 */
import { browser } from 'wxt/browser';
import { crossedError } from '../api/errors';
import type { MessageData, MessageReturn, MessageType } from '.';

/** What the library's handlers answer: the value, or the error as its fields. */
interface Answer {
  res?: unknown;
  err?: unknown;
}

let nextId = Math.floor(Math.random() * 10_000);

export async function askPlain<T extends MessageType>(
  type: T,
  ...data: MessageData<T> extends undefined ? [] : [MessageData<T>]
): Promise<MessageReturn<T>> {
  const message = { id: nextId++, type, data: data[0], timestamp: Date.now() };
  const answer = (await browser.runtime.sendMessage(message)) as Answer | undefined;
  if (!answer) throw new Error('No response');
  if (answer.err != null) throw crossedError(answer.err);
  return answer.res as MessageReturn<T>;
}
