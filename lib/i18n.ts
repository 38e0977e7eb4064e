/**
 * Every string a person reads comes from `public/_locales`. Keys are typed from the English
 * catalogue, so a missing string is a type error rather than a blank in the UI.
 */
import { browser } from 'wxt/browser';
import type english from '../public/_locales/en/messages.json';

export type MessageKey = keyof typeof english;

/** The keys that come in plural forms, `<base>_one` and `<base>_other` (more where a language needs them). */
export type PluralKey = {
  [K in MessageKey]: K extends `${infer Base}_other` ? (`${Base}_one` extends MessageKey ? Base : never) : never;
}[MessageKey];

// WXT types getMessage from the catalogue as it was at the last `wxt prepare`; MessageKey is
// always current, so the call goes through a plain signature.
const getMessage = (key: string, substitutions: string[]): string =>
  (browser.i18n.getMessage as (key: string, substitutions?: string[]) => string)(key, substitutions);

export function t(key: MessageKey, ...substitutions: (string | number)[]): string {
  return getMessage(key, substitutions.map(String)) || key;
}

/** The plural rules of the language they were made for, made again should the language be another. */
let plurals: { language: string; rules: Intl.PluralRules } | undefined;

/** A counted phrase in the plural form the browser's language needs for `count`. */
export function tn(base: PluralKey, count: number, ...more: (string | number)[]): string {
  const language = browser.i18n.getUILanguage();
  if (plurals?.language !== language) plurals = { language, rules: new Intl.PluralRules(language) };
  const form = `${base}_${plurals.rules.select(count)}`;
  const text = getMessage(form, [String(count), ...more.map(String)]);
  return text || t(`${base}_other` as MessageKey, count, ...more);
}

export function uiLanguage(): string {
  return browser.i18n.getUILanguage();
}
