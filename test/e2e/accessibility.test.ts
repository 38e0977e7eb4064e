import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seriousViolations } from './support/audit';
import { PopupPage } from './support/popup-page';
import { hasChromium, type Product, startProduct } from './support/product';
import { ProfilePage } from './support/profile-page';

describe.runIf(hasChromium)('accessibility audit (axe-core) in Chromium', () => {
  let product: Product;

  beforeAll(async () => {
    product = await startProduct();
  });
  afterAll(() => product?.close());

  for (const scheme of ['light', 'dark'] as const) {
    it(`popup (${scheme}) has no serious or critical violation, nor with a toast or a confirmation open`, async () => {
      const popup = new PopupPage(await product.openPage('popup.html'));
      await popup.page.emulateMedia({ colorScheme: scheme });
      await popup.waitForRows();
      expect(await seriousViolations(popup.page)).toEqual([]);
      await popup.select(0);
      await popup.button('Delete selected').click();
      await popup.toast.waitFor();
      expect(await seriousViolations(popup.page)).toEqual([]);
      await popup.button('Delete all').click();
      await popup.dialog.waitFor();
      expect(await seriousViolations(popup.page)).toEqual([]);
      await popup.page.close();
    });

    it(`options page (${scheme}) has no serious or critical violation`, async () => {
      const page = await product.openPage('options.html');
      await page.emulateMedia({ colorScheme: scheme });
      await page.getByLabel('API address').waitFor();
      expect(await seriousViolations(page)).toEqual([]);
      await page.close();
    });

    it(`in-page buttons and report dialog (${scheme}) have no serious or critical violation`, async () => {
      const profile = new ProfilePage(await product.openPage(`${product.service.origin}/@alice`));
      await profile.page.emulateMedia({ colorScheme: scheme });
      await profile.waitForControls();
      expect(await seriousViolations(profile.page, 'inbox-companion-profile')).toEqual([]);
      await profile.button('Report').click();
      await profile.dialog.waitFor();
      expect(await seriousViolations(profile.page, 'inbox-companion-profile')).toEqual([]);
      await profile.page.close();
    });
  }
});
