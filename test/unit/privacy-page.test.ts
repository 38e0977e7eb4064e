import { readFileSync } from 'node:fs';
import { Window } from 'happy-dom';
import { describe, expect, it } from 'vitest';
import { PRIVACY_PAGE, PRIVACY_SOURCE, privacyPage } from '../../scripts/privacy-page';

describe('the privacy page the extension ships', () => {
  const page = readFileSync(PRIVACY_PAGE, 'utf8');

  it('is PRIVACY.md as it is now (npx tsx scripts/privacy-page.ts writes it again)', () => {
    expect(page).toBe(privacyPage(readFileSync(PRIVACY_SOURCE, 'utf8')));
  });

  it('says where tokens and settings are kept and whom anything is sent to, and loads nothing', () => {
    const { document } = new Window();
    document.write(page);
    const text = document.body.textContent ?? '';
    expect(text).toContain('IndexedDB');
    expect(text).toContain('storage.sync');
    expect(text).toContain('Only to the services you added');
    expect(text).toContain('no referrer');
    expect(document.querySelectorAll('script, img, link, iframe')).toHaveLength(0);
  });
});
