import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIMITS } from '../../../lib/api/contract';
import { createPasswordChecks, hashPassword, PasswordChecksBusyError } from '../../../server/store/passwords';
import { BACKENDS, startTestService, type TestService } from '../../support/service';
import { authorizeParams, newPkce, openAuthorize, submitAuthorize } from '../support/oauth';

/**
 * An attacker at the sign-in form: one password tried over many usernames from one address is
 * slowed and told how long to wait, while the people whose names are tried still get in from
 * their own addresses; the password checks a spray from many addresses sets off wait their turn
 * or are refused unmade.
 */

const PASSWORD = 'correct horse battery staple';
const WINDOW_SECONDS = LIMITS.signInWindowMinutes * 60;
const from = (address: string) => ({ 'x-forwarded-for': address });
/** The page without what differs between answers: the typed username and the form's token. */
const withoutValues = (html: string) => html.replace(/value="[^"]*"/g, '');

describe.each(BACKENDS)('sign-in limits on %s', (backend) => {
  let service: TestService;
  let clock = Date.now();

  beforeAll(async () => {
    // Behind a proxy on 127.0.0.1, so that each test signs in from addresses of its own.
    service = await startTestService({ backend, now: () => clock, trustProxy: ['127.0.0.1'] });
  });
  afterAll(() => service?.close());

  async function person(prefix: string): Promise<string> {
    const { username } = await service.newUser(prefix);
    await service.server.admin.setPassword(username, PASSWORD);
    return username;
  }

  /** Opens the form and sends it, as a person would, from `address`. */
  async function attempt(username: string, password: string, address: string, at: TestService = service) {
    const page = await openAuthorize(at, authorizeParams(newPkce()));
    return submitAuthorize(at, page, { username, password }, from(address));
  }

  it('slows one password sprayed over fifteen usernames from one address, the same for names that exist or not', async () => {
    const people = await Promise.all(Array.from({ length: 5 }, (_, i) => person(`sprayed${i}`)));
    const usernames = [...people, ...Array.from({ length: 10 }, (_, i) => `nobody_here_${i}`)];
    const statuses: number[] = [];
    const waits = new Map<string, string>();
    for (let round = 0; round < 3; round++) {
      for (const username of usernames) {
        const answer = await attempt(username, 'Summer2026!', '192.0.2.10');
        statuses.push(answer.status);
        const html = await answer.text();
        expect(answer.headers.get('location')).toBeNull();
        if (answer.status !== 429) continue;
        expect(answer.headers.get('retry-after')).toBe(String(WINDOW_SECONDS));
        expect(html).toContain(`Too many attempts, try again in ${WINDOW_SECONDS} seconds.`);
        waits.set(username, withoutValues(html));
      }
    }
    expect(statuses).toHaveLength(45);
    expect(statuses.slice(0, LIMITS.signInFailuresPerClient).every((status) => status === 400)).toBe(true);
    expect(statuses.filter((status) => status === 429).length).toBeGreaterThanOrEqual(15);
    expect(waits.get(people[0] as string)).toBe(waits.get('nobody_here_0'));

    // The sprayer's address waits even with the right password; the owner elsewhere gets in.
    expect((await attempt(people[0] as string, PASSWORD, '192.0.2.10')).status).toBe(429);
    expect((await attempt(people[0] as string, PASSWORD, '198.51.100.20')).status).toBe(303);
  });

  it('never locks a username: its owner gets in from another address while one address keeps trying it', async () => {
    const owner = await person('owner');
    for (let i = 0; i < LIMITS.signInFailuresPerClientUsername + 3; i++) {
      const answer = await attempt(owner, `guess ${i}`, '192.0.2.20');
      expect(answer.status).toBe(i < LIMITS.signInFailuresPerClientUsername ? 400 : 429);
      expect((await attempt(owner, PASSWORD, '198.51.100.21')).status).toBe(303);
    }
    // The same network's IPv6 addresses are one client: another /64 is another.
    for (let i = 0; i < LIMITS.signInFailuresPerClientUsername; i++) {
      await attempt(owner, `guess ${i}`, `2001:db8:1:2::${i + 1}`);
    }
    expect((await attempt(owner, PASSWORD, '2001:db8:1:2:ffff::9')).status).toBe(429);
    expect((await attempt(owner, PASSWORD, '2001:db8:1:3::1')).status).toBe(303);
  });

  it('says how many seconds to wait, counting down as the oldest wrong password leaves the window', async () => {
    const address = '192.0.2.30';
    const started = clock;
    for (let i = 0; i < LIMITS.signInFailuresPerClient; i++) {
      expect((await attempt(`counted_${i}`, 'wrong', address)).status).toBe(400);
      clock += 1000;
    }
    clock = started + 100_000;
    const first = await attempt('counted_x', 'wrong', address);
    expect(first.status).toBe(429);
    expect(first.headers.get('retry-after')).toBe(String(WINDOW_SECONDS - 100));
    expect(await first.text()).toContain(`Too many attempts, try again in ${WINDOW_SECONDS - 100} seconds.`);

    clock = started + WINDOW_SECONDS * 1000 - 1000;
    const last = await attempt('counted_x', 'wrong', address);
    expect(last.status).toBe(429);
    expect(await last.text()).toContain('Too many attempts, try again in 1 second.');

    // The oldest has left: one more try, then the next oldest must leave.
    clock = started + WINDOW_SECONDS * 1000;
    expect((await attempt('counted_x', 'wrong', address)).status).toBe(400);
    expect((await attempt('counted_x', 'wrong', address)).headers.get('retry-after')).toBe('1');
  });

  it('counts by the peer when no proxy is trusted, whatever X-Forwarded-For says', async () => {
    const direct = await startTestService({ backend, now: () => clock, signIn: { failuresPerClient: 2 } });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 3; i++) {
        statuses.push((await attempt(`anybody_${i}`, 'wrong', `192.0.2.${100 + i}`, direct)).status);
      }
      expect(statuses).toEqual([400, 400, 429]);
    } finally {
      await direct.close();
    }
  });

  it('answers "busy" without checking when too many password checks are waiting, and recovers', async () => {
    const small = await startTestService({
      backend,
      now: () => clock,
      trustProxy: ['127.0.0.1'],
      signIn: { atOnce: 1, waiting: 2, waitMs: 60_000 },
    });
    try {
      const user = await small.newUser('queued');
      await small.server.admin.setPassword(user.username, PASSWORD);
      const smallPage = await openAuthorize(small, authorizeParams(newPkce()));
      const answers = await Promise.all(
        Array.from({ length: 12 }, (_, i) =>
          submitAuthorize(small, smallPage, { username: user.username, password: PASSWORD }, from(`10.9.0.${i}`)),
        ),
      );
      const busy = answers.filter((answer) => answer.status === 429);
      expect(busy.length).toBeGreaterThanOrEqual(1);
      expect(answers.every((answer) => answer.status === 429 || answer.status === 303)).toBe(true);
      for (const answer of busy) {
        expect(answer.headers.get('location')).toBeNull();
        expect(Number(answer.headers.get('retry-after'))).toBeGreaterThan(0);
        expect(await answer.text()).toContain('Signing in is busy right now, try again in a few seconds.');
      }
      // Refused unchecked, a busy answer is no wrong password: the address may try again at once.
      expect((await attempt(user.username, PASSWORD, '10.9.0.0', small)).status).toBe(303);
    } finally {
      await small.close();
    }
  });
});

