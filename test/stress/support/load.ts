/**
 * Mixed load against a running service: every person has a keep-alive connection of their own
 * and, over and over, reads the unread count and the inbox, marks what they saw read, follows
 * and unfollows someone, deletes a notification and reads a profile, each request as soon as
 * the one before was answered.
 *
 * Every connection is opened, a few at a time, before the load begins. Node accepts new
 * connections only about once per turn of its event loop, so 200 connections opened at once
 * against a service already saturated by the first of them wait seconds just to be accepted;
 * that measures Node's accept queue, not the service.
 */
import { Agent, request } from 'node:http';
import { loadavg } from 'node:os';
import { LIMITS } from '../../../lib/api';
import type { ServiceAdmin } from '../../../server/admin';

export interface Person {
  username: string;
  token: string;
}

/** `count` people named `prefix_0`… with `inbox` unread notifications each, put in at once. */
export async function seedPeople(admin: ServiceAdmin, prefix: string, count: number, inbox: number): Promise<Person[]> {
  const usernames: string[] = [];
  for (let i = 0; i < count; i++) usernames.push((await admin.createUser({ username: `${prefix}_${i}` })).username);
  await admin.fillInboxes(usernames, inbox);
  const people: Person[] = [];
  for (const username of usernames) people.push({ username, token: await admin.issueToken(username) });
  return people;
}

export interface LoadFigures {
  connections: number;
  seconds: number;
  requests: number;
  /** Requests answered per second, on average. */
  throughput: number;
  p50: number;
  p99: number;
  max: number;
  /** Requests that failed without an answer. */
  errors: number;
  /** Requests with no answer within TIMEOUT_MS. */
  timeouts: number;
  non2xx: number;
  statusCodes: Record<string, number>;
  /** The machine's one-minute load average before and after: the figures are only as quiet as it was. */
  loadBefore: number;
  loadAfter: number;
}

/** As long as the extension's client waits for an answer. */
const TIMEOUT_MS = 10_000;
const OPENED_AT_ONCE = 20;

interface Step {
  method: string;
  path: string;
  body?: (seen: string[]) => string;
  /** Reads the answer, to remember what the page showed. */
  remember?: boolean;
}

function cycle(partner: Person): Step[] {
  return [
    { method: 'GET', path: '/api/inbox/count' },
    { method: 'GET', path: '/api/inbox/fetch?limit=20', remember: true },
    { method: 'POST', path: '/api/inbox/read', body: (seen) => JSON.stringify({ ids: seen.slice(0, 5) }) },
    { method: 'POST', path: `/api/user/${partner.username}/follow` },
    { method: 'GET', path: '/api/inbox/fetch?limit=20&unreadOnly=true' },
    { method: 'DELETE', path: `/api/user/${partner.username}/follow` },
    { method: 'POST', path: '/api/inbox/delete', body: (seen) => JSON.stringify({ ids: seen.slice(-1) }) },
    { method: 'GET', path: `/api/user/${partner.username}` },
  ];
}

class Timeout extends Error {}

function send(
  origin: string,
  agent: Agent,
  token: string,
  step: Pick<Step, 'method' | 'path'>,
  body?: string,
): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request(`${origin}${step.path}`, {
      method: step.method,
      agent,
      headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    });
    const timer = setTimeout(() => req.destroy(new Timeout()), TIMEOUT_MS);
    req.on('response', (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => {
        clearTimeout(timer);
        resolve({ status: response.statusCode ?? 0, text: Buffer.concat(chunks).toString() });
      });
      response.on('error', reject);
    });
    req.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    req.end(body);
  });
}

function percentile(sorted: number[], p: number): number {
  return Math.round(sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? 0);
}

export async function runLoad(options: {
  origin: string;
  people: readonly Person[];
  seconds: number;
  /** Told of each answer's status as it arrives. */
  onStatus?: (status: number) => void;
}): Promise<{ figures: LoadFigures }> {
  const { origin, people } = options;
  const agents = people.map(() => new Agent({ keepAlive: true, maxSockets: 1 }));
  try {
    for (let first = 0; first < people.length; first += OPENED_AT_ONCE) {
      await Promise.all(
        people.slice(first, first + OPENED_AT_ONCE).map(async (person, i) => {
          const { status } = await send(origin, agents[first + i] as Agent, person.token, {
            method: 'GET',
            path: '/api/inbox/count',
          });
          if (status !== 200) throw new Error(`The service answered ${status} before the load began.`);
        }),
      );
    }

    const loadBefore = loadavg()[0] ?? 0;
    const latencies: number[] = [];
    const statusCodes: Record<string, number> = {};
    let errors = 0;
    let timeouts = 0;
    const started = performance.now();
    const end = started + options.seconds * 1000;
    await Promise.all(
      people.map(async (person, i) => {
        const agent = agents[i] as Agent;
        const steps = cycle(people[(i + 1) % people.length] as Person);
        // Follow and unfollow stay within the hourly allowance a person has; past it the
        // service answers 429, as it should, and the load would measure the limit instead.
        let followCalls = 0;
        while (performance.now() < end) {
          let seen: string[] = [];
          for (const step of steps) {
            if (performance.now() >= end) break;
            if (step.path.endsWith('/follow')) {
              if (followCalls >= LIMITS.followCallsPerHour) continue;
              followCalls += 1;
            }
            const at = performance.now();
            try {
              const answer = await send(origin, agent, person.token, step, step.body?.(seen));
              latencies.push(performance.now() - at);
              statusCodes[answer.status] = (statusCodes[answer.status] ?? 0) + 1;
              options.onStatus?.(answer.status);
              if (step.remember && answer.status === 200) {
                seen = (JSON.parse(answer.text) as { data: { id: string }[] }).data.map((n) => n.id);
              }
            } catch (error) {
              if (error instanceof Timeout) timeouts += 1;
              else errors += 1;
            }
          }
        }
      }),
    );
    const seconds = (performance.now() - started) / 1000;
    latencies.sort((a, b) => a - b);
    const non2xx = Object.entries(statusCodes)
      .filter(([code]) => !code.startsWith('2'))
      .reduce((sum, [, n]) => sum + n, 0);
    return {
      figures: {
        connections: people.length,
        seconds,
        requests: latencies.length,
        throughput: Math.round(latencies.length / seconds),
        p50: percentile(latencies, 0.5),
        p99: percentile(latencies, 0.99),
        max: Math.round(latencies.at(-1) ?? 0),
        errors,
        timeouts,
        non2xx,
        statusCodes,
        loadBefore,
        loadAfter: loadavg()[0] ?? 0,
      },
    };
  } finally {
    for (const agent of agents) agent.destroy();
  }
}

/** One line for the test's output, and for the project's notes. */
export function describeFigures(title: string, f: LoadFigures): string {
  return (
    `${title}: ${f.connections} connections for ${f.seconds.toFixed(0)} s, ${f.requests} requests, ` +
    `${f.throughput} req/s, latency p50 ${f.p50} ms, p99 ${f.p99} ms, max ${f.max} ms, ` +
    `errors ${f.errors}, timeouts ${f.timeouts}, non-2xx ${f.non2xx}, statuses ${JSON.stringify(f.statusCodes)}, ` +
    `load average ${f.loadBefore.toFixed(2)} before, ${f.loadAfter.toFixed(2)} after`
  );
}
