import type { E2ELocator, E2EPage } from './driver';
import { waitUntil } from './wait';

/** A profile page of the reference site with the extension's in-page controls. */
export class ProfilePage<P extends E2EPage = E2EPage> {
  constructor(readonly page: P) {}

  /** The extension's controls, inside their shadow root (the locators pierce it). */
  get controls(): E2ELocator {
    return this.page.getByRole('group', { name: 'Inbox Companion' });
  }

  get hosts(): E2ELocator {
    return this.page.locator('inbox-companion-profile');
  }

  button(name: string): E2ELocator {
    return this.controls.getByRole('button', { name, exact: true });
  }

  get dialog(): E2ELocator {
    return this.page.getByRole('dialog');
  }

  async waitForControls(): Promise<void> {
    await this.controls.waitFor({ state: 'visible', timeout: 10_000 });
  }

  /** Follows an in-page link to another profile, as the site's own navigation does. */
  async navigateInPage(username: string): Promise<void> {
    await this.page.locator(`a[data-spa-link][href="/@${username}"]`).first().click();
    await waitUntil(`the address to end in /@${username}`, 10_000, async () =>
      (await this.page.url()).endsWith(`/@${username}`),
    );
  }
}