describe('password checks', () => {
  it('run at most so many at once, let so many wait, and refuse the rest unmade', async () => {
    const stored = await hashPassword(PASSWORD);
    const checks = createPasswordChecks({ atOnce: 2, waiting: 3, waitMs: 60_000 });
    let most = 0;
    const watch = setInterval(() => {
      most = Math.max(most, checks.running);
    }, 1);
    const outcomes = await Promise.allSettled(
      Array.from({ length: 10 }, (_, i) => checks.check(stored, i === 0 ? PASSWORD : 'wrong')),
    );
    clearInterval(watch);
    const made = outcomes.filter((outcome) => outcome.status === 'fulfilled');
    const refused = outcomes.filter((outcome) => outcome.status === 'rejected');
    expect(made.map((outcome) => outcome.value)).toEqual([true, false, false, false, false]);
    expect(refused).toHaveLength(5);
    for (const outcome of refused) expect(outcome.reason).toBeInstanceOf(PasswordChecksBusyError);
    expect(most).toBeLessThanOrEqual(2);
    expect(checks.running + checks.waiting).toBe(0);
  });

  it('refuses a check whose turn does not come in time', async () => {
    const stored = await hashPassword(PASSWORD);
    const checks = createPasswordChecks({ atOnce: 1, waiting: 5, waitMs: 1 });
    const outcomes = await Promise.allSettled([checks.check(stored, 'wrong'), checks.check(stored, 'wrong')]);
    expect(outcomes.map((outcome) => outcome.status)).toEqual(['fulfilled', 'rejected']);
    expect(checks.running + checks.waiting).toBe(0);
  });
});
