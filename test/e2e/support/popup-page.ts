import type { E2ELocator, E2EPage } from './driver';

/** The toolbar popup, opened as a page of the extension. */
export class PopupPage<P extends E2EPage = E2EPage> {
  constructor(readonly page: P) {}

  get feed(): E2ELocator {
    return this.page.getByRole('feed', { name: 'Notifications' });
  }

  get rows(): E2ELocator {
    return this.feed.getByRole('article');
  }

  button(name: string): E2ELocator {
    return this.page.getByRole('button', { name, exact: true });
  }

  get unreadOnly(): E2ELocator {
    return this.page.getByRole('switch', { name: 'Unread only' });
  }

  get dialog(): E2ELocator {
    return this.page.getByRole('alertdialog');
  }

  heading(name: string): E2ELocator {
    return this.page.getByRole('heading', { name });
  }

  async waitForRows(): Promise<void> {
    await this.rows.first().waitFor({ timeout: 10_000 });
  }

  /** Selects the row at `index` with its checkbox. */
  async select(index: number): Promise<string> {
    const row = this.rows.nth(index);
    const text = (await row.getAttribute('aria-label')) ?? (await row.innerText());
    await row.getByRole('checkbox').check();
    return text;
  }

  /** Presses "Load more" until the service says there is no further page; the rows then shown. */
  async loadEverything(): Promise<number> {
    const more = this.button('Load more');
    for (let pages = 0; pages < 100 && (await more.isVisible()); pages++) {
      const before = await this.rows.count();
      await more.click();
      const deadline = Date.now() + 10_000;
      while ((await this.rows.count()) <= before && Date.now() < deadline) await this.page.waitForTimeout(50);
    }
    return this.rows.count();
  }
}
