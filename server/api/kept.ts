/**
 * A string function whose answers are kept by their argument, for work the service repeats with
 * the same input request after request (a cursor's signature, a count's ETag, a drawn picture's
 * address). At most `limit` are kept; when full, all are forgotten at once, so a stream of
 * different inputs costs no more than computing each.
 */
export function kept(make: (key: string) => string, limit = 10_000): (key: string) => string {
  const answers = new Map<string, string>();
  return (key) => {
    let answer = answers.get(key);
    if (answer === undefined) {
      answer = make(key);
      if (answers.size >= limit) answers.clear();
      answers.set(key, answer);
    }
    return answer;
  };
}
