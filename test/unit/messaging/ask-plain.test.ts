import { beforeEach, describe, expect, it } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { NotFoundError, RateLimitedError } from '../../../lib/api/errors';
import { failureCode, failureKind } from '../../../lib/failure';
import { messaging } from '../../../lib/messaging';
import { askPlain } from '../../../lib/messaging/ask-plain';
import { profileTabSender, sendMessagesAs } from '../../support/messages';

/** Every message the background's listeners were given, as they were given it. */
let delivered: unknown[];

describe('askPlain, the in-page buttons’ way to ask the background', () => {
  beforeEach(() => {
    fakeBrowser.reset();
    messaging.removeAllListeners();
    sendMessagesAs(profileTabSender());
    delivered = [];
    fakeBrowser.runtime.onMessage.addListener((message) => {
      delivered.push(message);
    });
  });

  it('sends the message the messaging library sends, and its handlers’ answer comes back', async () => {
    messaging.onMessage('profile.start', ({ data }) => ({ url: data.url }) as never);
    const plain = await askPlain('profile.start', { url: 'http://127.0.0.1:8787/@bob' });
    const library = await messaging.sendMessage('profile.start', { url: 'http://127.0.0.1:8787/@bob' });
    expect(plain).toEqual({ url: 'http://127.0.0.1:8787/@bob' });
    expect(plain).toEqual(library);
    const [fromPlain, fromLibrary] = delivered as Record<string, unknown>[];
    expect(Object.keys(fromPlain ?? {}).sort()).toEqual(Object.keys(fromLibrary ?? {}).sort());
    expect(fromPlain).toMatchObject({ type: 'profile.start', data: { url: 'http://127.0.0.1:8787/@bob' } });
    expect(typeof fromPlain?.id).toBe('number');
    expect(typeof fromPlain?.timestamp).toBe('number');
  });

  it('gives a handler’s typed error as an Error with its fields, which the failure tables classify', async () => {
    messaging.onMessage('profile.get', () => {
      throw new NotFoundError({ status: 404, code: 'user_not_found', detail: 'No user @nobody.' });
    });
    messaging.onMessage('profile.report', () => {
      throw new RateLimitedError({ status: 429, code: 'rate_limited', detail: 'Slow down.', retryAfter: 60 });
    });
    const missing = await askPlain('profile.get', { account: 'a', username: 'nobody' }).catch(
      (error: unknown) => error,
    );
    expect(missing).toBeInstanceOf(Error);
    expect(missing).toMatchObject({
      name: 'NotFoundError',
      status: 404,
      code: 'user_not_found',
      message: 'No user @nobody.',
    });
    expect(failureCode(missing)).toBe('user_not_found');
    const limited = await askPlain('profile.report', {
      account: 'a',
      username: 'bob',
      reason: 'spam',
      comment: '',
    }).catch((error: unknown) => error);
    expect(limited).toMatchObject({ status: 429, retryAfter: 60 });
    expect(failureKind(limited)).toBe('rateLimited');
  });

  it('fails when the answer is empty, as Firefox gives it when no listener answers', async () => {
    const runtime = fakeBrowser.runtime as unknown as {
      sendMessage: (message: unknown, callback?: (answer: undefined) => void) => Promise<undefined>;
    };
    runtime.sendMessage = async (_message, callback) => {
      callback?.(undefined);
      return undefined;
    };
    await expect(askPlain('options.open')).rejects.toThrow('No response');
    await expect(messaging.sendMessage('options.open')).rejects.toThrow('No response');
  });
});
