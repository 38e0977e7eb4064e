// @vitest-environment happy-dom
import { within } from '@testing-library/preact';
import { beforeEach, expect, it } from 'vitest';
import { notificationFixture } from '../../support/fixtures';
import { openPopup, resetPopupWorld, row, waitForRows } from './popup-harness';

beforeEach(resetPopupWorld);

it('shows the host of a link that leads away from the site, and none for the site’s own links', async () => {
  await openPopup({
    inbox: [
      notificationFixture(1, { text: 'Ours', url: 'http://127.0.0.1:8787/@bob' }),
      notificationFixture(2, { text: 'Elsewhere', url: 'https://login.example-social.test/@bob' }),
      notificationFixture(3, { text: 'Same host, other port', url: 'http://127.0.0.1:9999/x' }),
      notificationFixture(4, { text: 'No link', url: null }),
    ],
  });
  await waitForRows(4);
  expect(within(row('Elsewhere')).getByText('Opens login.example-social.test')).toBeTruthy();
  expect(within(row('Same host, other port')).getByText('Opens 127.0.0.1:9999')).toBeTruthy();
  for (const text of ['Ours', 'No link']) expect(within(row(text)).queryByText(/^Opens /)).toBeNull();
});
