import type { Locator, Page } from 'playwright-core';

/** A profile page of the reference site with the extension's in-page controls. */
export class ProfilePage {
  constructor(readonly page: Page) {}

  /** The extension's controls, inside their shadow root (Playwright's locators pierce it). */
  get controls(): Locator {
    return this.page.getByRole('group', { name: 'Inbox Companion' });
  }

  get hosts(): Locator {
    return this.page.locator('inbox-companion-profile');
  }

  button(name: string): Locator {
    return this.controls.getByRole('button', { name, exact: true });
  }

  get dialog(): Locator {
    return this.page.getByRole('dialog');
  }

  async waitForControls(): Promise<void> {
    await this.controls.waitFor({ state: 'visible', timeout: 10_000 });
  }

  /** Follows an in-page link to another profile, as the site's own navigation does. */
  async navigateInPage(username: string): Promise<void> {
    await this.page.locator(`a[data-spa-link][href="/@${username}"]`).first().click();
    await this.page.waitForURL(`**/@${username}`);
  }
}
