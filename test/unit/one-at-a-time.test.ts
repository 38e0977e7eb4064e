import { describe, expect, it } from 'vitest';
import { oneAtATime } from '../../lib/one-at-a-time';

/** A task whose runs each wait for the test to finish them, recording what each was given. */
function heldTask() {
  const runs: { arg: string; finish: (value: string) => void; fail: (error: Error) => void }[] = [];
  const task = (arg: string) =>
    new Promise<string>((resolve, reject) => {
      runs.push({ arg, finish: resolve, fail: reject });
    });
  return { runs, task };
}

const settled = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('oneAtATime', () => {
  it('runs the calls made during a run once after it, with the newest arguments, and never two at once', async () => {
    const { runs, task } = heldTask();
    const run = oneAtATime(task);
    const first = run('a');
    const second = run('b');
    const third = run('c');
    await settled();
    expect(runs.map((r) => r.arg)).toEqual(['a']);
    runs[0]?.finish('A');
    expect(await first).toBe('A');
    await settled();
    expect(runs.map((r) => r.arg)).toEqual(['a', 'c']);
    runs[1]?.finish('C');
    expect(await second).toBe('C');
    expect(await third).toBe('C');
  });

  it('still runs the calls made meanwhile when a run fails, and gives the failure to its own callers', async () => {
    const { runs, task } = heldTask();
    const run = oneAtATime(task);
    const failing = run('a');
    const after = run('b');
    runs[0]?.fail(new Error('no'));
    await expect(failing).rejects.toThrow('no');
    await settled();
    runs[1]?.finish('B');
    expect(await after).toBe('B');
    // Idle again: the next call starts at once.
    void run('c');
    await settled();
    expect(runs.map((r) => r.arg)).toEqual(['a', 'b', 'c']);
  });
});
