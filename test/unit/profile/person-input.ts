/**
 * happy-dom has no `isTrusted`. A browser sets it on events made from a person's input; here
 * every event counts as the person's except those a test makes inside `asScript`, as a page's
 * script would make them.
 */
let scripted = false;

export function trustPersonEvents(): void {
  Object.defineProperty(Event.prototype, 'isTrusted', { configurable: true, get: () => !scripted });
}

export function asScript(work: () => void): void {
  scripted = true;
  try {
    work();
  } finally {
    scripted = false;
  }
}
