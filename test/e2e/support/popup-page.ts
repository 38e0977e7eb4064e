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
    return (await this.feedState()).count;
  }

  /**
   * Presses "Load more" until the service says there is no further page; the notifications then
   * shown.
   */
  async loadEverything(): Promise<number> {
    const more = this.button('Load more');
    for (let pages = 0; pages < 100; pages++) {
      // "Load more" is away while a page the list loaded by itself is on its way.
      const settled = await this.waitForFeed((state) => !state.busy);
      if (!settled.more) return settled.count;
      // The list also loads the next page by itself when the button scrolls into view, so the
      // button may be gone by the time it is clicked: then that load is the one to wait for, and
      // a click still waiting for the button would only hold the loop up.
      await more.click({ timeout: 1_000 }).catch(() => undefined);
      await this.waitForFeed((state) => state.count > settled.count);
    }
    return this.notificationCount();
  }

  /** The feed as `wanted` would have it, or as it is after 10 s. */
  private async waitForFeed(wanted: (state: FeedState) => boolean): Promise<FeedState> {
    const deadline = Date.now() + 10_000;
    let state = await this.feedState();
    while (!wanted(state) && Date.now() < deadline) {
      await this.page.waitForTimeout(50);
      state = await this.feedState();
    }
    return state;
  }

  /**
   * The feed in one call to the page: no locator, because in Firefox a locator by role is a look
   * through the accessibility tree, up to a second with a few hundred rows.
   */
  private feedState(): Promise<FeedState> {
    return this.page.evaluate(() => {
      const feed = document.querySelector<HTMLElement>('[role="feed"][aria-label="Notifications"]');
      return {
        count: [...(feed?.querySelectorAll<HTMLElement>('article') ?? [])].reduce(
          (sum, row) => sum + Number(row.dataset.groupSize ?? 1),
          0,
        ),
        busy: feed?.getAttribute('aria-busy') === 'true',
        more: [...document.querySelectorAll('button')].some(
          (button) => button.textContent?.trim() === 'Load more' && button.checkVisibility(),
        ),
      };
    });
  }
}

interface FeedState {
  /** The notifications the rows stand for. */
  count: number;
  busy: boolean;
  /** Whether a "Load more" button shows. */
  more: boolean;
}
