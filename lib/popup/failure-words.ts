/**
 * The words for failures (`inbox-problem`, with the classifier of `lib/failure.ts`), loaded with
 * the first failure rather than with the popup: whatever shows a failure loads them first, then
 * reads them here as it renders.
 */
type FailureWords = Pick<typeof import('./inbox-problem'), 'problemFromError' | 'failureReason'>;

let loaded: FailureWords | null = null;

/** Loads the words for failures; once it resolves, `failureWords` has them. */
export async function loadFailureWords(): Promise<FailureWords> {
  loaded ??= await import('./inbox-problem');
  return loaded;
}

/** The words for failures, once `loadFailureWords` has loaded them; else null. */
export const failureWords = (): FailureWords | null => loaded;
