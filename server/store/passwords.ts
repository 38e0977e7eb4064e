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
