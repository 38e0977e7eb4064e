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

  /** The toast that says what the last action did and offers Undo. */
  get toast(): E2ELocator {
    return this.page.locator('.toast');
  }

  /** The texts of the rows on show, in order. */
  async rowTexts(): Promise<string[]> {
    return this.rows.locator('.text').allTextContents();
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

  /** How many notifications the rows stand for: a grouped row stands for each of its members. */
  async notificationCount(): Promise<number> {
    return this.feed.evaluate((feed) =>
      [...feed.querySelectorAll<HTMLElement>('article')].reduce(
        (sum, row) => sum + Number(row.dataset.groupSize ?? 1),
        0,
      ),
    );
  }

  /**
   * Presses "Load more" until the service says there is no further page; the notifications then
   * shown.
   */
  async loadEverything(): Promise<number> {
    const more = this.button('Load more');
    for (let pages = 0; pages < 100 && (await this.moreToLoad()); pages++) {
      const before = await this.notificationCount();
      // The list also loads the next page by itself when the button scrolls into view, so the
      // button may be gone by the time it is clicked: then that load is the one to wait for.
      await more.click({ timeout: 5_000 }).catch(async (error: unknown) => {
        if (await more.isVisible()) throw error;
      });
      const deadline = Date.now() + 10_000;
      while ((await this.notificationCount()) <= before && Date.now() < deadline) await this.page.waitForTimeout(50);
    }
    return this.notificationCount();
  }

  /**
   * Whether "Load more" is there once the feed is no longer busy: the button is away while a
   * page the list loaded by itself is on its way.
   */
  private async moreToLoad(): Promise<boolean> {
    const deadline = Date.now() + 10_000;
    while ((await this.feed.getAttribute('aria-busy')) === 'true' && Date.now() < deadline) {
      await this.page.waitForTimeout(50);
    }
    return this.button('Load more').isVisible();
  }
}
