// @vitest-environment happy-dom
import { render, screen } from '@testing-library/preact';
import { describe, expect, it } from 'vitest';
import { OutboxNotice } from '../../../components/popup/outbox-notice';
import type { OutboxDropped } from '../../../lib/messaging';

const line = (kind: OutboxDropped['kind'], username?: string): OutboxDropped => ({
  kind,
  why: 'refused',
  count: 1,
  username,
  at: 0,
  account: 'account-1',
});

describe('the lines for mutes the service refused when they were sent', () => {
  it('say what each was, in words, as for the other changes', () => {
    const dropped = [line('mute', 'bob'), line('muteThread'), line('removeMute')];
    render(<OutboxNotice outbox={{ count: 0, ids: [], dropped }} account="account-1" />);
    const text = screen.getByRole('status').textContent ?? '';
    expect(text).toContain('Muting @bob was not sent: the service did not take it.');
    expect(text).toContain('Muting a thread was not sent: the service did not take it.');
    expect(text).toContain('Removing a mute was not sent: the service did not take it.');
  });
});
