import type { E2EFrame, E2EFrameLocator, E2ELocator, E2EPage } from './driver';
import { waitUntil } from './wait';

/** The frame that holds the extension's in-page buttons, whatever its host element is called. */
export const BUTTONS_FRAME = 'iframe[src$="/profile-frame.html"]';

/** A profile page of the reference site with the extension's in-page controls. */
export class ProfilePage<P extends E2EPage = E2EPage> {
  constructor(readonly page: P) {}

  /** The buttons' frame: the extension's own page, cross-origin to the site's page. */
  get frame(): E2EFrameLocator {
    return this.page.frameLocator(BUTTONS_FRAME);
  }

  /** The extension's controls, inside their frame (the locators reach into it). */
  get controls(): E2ELocator {
    return this.frame.getByRole('group', { name: 'Inbox Companion' });
  }

  get hosts(): E2ELocator {
    return this.page.locator('inbox-companion-profile');
  }

  button(name: string): E2ELocator {
    return this.controls.getByRole('button', { name, exact: true });
  }

  get dialog(): E2ELocator {
    return this.frame.getByRole('dialog');
  }

  /** The frame's document, for a script of the test's own (an accessibility audit). */
  async frameDocument(): Promise<E2EFrame> {
    const handle = await this.page.locator(BUTTONS_FRAME).elementHandle();
    const frame = await handle?.contentFrame();
    if (!frame) throw new Error('The page has no buttons frame.');
    return frame;
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
