// @vitest-environment happy-dom
import { screen, waitFor } from '@testing-library/preact';
import { beforeEach, describe, expect, it } from 'vitest';
import german from '../../../public/_locales/de/messages.json';
import english from '../../../public/_locales/en/messages.json';
import { installFakeI18n } from '../../support/fake-apis';
import { makeInbox, makeNotification } from './popup-background';
import { openPopup, resetPopupWorld, waitForRows } from './popup-harness';

type Catalogue = Record<string, { message: string; placeholders?: Record<string, { content: string }> }>;
const catalogues = { en: english as Catalogue, de: german as Catalogue };
const popupKeys = (catalogue: Catalogue) => Object.keys(catalogue).filter((key) => key.startsWith('popup_'));

describe('popup strings', () => {
  it('exist in German for every English one', () => {
    expect(popupKeys(catalogues.de).sort()).toEqual(popupKeys(catalogues.en).sort());
  });

  it.each(Object.entries(catalogues))('name every placeholder they use, in %s', (_, catalogue) => {
    for (const key of popupKeys(catalogue)) {
      const entry = catalogue[key];
      const used = [...(entry?.message.matchAll(/\$([A-Z_]+)\$/g) ?? [])].map((match) => match[1]?.toLowerCase());
      expect(used.sort(), key).toEqual(Object.keys(entry?.placeholders ?? {}).sort());
      expect(Object.keys(entry?.placeholders ?? {}).sort(), key).toEqual(
        Object.keys(catalogues.en[key]?.placeholders ?? {}).sort(),
      );
    }
  });

  it('come in both plural forms', () => {
    for (const key of popupKeys(catalogues.en).filter((name) => name.endsWith('_one'))) {
      expect(catalogues.en[key.replace(/_one$/, '_other')], key).toBeDefined();
    }
  });
});

describe('the popup in German', () => {
  // The shared set-up speaks English again before the next test.
  beforeEach(() => {
    resetPopupWorld();
    installFakeI18n(catalogues.de, 'de');
  });

  it('speaks German throughout, with German plurals and times', async () => {
    const fiveMinutesAgo = new Date(Date.now() - 5 * 60_000).toISOString();
    const { user } = await openPopup({
      inbox: [makeNotification(3, { read: false, type: 'mention', createdAt: fiveMinutesAgo }), ...makeInbox(2)],
    });
    await waitForRows(3);

    expect(screen.getByRole('heading', { name: 'Posteingang' })).toBeTruthy();
    expect(document.documentElement.lang).toBe('de');
    expect(screen.getByRole('switch', { name: 'Nur ungelesene' })).toBeTruthy();
    expect(screen.getAllByText('Erwähnung')).toHaveLength(2);
    expect(screen.getByText('vor 5 Min.')).toBeTruthy();

    await user.click(screen.getByRole('checkbox', { name: 'Auswählen: Notification number 3' }));
    await user.click(screen.getByRole('checkbox', { name: 'Auswählen: Notification number 2' }));
    expect(screen.getByText('2 ausgewählt')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Auswahl löschen' }));
    await waitFor(() =>
      expect(document.querySelector('.toast')?.textContent).toBe('2 Benachrichtigungen gelöscht.Rückgängig'),
    );
    await user.click(screen.getByRole('button', { name: 'Rückgängig' }));
    await waitFor(() => expect(screen.getByText('2 Benachrichtigungen wiederhergestellt.')).toBeTruthy());
  });
});
