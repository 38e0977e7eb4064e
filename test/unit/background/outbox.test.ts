import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { messaging } from '../../../lib/messaging';
import { ACCOUNT, signedIn } from '../../support/background';
import { answerMessages } from '../../support/messages';
import { json } from '../../support/recording-fetch';

const ok = (count: number) => ({ kind: 'ok' as const, count, checkedAt: count, nextCheckAt: null, detail: null });

describe('the outbox in the worker', () => {
  beforeEach(async () => {
    fakeBrowser.reset();
    messaging.removeAllListeners();
    await signedIn('secret-token', {}, ACCOUNT, 'demo');
  });
  afterEach(() => vi.restoreAllMocks());

  it('looks for changes to send on each good status without a storage read for each', async () => {
    const { runtime } = answerMessages(async () => json({}));
    const running = await runtime();
    const reads: unknown[] = [];
    const { get } = fakeBrowser.storage.local;
    vi.spyOn(fakeBrowser.storage.local, 'get').mockImplementation((keys?: unknown) => {
      if (JSON.stringify(keys ?? null).includes(`outbox:${ACCOUNT}`)) reads.push(keys);
      return get(keys as never);
    });
    for (let count = 1; count <= 5; count++) {
      await running.status.set(ok(count));
      // Each status the service gave starts a look at what waits.
      await running.outbox.flush();
    }
    expect(await running.outbox.entries()).toEqual([]);
    expect(reads.length).toBeLessThanOrEqual(1);
  });
});
