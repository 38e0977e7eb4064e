/**
 * happy-dom has no `isTrusted`. A browser sets it on events made from a person's input; here
 * every event counts as the person's except those a test makes inside `asScript`, as a page's
 * script would make them.
 */
let scripted = false;

/** From now on, until the function it gives back is called (at the end of a test, by `beforeEach`). */
export function trustPersonEvents(): () => void {
  const before = Object.getOwnPropertyDescriptor(Event.prototype, 'isTrusted');
  Object.defineProperty(Event.prototype, 'isTrusted', { configurable: true, get: () => !scripted });
  return () => {
    if (before) Object.defineProperty(Event.prototype, 'isTrusted', before);
    else Reflect.deleteProperty(Event.prototype, 'isTrusted');
  };
}

export function asScript(work: () => void): void {
  scripted = true;
  try {
    work();
  } finally {
    scripted = false;
  }
}
