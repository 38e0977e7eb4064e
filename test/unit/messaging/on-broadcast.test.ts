import { describe, expect, it } from 'vitest';
import { onBroadcast } from '../../../lib/messaging/on-broadcast';

describe('onBroadcast', () => {
  it('hears nothing for a page that closed before it asked, and leaves the broadcast free for the next page', () => {
    const closed = new AbortController();
    closed.abort();
    onBroadcast('outbox.changed', () => {}, closed.signal);
    // The messaging library takes one listener per broadcast in a context: a leaked one refuses the next.
    const open = new AbortController();
    expect(() => onBroadcast('outbox.changed', () => {}, open.signal)).not.toThrow();
    open.abort();
    expect(() => onBroadcast('outbox.changed', () => {}, new AbortController().signal)).not.toThrow();
  });
});
