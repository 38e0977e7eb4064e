// @vitest-environment happy-dom
import { screen } from '@testing-library/preact';
import axe from 'axe-core';
import { beforeEach, expect, it } from 'vitest';
import { makeInbox } from './popup-background';
import { openPopup, resetPopupWorld, waitForRows } from './popup-harness';

beforeEach(resetPopupWorld);

async function violations(): Promise<string[]> {
  // Colour contrast needs layout, which happy-dom does not do.
  const results = await axe.run(document.body, { rules: { 'color-contrast': { enabled: false } } });
  return results.violations.map(
    (violation) => `${violation.id}: ${violation.nodes.map((node) => node.html).join(' | ')}`,
  );
}

it('has no accessibility violations with a list and a selection', async () => {
  const { user } = await openPopup({ inbox: makeInbox(30) });
  await waitForRows(25);
  expect(await violations()).toEqual([]);

  await user.keyboard('jxjx');
  expect(await violations()).toEqual([]);
  // axe walks the whole document twice: seconds on a busy machine.
}, 30_000);

it('has no accessibility violations with an undo toast and the delete-all confirmation open', async () => {
  const { user } = await openPopup({ inbox: makeInbox(5) });
  await waitForRows(5);
  await user.keyboard('jx{Delete}');
  await screen.findByRole('button', { name: 'Undo' });
  await user.click(screen.getByRole('button', { name: 'Delete all' }));
  expect(await violations()).toEqual([]);
}, 30_000);

it('has no accessibility violations with a group, expanded and selected', async () => {
  const post = 'http://127.0.0.1:8787/posts/1';
  const { user } = await openPopup({
    inbox: makeInbox(6, (n) => (n >= 2 && n <= 4 ? { type: 'like', url: post } : {})),
  });
  await waitForRows(4);
  await user.click(screen.getByRole('button', { name: 'Show each' }));
  await user.keyboard('jjjx');
  expect(await violations()).toEqual([]);
}, 30_000);

it('has no accessibility violations when signed out', async () => {
  await openPopup({ signedIn: false });
  await screen.findByRole('heading', { name: "You're not signed in" });
  expect(await violations()).toEqual([]);
});
