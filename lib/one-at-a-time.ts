/**
 * Runs a task one call at a time. A call made while the task runs starts nothing beside it: the
 * calls made meanwhile share one run after it, with the newest call's arguments. A run that read
 * its inputs before a change is so always followed by one that reads them after, and no older
 * run can finish after a newer one.
 */
export function oneAtATime<Args extends unknown[], Result>(
  task: (...args: Args) => Promise<Result>,
): (...args: Args) => Promise<Result> {
  let running: Promise<Result> | null = null;
  let next: Promise<Result> | null = null;
  let nextArgs: Args;

  const run = (...args: Args): Promise<Result> => {
    if (!running) {
      running = task(...args).finally(() => {
        running = null;
      });
      return running;
    }
    nextArgs = args;
    next ??= running
      .catch(() => undefined)
      .then(() => {
        next = null;
        return run(...nextArgs);
      });
    return next;
  };
  return run;
}
