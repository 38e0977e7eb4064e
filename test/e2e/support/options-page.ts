import type { E2ELocator, E2EPage } from './driver';
import { waitUntil } from './wait';

/** The extension's options page. */
export class OptionsPage<P extends E2EPage = E2EPage> {
  constructor(readonly page: P) {}

  field(label: string): E2ELocator {
    return this.page.getByLabel(label);
  }

  button(name: string): E2ELocator {
    return this.page.getByRole('button', { name, exact: true });
  }

  /** What the page last said about saving, testing or signing out. */
  notice(): Promise<string> {
    return this.page.locator('.notice').innerText();
  }

  async waitForNotice(text: string): Promise<void> {
    await waitUntil(`the notice “${text}”`, 10_000, async () => (await this.notice()).includes(text));
  }

  async fill(values: { apiBaseUrl?: string; token?: string; siteOrigin?: string }): Promise<void> {
    if (values.apiBaseUrl !== undefined) await this.field('API address').fill(values.apiBaseUrl);
    if (values.token !== undefined) await this.field('Access token').fill(values.token);
    if (values.siteOrigin !== undefined) await this.field('Web site address').fill(values.siteOrigin);
  }
}
