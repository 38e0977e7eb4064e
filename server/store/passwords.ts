/**
 * Passwords, kept as scrypt hashes with a salt of their own and the cost they were made with
 * (`scrypt$<log2 N>$<r>$<p>$<salt>$<hash>`), so the cost can rise without breaking stored ones.
 * Checking always runs one scrypt and compares in constant time, also for a user who has no
 * password or does not exist: the answer's timing tells nothing.
 */
import { randomBytes, type ScryptOptions, scrypt, timingSafeEqual } from 'node:crypto';
import type { Queryable } from '../db/database';

/** 32 MiB and about 0.1 s a hash on a small server; each check ties up one libuv thread that long. */
const COST = { log2N: 15, r: 8, p: 1 };
const KEY_BYTES = 32;
const SALT_BYTES = 16;
const HASH_PATTERN = /^scrypt\$(\d{1,2})\$(\d{1,2})\$(\d{1,2})\$([A-Za-z0-9_-]{16,64})\$([A-Za-z0-9_-]{16,128})$/;
/** Passwords longer than this are refused unhashed: scrypt's time grows with them. */
export const PASSWORD_MAX_LENGTH = 1024;

function derive(password: string, salt: Buffer, cost: typeof COST, length: number): Promise<Buffer> {
  const N = 2 ** cost.log2N;
  const options: ScryptOptions = { N, r: cost.r, p: cost.p, maxmem: 256 * N * cost.r };
  return new Promise((resolve, reject) => {
    scrypt(password.normalize('NFC'), salt, length, options, (error, key) => (error ? reject(error) : resolve(key)));
  });
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(SALT_BYTES);
  const key = await derive(password, salt, COST, KEY_BYTES);
  const { log2N, r, p } = COST;
  return `scrypt$${log2N}$${r}$${p}$${salt.toString('base64url')}$${key.toString('base64url')}`;
}

let dummy: Promise<string> | undefined;
/** A hash of nothing anyone can type, checked when there is no real one so that both take as long. */
const dummyHash = () => {
  dummy ??= hashPassword(randomBytes(32).toString('hex'));
  return dummy;
};

/** Whether `password` matches `stored`; false for no hash (after the same work as a real check). */
export async function passwordMatches(stored: string | null, password: string): Promise<boolean> {
  const match = HASH_PATTERN.exec(stored ?? '') ?? (HASH_PATTERN.exec(await dummyHash()) as RegExpExecArray);
  const [, log2N, r, p, salt, hash] = match;
  const expected = Buffer.from(hash as string, 'base64url');
  const cost = { log2N: Number(log2N), r: Number(r), p: Number(p) };
  const given = await derive(password, Buffer.from(salt as string, 'base64url'), cost, expected.length);
  return timingSafeEqual(given, expected) && stored !== null && HASH_PATTERN.test(stored);
}

/** How many password checks one instance runs at once, and how many may wait and how long. */
export interface CheckQueueLimits {
  atOnce: number;
  waiting: number;
  waitMs: number;
}

/**
 * Two at once leave the rest of libuv's four threads, and the cores, to the API's own work; a
 * check that cannot start within two seconds is not worth the person's wait.
 */
export const DEFAULT_CHECK_QUEUE: CheckQueueLimits = { atOnce: 2, waiting: 20, waitMs: 2000 };

/** Too many password checks are running or waiting: this one was not made. */
export class PasswordChecksBusyError extends Error {
  constructor(readonly retryAfterSeconds: number) {
    super(`Password checks are busy; try again in ${retryAfterSeconds} seconds.`);
    this.name = 'PasswordChecksBusyError';
  }
}

export interface PasswordChecks {
  /** `passwordMatches` in its turn; throws `PasswordChecksBusyError` when the queue is full or the turn is too long in coming. */
  check(stored: string | null, password: string): Promise<boolean>;
  readonly running: number;
  readonly waiting: number;
  /** Whether a check now would be refused at once: the caller can spare itself the work before it. */
  readonly full: boolean;
  /** What a refused check tells its caller to wait. */
  readonly retryAfterSeconds: number;
}

/**
 * Password checks with bounded concurrency, so that a spray of sign-ins from many addresses spends
 * at most `atOnce` threads on scrypt and is answered "busy" beyond that, unchecked.
 */
export function createPasswordChecks(limits: CheckQueueLimits = DEFAULT_CHECK_QUEUE): PasswordChecks {
  let running = 0;
  const queue: Array<() => void> = [];
  const retryAfterSeconds = Math.ceil(limits.waitMs / 1000) + 1;
  const busy = () => new PasswordChecksBusyError(retryAfterSeconds);

  function startWaiting() {
    while (running < limits.atOnce) {
      const start = queue.shift();
      if (!start) return;
      start();
    }
  }

  function turn(): Promise<void> {
    if (running < limits.atOnce && queue.length === 0) {
      running += 1;
      return Promise.resolve();
    }
    if (queue.length >= limits.waiting) return Promise.reject(busy());
    return new Promise((resolve, reject) => {
      const start = () => {
        clearTimeout(timer);
        running += 1;
        resolve();
      };
      const timer = setTimeout(() => {
        queue.splice(queue.indexOf(start), 1);
        reject(busy());
      }, limits.waitMs);
      timer.unref();
      queue.push(start);
    });
  }

  return {
    async check(stored, password) {
      await turn();
      try {
        return await passwordMatches(stored, password);
      } finally {
        running -= 1;
        startWaiting();
      }
    },
    get running() {
      return running;
    },
    get waiting() {
      return queue.length;
    },
    get full() {
      return running >= limits.atOnce && queue.length >= limits.waiting;
    },
    retryAfterSeconds,
  };
}

export async function setPassword(db: Queryable, userId: number, password: string): Promise<void> {
  await setPasswords(db, [userId], password);
}

/**
 * Gives these users one shared password, the demo people's: it is printed for anyone to use, so a
 * salt for each would hide nothing, and one hash instead of one per person keeps a start that
 * seeds from spending seconds in scrypt. A password a person sets gets a salt of its own.
 */
export async function setPasswords(db: Queryable, userIds: readonly number[], password: string): Promise<void> {
  const hash = await hashPassword(password);
  await db.query('UPDATE users SET password_hash = $2 WHERE id = ANY($1::int[])', [userIds, hash]);
}
