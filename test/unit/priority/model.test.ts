import { describe, expect, it } from 'vitest';
import {
  type About,
  EMPTY_MODEL,
  following,
  forget,
  HALF_LIFE_MS,
  isPriority,
  learn,
  type PriorityModel,
  type Signal,
  SOON_MS,
  scoreParts,
  valueAt,
} from '../../../lib/priority/model';
import { reasons, whyPriority } from '../../../lib/priority/reasons';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const START = Date.parse('2026-11-23T09:00:00Z');
const post = (n: number) => `https://social.example/@demo/posts/${n}`;

/** A clock the test moves by hand, and a model learning as it goes. */
function learner(model: PriorityModel = EMPTY_MODEL) {
  let now = START;
  return {
    now: () => now,
    pass(ms: number) {
      now += ms;
    },
    /** The person did `signal` to a notification that arrived `ago` before now. */
    did(signal: Signal, about: Omit<About, 'at'>, ago = 10 * 60_000) {
      model = learn(model, signal, [{ ...about, at: new Date(now - ago).toISOString() }], now);
    },
    follows(username: string, followed = true) {
      model = following(model, username, followed);
    },
    forget(username: string) {
      model = forget(model, username);
    },
    /** Whether a notification from `actor` about `url` is priority now. */
    priority: (actor: string | null, url: string | null = null) => isPriority(model, actor, url, now),
    why: (actor: string | null, url: string | null = null) => whyPriority(model, actor, url, now),
    get model() {
      return model;
    },
  };
}

describe('the priority model', () => {
  it('starts with nothing priority; following someone alone makes theirs priority, and says so', () => {
    const person = learner();
    expect(person.priority('ana')).toBe(false);
    person.follows('Ana');
    expect(person.priority('ana')).toBe(true);
    expect(person.why('ANA')).toBe('You follow @ANA');
    person.follows('ana', false);
    expect(person.priority('ana')).toBe(false);
  });

  it('makes a sender priority after three of theirs opened soon after arrival, not after two', () => {
    const person = learner();
    person.did('open', { actor: 'bob', url: post(1) });
    person.pass(HOUR);
    person.did('open', { actor: 'bob', url: post(2) });
    expect(person.priority('bob', post(9))).toBe(false);
    person.pass(HOUR);
    person.did('open', { actor: 'bob', url: post(3) });
    expect(person.priority('bob', post(9))).toBe(true);
    expect(person.why('bob', post(9))).toBe('You often open @bob’s');
    expect(person.priority('carol', post(9))).toBe(false);
  });

  it('counts an open long after arrival half, and a read or a delete long after arrival not at all', () => {
    const person = learner();
    for (const n of [1, 2, 3]) person.did('open', { actor: 'bob', url: post(n) }, SOON_MS + HOUR);
    expect(scoreParts(person.model, 'bob', null, person.now()).open).toBeCloseTo(1.5, 5);
    expect(person.priority('bob')).toBe(false);
    person.did('markRead', { actor: 'dave', url: post(4) }, 2 * DAY);
    person.did('delete', { actor: 'dave', url: post(5) }, 2 * DAY);
    expect(person.model.people['@dave']).toBeUndefined();
    expect(person.model.threads[post(5)]).toBeUndefined();
  });

  it('lets what was learned fade to half every three weeks, while a follow stays', () => {
    const person = learner();
    for (const n of [1, 2, 3, 4]) person.did('open', { actor: 'bob', url: post(n) });
    person.follows('carol');
    const before = scoreParts(person.model, 'bob', null, person.now()).open;
    expect(before).toBeCloseTo(4, 3);
    person.pass(HALF_LIFE_MS);
    expect(scoreParts(person.model, 'bob', null, person.now()).open).toBeCloseTo(before / 2, 5);
    expect(person.priority('bob')).toBe(false);
    expect(person.priority('carol')).toBe(true);
    // A new open counts on top of what is left, and from then on fades from now.
    person.did('open', { actor: 'bob', url: post(5) });
    expect(scoreParts(person.model, 'bob', null, person.now()).open).toBeCloseTo(before / 2 + 1, 5);
    expect(person.priority('bob')).toBe(true);
    person.pass(10 * HALF_LIFE_MS);
    expect(person.priority('bob')).toBe(false);
    expect(person.priority('carol')).toBe(true);
  });

  it('counts mutes and quick deletes against a person, even one followed', () => {
    const person = learner();
    person.follows('erin');
    person.did('delete', { actor: 'erin', url: post(1) });
    expect(person.priority('erin')).toBe(true);
    person.did('delete', { actor: 'erin', url: post(2) });
    expect(person.priority('erin')).toBe(false);
    expect(reasons(person.model, 'erin', null, person.now()).map(({ part }) => part)).toEqual(['follow', 'against']);

    const muting = learner();
    muting.follows('frank');
    muting.did('mute', { actor: 'frank', url: null });
    expect(muting.priority('frank')).toBe(false);
    expect(reasons(muting.model, 'frank', null, muting.now())).toEqual([
      { part: 'follow', weight: 3 },
      { part: 'against', weight: -3 },
    ]);
  });

  it('makes a thread acted on priority for anyone, and a muted thread count against', () => {
    const person = learner();
    for (let n = 0; n < 2; n++) person.did('open', { actor: `reader${n}`, url: post(7) });
    person.did('snooze', { actor: 'reader3', url: post(7) }, 3 * DAY);
    expect(person.priority('stranger', post(7))).toBe(true);
    expect(person.why('stranger', post(7))).toBe('You act on this thread');
    expect(person.priority('stranger', post(8))).toBe(false);
    person.did('mute', { actor: null, url: post(7) });
    expect(person.priority('stranger', post(7))).toBe(false);
  });

  it('forgets one person and keeps the rest', () => {
    const person = learner();
    for (const n of [1, 2, 3]) person.did('open', { actor: 'bob', url: post(n) });
    person.follows('bob');
    person.follows('carol');
    person.forget('BOB');
    expect(person.priority('bob')).toBe(false);
    expect(person.model.people['@bob']).toBeUndefined();
    expect(person.priority('carol')).toBe(true);
  });

  it('stays small: counts faded to nothing are dropped, and only the strongest threads are kept', () => {
    const person = learner();
    person.did('markUnread', { actor: 'gone', url: null });
    person.pass(5 * HALF_LIFE_MS);
    person.did('open', { actor: 'kept', url: null });
    expect(Object.keys(person.model.people)).toEqual(['@kept']);
    for (let n = 0; n < 400; n++) person.did(n < 20 ? 'open' : 'markRead', { actor: null, url: post(n) });
    const threads = Object.keys(person.model.threads);
    expect(threads).toHaveLength(300);
    for (let n = 0; n < 20; n++) expect(threads).toContain(post(n));
  });

  it('keeps a person whose name is an object’s own property name as anyone else', () => {
    const person = learner();
    for (const n of [1, 2, 3]) person.did('open', { actor: '__proto__', url: post(n) });
    person.follows('constructor');
    expect(person.priority('__proto__')).toBe(true);
    expect(person.priority('constructor')).toBe(true);
    expect(person.priority('toString')).toBe(false);
    expect(Object.getPrototypeOf(person.model.people)).toBe(Object.prototype);
    expect(JSON.parse(JSON.stringify(person.model))).toEqual(person.model);
  });

  it('reads a count at any time from its value and when it was set', () => {
    expect(valueAt([8, START], START + 3 * HALF_LIFE_MS)).toBeCloseTo(1, 10);
    expect(valueAt(undefined, START)).toBe(0);
  });
});
