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
