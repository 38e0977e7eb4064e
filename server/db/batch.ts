/**
 * Many requests' statements as one: the requests that arrive while the database is busy wait
 * together and go in a single round trip, instead of each paying for its own write, wake-up of a
 * database process and answer on a pooled connection. Under light load nothing waits: a request
 * goes out as soon as the event loop has read what arrived with it.
 */
export interface BatchOptions {
  /** Statements of this batcher in flight at once; requests beyond them wait for the next. */
  maxInFlight: number;
  /** Requests in one statement at most. */
  maxSize: number;
}

interface Waiting<In, Out> {
  input: In;
  resolve(output: Out): void;
  reject(error: unknown): void;
}

/**
 * A function that answers one input through `run`, which answers many at once (its outputs in
 * the order of its inputs). When `run` fails, every request of that batch fails with its error.
 */
export function batched<In, Out>(
  run: (inputs: In[]) => Promise<Out[]>,
  { maxInFlight, maxSize }: BatchOptions,
): (input: In) => Promise<Out> {
  let waiting: Waiting<In, Out>[] = [];
  let inFlight = 0;
  let scheduled = false;

  function schedule() {
    if (scheduled || inFlight >= maxInFlight || waiting.length === 0) return;
    scheduled = true;
    // After the event loop's poll phase, so every request read in it goes in the same statement.
    setImmediate(send);
  }

  function send() {
    scheduled = false;
    while (waiting.length > 0 && inFlight < maxInFlight) {
      const batch = waiting.length <= maxSize ? waiting : waiting.slice(0, maxSize);
      waiting = batch === waiting ? [] : waiting.slice(maxSize);
      inFlight++;
      run(batch.map((request) => request.input))
        .then(
          (outputs) => {
            for (const [i, request] of batch.entries()) request.resolve(outputs[i] as Out);
          },
          (error: unknown) => {
            for (const request of batch) request.reject(error);
          },
        )
        .finally(() => {
          inFlight--;
          schedule();
        });
    }
  }

  return (input) =>
    new Promise<Out>((resolve, reject) => {
      waiting.push({ input, resolve, reject });
      schedule();
    });
}
