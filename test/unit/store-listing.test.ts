import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

/** The store listings' texts, one file per language beside the zips `npm run zip` makes. */
const section = (text: string, heading: string) =>
  new RegExp(`^## ${heading}\\n([\\s\\S]*?)(?=\\n## |(?![\\s\\S]))`, 'm').exec(text)?.[1]?.trim() ?? '';

describe.each([
  ['en', 'Name', 'Short description', 'Description', 'Firefox for Android'],
  ['de', 'Name', 'Kurzbeschreibung', 'Beschreibung', 'Firefox für Android'],
])('the %s store listing', (language, name, short, long, android) => {
  const text = readFileSync(`store/${language}.md`, 'utf8');
  const catalogue = JSON.parse(readFileSync(`public/_locales/${language}/messages.json`, 'utf8'));

  it('names the extension as its manifest does, with a short description the stores take', () => {
    expect(section(text, name)).toBe(catalogue.extName.message);
    const summary = section(text, short);
    expect(summary.length).toBeGreaterThan(20);
    // Chrome Web Store: at most 132 characters.
    expect(summary.length).toBeLessThanOrEqual(132);
  });

  it('has a description that says what is kept and sent', () => {
    const description = section(text, long);
    expect(description.length).toBeGreaterThan(500);
    expect(description).toContain('PRIVACY.md');
  });

  it('names every browser `npm run zip` makes a package for, and what Firefox for Android does without', () => {
    const description = section(text, long);
    for (const browser of ['Chrome', 'Microsoft Edge', 'Firefox', android]) expect(description).toContain(browser);
    const onAndroid = description.slice(description.indexOf(android));
    // No badge (the count in the menu), no keyboard shortcut, and a token instead of the sign-in page.
    expect(onAndroid).toMatch(
      language === 'en' ? /badge[\s\S]*shortcut[\s\S]*token/ : /Symbol[\s\S]*Tastenkürzel[\s\S]*Token/,
    );
  });
});
