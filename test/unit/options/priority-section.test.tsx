// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/preact';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { OptionsPage } from '../../../components/options/options-page';
import type { PriorityModel } from '../../../lib/priority/model';
import { getSettings } from '../../../lib/settings';
import { ACCOUNT, signedIn } from '../../support/background';
import { problem } from '../../support/recording-fetch';
import { background, openOptionsPage } from './options-background';

const KEY = `priority:${ACCOUNT}`;
const always = () => Array.from({ length: 20 }, () => () => problem(404, 'not_found'));

async function open() {
  render(<OptionsPage />);
  await screen.findByLabelText(/Check for new notifications every/);
}

describe('options: what priority learned', () => {
  beforeEach(openOptionsPage);
  afterEach(cleanup);

  it('lists each person with whether theirs are priority and the strongest reasons, and forgets one', async () => {
    await signedIn('tok', {}, ACCOUNT, 'demo');
    const now = Date.now();
    const model: PriorityModel = {
      people: {
        '@ana': { follow: true, open: [1.5, now] },
        '@bob': { open: [2, now], against: [0.5, now] },
      },
      threads: { 'http://127.0.0.1:8787/@demo/posts/1': [1, now] },
    };
    await fakeBrowser.storage.local.set({ [KEY]: model });
    const wire = background(...always());
    await open();

    const list = await screen.findByRole('list', { name: 'What priority learned of people' });
    const [ana, bob] = within(list)
      .getAllByRole('listitem')
      .filter((item) => item.parentElement === list);
    expect(ana?.querySelector('strong')?.textContent).toBe('@ana');
    expect(ana?.textContent).toContain('Priority: scores 4.5');
    expect([...(ana?.querySelectorAll('.reasons li') ?? [])].map((reason) => reason.textContent)).toEqual([
      'You follow @ana +3.0',
      'You often open @ana’s +1.5',
    ]);
    expect(bob?.textContent).toContain('Not priority: scores 1.5');
    expect(bob?.textContent).toContain('You muted or quickly deleted @bob’s −0.5');

    fireEvent.click(screen.getByRole('button', { name: 'Forget @ana' }));
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Forget @ana' })).toBeNull());
    await waitFor(() =>
      expect(document.querySelector('.priority-section [role="status"]')?.textContent).toBe(
        'This browser forgot what it learned of @ana.',
      ),
    );
    const left = (await fakeBrowser.storage.local.get(KEY))[KEY] as PriorityModel;
    expect(Object.keys(left.people)).toEqual(['@bob']);
    expect(Object.keys(left.threads)).toHaveLength(1);
    // Forgetting is the background's, in this browser: nothing went to the service.
    expect(wire.requests.filter((request) => request.method !== 'GET')).toEqual([]);
  });

  it('says nothing was learned yet, and saves the badge’s priority switch', async () => {
    await signedIn('tok', {}, ACCOUNT, 'demo');
    background(...always());
    await open();
    await screen.findByText(/^Nothing learned yet/);
    fireEvent.click(screen.getByRole('checkbox', { name: 'The toolbar badge counts priority notifications only' }));
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(async () => expect((await getSettings()).badgePriority).toBe(true));
  });
});
