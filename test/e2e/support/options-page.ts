import type { Locator, Page } from 'playwright-core';

/** The extension's options page. */
export class OptionsPage {
  constructor(readonly page: Page) {}

  field(label: string | RegExp): Locator {
    return this.page.getByLabel(label);
  }

  button(name: string): Locator {
    return this.page.getByRole('button', { name, exact: true });
  }

  /** What the page last said about saving, testing or signing out. */
  notice(): Promise<string> {
    return this.page.locator('.notice').innerText();
  }

  async fill(values: { apiBaseUrl?: string; token?: string; siteOrigin?: string }): Promise<void> {
    if (values.apiBaseUrl !== undefined) await this.field('API address').fill(values.apiBaseUrl);
    if (values.token !== undefined) await this.field('Access token').fill(values.token);
    if (values.siteOrigin !== undefined) await this.field('Web site address').fill(values.siteOrigin);
  }
}
