import { t } from '../i18n';
import type { ClickGuard } from './click-guard';

/**
 * The buttons live inside a page that may script them. Only the person's own input may follow,
 * unfollow, report or open anything: a click the browser made from a real pointer or key
 * (`isTrusted`), never one a script made with `click()` or `dispatchEvent`. Synthetic key
 * presses make no click at all.
 *
 * Form submission is no evidence: in Chromium the submit event that `requestSubmit()` or a
 * script's `click()` on the submit button causes is itself trusted. So the report is sent from
 * the trusted click on its Send button (which Enter in the form also makes), never from submit.
 */
export function byPerson<E extends Event>(act: (event: E) => void): (event: E) => void {
  return (event) => {
    if (event.isTrusted === true) act(event);
  };
}

/** How long a button that took no click (see `ClickGuard`) asks for another. */
const AGAIN_MS = 2_000;

/**
 * A button's click handler: the person's click acts where `guard` allows it; one the frame could
 * not trust (covered, or too quick) asks, quietly, for another.
 */
export function guarded(guard: ClickGuard, act: () => void): (event: MouseEvent) => void {
  let hint: ReturnType<typeof setTimeout> | undefined;
  return byPerson((event) => {
    const button = event.currentTarget as HTMLElement;
    clearTimeout(hint);
    button.removeAttribute('data-again');
    const decide = (allowed: boolean) => {
      if (allowed) return act();
      button.setAttribute('data-again', t('profile_click_again'));
      hint = setTimeout(() => button.removeAttribute('data-again'), AGAIN_MS);
    };
    // A key press is allowed at once, and acts before the browser draws again.
    const allowed = guard.allows(event);
    if (typeof allowed === 'boolean') decide(allowed);
    else void allowed.then(decide);
  });
}
