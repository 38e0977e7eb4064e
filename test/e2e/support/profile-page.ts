import { RESTED_MS } from '../../../lib/profile/click-guard';
import type { E2EFrame, E2EFrameLocator, E2ELocator, E2EPage } from './driver';
import { waitUntil } from './wait';

/** The frame that holds the extension's in-page buttons, whatever its host element is called. */
export const BUTTONS_FRAME = 'iframe[src$="/profile-frame.html"]';

/**
 * The buttons (and the report dialog's Send) act only on a click from a pointer that rested on
 * them (or on a frame the browser has seen whole) for `RESTED_MS`, on a frame unchanged as long,
 * so a click here hovers first and waits that long.
 */
function restingClicks(locator: E2ELocator): E2ELocator {
  const click = async (options?: { timeout?: number }) => {
    await locator.hover(options);
    await new Promise((resolve) => setTimeout(resolve, RESTED_MS + 100));
    await locator.click(options);
  };
  return new Proxy(locator, {
    get(target, key) {
      if (key === 'click') return click;
      const value = Reflect.get(target, key);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

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

  /** A button of the controls, clicked as a person does: the pointer rests on it first. */
  button(name: string): E2ELocator {
    return restingClicks(this.controls.getByRole('button', { name, exact: true }));
  }

  get dialog(): E2ELocator {
    return this.frame.getByRole('dialog');
  }

  /** A button of the report dialog, clicked as a person does. */
  dialogButton(name: string): E2ELocator {
    return restingClicks(this.dialog.getByRole('button', { name, exact: true }));
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
