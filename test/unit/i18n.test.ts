import { describe, expect, it } from 'vitest';
import { t, tn } from '../../lib/i18n';
import german from '../../public/_locales/de/messages.json';
import english from '../../public/_locales/en/messages.json';

type Catalogue = Record<string, { message: string; placeholders?: Record<string, { content: string }> }>;
const catalogues = { en: english as Catalogue, de: german as Catalogue };

describe('locales', () => {
  it('German has every English string and no other', () => {
    expect(Object.keys(catalogues.de).sort()).toEqual(Object.keys(catalogues.en).sort());
  });

  it.each(Object.entries(catalogues))(
    '%s: every $PLACEHOLDER$ is declared and every declared one is used',
    (_, catalogue) => {
      for (const [key, entry] of Object.entries(catalogue)) {
        const used = [...entry.message.matchAll(/\$([A-Za-z0-9_]+)\$/g)].map((m) => m[1]?.toLowerCase()).sort();
        const declared = Object.keys(entry.placeholders ?? {}).sort();
        expect({ key, used }).toEqual({ key, used: declared });
      }
    },
  );

  it('fills placeholders and picks the plural form', () => {
    expect(t('badge_checkedAt', '9:41')).toBe('Checked at 9:41');
    expect(tn('badge_unread', 1)).toBe('1 unread notification');
    expect(tn('badge_unread', 2)).toBe('2 unread notifications');
  });
});
