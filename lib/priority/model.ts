/**
 * Which notifications matter to the person, learned from what they do in this browser and nothing
 * else: the people they follow (as the in-page buttons and the service report it), the people
 * whose notifications they open or act on soon after arrival, and the threads (a notification's
 * link) they act on; mutes and quick deletes count against. Each is a weighted count that halves
 * every three weeks, so what the person stopped doing fades. Plain data and pure functions, the
 * clock passed in: the background keeps one model per account (`lib/background/priority.ts`), the
 * popup and the options page read it to say why.
 */
import { type StoredKey, storedKey } from '../stored';

/** A count's value halves in this time. */
export const HALF_LIFE_MS = 21 * 86_400_000;
/** A notification whose score reaches this is priority: a follow alone, or three prompt opens. */
export const PRIORITY_SCORE = 2.5;
/** What following a person counts. */
export const FOLLOW_WEIGHT = 3;
/** An action this soon after the notification arrived counts as prompt. */
export const SOON_MS = 6 * 3_600_000;
/** Counts that faded below this are dropped, and the threads kept are at most this many. */
const FADED = 0.1;
const MOST_THREADS = 300;

/** A weighted count: its value at the time beside it (ms since the epoch). */
export type Tally = [value: number, at: number];

/** What was learned of one person. */
export interface Person {
  /** Followed, as last reported; absent when not followed or not known. */
  follow?: true;
  /** Their notifications opened. */
  open?: Tally;
  /** Their notifications marked unread, snoozed or marked read, soon after arrival. */
  act?: Tally;
  /** Their notifications deleted soon after arrival, and mutes of them. */
  against?: Tally;
}

export interface PriorityModel {
  /** By `@` and the username in lower case (a key no object has of its own, as `__proto__` would be). */
  people: Record<string, Person>;
  /** By the notification's link; acting on it counts up, a mute or a quick delete down. */
  threads: Record<string, Tally>;
}

export const EMPTY_MODEL: PriorityModel = { people: {}, threads: {} };

/**
 * Each account's model, in `storage.local`: the extension's own storage, never sent anywhere.
 * Named as `perAccountKey` names one's own value of an account.
 */
export const priorityKey = (accountId: string): StoredKey<PriorityModel> =>
  storedKey(`local:priority:${accountId}`, EMPTY_MODEL);

export const personKey = (username: string) => `@${username.toLowerCase()}`;

/** A count's value at `now`. */
export const valueAt = (tally: Tally | undefined, now: number): number =>
  tally ? tally[0] * 0.5 ** ((now - tally[1]) / HALF_LIFE_MS) : 0;

/** What the person did to notifications, as the popup and the background tell the model. */
export const SIGNALS = ['open', 'markUnread', 'snooze', 'markRead', 'delete', 'mute'] as const;
export type Signal = (typeof SIGNALS)[number];

/** What a signal adds to which count: its weight when prompt, and later. */
const WEIGHTS: Record<Signal, [count: 'open' | 'act' | 'against', prompt: number, later: number]> = {
  open: ['open', 1, 0.5],
  markUnread: ['act', 0.5, 0.5],
  snooze: ['act', 0.5, 0.5],
  // A quick read says it was looked at; a late one, or a late delete, is tidying up.
  markRead: ['act', 0.25, 0],
  delete: ['against', 0.5, 0],
  mute: ['against', 3, 3],
};

/** A notification as the model knows it: its person, its link and when it arrived (ISO 8601; none for a mute). */
export interface About {
  actor: string | null;
  url: string | null;
  at?: string;
}

/** Counts faded to nothing are dropped, and the faintest threads past `MOST_THREADS`. */
function pruned({ people, threads }: PriorityModel, now: number): PriorityModel {
  const kept: PriorityModel = { people: {}, threads: {} };
  for (const [key, person] of Object.entries(people)) {
    const left: Person = person.follow ? { follow: true } : {};
    for (const count of ['open', 'act', 'against'] as const) {
      if (valueAt(person[count], now) >= FADED) left[count] = person[count];
    }
    if (Object.keys(left).length > 0) kept.people[key] = left;
  }
  const strength = ([, tally]: [string, Tally]) => Math.abs(valueAt(tally, now));
  for (const [url, tally] of Object.entries(threads)
    .filter((entry) => strength(entry) >= FADED)
    .sort((a, b) => strength(b) - strength(a))
    .slice(0, MOST_THREADS))
    kept.threads[url] = tally;
  return kept;
}

const added = (tally: Tally | undefined, weight: number, now: number): Tally => [valueAt(tally, now) + weight, now];

/** The model after the person did `signal` to the notifications `about`, at `now`. */
export function learn(model: PriorityModel, signal: Signal, about: readonly About[], now: number): PriorityModel {
  const [count, prompt, later] = WEIGHTS[signal];
  const people = { ...model.people };
  const threads = { ...model.threads };
  for (const { actor, url, at } of about) {
    const weight = at === undefined || now - Date.parse(at) <= SOON_MS ? prompt : later;
    if (weight === 0) continue;
    if (actor) {
      const key = personKey(actor);
      people[key] = { ...people[key], [count]: added(people[key]?.[count], weight, now) };
    }
    if (url) threads[url] = added(threads[url], count === 'against' ? -weight : weight, now);
  }
  return pruned({ people, threads }, now);
}

/** The model once `username` is known to be followed, or not. */
export function following(model: PriorityModel, username: string, followed: boolean): PriorityModel {
  const key = personKey(username);
  const { follow, ...rest } = model.people[key] ?? {};
  if (Boolean(follow) === followed) return model;
  const person: Person = followed ? { ...rest, follow: true } : rest;
  return { ...model, people: { ...model.people, [key]: person } };
}

/** The model without anything learned of `username`. */
export function forget(model: PriorityModel, username: string): PriorityModel {
  const { [personKey(username)]: _forgotten, ...people } = model.people;
  return { ...model, people };
}

/** What each reason adds to a notification's score at `now`; what counts against is negative. */
export function scoreParts(model: PriorityModel, actor: string | null, url: string | null, now: number) {
  const person: Person = (actor && model.people[personKey(actor)]) || {};
  return {
    follow: person.follow ? FOLLOW_WEIGHT : 0,
    open: valueAt(person.open, now),
    act: valueAt(person.act, now),
    thread: url ? valueAt(model.threads[url], now) : 0,
    against: -valueAt(person.against, now),
  };
}

export type ScorePart = keyof ReturnType<typeof scoreParts>;

export const isPriority = (model: PriorityModel, actor: string | null, url: string | null, now: number): boolean =>
  Object.values(scoreParts(model, actor, url, now)).reduce((sum, part) => sum + part, 0) >= PRIORITY_SCORE;
